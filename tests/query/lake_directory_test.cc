#include "query/lake_directory.h"

#include <gtest/gtest.h>

namespace hoglake::query {
namespace {

TEST(LikeMatchTest, PercentAndUnderscoreAsInSql) {
  EXPECT_TRUE(LikeMatch("%", ""));
  EXPECT_TRUE(LikeMatch("%", "anything"));
  EXPECT_TRUE(LikeMatch("ord%", "orders"));
  EXPECT_TRUE(LikeMatch("%ers", "orders"));
  EXPECT_TRUE(LikeMatch("o_ders", "orders"));
  EXPECT_TRUE(LikeMatch("%d%r%", "orders"));
  EXPECT_TRUE(LikeMatch("orders", "orders"));
  EXPECT_FALSE(LikeMatch("orders", "order"));
  EXPECT_FALSE(LikeMatch("_", ""));
  EXPECT_FALSE(LikeMatch("Orders", "orders"));
  EXPECT_FALSE(LikeMatch("%x%", "orders"));
  EXPECT_TRUE(LikeMatch("a%b%c", "aXbYbZc"));
}

}  // namespace
}  // namespace hoglake::query
