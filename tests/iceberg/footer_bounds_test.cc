#include "iceberg/footer_bounds.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <optional>

#include "common/time_text.h"
#include "test_util.h"

namespace hoglake::iceberg {
namespace {

using columnar::TimeUnit;
using P = ParquetPhysical;
using A = ParquetAnnotation;
using T = ColumnType;
using testing::Hex;
using testing::Unhex;

FooterLeaf Leaf(P physical, A annotation = A::kNone) {
  FooterLeaf leaf;
  leaf.physical = physical;
  leaf.annotation = annotation;
  return leaf;
}
FooterLeaf IntLeaf(P physical, int bits, bool is_signed) {
  FooterLeaf leaf = Leaf(physical, A::kInteger);
  leaf.bit_width = bits;
  leaf.is_signed = is_signed;
  return leaf;
}
FooterLeaf UnitLeaf(P physical, A annotation, TimeUnit unit) {
  FooterLeaf leaf = Leaf(physical, annotation);
  leaf.unit = unit;
  return leaf;
}
FooterLeaf DecimalLeaf(P physical, int32_t precision, int32_t scale, int32_t length = 0) {
  FooterLeaf leaf = Leaf(physical, A::kDecimal);
  leaf.precision = precision;
  leaf.scale = scale;
  leaf.type_length = length;
  return leaf;
}
FooterLeaf Flba(int32_t length) {
  FooterLeaf leaf = Leaf(P::kFixedLenByteArray);
  leaf.type_length = length;
  return leaf;
}

template <typename V>
std::string Le(V v) {
  std::string out(sizeof(V), '\0');
  std::memcpy(out.data(), &v, sizeof(V));
  return out;
}

// The bound as hex, or "none" when dropped.
std::string Bound(const TypeSpec& column, const FooterLeaf& leaf, std::string_view stat,
                  BoundRole role = BoundRole::kLower, FooterPolicy policy = FooterPolicy::kWriter) {
  auto bound = FooterValueToBound(column, leaf, stat, role, policy);
  return bound ? Hex(*bound) : "none";
}

TEST(FooterBoundsTest, IntegerWidths) {
  const FooterLeaf i32 = Leaf(P::kInt32);
  const FooterLeaf i64 = Leaf(P::kInt64);
  EXPECT_EQ(Bound(T::kInt, i32, Le<int32_t>(1)), "01000000");
  EXPECT_EQ(Bound(T::kInt8, i32, Le<int32_t>(-128)), "80ffffff");
  EXPECT_EQ(Bound(T::kInt8, i32, Le<int32_t>(300)), "none");  // outside int8
  EXPECT_EQ(Bound(T::kUInt8, i32, Le<int32_t>(-1)), "none");
  EXPECT_EQ(Bound(T::kUInt16, i32, Le<int32_t>(65535)), "ffff0000");
  EXPECT_EQ(Bound(T::kDate, i32, Le<int32_t>(-719162)), "c606f5ff");
  EXPECT_EQ(Bound(T::kLong, i32, Le<int32_t>(-1)), "ffffffffffffffff");  // sign-extended
  EXPECT_EQ(Bound(T::kLong, i64, Le<int64_t>(int64_t{1} << 62)), "0000000000000040");
  // A wider footer value than the catalog type degrades to no bounds.
  EXPECT_EQ(Bound(T::kInt, i64, Le<int64_t>(int64_t{1} << 40)), "none");
  EXPECT_EQ(Bound(T::kUInt8, i64, Le<int64_t>(int64_t{1} << 40)), "none");
  // Wrong statistic widths.
  EXPECT_EQ(Bound(T::kInt, i32, Le<int64_t>(1)), "none");
  EXPECT_EQ(Bound(T::kLong, i64, Le<int32_t>(1)), "none");
}

TEST(FooterBoundsTest, UInt32ReadsInt64AndUnsignedInt32) {
  EXPECT_EQ(Bound(T::kUInt32, Leaf(P::kInt64), Le<int64_t>(4294967295LL)), "ffffffff00000000");
  EXPECT_EQ(Bound(T::kUInt32, Leaf(P::kInt64), Le<int64_t>(4294967296LL)), "none");
  EXPECT_EQ(Bound(T::kUInt32, Leaf(P::kInt64), Le<int64_t>(-1)), "none");
  // A uint32 written as UINT32 (INT32) still reads, zero-extended.
  const FooterLeaf u32 = IntLeaf(P::kInt32, 32, false);
  EXPECT_EQ(Bound(T::kUInt32, u32, Le<uint32_t>(4294967295u)), "ffffffff00000000");
  EXPECT_EQ(Bound(T::kLong, u32, Le<uint32_t>(2147483648u)), "0000008000000000");
  EXPECT_EQ(Bound(T::kUInt32, Leaf(P::kInt32), Le<int32_t>(5)), "none");  // plain INT32
}

TEST(FooterBoundsTest, UInt64NeedsTheUnsignedAnnotation) {
  const FooterLeaf u64 = IntLeaf(P::kInt64, 64, false);
  EXPECT_EQ(Bound(T::kUInt64, u64, Le<uint64_t>(UINT64_MAX)), "00ffffffffffffffff");
  EXPECT_EQ(Bound(T::kUInt64, u64, Le<uint64_t>(0)), "00");
  EXPECT_EQ(Bound(T::kUInt64, u64, Le<uint64_t>(uint64_t{1} << 63)), "008000000000000000");
  EXPECT_EQ(Bound(T::kUInt64, Leaf(P::kInt64), Le<int64_t>(1)), "none");  // ordered signed
  EXPECT_EQ(Bound(T::kLong, u64, Le<uint64_t>(1)), "none");               // 64 > long's 32
}

TEST(FooterBoundsTest, UnsignedDomainRule) {
  const FooterLeaf u8 = IntLeaf(P::kInt32, 8, false);
  const FooterLeaf u16 = IntLeaf(P::kInt32, 16, false);
  const FooterLeaf u32 = IntLeaf(P::kInt32, 32, false);
  EXPECT_FALSE(FooterLeafReadable(T::kInt8, u8));
  EXPECT_TRUE(FooterLeafReadable(T::kInt16, u8));
  EXPECT_TRUE(FooterLeafReadable(T::kUInt8, u8));
  EXPECT_FALSE(FooterLeafReadable(T::kInt16, u16));
  EXPECT_TRUE(FooterLeafReadable(T::kInt, u16));
  EXPECT_TRUE(FooterLeafReadable(T::kDate, u16));
  EXPECT_TRUE(FooterLeafReadable(T::kUInt16, u16));
  EXPECT_FALSE(FooterLeafReadable(T::kInt, u32));
  EXPECT_TRUE(FooterLeafReadable(T::kLong, u32));
  EXPECT_TRUE(FooterLeafReadable(T::kUInt32, u32));
  EXPECT_EQ(Bound(T::kInt16, u8, Le<uint32_t>(255)), "ff000000");
  // Signed INT annotations are plain INT32 as far as readability goes.
  EXPECT_TRUE(FooterLeafReadable(T::kInt8, IntLeaf(P::kInt32, 8, true)));
}

TEST(FooterBoundsTest, ShapeMismatchesAreUnreadable) {
  EXPECT_FALSE(FooterLeafReadable(T::kLong, Leaf(P::kBoolean)));  // never 0/1
  EXPECT_EQ(Bound(T::kLong, Leaf(P::kBoolean), "\x01"), "none");
  EXPECT_FALSE(FooterLeafReadable(T::kFloat, Leaf(P::kDouble)));
  EXPECT_FALSE(FooterLeafReadable(T::kInt, Leaf(P::kFloat)));
  EXPECT_FALSE(FooterLeafReadable(T::kString, Flba(4)));
  EXPECT_FALSE(FooterLeafReadable(T::kUuid, Flba(8)));
  EXPECT_FALSE(FooterLeafReadable(T::kUuid, Leaf(P::kByteArray)));
  EXPECT_FALSE(FooterLeafReadable(T::kTimestampNs, Leaf(P::kInt64)));  // not a TIMESTAMP
  EXPECT_FALSE(FooterLeafReadable(T::kTimestamp, Leaf(P::kInt96)));
  EXPECT_FALSE(FooterLeafReadable(T::kInt, DecimalLeaf(P::kInt32, 9, 2)));
  EXPECT_FALSE(FooterLeafReadable(T::kBinary, DecimalLeaf(P::kFixedLenByteArray, 9, 2, 4)));
  EXPECT_FALSE(FooterLeafReadable(T::kVariant, Leaf(P::kByteArray)));
  EXPECT_FALSE(FooterLeafReadable(T::kList, Leaf(P::kInt32)));
  // date32/time32 footers count as INT32.
  EXPECT_TRUE(FooterLeafReadable(T::kInt, Leaf(P::kInt32, A::kDate)));
  EXPECT_TRUE(FooterLeafReadable(T::kInt, UnitLeaf(P::kInt32, A::kTime, TimeUnit::kMilli)));
}

TEST(FooterBoundsTest, Floats) {
  const FooterLeaf f = Leaf(P::kFloat);
  const FooterLeaf d = Leaf(P::kDouble);
  EXPECT_EQ(Bound(T::kFloat, f, Le(1.0f)), "0000803f");
  EXPECT_EQ(Bound(T::kFloat, f, Le(0.0f), BoundRole::kLower), "00000080");
  EXPECT_EQ(Bound(T::kFloat, f, Le(-0.0f), BoundRole::kUpper), "00000000");
  EXPECT_EQ(Bound(T::kFloat, f, Le(std::nanf(""))), "none");
  EXPECT_EQ(Bound(T::kDouble, d, Le(0.1)), "9a9999999999b93f");
  EXPECT_EQ(Bound(T::kDouble, d, Le(0.0), BoundRole::kLower), "0000000000000080");
  EXPECT_EQ(Bound(T::kDouble, d, Le(-0.0), BoundRole::kUpper), "0000000000000000");
  EXPECT_EQ(Bound(T::kDouble, d, Le(std::nan(""))), "none");
  // FLOAT widened under double, then normalized.
  EXPECT_EQ(Bound(T::kDouble, f, Le(1.0f)), "000000000000f03f");
  EXPECT_EQ(Bound(T::kDouble, f, Le(0.0f), BoundRole::kLower), "0000000000000080");
}

TEST(FooterBoundsTest, Time) {
  const FooterLeaf micros = UnitLeaf(P::kInt64, A::kTime, TimeUnit::kMicro);
  const FooterLeaf millis = UnitLeaf(P::kInt32, A::kTime, TimeUnit::kMilli);
  const FooterLeaf nanos = UnitLeaf(P::kInt64, A::kTime, TimeUnit::kNano);
  EXPECT_EQ(Bound(T::kTime, micros, Le<int64_t>(49062123456)), "c097546c0b000000");
  EXPECT_EQ(Bound(T::kTime, millis, Le<int32_t>(49062123)), "f895546c0b000000");
  EXPECT_EQ(Bound(T::kTime, nanos, Le<int64_t>(1000)), "none");
  EXPECT_EQ(Bound(T::kTime, micros, Le<int64_t>(86400000000)), "none");  // beyond one day
}

TEST(FooterBoundsTest, TimestampsBecomeMicros) {
  const FooterLeaf ms = UnitLeaf(P::kInt64, A::kTimestamp, TimeUnit::kMilli);
  const FooterLeaf us = UnitLeaf(P::kInt64, A::kTimestamp, TimeUnit::kMicro);
  const FooterLeaf ns = UnitLeaf(P::kInt64, A::kTimestamp, TimeUnit::kNano);
  // timestamp_s files are MILLIS in Parquet: ticks are seconds × 1000.
  EXPECT_EQ(Bound(T::kTimestampS, ms, Le<int64_t>(1788609600000)), "0090d91fbb5a0600");
  EXPECT_EQ(Bound(T::kTimestampMs, ms, Le<int64_t>(1788609600123)), "7870db1fbb5a0600");
  EXPECT_EQ(Bound(T::kTimestamp, us, Le<int64_t>(-62135596800000000)), "0040d400014023ff");
  EXPECT_EQ(Bound(T::kTimestamptz, us, Le<int64_t>(1788609600000000)), "0090d91fbb5a0600");
  // NANOS under a micros type: only whole microseconds (writer rule).
  EXPECT_EQ(Bound(T::kTimestamp, ns, Le<int64_t>(1788609600123000000)), "7870db1fbb5a0600");
  EXPECT_EQ(Bound(T::kTimestamp, ns, Le<int64_t>(1788609600123000001)), "none");
  // The hydrator floors a lower bound and ceils an upper one instead.
  EXPECT_EQ(Bound(T::kTimestamp, ns, Le<int64_t>(1788609600123000001), BoundRole::kLower,
                  FooterPolicy::kHydrator),
            "7870db1fbb5a0600");
  EXPECT_EQ(Bound(T::kTimestamp, ns, Le<int64_t>(1788609600123000001), BoundRole::kUpper,
                  FooterPolicy::kHydrator),
            "7970db1fbb5a0600");
  EXPECT_EQ(Bound(T::kTimestamp, ns, Le<int64_t>(-1), BoundRole::kLower, FooterPolicy::kHydrator),
            "ffffffffffffffff");
  EXPECT_EQ(Bound(T::kTimestamp, ns, Le<int64_t>(-1), BoundRole::kUpper, FooterPolicy::kHydrator),
            "0000000000000000");
  // The writer drops values pyarrow cannot render (years 1..9999).
  const int64_t year_10000 = DaysFromCivil(10000, 1, 1) * 86400000000;
  EXPECT_EQ(Bound(T::kTimestamp, us, Le<int64_t>(year_10000 - 1)), "ff5f73cc0c448403");
  EXPECT_EQ(Bound(T::kTimestamp, us, Le<int64_t>(year_10000)), "none");
  EXPECT_NE(
      Bound(T::kTimestamp, us, Le<int64_t>(year_10000), BoundRole::kLower, FooterPolicy::kHydrator),
      "none");
  EXPECT_EQ(Bound(T::kTimestamp, us, Le<int64_t>(-62135596800000001)), "none");
  // Overflow while scaling millis.
  EXPECT_EQ(Bound(T::kTimestamp, ms, Le<int64_t>(INT64_MAX / 10)), "none");
}

TEST(FooterBoundsTest, TimestampNanosScaleFromTheFooterUnit) {
  const FooterLeaf ms = UnitLeaf(P::kInt64, A::kTimestamp, TimeUnit::kMilli);
  const FooterLeaf us = UnitLeaf(P::kInt64, A::kTimestamp, TimeUnit::kMicro);
  const FooterLeaf ns = UnitLeaf(P::kInt64, A::kTimestamp, TimeUnit::kNano);
  EXPECT_EQ(Bound(T::kTimestampNs, ns, Le<int64_t>(1788609600123456789)), "154d3671f46ad218");
  EXPECT_EQ(Bound(T::kTimestampNs, us, Le<int64_t>(1788609600123456)),
            Hex(Le<int64_t>(1788609600123456000)));
  EXPECT_EQ(Bound(T::kTimestampNs, ms, Le<int64_t>(1788609600123)),
            Hex(Le<int64_t>(1788609600123000000)));
  // A year-9999 micros sentinel × 1000 overflows: no bound.
  EXPECT_EQ(Bound(T::kTimestampNs, us, Le<int64_t>(253402300799999999)), "none");
  EXPECT_EQ(Bound(T::kTimestampNs, Leaf(P::kInt64), Le<int64_t>(1)), "none");
}

TEST(FooterBoundsTest, BytesTypes) {
  const FooterLeaf ba = Leaf(P::kByteArray, A::kString);
  EXPECT_EQ(Bound(T::kString, ba, "name-0001"), Hex("name-0001"));
  EXPECT_EQ(Bound(T::kString, ba, ""), "");
  EXPECT_EQ(Bound(T::kString, ba, "\xff"), "none");  // not UTF-8: undecodable
  EXPECT_EQ(Bound(T::kJson, Leaf(P::kByteArray, A::kJson), "{\"a\": 1}"), Hex("{\"a\": 1}"));
  EXPECT_EQ(Bound(T::kBinary, Leaf(P::kByteArray), "\xff\x00"), "ff");  // C string: 1 byte
  EXPECT_EQ(Bound(T::kBinary, Flba(2), std::string("\xff\x00", 2)), "ff00");
  const std::string uuid = Unhex("f79c3e09677c4bbda4793f349cb785e7");
  FooterLeaf uuid_leaf = Flba(16);
  uuid_leaf.annotation = A::kUuid;
  EXPECT_EQ(Bound(T::kUuid, uuid_leaf, uuid), "f79c3e09677c4bbda4793f349cb785e7");
  EXPECT_EQ(Bound(T::kUuid, Flba(16), uuid), "f79c3e09677c4bbda4793f349cb785e7");
  EXPECT_EQ(Bound(T::kUuid, uuid_leaf, "short"), "none");
  EXPECT_EQ(Bound(T::kBoolean, Leaf(P::kBoolean), std::string(1, '\1')), "01");
  EXPECT_EQ(Bound(T::kBoolean, Leaf(P::kBoolean), std::string(1, '\0')), "00");
}

TEST(FooterBoundsTest, Decimals) {
  // INT32-backed decimal(9,2): -1234567.89 and 0.01.
  const FooterLeaf d4 = DecimalLeaf(P::kInt32, 9, 2);
  const TypeSpec d9_2 = TypeSpec::Decimal(9, 2);
  auto lower = FooterValueToBound(d9_2, d4, Le<int32_t>(-123456789), BoundRole::kLower);
  ASSERT_TRUE(lower);
  EXPECT_EQ(BoundJson(d9_2, *lower), "-1234567.89");
  auto upper = FooterValueToBound(d9_2, d4, Le<int32_t>(1), BoundRole::kUpper);
  ASSERT_TRUE(upper);
  EXPECT_EQ(BoundJson(d9_2, *upper), "0.01");
  // INT64-backed decimal(18,4).
  const TypeSpec d18_4 = TypeSpec::Decimal(18, 4);
  auto big = FooterValueToBound(d18_4, DecimalLeaf(P::kInt64, 18, 4),
                                Le<int64_t>(123456789012345678), BoundRole::kUpper);
  ASSERT_TRUE(big);
  EXPECT_EQ(BoundJson(d18_4, *big), "12345678901234.5678");
  // FLBA: fixed-width big-endian, re-encoded minimally.
  const TypeSpec d5_2 = TypeSpec::Decimal(5, 2);
  const FooterLeaf flba = DecimalLeaf(P::kFixedLenByteArray, 5, 2, 3);
  EXPECT_EQ(Bound(d5_2, flba, Unhex("000000")), "00");
  EXPECT_EQ(Bound(d5_2, flba, Unhex("0026ac")), "26ac");
  EXPECT_EQ(Bound(d5_2, flba, Unhex("ffff80")), "80");
  const FooterLeaf flba16 = DecimalLeaf(P::kFixedLenByteArray, 38, 0, 16);
  EXPECT_EQ(Bound(TypeSpec::Decimal(38, 0), flba16, Unhex("4b3b4ca85a86c47a098a223fffffffff")),
            "4b3b4ca85a86c47a098a223fffffffff");
  // Scale mismatch, out of the declared precision, empty.
  EXPECT_EQ(Bound(TypeSpec::Decimal(9, 3), d4, Le<int32_t>(1)), "none");
  EXPECT_EQ(Bound(TypeSpec::Decimal(3, 2), d4, Le<int32_t>(1000)), "none");
  EXPECT_EQ(Bound(d5_2, flba, ""), "none");
}

}  // namespace
}  // namespace hoglake::iceberg
