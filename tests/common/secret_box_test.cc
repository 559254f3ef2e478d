// SealSecret / OpenSecret: round trips, fresh nonces, and refusal of a wrong
// key, a wrong context, altered bytes and short input.
#include "common/secret_box.h"

#include <gtest/gtest.h>

namespace hoglake {
namespace {

const std::string kKey(32, 'k');

TEST(SecretBoxTest, RoundTripsAndHidesThePlaintext) {
  for (const std::string& plain : {std::string(), std::string("p"), std::string(1000, 'x')}) {
    Result<std::string> sealed = SealSecret(kKey, "conn-a", plain);
    ASSERT_TRUE(sealed.ok()) << sealed.error().message;
    EXPECT_EQ(sealed->size(), plain.size() + 28);
    // Only a long plaintext can be looked for: a one-byte one turns up by
    // chance in random-looking bytes about one time in nine.
    if (plain.size() >= 8) {
      EXPECT_EQ(sealed->find(plain), std::string::npos);
    }
    Result<std::string> opened = OpenSecret(kKey, "conn-a", *sealed);
    ASSERT_TRUE(opened.ok()) << opened.error().message;
    EXPECT_EQ(*opened, plain);
  }
  // A fresh nonce each time: sealing twice differs.
  EXPECT_NE(*SealSecret(kKey, "c", "same"), *SealSecret(kKey, "c", "same"));
}

TEST(SecretBoxTest, RefusesWhatDoesNotMatch) {
  const std::string sealed = *SealSecret(kKey, "conn-a", "s3cret-password");
  EXPECT_EQ(OpenSecret(std::string(32, 'j'), "conn-a", sealed).error().code,
            ErrorCode::kInvalidArgument);
  EXPECT_FALSE(OpenSecret(kKey, "conn-b", sealed).ok());
  for (size_t i : {size_t{0}, size_t{13}, sealed.size() - 1}) {
    std::string altered = sealed;
    altered[i] ^= 1;
    EXPECT_FALSE(OpenSecret(kKey, "conn-a", altered).ok()) << "byte " << i;
  }
  EXPECT_FALSE(OpenSecret(kKey, "conn-a", sealed.substr(0, 27)).ok());
  EXPECT_FALSE(SealSecret("short", "c", "x").ok());
}

}  // namespace
}  // namespace hoglake
