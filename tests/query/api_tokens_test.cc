#include "query/api_tokens.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace hoglake::query {
namespace {

constexpr int64_t kNow = 1800000000;
const std::string kToken = "a-token-of-enough-length";

TEST(ApiTokensTest, ListedAndFileTokensAuthorize) {
  const std::string file = testing::TempDir() + "/tokens.txt";
  {
    std::ofstream out(file);
    out << "# operators\n  from-the-file-0123456789  \n\n";
  }
  auto tokens = ApiTokens::Load(kToken + ", other-token-0123456789", file);
  ASSERT_TRUE(tokens.ok()) << tokens.status().ToString();
  EXPECT_EQ(tokens->size(), 3u);
  EXPECT_TRUE(tokens->Authorizes("Bearer " + kToken, kNow));
  EXPECT_TRUE(tokens->Authorizes("bearer from-the-file-0123456789", kNow));
  EXPECT_FALSE(tokens->Authorizes("Bearer " + kToken + "x", kNow));
  EXPECT_FALSE(tokens->Authorizes(kToken, kNow));
  EXPECT_FALSE(tokens->Authorizes("Bearer ", kNow));
  EXPECT_FALSE(ApiTokens::Load("short", "").ok());
  EXPECT_FALSE(ApiTokens::Load("", "/nonexistent/tokens").ok());
  auto none = ApiTokens::Load(" , ", "");
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->enabled());
}

TEST(ApiTokensTest, ExchangeMintsAccessTokensThatExpire) {
  auto tokens = ApiTokens::Load(kToken, "");
  ASSERT_TRUE(tokens.ok());
  auto exchanged =
      tokens->Exchange("grant_type=api_token&api_token=" + kToken + "&client_id=x", kNow);
  ASSERT_TRUE(exchanged.ok());
  ASSERT_TRUE(exchanged->tokens);
  const MintedTokens& minted = *exchanged->tokens;
  EXPECT_EQ(minted.access_token.substr(0, 3), "eyJ");
  EXPECT_TRUE(tokens->Authorizes("Bearer " + minted.access_token, kNow + 10));
  EXPECT_FALSE(
      tokens->Authorizes("Bearer " + minted.access_token, kNow + ApiTokens::kAccessSeconds + 1));
  EXPECT_FALSE(tokens->Authorizes("Bearer " + minted.refresh_token, kNow));
  auto refreshed = tokens->Exchange(
      "grant_type=refresh_token&refresh_token=" + minted.refresh_token, kNow + 7200);
  ASSERT_TRUE(refreshed.ok());
  ASSERT_TRUE(refreshed->tokens);
  EXPECT_TRUE(tokens->Authorizes("Bearer " + refreshed->tokens->access_token, kNow + 7201));

  // Another replica with the same tokens accepts it; other tokens do not.
  auto replica = ApiTokens::Load(kToken, "");
  EXPECT_TRUE(replica->Authorizes("Bearer " + minted.access_token, kNow));
  auto stranger = ApiTokens::Load("a-different-token-0123", "");
  EXPECT_FALSE(stranger->Authorizes("Bearer " + minted.access_token, kNow));

  auto wrong = tokens->Exchange("grant_type=api_token&api_token=wrong", kNow);
  ASSERT_TRUE(wrong.ok());
  EXPECT_FALSE(wrong->tokens);
  EXPECT_FALSE(wrong->refusal.empty());
  EXPECT_FALSE(tokens->Exchange("grant_type=password", kNow).ok());
  EXPECT_FALSE(tokens->Exchange("grant_type=api_token&api_token=%zz", kNow).ok());
}

}  // namespace
}  // namespace hoglake::query
