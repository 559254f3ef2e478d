#include "common/status.h"

#include <gtest/gtest.h>

#include <set>

namespace hoglake {
namespace {

Result<int> Half(int n) {
  if (n % 2 != 0) return InvalidArgument("odd number ", n);
  return n / 2;
}

Result<int> Quarter(int n) {
  HOGLAKE_ASSIGN_OR_RETURN(int half, Half(n));
  HOGLAKE_ASSIGN_OR_RETURN(int quarter, Half(half));
  return quarter;
}

TEST(StatusTest, OkByDefault) {
  Status s;
  EXPECT_TRUE(s.ok());
  EXPECT_EQ(s.ToString(), "ok");
}

TEST(StatusTest, ErrorMessageJoinsParts) {
  Error e = InvalidData("offset ", 12, " past ", std::string("end"), ' ', 1.5);
  EXPECT_EQ(e.code, ErrorCode::kInvalidData);
  EXPECT_EQ(e.message, "offset 12 past end 1.500000");
  EXPECT_EQ(e.ToString(), "invalid_data: offset 12 past end 1.500000");
}

TEST(StatusTest, AssignOrReturnPropagates) {
  ASSERT_TRUE(Quarter(8).ok());
  EXPECT_EQ(*Quarter(8), 2);
  Result<int> r = Quarter(6);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "odd number 3");
}

TEST(StatusTest, ErrorCodeTableIsInDeclarationOrderWithDistinctNames) {
  std::set<std::string_view> names;
  const auto& all = AllErrorCodes();
  for (size_t i = 0; i < all.size(); ++i) {
    EXPECT_EQ(static_cast<size_t>(all[i].code), i) << all[i].name;
    EXPECT_EQ(&InfoFor(all[i].code), &all[i]);
    for (char c : all[i].name) EXPECT_TRUE((c >= 'a' && c <= 'z') || c == '_') << all[i].name;
    names.insert(all[i].name);
  }
  EXPECT_EQ(names.size(), all.size());
  EXPECT_EQ(static_cast<size_t>(ErrorCode::kUnavailable) + 1, all.size());
}

TEST(StatusTest, WireCodesMatchTheContractTable) {
  // Contract §1.5: the error strings a client sees (the statuses are the
  // server's, checked in tests/server/http_types_test.cc).
  EXPECT_EQ(InfoFor(ErrorCode::kDdlSinceReadSnapshot).wire_name, "ddl_since_read_snapshot");
  EXPECT_EQ(InfoFor(ErrorCode::kInternal).wire_name, "internal_error");
  // Ours, beside the contract's: the catalog database cannot be reached.
  EXPECT_EQ(InfoFor(ErrorCode::kDatabaseUnavailable).wire_name, "database_unavailable");
  EXPECT_EQ(InfoFor(ErrorCode::kInvalidData).wire_name, "validation");
}

}  // namespace
}  // namespace hoglake
