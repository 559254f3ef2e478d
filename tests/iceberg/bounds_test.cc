#include "iceberg/bounds.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "test_util.h"

namespace hoglake::iceberg {
namespace {

using T = ColumnType;
using testing::Hex;
using testing::Pow10;
using testing::Unhex;

std::string Enc(const TypeSpec& type, const BoundValue& value) {
  auto result = EncodeBound(type, value);
  EXPECT_TRUE(result.ok()) << result.status().ToString();
  return result.ok() ? Hex(*result) : "<error>";
}

// encode(value) == hex, and (unless encode-only) decode(hex) re-encodes to hex.
void Vector(const TypeSpec& type, const BoundValue& value, std::string_view hex,
            bool encode_only = false) {
  EXPECT_EQ(Enc(type, value), hex) << type.ToString();
  if (encode_only) return;
  auto decoded = DecodeBound(type, Unhex(hex));
  ASSERT_TRUE(decoded.ok()) << type.ToString() << " " << hex << ": " << decoded.status().ToString();
  EXPECT_EQ(Enc(type, *decoded), hex);
}

float FloatBits(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

TEST(BoundsTest, BooleanAndIntegerVectors) {
  Vector(T::kBoolean, BoundValue::Bool(true), "01");
  Vector(T::kBoolean, BoundValue::Bool(false), "00");
  Vector(T::kInt8, BoundValue::Int(127), "7f000000");
  Vector(T::kInt8, BoundValue::Int(-128), "80ffffff");
  Vector(T::kInt16, BoundValue::Int(-32768), "0080ffff");
  Vector(T::kInt, BoundValue::Int(305419896), "78563412");
  Vector(T::kInt, BoundValue::Int(-2147483648LL), "00000080");
  Vector(T::kLong, BoundValue::Int(int64_t{1} << 62), "0000000000000040");
  Vector(T::kLong, BoundValue::Int(-1), "ffffffffffffffff");
  Vector(T::kUInt8, BoundValue::Int(128), "80000000");
  Vector(T::kUInt16, BoundValue::Int(65535), "ffff0000");
  Vector(T::kUInt32, BoundValue::Int(2147483648LL), "0000008000000000");
  Vector(T::kUInt32, BoundValue::Int(4294967295LL), "ffffffff00000000");
  // Decoding: any nonzero boolean byte is true.
  EXPECT_TRUE(DecodeBound(T::kBoolean, Unhex("02"))->b);
}

TEST(BoundsTest, UInt64IsDecimal20) {
  const __int128 two63 = static_cast<__int128>(1) << 63;
  Vector(T::kUInt64, BoundValue::Decimal(0), "00");
  Vector(T::kUInt64, BoundValue::Decimal(127), "7f");
  Vector(T::kUInt64, BoundValue::Decimal(128), "0080");
  Vector(T::kUInt64, BoundValue::Decimal(255), "00ff");
  Vector(T::kUInt64, BoundValue::Decimal(two63 - 1), "7fffffffffffffff");
  Vector(T::kUInt64, BoundValue::Decimal(two63), "008000000000000000");
  Vector(T::kUInt64, BoundValue::Decimal(UINT64_MAX), "00ffffffffffffffff");
  EXPECT_EQ(BoundJson(T::kUInt64, Unhex("00ffffffffffffffff")), "18446744073709551615");
  // Outside [0, 2^64): refused both ways.
  EXPECT_FALSE(EncodeBound(T::kUInt64, BoundValue::Decimal(-1)).ok());
  EXPECT_FALSE(EncodeBound(T::kUInt64, BoundValue::Decimal(two63 * 2)).ok());
  EXPECT_FALSE(DecodeBound(T::kUInt64, Unhex("ff")).ok());
  EXPECT_FALSE(DecodeBound(T::kUInt64, Unhex("010000000000000000")).ok());
}

TEST(BoundsTest, FloatVectors) {
  Vector(T::kFloat, BoundValue::Float(0.0f), "00000000");
  Vector(T::kFloat, BoundValue::Float(-0.0f), "00000080");
  Vector(T::kFloat, BoundValue::Float(1.0f), "0000803f");
  Vector(T::kFloat, BoundValue::Float(-2.5f), "000020c0");
  Vector(T::kFloat, BoundValue::Float(std::numeric_limits<float>::max()), "ffff7f7f");
  Vector(T::kFloat, BoundValue::Float(std::numeric_limits<float>::denorm_min()), "01000000");
  Vector(T::kFloat, BoundValue::Float(std::numeric_limits<float>::infinity()), "0000807f");
  Vector(T::kDouble, BoundValue::Double(1.0), "000000000000f03f");
  Vector(T::kDouble, BoundValue::Double(0.1), "9a9999999999b93f");
  // NaN encodes bit-exactly (payload kept) but is never decodable: the wire
  // refuses it, and its decoded JSON is null.
  EXPECT_EQ(Enc(T::kFloat, BoundValue::Float(FloatBits(0x7fc00000))), "0000c07f");
  EXPECT_EQ(Enc(T::kFloat, BoundValue::Float(FloatBits(0x7fc00001))), "0100c07f");
  EXPECT_EQ(Enc(T::kDouble, BoundValue::Double(std::nan(""))), "000000000000f87f");
  EXPECT_FALSE(DecodeBound(T::kFloat, Unhex("0000c07f")).ok());
  EXPECT_FALSE(DecodeBound(T::kDouble, Unhex("000000000000f87f")).ok());
  EXPECT_EQ(BoundJson(T::kFloat, Unhex("0000c07f")), "null");
}

TEST(BoundsTest, DecimalMinimalTwosComplement) {
  const TypeSpec d = TypeSpec::Decimal(10, 2);
  Vector(d, BoundValue::Decimal(0), "00");
  Vector(d, BoundValue::Decimal(-1), "ff");
  Vector(d, BoundValue::Decimal(127), "7f");
  Vector(d, BoundValue::Decimal(128), "0080");
  Vector(d, BoundValue::Decimal(-128), "80");
  Vector(d, BoundValue::Decimal(-129), "ff7f");
  Vector(d, BoundValue::Decimal(1234), "04d2");
  Vector(d, BoundValue::Decimal(-1234), "fb2e");
  Vector(d, BoundValue::Decimal(-100), "9c");  // -1.00
  Vector(d, BoundValue::Decimal(32767), "7fff");
  Vector(d, BoundValue::Decimal(32768), "008000");
  Vector(d, BoundValue::Decimal(-32768), "8000");
  Vector(d, BoundValue::Decimal(-32769), "ff7fff");
  const TypeSpec wide = TypeSpec::Decimal(38, 0);
  Vector(wide, BoundValue::Decimal(Pow10(38) - 1), "4b3b4ca85a86c47a098a223fffffffff");
  Vector(wide, BoundValue::Decimal(-(Pow10(38) - 1)), "b4c4b357a5793b85f675ddc000000001");
  // Non-minimal and sign-extended inputs decode to the value.
  EXPECT_EQ(DecodeBound(d, Unhex("0000"))->unscaled, 0);
  EXPECT_EQ(DecodeBound(d, Unhex("ffff80"))->unscaled, -128);
  EXPECT_EQ(DecodeBound(wide, Unhex("00004b3b4ca85a86c47a098a223fffffffff"))->unscaled,
            Pow10(38) - 1);
  EXPECT_FALSE(DecodeBound(d, "").ok());                                           // empty
  EXPECT_FALSE(DecodeBound(d, Unhex("0180000000000000000000000000000000")).ok());  // > 128 bits
}

TEST(BoundsTest, TwosComplementHelpersRoundTrip) {
  const __int128 int128_max = static_cast<__int128>(~static_cast<unsigned __int128>(0) >> 1);
  for (__int128 v : {__int128{0}, __int128{1}, __int128{-1}, __int128{255}, __int128{-256},
                     __int128{INT64_MIN}, __int128{INT64_MAX}, int128_max, -int128_max - 1}) {
    const std::string bytes = MinimalTwosComplement(v);
    auto back = ParseTwosComplement(bytes);
    ASSERT_TRUE(back.ok());
    EXPECT_TRUE(*back == v);
  }
  EXPECT_EQ(MinimalTwosComplement(int128_max).size(), 16u);
}

TEST(BoundsTest, TemporalVectors) {
  Vector(T::kDate, BoundValue::Int(0), "00000000");
  Vector(T::kDate, BoundValue::Int(-1), "ffffffff");
  Vector(T::kDate, BoundValue::Int(-719162), "c606f5ff");
  Vector(T::kDate, BoundValue::Int(2932896), "a0c02c00");
  Vector(T::kTime, BoundValue::Int(86399999999), "ff5fd71d14000000");
  Vector(T::kTime, BoundValue::Int(49062123456), "c097546c0b000000");
  Vector(T::kTimestampS, BoundValue::Int(1788609600000000), "0090d91fbb5a0600");
  Vector(T::kTimestampMs, BoundValue::Int(1788609600123000), "7870db1fbb5a0600");
  Vector(T::kTimestamp, BoundValue::Int(-62135596800000000), "0040d400014023ff");
  Vector(T::kTimestampNs, BoundValue::Int(1788609600123456789), "154d3671f46ad218");
  Vector(T::kTimestampNs, BoundValue::Int(INT64_MIN), "0000000000000080");
  Vector(T::kTimestamptz, BoundValue::Int(1788609600000000), "0090d91fbb5a0600");
  // A time outside one day does not decode.
  EXPECT_FALSE(DecodeBound(T::kTime, Unhex("0060d71d14000000")).ok());
  EXPECT_FALSE(DecodeBound(T::kTime, Unhex("ffffffffffffffff")).ok());
}

TEST(BoundsTest, BytesVectors) {
  Vector(T::kString, BoundValue::Bytes(""), "");
  Vector(T::kString, BoundValue::Bytes("h\xc3\xa9llo"), "68c3a96c6c6f");
  Vector(T::kString, BoundValue::Bytes("\xf0\x9f\xa6\x94"), "f09fa694");
  Vector(T::kString, BoundValue::Bytes(std::string("a\0b", 3)), "610062");
  Vector(T::kJson, BoundValue::Bytes("{\"city\":\"M\xc3\xbcnchen\"}"),
         "7b2263697479223a224dc3bc6e6368656e227d");
  Vector(T::kUuid, BoundValue::Bytes(Unhex("f79c3e09677c4bbda4793f349cb785e7")),
         "f79c3e09677c4bbda4793f349cb785e7");
  Vector(T::kBinary, BoundValue::Bytes(Unhex("0001ff")), "0001ff");
  Vector(T::kBinary, BoundValue::Bytes(""), "");
  EXPECT_FALSE(DecodeBound(T::kString, Unhex("ff")).ok());  // not UTF-8
  EXPECT_FALSE(DecodeBound(T::kJson, Unhex("c3")).ok());
  EXPECT_TRUE(DecodeBound(T::kBinary, Unhex("ff")).ok());
}

TEST(BoundsTest, EncodingRefusals) {
  EXPECT_FALSE(EncodeBound(T::kUuid, BoundValue::Int(1)).ok());
  EXPECT_FALSE(EncodeBound(T::kUuid, BoundValue::Bytes("short")).ok());
  EXPECT_FALSE(EncodeBound(T::kBinary, BoundValue::Int(1 << 30)).ok());
  EXPECT_FALSE(EncodeBound(T::kInt, BoundValue::Int(int64_t{1} << 40)).ok());
  EXPECT_FALSE(EncodeBound(T::kInt16, BoundValue::Int(-2147483649LL)).ok());
  EXPECT_FALSE(EncodeBound(T::kFloat, BoundValue::Double(1.0)).ok());
  EXPECT_FALSE(EncodeBound(TypeSpec::Decimal(9, 2), BoundValue::Int(1)).ok());
  for (T type : {T::kVariant, T::kList, T::kStruct, T::kMap}) {
    EXPECT_FALSE(EncodeBound(type, BoundValue::Bytes("x")).ok());
    EXPECT_FALSE(DecodeBound(type, "x").ok());
  }
  // No domain checks beyond the layout: a uint8 of 300 encodes.
  EXPECT_EQ(Enc(T::kUInt8, BoundValue::Int(300)), "2c010000");
}

TEST(BoundsTest, WrongWidthsDoNotDecode) {
  EXPECT_FALSE(DecodeBound(T::kBoolean, "").ok());
  EXPECT_FALSE(DecodeBound(T::kInt, Unhex("0100000000000000")).ok());
  EXPECT_FALSE(DecodeBound(T::kLong, Unhex("01000000")).ok());
  EXPECT_FALSE(DecodeBound(T::kUInt32, Unhex("01000000")).ok());
  EXPECT_FALSE(DecodeBound(T::kFloat, Unhex("000000000000f03f")).ok());
  EXPECT_FALSE(DecodeBound(T::kDouble, Unhex("0000803f")).ok());
  EXPECT_FALSE(DecodeBound(T::kUuid, Unhex("00")).ok());
  EXPECT_FALSE(DecodeBound(T::kTimestamp, Unhex("00")).ok());
  EXPECT_EQ(BoundJson(T::kLong, Unhex("01000000")), "null");
}

TEST(BoundsTest, ZeroNormalization) {
  const auto norm = [](T type, std::string_view hex, BoundRole role) {
    return Hex(NormalizeZeroBound(type, Unhex(hex), role));
  };
  EXPECT_EQ(norm(T::kFloat, "00000000", BoundRole::kLower), "00000080");
  EXPECT_EQ(norm(T::kFloat, "00000080", BoundRole::kUpper), "00000000");
  EXPECT_EQ(norm(T::kFloat, "00000080", BoundRole::kLower), "00000080");
  EXPECT_EQ(norm(T::kFloat, "00000000", BoundRole::kUpper), "00000000");
  EXPECT_EQ(norm(T::kFloat, "0000803f", BoundRole::kLower), "0000803f");
  EXPECT_EQ(norm(T::kFloat, "0000c07f", BoundRole::kLower), "0000c07f");  // NaN untouched
  EXPECT_EQ(norm(T::kDouble, "0000000000000000", BoundRole::kLower), "0000000000000080");
  EXPECT_EQ(norm(T::kDouble, "0000000000000080", BoundRole::kUpper), "0000000000000000");
  EXPECT_EQ(norm(T::kDouble, "0000000000000080", BoundRole::kLower), "0000000000000080");
  EXPECT_EQ(norm(T::kDouble, "0000000000000000", BoundRole::kUpper), "0000000000000000");
  EXPECT_EQ(norm(T::kDouble, "000000000000f03f", BoundRole::kUpper), "000000000000f03f");
  // Wrong widths and other types are never touched.
  EXPECT_EQ(norm(T::kFloat, "0000000000000000", BoundRole::kLower), "0000000000000000");
  EXPECT_EQ(norm(T::kDouble, "00000000", BoundRole::kLower), "00000000");
  EXPECT_EQ(norm(T::kInt, "00000000", BoundRole::kLower), "00000000");
  EXPECT_EQ(norm(T::kLong, "0000000000000080", BoundRole::kUpper), "0000000000000080");
  EXPECT_EQ(norm(T::kDecimal, "00", BoundRole::kLower), "00");
}

TEST(BoundsTest, PromotionReencodes) {
  const auto promote = [](T from, T to, std::string_view hex) {
    auto result = PromoteBound(from, to, Unhex(hex));
    EXPECT_TRUE(result.ok()) << result.status().ToString();
    return result.ok() ? Hex(*result) : "<error>";
  };
  EXPECT_EQ(promote(T::kInt8, T::kInt16, "80ffffff"), "80ffffff");
  EXPECT_EQ(promote(T::kInt8, T::kLong, "80ffffff"), "80ffffffffffffff");
  EXPECT_EQ(promote(T::kInt16, T::kLong, "0080ffff"), "0080ffffffffffff");
  EXPECT_EQ(promote(T::kInt, T::kLong, "00000080"), "00000080ffffffff");
  EXPECT_EQ(promote(T::kUInt8, T::kUInt16, "ff000000"), "ff000000");
  EXPECT_EQ(promote(T::kUInt8, T::kUInt32, "ff000000"), "ff00000000000000");
  EXPECT_EQ(promote(T::kUInt16, T::kUInt32, "ffff0000"), "ffff000000000000");
  EXPECT_EQ(promote(T::kFloat, T::kDouble, "0000803f"), "000000000000f03f");
  EXPECT_EQ(promote(T::kFloat, T::kDouble, "00000080"), "0000000000000080");  // -0.0 kept
  EXPECT_EQ(promote(T::kFloat, T::kDouble, "0000807f"), "000000000000f07f");  // +inf
  EXPECT_FALSE(PromoteBound(T::kInt, T::kUInt64, Unhex("00000000")).ok());
  EXPECT_FALSE(PromoteBound(T::kLong, T::kInt, Unhex("0000000000000000")).ok());
  EXPECT_FALSE(PromoteBound(T::kInt, T::kLong, Unhex("00")).ok());
}

TEST(BoundsTest, CompareInTypeOrder) {
  const auto cmp = [](const TypeSpec& type, std::string_view a, std::string_view b) {
    auto result = CompareBounds(type, Unhex(a), Unhex(b));
    EXPECT_TRUE(result.ok());
    return result.ok() ? *result : 99;
  };
  EXPECT_EQ(cmp(T::kInt, "ffffffff", "01000000"), -1);  // -1 < 1
  EXPECT_EQ(cmp(T::kLong, "0000000000000080", "ffffffffffffffff"), -1);
  EXPECT_EQ(cmp(T::kUInt64, "00ffffffffffffffff", "7fffffffffffffff"), 1);
  EXPECT_EQ(cmp(TypeSpec::Decimal(4, 2), "ff7f", "80"), -1);               // -129 < -128
  EXPECT_EQ(cmp(T::kDouble, "0000000000000080", "0000000000000000"), -1);  // -0.0 < +0.0
  EXPECT_EQ(cmp(T::kFloat, "00000080", "00000000"), -1);
  EXPECT_EQ(cmp(T::kFloat, "000080ff", "00000080"), -1);  // -inf < -0.0
  EXPECT_EQ(cmp(T::kDouble, "000000000000f03f", "000000000000f03f"), 0);
  EXPECT_EQ(cmp(T::kString, "c3a9", "7a"), 1);  // "é" > "z": unsigned bytes = code points
  EXPECT_FALSE(DecodeBound(T::kString, Unhex("ff")).ok());
  EXPECT_EQ(cmp(T::kBinary, "ff", "7f"), 1);
  EXPECT_EQ(cmp(T::kBinary, "00", "0000"), -1);
  EXPECT_FALSE(CompareBounds(T::kDouble, Unhex("000000000000f87f"), Unhex("00")).ok());
}

TEST(BoundsTest, DecodedBoundJson) {
  const auto json = [](const TypeSpec& type, std::string_view hex) {
    return BoundJson(type, Unhex(hex));
  };
  EXPECT_EQ(json(T::kBoolean, "01"), "true");
  EXPECT_EQ(json(T::kBoolean, "00"), "false");
  EXPECT_EQ(json(T::kInt8, "80ffffff"), "-128");
  EXPECT_EQ(json(T::kLong, "ffffffffffffff7f"), "9223372036854775807");
  EXPECT_EQ(json(T::kUInt32, "ffffffff00000000"), "4294967295");
  EXPECT_EQ(json(TypeSpec::Decimal(10, 2), "96"), "-1.06");
  EXPECT_EQ(json(TypeSpec::Decimal(10, 2), "00"), "0.00");
  EXPECT_EQ(json(TypeSpec::Decimal(3, 2), "96"), "-1.06");
  EXPECT_EQ(json(TypeSpec::Decimal(10, 2), "0096"), "1.50");
  EXPECT_EQ(json(TypeSpec::Decimal(10, 9), "01"), "0.000000001");  // never exponent form
  EXPECT_EQ(json(TypeSpec::Decimal(38, 0), "4b3b4ca85a86c47a098a223fffffffff"),
            "99999999999999999999999999999999999999");
  EXPECT_EQ(json(TypeSpec::Decimal(38, 10), "b4c4b357a5793b85f675ddc000000001"),
            "-9999999999999999999999999999.9999999999");
  EXPECT_EQ(json(T::kDouble, "0000000000000080"), "-0.0");
  EXPECT_EQ(json(T::kFloat, "00000080"), "-0.0");
  EXPECT_EQ(json(T::kDouble, "000000000000f07f"), "\"Infinity\"");
  EXPECT_EQ(json(T::kDouble, "000000000000f0ff"), "\"-Infinity\"");
  EXPECT_EQ(json(T::kFloat, "0000807f"), "\"Infinity\"");
  EXPECT_EQ(json(T::kDouble, "000000000000f83f"), "1.5");
  EXPECT_EQ(json(T::kDouble, "9a9999999999b93f"), "0.1");
  EXPECT_EQ(json(T::kDate, "dd500000"), "\"2026-09-05\"");  // day 20701
  EXPECT_EQ(json(T::kDate, "c606f5ff"), "\"0001-01-01\"");
  EXPECT_EQ(json(T::kTime, "c097546c0b000000"), "\"13:37:42.123456\"");
  EXPECT_EQ(json(T::kTimestamp, "4072db1fbb5a0600"), "\"2026-09-05T12:00:00.123456\"");
  EXPECT_EQ(json(T::kTimestampS, "0090d91fbb5a0600"), "\"2026-09-05T12:00:00.000000\"");
  EXPECT_EQ(json(T::kTimestamptz, "4072db1fbb5a0600"), "\"2026-09-05T12:00:00.123456Z\"");
  EXPECT_EQ(json(T::kTimestampNs, "154d3671f46ad218"), "\"2026-09-05T12:00:00.123456789\"");
  EXPECT_EQ(json(T::kTimestamp, "0040d400014023ff"), "\"0001-01-01T00:00:00.000000\"");
  // Year 10000 and beyond: +YYYYY.
  EXPECT_EQ(json(T::kDate, "a1c02c00"), "\"+10000-01-01\"");
  EXPECT_EQ(json(T::kString, "68c3a96c6c6f"), "\"h\xc3\xa9llo\"");
  EXPECT_EQ(json(T::kJson, "7b2261223a317d"), "\"{\\\"a\\\":1}\"");
  EXPECT_EQ(json(T::kUuid, "f79c3e09677c4bbda4793f349cb785e7"),
            "\"f79c3e09-677c-4bbd-a479-3f349cb785e7\"");
  EXPECT_EQ(json(T::kBinary, "0001ff"), "\"AAH/\"");
  EXPECT_EQ(json(T::kVariant, "00"), "null");
  EXPECT_EQ(json(T::kString, "ff"), "null");
  EXPECT_EQ(json(T::kUuid, "00"), "null");
  EXPECT_EQ(json(T::kBinary, ""), "\"\"");
}

}  // namespace
}  // namespace hoglake::iceberg
