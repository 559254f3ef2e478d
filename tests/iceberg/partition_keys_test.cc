#include "iceberg/partition_keys.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <set>

#include "columnar/builder.h"
#include "common/time_text.h"
#include "test_util.h"

namespace hoglake::iceberg {
namespace {

namespace c = columnar;
using c::TimeUnit;
using T = ColumnType;
using testing::Unhex;

using Values = std::vector<std::optional<std::string>>;

c::ArrayPtr Finish(c::ArrayBuilder& builder) {
  auto result = builder.Finish();
  EXPECT_TRUE(result.ok()) << result.status().ToString();
  return *result;
}

template <typename Builder, typename V>
c::ArrayPtr Make(c::DataTypePtr type, const std::vector<std::optional<V>>& values) {
  Builder builder(std::move(type));
  for (const auto& v : values) {
    if (v) {
      builder.Append(*v);
    } else {
      builder.AppendNull();
    }
  }
  return Finish(builder);
}

c::ArrayPtr Strings(const std::vector<std::optional<std::string>>& values,
                    c::DataTypePtr type = c::Utf8()) {
  c::BinaryBuilder builder(std::move(type));
  for (const auto& v : values) {
    if (v) {
      builder.Append(*v);
    } else {
      builder.AppendNull();
    }
  }
  return Finish(builder);
}

c::ArrayPtr Uuids(const std::vector<std::string>& values) {
  c::FixedSizeBinaryBuilder builder(c::FixedSizeBinary(16));
  for (const auto& v : values) EXPECT_TRUE(builder.Append(v).ok());
  return Finish(builder);
}

// Every row's wire string.
Values Keys(const c::ArrayData& array, const TypeSpec& type, Transform transform) {
  auto result = ComputePartitionKeys(array, type, transform);
  EXPECT_TRUE(result.ok()) << result.status().ToString();
  Values out;
  if (!result.ok()) return out;
  for (size_t row = 0; row < result->codes.size(); ++row) {
    auto value = result->ValueAt(static_cast<int64_t>(row));
    out.push_back(value ? std::optional<std::string>(std::string(*value)) : std::nullopt);
  }
  return out;
}

const Transform kIdentity{TransformKind::kIdentity, 0};
Transform Bucket(int32_t n) { return Transform{TransformKind::kBucket, n}; }
Transform Truncate(int32_t w) { return Transform{TransformKind::kTruncate, w}; }
const Transform kYear{TransformKind::kYear, 0};
const Transform kMonth{TransformKind::kMonth, 0};
const Transform kDay{TransformKind::kDay, 0};
const Transform kHour{TransformKind::kHour, 0};

int64_t Micros(int64_t y, int m, int d, int hh = 0, int mm = 0, int ss = 0) {
  return (DaysFromCivil(y, m, d) * 86400 + hh * 3600 + mm * 60 + ss) * 1'000'000;
}

TEST(PartitionKeysTest, FanOutSixPartitionsInFirstOccurrenceOrder) {
  auto team = Make<c::Int64Builder, int64_t>(c::Int64(), {7, 8, 8, 7, 8, 7, 7, 8});
  const int64_t jan = Micros(2026, 1, 10), feb = Micros(2026, 2, 3), mar = Micros(2026, 3, 20);
  auto ts = Make<c::TimestampBuilder, int64_t>(c::Timestamp(TimeUnit::kMicro),
                                               {jan, jan, jan + 1, feb, feb, mar, mar, mar});
  auto teams = ComputePartitionKeys(*team, T::kLong, kIdentity);
  auto months = ComputePartitionKeys(*ts, T::kTimestamp, kMonth);
  ASSERT_TRUE(teams.ok() && months.ok());
  EXPECT_EQ(teams->values, (std::vector<std::string>{"7", "8"}));
  EXPECT_EQ(months->values, (std::vector<std::string>{"672", "673", "674"}));
  const PartitionKeyColumn keys[] = {*teams, *months};
  auto groups = GroupRowsByPartition(keys);
  ASSERT_TRUE(groups.ok());
  ASSERT_EQ(groups->size(), 6u);
  const std::vector<std::pair<Values, std::vector<int64_t>>> expected = {
      {{"7", "672"}, {0}}, {{"8", "672"}, {1, 2}}, {{"7", "673"}, {3}},
      {{"8", "673"}, {4}}, {{"7", "674"}, {5, 6}}, {{"8", "674"}, {7}}};
  for (size_t g = 0; g < expected.size(); ++g) {
    EXPECT_EQ((*groups)[g].values, expected[g].first) << g;
    EXPECT_EQ((*groups)[g].rows, expected[g].second) << g;
  }
}

TEST(PartitionKeysTest, NullSourceValuesGetTheirOwnGroup) {
  auto team = Make<c::Int32Builder, int32_t>(c::Int32(), {7, std::nullopt, 7, std::nullopt});
  auto day = Make<c::Date32Builder, int32_t>(c::Date32(),
                                             {20470, 20470, std::nullopt, 20470});  // 2026-01-17
  auto a = ComputePartitionKeys(*team, T::kInt, kIdentity);
  auto b = ComputePartitionKeys(*day, T::kDate, kMonth);
  ASSERT_TRUE(a.ok() && b.ok());
  const PartitionKeyColumn keys[] = {*a, *b};
  auto groups = GroupRowsByPartition(keys);
  ASSERT_TRUE(groups.ok());
  ASSERT_EQ(groups->size(), 3u);
  EXPECT_EQ((*groups)[0].values, (Values{"7", "672"}));
  EXPECT_EQ((*groups)[1].values, (Values{std::nullopt, "672"}));
  EXPECT_EQ((*groups)[1].rows, (std::vector<int64_t>{1, 3}));
  EXPECT_EQ((*groups)[2].values, (Values{"7", std::nullopt}));
}

TEST(PartitionKeysTest, AllNullColumnIsOneNullGroup) {
  auto all_null = Make<c::Int64Builder, int64_t>(c::Int64(), {std::nullopt, std::nullopt});
  auto keys = ComputePartitionKeys(*all_null, T::kLong, Bucket(4));
  ASSERT_TRUE(keys.ok());
  EXPECT_TRUE(keys->values.empty());
  auto groups = GroupRowsByPartition(std::span(&*keys, 1));
  ASSERT_TRUE(groups.ok());
  ASSERT_EQ(groups->size(), 1u);
  EXPECT_EQ((*groups)[0].values, (Values{std::nullopt}));
  EXPECT_EQ((*groups)[0].rows.size(), 2u);
}

TEST(PartitionKeysTest, GroupingEdgeCases) {
  EXPECT_FALSE(GroupRowsByPartition({}).ok());
  PartitionKeyColumn a{{0, 0}, {"x"}}, b{{0}, {"y"}};
  const PartitionKeyColumn mismatched[] = {a, b};
  EXPECT_FALSE(GroupRowsByPartition(mismatched).ok());
  PartitionKeyColumn empty;
  auto none = GroupRowsByPartition(std::span(&empty, 1));
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->empty());
}

TEST(PartitionKeysTest, GroupingManyDistinctTuplesUsesTheSparsePath) {
  // 3000 × 3000 possible pairs exceed the dense table; the result must not change.
  PartitionKeyColumn x, y;
  for (int i = 0; i < 3000; ++i) {
    x.values.push_back(std::to_string(i));
    y.values.push_back(std::to_string(i));
  }
  for (int row = 0; row < 6000; ++row) {
    x.codes.push_back(row % 3000);
    y.codes.push_back((row * 7) % 3000);
  }
  const PartitionKeyColumn keys[] = {x, y};
  auto groups = GroupRowsByPartition(keys);
  ASSERT_TRUE(groups.ok());
  ASSERT_EQ(groups->size(), 3000u);  // row and row + 3000 share a tuple
  for (size_t g = 0; g < groups->size(); ++g) {
    EXPECT_EQ((*groups)[g].rows,
              (std::vector<int64_t>{static_cast<int64_t>(g), static_cast<int64_t>(g) + 3000}));
  }
}

TEST(PartitionKeysTest, IdentityWireStrings) {
  auto bools = Make<c::BooleanBuilder, bool>(c::Bool(), {true, false, std::nullopt});
  EXPECT_EQ(Keys(*bools, T::kBoolean, kIdentity), (Values{"true", "false", std::nullopt}));

  auto u64 = Make<c::UInt64Builder, uint64_t>(c::UInt64(), {UINT64_MAX, 0});
  EXPECT_EQ(Keys(*u64, T::kUInt64, kIdentity), (Values{"18446744073709551615", "0"}));
  auto i8 = Make<c::Int8Builder, int8_t>(c::Int8(), {-128, 127});
  EXPECT_EQ(Keys(*i8, T::kInt8, kIdentity), (Values{"-128", "127"}));
  // uint32 arrives as int64 (the writer contract).
  auto u32 = Make<c::Int64Builder, int64_t>(c::Int64(), {4294967295LL});
  EXPECT_EQ(Keys(*u32, T::kUInt32, kIdentity), (Values{"4294967295"}));

  auto f32 = Make<c::Float32Builder, float>(c::Float32(), {0.1f, -0.0f, 0.0f, 1e16f});
  EXPECT_EQ(Keys(*f32, T::kFloat, kIdentity),
            (Values{"0.10000000149011612", "-0.0", "0.0", "1.0000000272564224e+16"}));
  auto f64 = Make<c::Float64Builder, double>(
      c::Float64(), {std::numeric_limits<double>::infinity(), std::nan(""), 1e16, 2.5});
  EXPECT_EQ(Keys(*f64, T::kDouble, kIdentity), (Values{"inf", "nan", "1e+16", "2.5"}));

  c::Decimal128Builder dec(c::Decimal128(6, 2));
  dec.Append(1050);
  dec.Append(-1234);
  auto decimals = Finish(dec);
  EXPECT_EQ(Keys(*decimals, TypeSpec::Decimal(6, 2), kIdentity), (Values{"10.50", "-12.34"}));
  c::Decimal128Builder tiny(c::Decimal128(9, 8));
  tiny.Append(10);
  tiny.Append(0);
  auto tinies = Finish(tiny);
  EXPECT_EQ(Keys(*tinies, TypeSpec::Decimal(9, 8), kIdentity), (Values{"1.0E-7", "0E-8"}));

  auto dates = Make<c::Date32Builder, int32_t>(c::Date32(), {17486, -1});
  EXPECT_EQ(Keys(*dates, T::kDate, kIdentity), (Values{"2017-11-16", "1969-12-31"}));
  auto times =
      Make<c::Time64Builder, int64_t>(c::Time64(TimeUnit::kMicro), {81068000000, 81068000001});
  EXPECT_EQ(Keys(*times, T::kTime, kIdentity), (Values{"22:31:08", "22:31:08.000001"}));

  const int64_t t = Micros(2017, 11, 16, 22, 31, 8);
  auto ts = Make<c::TimestampBuilder, int64_t>(c::Timestamp(TimeUnit::kMicro), {t, t + 5});
  EXPECT_EQ(Keys(*ts, T::kTimestamp, kIdentity),
            (Values{"2017-11-16T22:31:08", "2017-11-16T22:31:08.000005"}));
  auto tz = Make<c::TimestampBuilder, int64_t>(c::Timestamp(TimeUnit::kMicro, "UTC"), {t});
  EXPECT_EQ(Keys(*tz, T::kTimestamptz, kIdentity), (Values{"2017-11-16T22:31:08+00:00"}));
  auto secs = Make<c::TimestampBuilder, int64_t>(c::Timestamp(TimeUnit::kSecond), {t / 1000000});
  EXPECT_EQ(Keys(*secs, T::kTimestampS, kIdentity), (Values{"2017-11-16T22:31:08"}));
  auto millis = Make<c::TimestampBuilder, int64_t>(c::Timestamp(TimeUnit::kMilli), {t / 1000 + 7});
  EXPECT_EQ(Keys(*millis, T::kTimestampMs, kIdentity), (Values{"2017-11-16T22:31:08.007000"}));
  // timestamp_ns identity: integer nanos, never ISO.
  auto nanos =
      Make<c::TimestampBuilder, int64_t>(c::Timestamp(TimeUnit::kNano), {1788609600123456789, -1});
  EXPECT_EQ(Keys(*nanos, T::kTimestampNs, kIdentity), (Values{"1788609600123456789", "-1"}));

  auto strings = Strings({"h\xc3\xa9llo", std::nullopt, ""});
  EXPECT_EQ(Keys(*strings, T::kString, kIdentity), (Values{"h\xc3\xa9llo", std::nullopt, ""}));
  auto docs = Strings({"{\"b\": 1,  \"a\": 2}"});
  EXPECT_EQ(Keys(*docs, T::kJson, kIdentity), (Values{"{\"b\": 1,  \"a\": 2}"}));
  auto uuids = Uuids({Unhex("f79c3e09677c4bbda4793f349cb785e7")});
  EXPECT_EQ(Keys(*uuids, T::kUuid, kIdentity), (Values{"f79c3e09-677c-4bbd-a479-3f349cb785e7"}));
  auto binary = Strings({Unhex("0001"), Unhex("")}, c::Binary());
  EXPECT_EQ(Keys(*binary, T::kBinary, kIdentity), (Values{"AAE=", ""}));
}

TEST(PartitionKeysTest, IdentityOutsidePythonRangesFails) {
  auto far = Make<c::Date32Builder, int32_t>(c::Date32(), {DaysFromCivil(10000, 1, 1)});
  EXPECT_FALSE(ComputePartitionKeys(*far, T::kDate, kIdentity).ok());
  auto late = Make<c::Time64Builder, int64_t>(c::Time64(TimeUnit::kMicro), {86400000000});
  EXPECT_FALSE(ComputePartitionKeys(*late, T::kTime, kIdentity).ok());
}

TEST(PartitionKeysTest, BucketMatchesTheScalarsAndMergesCollisions) {
  std::vector<std::optional<int64_t>> values;
  for (int64_t v = -50; v < 50; ++v) values.push_back(v * 7919);
  auto longs = Make<c::Int64Builder, int64_t>(c::Int64(), values);
  auto keys = ComputePartitionKeys(*longs, T::kLong, Bucket(8));
  ASSERT_TRUE(keys.ok());
  EXPECT_LE(keys->values.size(), 8u);
  for (size_t i = 0; i < values.size(); ++i) {
    EXPECT_EQ(*keys->ValueAt(static_cast<int64_t>(i)),
              std::to_string(BucketOf(IcebergHashLong(*values[i]), 8)));
  }
  // Codes and strings correspond one to one even when values collide.
  std::set<std::string> distinct(keys->values.begin(), keys->values.end());
  EXPECT_EQ(distinct.size(), keys->values.size());

  auto ints = Make<c::Int32Builder, int32_t>(c::Int32(), {34});
  EXPECT_EQ(Keys(*ints, T::kInt, Bucket(16)), (Values{"3"}));
  auto small = Make<c::Int8Builder, int8_t>(c::Int8(), {34});  // every width hashes as a long
  EXPECT_EQ(Keys(*small, T::kInt8, Bucket(16)), (Values{"3"}));
  auto strings = Strings({"iceberg"});
  EXPECT_EQ(Keys(*strings, T::kString, Bucket(16)), (Values{"9"}));
  auto dates = Make<c::Date32Builder, int32_t>(c::Date32(), {17486});
  EXPECT_EQ(Keys(*dates, T::kDate, Bucket(16)), (Values{"10"}));
  c::Decimal128Builder dec(c::Decimal128(4, 2));
  dec.Append(1420);
  auto decimals = Finish(dec);
  EXPECT_EQ(Keys(*decimals, TypeSpec::Decimal(4, 2), Bucket(1000)),
            (Values{std::to_string(BucketOf(-500754589, 1000))}));
  const int64_t t = Micros(2017, 11, 16, 22, 31, 8);
  auto tz = Make<c::TimestampBuilder, int64_t>(c::Timestamp(TimeUnit::kMicro, "UTC"), {t});
  EXPECT_EQ(Keys(*tz, T::kTimestamptz, Bucket(1000)),
            (Values{std::to_string(BucketOf(-2047944441, 1000))}));
  auto times = Make<c::Time64Builder, int64_t>(c::Time64(TimeUnit::kMicro), {81068000000});
  EXPECT_EQ(Keys(*times, T::kTime, Bucket(1000)),
            (Values{std::to_string(BucketOf(-662762989, 1000))}));
  auto uuids = Uuids({Unhex("f79c3e09677c4bbda4793f349cb785e7")});
  EXPECT_EQ(Keys(*uuids, T::kUuid, Bucket(1000)),
            (Values{std::to_string(BucketOf(1488055340, 1000))}));
  auto binary = Strings({Unhex("00010203")}, c::Binary());
  EXPECT_EQ(Keys(*binary, T::kBinary, Bucket(1000)),
            (Values{std::to_string(BucketOf(-188683207, 1000))}));
}

TEST(PartitionKeysTest, GatesApplyToTheArrayDriver) {
  auto doubles = Make<c::Float64Builder, double>(c::Float64(), {1.0});
  EXPECT_EQ(ComputePartitionKeys(*doubles, T::kDouble, Bucket(4)).error().code,
            ErrorCode::kValidation);
  auto u32 = Make<c::Int64Builder, int64_t>(c::Int64(), {1});
  EXPECT_FALSE(ComputePartitionKeys(*u32, T::kUInt32, Bucket(4)).ok());
  auto nanos = Make<c::TimestampBuilder, int64_t>(c::Timestamp(TimeUnit::kNano), {1});
  EXPECT_FALSE(ComputePartitionKeys(*nanos, T::kTimestampNs, Bucket(4)).ok());
  auto docs = Strings({"{}"});
  EXPECT_FALSE(ComputePartitionKeys(*docs, T::kJson, Truncate(2)).ok());
  EXPECT_FALSE(ComputePartitionKeys(*docs, T::kJson, Bucket(2)).ok());
  auto dates = Make<c::Date32Builder, int32_t>(c::Date32(), {1});
  EXPECT_FALSE(ComputePartitionKeys(*dates, T::kDate, kHour).ok());
  // An array that cannot hold the catalog type.
  auto strings = Strings({"x"});
  auto mismatch = ComputePartitionKeys(*strings, T::kLong, kIdentity);
  ASSERT_FALSE(mismatch.ok());
  EXPECT_EQ(mismatch.error().code, ErrorCode::kInvalidArgument);
  EXPECT_FALSE(ComputePartitionKeys(*strings, T::kUuid, kIdentity).ok());
  c::Decimal128Builder dec(c::Decimal128(6, 3));
  dec.Append(1);
  auto wrong_scale = Finish(dec);
  EXPECT_FALSE(ComputePartitionKeys(*wrong_scale, TypeSpec::Decimal(6, 2), kIdentity).ok());
}

TEST(PartitionKeysTest, TemporalOverArrays) {
  auto dates = Make<c::Date32Builder, int32_t>(c::Date32(), {17486, -1, std::nullopt});
  EXPECT_EQ(Keys(*dates, T::kDate, kYear), (Values{"47", "-1", std::nullopt}));
  EXPECT_EQ(Keys(*dates, T::kDate, kMonth), (Values{"574", "-1", std::nullopt}));
  EXPECT_EQ(Keys(*dates, T::kDate, kDay), (Values{"17486", "-1", std::nullopt}));

  const int64_t t = Micros(2017, 11, 16, 22, 31, 8);
  const int64_t pre = Micros(1969, 12, 31, 23, 59, 58);
  auto ts = Make<c::TimestampBuilder, int64_t>(c::Timestamp(TimeUnit::kMicro), {t, pre});
  EXPECT_EQ(Keys(*ts, T::kTimestamp, kYear), (Values{"47", "-1"}));
  EXPECT_EQ(Keys(*ts, T::kTimestamp, kMonth), (Values{"574", "-1"}));
  EXPECT_EQ(Keys(*ts, T::kTimestamp, kDay), (Values{"17486", "-1"}));
  EXPECT_EQ(Keys(*ts, T::kTimestamp, kHour), (Values{"419686", "-1"}));
  auto tz = Make<c::TimestampBuilder, int64_t>(c::Timestamp(TimeUnit::kMicro, "UTC"), {t});
  EXPECT_EQ(Keys(*tz, T::kTimestamptz, kHour), (Values{"419686"}));

  // Non-micro units: seconds and millis scale up, nanos floor (-1 ns is hour -1).
  auto secs = Make<c::TimestampBuilder, int64_t>(c::Timestamp(TimeUnit::kSecond), {t / 1000000});
  EXPECT_EQ(Keys(*secs, T::kTimestampS, kHour), (Values{"419686"}));
  auto millis = Make<c::TimestampBuilder, int64_t>(c::Timestamp(TimeUnit::kMilli), {t / 1000});
  EXPECT_EQ(Keys(*millis, T::kTimestampMs, kDay), (Values{"17486"}));
  auto nanos = Make<c::TimestampBuilder, int64_t>(c::Timestamp(TimeUnit::kNano), {-1, t * 1000});
  EXPECT_EQ(Keys(*nanos, T::kTimestampNs, kDay), (Values{"-1", "17486"}));
  EXPECT_EQ(Keys(*nanos, T::kTimestampNs, kHour), (Values{"-1", "419686"}));

  // The largest representable seconds tick works; 2^62 seconds must fail, not wrap.
  auto largest =
      Make<c::TimestampBuilder, int64_t>(c::Timestamp(TimeUnit::kSecond), {INT64_MAX / 1000000});
  EXPECT_TRUE(ComputePartitionKeys(*largest, T::kTimestampS, kYear).ok());
  auto huge =
      Make<c::TimestampBuilder, int64_t>(c::Timestamp(TimeUnit::kSecond), {int64_t{1} << 62});
  EXPECT_FALSE(ComputePartitionKeys(*huge, T::kTimestampS, kYear).ok());
  auto huge_ms =
      Make<c::TimestampBuilder, int64_t>(c::Timestamp(TimeUnit::kMilli), {INT64_MAX / 1000 + 1});
  EXPECT_FALSE(ComputePartitionKeys(*huge_ms, T::kTimestampMs, kDay).ok());
}

TEST(PartitionKeysTest, TruncateOverArrays) {
  auto ints = Make<c::Int32Builder, int32_t>(c::Int32(), {1, -1, 10, std::nullopt, 9});
  EXPECT_EQ(Keys(*ints, T::kInt, Truncate(10)), (Values{"0", "-10", "10", std::nullopt, "0"}));
  auto i8 = Make<c::Int8Builder, int8_t>(c::Int8(), {-1});
  EXPECT_EQ(Keys(*i8, T::kInt8, Truncate(10)), (Values{"-10"}));
  auto i16 = Make<c::Int16Builder, int16_t>(c::Int16(), {-11});
  EXPECT_EQ(Keys(*i16, T::kInt16, Truncate(10)), (Values{"-20"}));
  auto u64 = Make<c::UInt64Builder, uint64_t>(c::UInt64(), {UINT64_MAX});
  EXPECT_EQ(Keys(*u64, T::kUInt64, Truncate(10)), (Values{"18446744073709551610"}));
  auto longs = Make<c::Int64Builder, int64_t>(c::Int64(), {-1});
  EXPECT_EQ(Keys(*longs, T::kLong, Truncate(10)), (Values{"-10"}));
  auto strings = Strings({"iceberg",
                          "\xf0\x9f\x92\xa9"
                          "abc",
                          "ic"});
  EXPECT_EQ(Keys(*strings, T::kString, Truncate(3)), (Values{"ice",
                                                             "\xf0\x9f\x92\xa9"
                                                             "ab",
                                                             "ic"}));
  EXPECT_EQ(Keys(*strings, T::kString, Truncate(2)), (Values{"ic",
                                                             "\xf0\x9f\x92\xa9"
                                                             "a",
                                                             "ic"}));
  auto binary = Strings({Unhex("01020304")}, c::Binary());
  EXPECT_EQ(Keys(*binary, T::kBinary, Truncate(2)), (Values{"AQI="}));
  c::Decimal128Builder dec(c::Decimal128(6, 2));
  dec.Append(1065);
  dec.Append(-1);
  auto decimals = Finish(dec);
  EXPECT_EQ(Keys(*decimals, TypeSpec::Decimal(6, 2), Truncate(50)), (Values{"10.50", "-0.50"}));
}

TEST(PartitionKeysTest, SlicedArraysReadFromTheirOffset) {
  auto ints = Make<c::Int64Builder, int64_t>(c::Int64(), {1, 2, std::nullopt, 4, 5});
  auto sliced = std::make_shared<c::ArrayData>(*ints);
  sliced->offset = 2;
  sliced->length = 3;
  sliced->null_count = 1;
  EXPECT_EQ(Keys(*sliced, T::kLong, kIdentity), (Values{std::nullopt, "4", "5"}));
  auto strings = Strings({"a", "bb", "ccc"});
  auto sliced_strings = std::make_shared<c::ArrayData>(*strings);
  sliced_strings->offset = 1;
  sliced_strings->length = 2;
  EXPECT_EQ(Keys(*sliced_strings, T::kString, kIdentity), (Values{"bb", "ccc"}));
}

}  // namespace
}  // namespace hoglake::iceberg
