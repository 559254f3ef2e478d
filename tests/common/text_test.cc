#include <gtest/gtest.h>

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <random>

#include "common/encoding.h"
#include "common/json_text.h"
#include "common/time_text.h"

namespace hoglake {
namespace {

std::string Double(double v) {
  std::string out;
  AppendJsonDouble(v, &out);
  return out;
}
std::string Float(float v) {
  std::string out;
  AppendJsonFloat(v, &out);
  return out;
}
std::string JsonString(std::string_view s) {
  std::string out;
  AppendJsonString(s, &out);
  return out;
}

TEST(JsonTextTest, DoublesPrintLikeEcmaScript) {
  EXPECT_EQ(Double(1.0), "1");
  EXPECT_EQ(Double(-2.5), "-2.5");
  EXPECT_EQ(Double(0.1), "0.1");
  EXPECT_EQ(Double(123456789012.0), "123456789012");
  EXPECT_EQ(Double(1e21), "1e+21");
  EXPECT_EQ(Double(1e20), "100000000000000000000");
  EXPECT_EQ(Double(1.5e-7), "1.5e-7");
  EXPECT_EQ(Double(0.000001), "0.000001");
  EXPECT_EQ(Double(std::numeric_limits<double>::max()), "1.7976931348623157e+308");
  EXPECT_EQ(Double(5e-324), "5e-324");
  EXPECT_EQ(Double(0.0), "0");
  EXPECT_EQ(Double(-0.0), "-0.0");
  EXPECT_EQ(Double(std::nan("")), "\"NaN\"");
  EXPECT_EQ(Double(-INFINITY), "\"-Infinity\"");
}

TEST(JsonTextTest, FloatsUseShortestFloatDigits) {
  EXPECT_EQ(Float(0.1f), "0.1");
  EXPECT_EQ(Float(3.4028235e38f), "3.4028235e+38");
  EXPECT_EQ(Float(16777216.0f), "16777216");
}

// The significant digits of to_chars's shortest scientific form (the
// general path's digits): what a plain-notation number must carry too.
template <typename F>
std::string ShortestDigits(F v) {
  char buf[64];
  auto end = std::to_chars(buf, buf + sizeof(buf), std::abs(v), std::chars_format::scientific).ptr;
  std::string digits;
  for (const char* p = buf; p < end && *p != 'e'; ++p) {
    if (*p != '.') digits.push_back(*p);
  }
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  return digits;
}

// Plain notation: the significant digits (leading zeros and the point
// dropped, trailing zeros of an integer dropped).
std::string PlainDigits(std::string text) {
  std::string digits;
  for (char c : text) {
    if (c >= '0' && c <= '9' && !(digits.empty() && c == '0')) digits.push_back(c);
  }
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  return digits;
}

// Random doubles and floats across the magnitudes that print in plain
// notation (1e-6 .. 1e21) round-trip exactly, never use an exponent, and
// carry exactly the shortest round-trip digits.
TEST(JsonTextTest, PlainNumbersAreShortestAndRoundTrip) {
  std::mt19937_64 rng(20261130);
  std::uniform_real_distribution<double> exponent(-6.0, 21.0);
  std::uniform_real_distribution<double> mantissa(1.0, 10.0);
  for (int i = 0; i < 200000; ++i) {
    const double magnitude = mantissa(rng) * std::pow(10.0, std::floor(exponent(rng)));
    const double v = (i % 2 ? -1 : 1) * (i % 3 == 0 ? std::round(magnitude) : magnitude);
    if (std::abs(v) >= 1e21 || std::abs(v) < 1e-6) continue;
    const std::string text = Double(v);
    ASSERT_EQ(text.find('e'), std::string::npos) << v;
    ASSERT_EQ(std::strtod(text.c_str(), nullptr), v) << text;
    ASSERT_EQ(PlainDigits(text), ShortestDigits(v)) << text;
    const auto f = static_cast<float>(v);
    if (std::abs(f) >= 1e-6f && std::abs(f) < 1e21f) {
      const std::string ftext = Float(f);
      ASSERT_EQ(ftext.find('e'), std::string::npos) << f;
      ASSERT_EQ(std::strtof(ftext.c_str(), nullptr), f) << ftext;
      ASSERT_EQ(PlainDigits(ftext), ShortestDigits(f)) << ftext;
    }
  }
  EXPECT_EQ(Double(9007199254740992.0), "9007199254740992");
  EXPECT_EQ(Double(9007199254740994.0), "9007199254740994");
  EXPECT_EQ(Double(123456789012345680000.0), "123456789012345680000");
  EXPECT_EQ(Double(0.000001234), "0.000001234");
  EXPECT_EQ(Float(16777218.0f), "16777218");
  EXPECT_EQ(Float(0.3f), "0.3");
}

TEST(JsonTextTest, StringsEscapeAndRepairUtf8) {
  EXPECT_EQ(JsonString("a\"b\\c\n\x01"), "\"a\\\"b\\\\c\\n\\u0001\"");
  EXPECT_EQ(JsonString("héllo ✓ 😀"), "\"héllo ✓ 😀\"");
  EXPECT_EQ(JsonString("bad\xff"), "\"bad\xEF\xBF\xBD\"");
  EXPECT_EQ(JsonString("\xC0\x80"), "\"\xEF\xBF\xBD\xEF\xBF\xBD\"");  // overlong NUL
}

TEST(EncodingTest, Base64RoundTrip) {
  EXPECT_EQ(Base64Encode(""), "");
  EXPECT_EQ(Base64Encode("f"), "Zg==");
  EXPECT_EQ(Base64Encode("fo"), "Zm8=");
  EXPECT_EQ(Base64Encode("foo"), "Zm9v");
  EXPECT_EQ(Base64Encode(std::string("\xff\x00\x10", 3)), "/wAQ");
  for (std::string s : {"", "a", "ab", "abc", "abcd", "\x01\x02\xfe\xff"}) {
    auto decoded = Base64Decode(Base64Encode(s));
    ASSERT_TRUE(decoded.ok());
    EXPECT_EQ(*decoded, s);
  }
  EXPECT_FALSE(Base64Decode("Zm9").ok());
  EXPECT_FALSE(Base64Decode("Zm=v").ok());
  EXPECT_FALSE(Base64Decode("Z!9v").ok());
}

TEST(EncodingTest, CsvFieldsQuoteOnlyWhenNeeded) {
  EXPECT_EQ(CsvField("plain text"), "plain text");
  EXPECT_EQ(CsvField(""), "");
  EXPECT_EQ(CsvField("a,b"), "\"a,b\"");
  EXPECT_EQ(CsvField("say \"hi\""), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(CsvField("two\nlines"), "\"two\nlines\"");
  EXPECT_EQ(CsvField("cr\r"), "\"cr\r\"");
}

TEST(EncodingTest, UuidIsCanonical) {
  std::string out;
  AppendUuid(std::string("\x12\x34\x56\x78\x9a\xbc\xde\xf0\x01\x23\x45\x67\x89\xab\xcd\xef", 16),
             &out);
  EXPECT_EQ(out, "12345678-9abc-def0-0123-456789abcdef");
}

TEST(TimeTextTest, CivilRoundTrip) {
  for (int64_t days = -800000; days <= 3000000; days += 997) {
    CivilDate d = CivilFromDays(days);
    EXPECT_EQ(DaysFromCivil(d.year, d.month, d.day), days);
  }
  EXPECT_EQ(DaysFromCivil(1970, 1, 1), 0);
  EXPECT_EQ(DaysFromCivil(2000, 3, 1), 11017);
}

TEST(TimeTextTest, Formats) {
  std::string out;
  AppendDate(DaysFromCivil(2026, 9, 5), &out);
  EXPECT_EQ(out, "2026-09-05");
  out.clear();
  AppendDate(DaysFromCivil(12026, 1, 2), &out);
  EXPECT_EQ(out, "+12026-01-02");
  out.clear();
  AppendDate(DaysFromCivil(-44, 3, 15), &out);
  EXPECT_EQ(out, "-0044-03-15");
  out.clear();
  AppendTimeOfDay(((13 * 60 + 37) * 60 + 42) * 1000000LL + 123456, 1000000, &out);
  EXPECT_EQ(out, "13:37:42.123456");
  out.clear();
  AppendTimestamp(-1, 1000, true, &out);  // one millisecond before the epoch
  EXPECT_EQ(out, "1969-12-31T23:59:59.999Z");
  out.clear();
  AppendTimestamp(1, 1, false, &out);
  EXPECT_EQ(out, "1970-01-01T00:00:01");
  out.clear();
  AppendTimestamp(1757073600123456789LL, 1000000000, false, &out);
  EXPECT_EQ(out, "2025-09-05T12:00:00.123456789");
}

}  // namespace
}  // namespace hoglake

#include "common/clock.h"
#include "common/uuid.h"

namespace hoglake {
namespace {

TEST(ClockTest, InstantRoundTripAndOffsets) {
  auto t = ParseInstant("2026-09-05T12:00:00.123456Z");
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(FormatInstant(*t), "2026-09-05T12:00:00.123456Z");
  EXPECT_EQ(*ParseInstant("2026-09-05T14:00:00+02:00"), *ParseInstant("2026-09-05T12:00:00Z"));
  EXPECT_EQ(*ParseInstant("2026-09-05T12:00:00.1234567Z") % 1000000, 123456);
  EXPECT_EQ(*ParseInstant("2026-09-05T12:00Z") % 60000000, 0);
  for (const char* bad : {"2026-09-05T12:00:00", "2026-02-30T00:00:00Z", "yesterday",
                          "2026-09-05T12:00:00Zjunk", "2026-09-05T25:00:00Z"}) {
    auto r = ParseInstant(bad);
    EXPECT_FALSE(r.ok()) << bad;
    if (!r.ok()) {
      EXPECT_EQ(r.error().code, ErrorCode::kBadRequest);
    }
  }
}

TEST(UuidTest, NewUuidsAreVersion4AndParse) {
  std::string a = NewUuid();
  EXPECT_NE(a, NewUuid());
  EXPECT_EQ(a[14], '4');
  auto parsed = ParseUuid(a);
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(FormatUuid(*parsed), a);
  EXPECT_EQ(FormatUuid(*ParseUuid("F79C3E09-677C-4BBD-A479-3F349CB785E7")),
            "f79c3e09-677c-4bbd-a479-3f349cb785e7");
  EXPECT_FALSE(ParseUuid("f79c3e09677c4bbda4793f349cb785e7").ok());
  EXPECT_FALSE(ParseUuid("g79c3e09-677c-4bbd-a479-3f349cb785e7").ok());
}

}  // namespace
}  // namespace hoglake

#include "common/encoding.h"
#include "common/md5.h"
#include "common/sha256.h"

namespace hoglake {
namespace {

TEST(Sha256Test, KnownDigests) {
  EXPECT_EQ(HexEncode(Sha256("")),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(HexEncode(Sha256("abc")),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(*HexDecode("00ff7Fa0"), std::string("\x00\xff\x7f\xa0", 4));
  EXPECT_FALSE(HexDecode("abc").ok());
  EXPECT_FALSE(HexDecode("zz").ok());
}

TEST(Md5Test, KnownDigests) {
  EXPECT_EQ(HexEncode(Md5("")), "d41d8cd98f00b204e9800998ecf8427e");
  EXPECT_EQ(HexEncode(Md5("abc")), "900150983cd24fb0d6963f7d28e17f72");
  // S3's Content-MD5 is the base64 of the binary digest.
  EXPECT_EQ(Base64Encode(Md5("abc")), "kAFQmDzST7DWlj99KOF/cg==");
}

}  // namespace
}  // namespace hoglake

namespace hoglake {
namespace {

TEST(Base64UrlTest, RoundTripsWithoutPaddingInTheSafeAlphabet) {
  for (std::string bytes : {std::string(), std::string("f"), std::string("fo"), std::string("foo"),
                            std::string("\xfb\xff\xfe", 3)}) {
    const std::string text = Base64UrlEncode(bytes);
    EXPECT_EQ(text.find_first_of("+/="), std::string::npos) << text;
    auto back = Base64UrlDecode(text);
    ASSERT_TRUE(back.has_value()) << text;
    EXPECT_EQ(*back, bytes);
  }
  EXPECT_EQ(Base64UrlEncode(std::string("\xfb\xff", 2)), "-_8");
  EXPECT_FALSE(Base64UrlDecode("!!").has_value());
  EXPECT_FALSE(Base64UrlDecode("abcde").has_value());
}

}  // namespace
}  // namespace hoglake
