#include "iceberg/transforms.h"

#include <gtest/gtest.h>

#include <set>

#include "common/time_text.h"
#include "test_util.h"

namespace hoglake::iceberg {
namespace {

using columnar::TimeUnit;
using T = ColumnType;
using testing::Unhex;

constexpr int64_t kMicrosPerSecond = 1'000'000;

int64_t Days(int64_t y, int m, int d) { return DaysFromCivil(y, m, d); }
int64_t Micros(int64_t y, int m, int d, int hh, int mm, int ss) {
  return (Days(y, m, d) * 86400 + hh * 3600 + mm * 60 + ss) * kMicrosPerSecond;
}

TEST(Murmur3Test, ReferenceValues) {
  EXPECT_EQ(Murmur3X86_32(""), 0u);
  EXPECT_EQ(Murmur3X86_32("", 1), 1364076727u);
  EXPECT_EQ(Murmur3X86_32("", 0xffffffffu), 2180083513u);
  EXPECT_EQ(Murmur3X86_32("hello"), 0x248bfa47u);
  EXPECT_EQ(Murmur3X86_32(Unhex("ffffffff")), 1982413648u);
  EXPECT_EQ(Murmur3X86_32(Unhex("21436587")), 4116402539u);
  EXPECT_EQ(Murmur3X86_32(Unhex("21436587"), 1350757870u), 593689054u);
}

// Iceberg spec Appendix B, "32-bit Hash Requirements".
TEST(BucketHashTest, AppendixBVectors) {
  EXPECT_EQ(IcebergHashLong(34), 2017239379);       // int and long hash alike
  EXPECT_EQ(IcebergHashDecimal(1420), -500754589);  // 14.20 at scale 2
  EXPECT_EQ(Days(2017, 11, 16), 17486);
  EXPECT_EQ(IcebergHashLong(Days(2017, 11, 16)), -653330422);
  EXPECT_EQ(IcebergHashLong((22 * 3600 + 31 * 60 + 8) * kMicrosPerSecond), -662762989);
  EXPECT_EQ(IcebergHashLong(Micros(2017, 11, 16, 22, 31, 8)), -2047944441);
  // timestamptz 2017-11-16T14:31:08-08:00 is the same UTC instant.
  EXPECT_EQ(IcebergHashLong(Micros(2017, 11, 16, 14, 31, 8) + 8 * 3600 * kMicrosPerSecond),
            -2047944441);
  EXPECT_EQ(IcebergHashBytes("iceberg"), 1210000089);
  EXPECT_EQ(IcebergHashBytes(Unhex("f79c3e09677c4bbda4793f349cb785e7")), 1488055340);
  EXPECT_EQ(IcebergHashBytes(Unhex("00010203")), -188683207);
}

TEST(BucketHashTest, BucketsUseTheJavaMask) {
  EXPECT_EQ(BucketOf(IcebergHashBytes("iceberg"), 16), 9);
  EXPECT_EQ(BucketOf(IcebergHashLong(34), 16), 3);
  EXPECT_EQ(BucketOf(IcebergHashLong(17486), 16), 10);  // negative hash, positive bucket
  EXPECT_EQ(BucketOf(INT32_MIN, 7), 0);
  EXPECT_EQ(BucketOf(-1, 1000), INT32_MAX % 1000);
  for (int32_t h : {-653330422, -188683207, -2047944441, INT32_MIN, -1}) {
    EXPECT_GE(BucketOf(h, 13), 0);
  }
}

TEST(TemporalTest, SpecExamples) {
  const int64_t day = Days(2017, 11, 16);
  EXPECT_EQ(YearsFromDays(day), 47);
  EXPECT_EQ(MonthsFromDays(day), 574);
  EXPECT_EQ(DaysFromMicros(Micros(2017, 11, 16, 22, 31, 8)), 17486);
  EXPECT_EQ(HoursFromMicros(Micros(2017, 11, 16, 22, 31, 8)), 419686);
  EXPECT_EQ(MonthsFromDays(Days(2026, 1, 15)), 672);
  EXPECT_EQ(MonthsFromDays(Days(2026, 2, 1)), 673);
  EXPECT_EQ(MonthsFromDays(Days(2026, 3, 31)), 674);
}

TEST(TemporalTest, PreEpochFloors) {
  const int64_t day = Days(1969, 12, 31);
  EXPECT_EQ(day, -1);
  EXPECT_EQ(YearsFromDays(day), -1);
  EXPECT_EQ(MonthsFromDays(day), -1);
  const int64_t t = Micros(1969, 12, 31, 23, 59, 58);
  EXPECT_EQ(DaysFromMicros(t), -1);
  EXPECT_EQ(HoursFromMicros(t), -1);
  EXPECT_EQ(DaysFromMicros(-1), -1);
  EXPECT_EQ(HoursFromMicros(-1), -1);
  EXPECT_EQ(YearsFromDays(Days(1, 1, 1)), -1969);
  EXPECT_EQ(MonthsFromDays(Days(1969, 1, 1)), -12);
}

TEST(TemporalTest, TickScalingIsChecked) {
  const int64_t largest_seconds = INT64_MAX / 1'000'000;
  EXPECT_EQ(*TicksToMicros(largest_seconds, TimeUnit::kSecond), largest_seconds * 1'000'000);
  EXPECT_FALSE(TicksToMicros(int64_t{1} << 62, TimeUnit::kSecond).ok());
  EXPECT_FALSE(TicksToMicros(-(int64_t{1} << 62), TimeUnit::kSecond).ok());
  EXPECT_FALSE(TicksToMicros(INT64_MAX / 1000 + 1, TimeUnit::kMilli).ok());
  EXPECT_EQ(*TicksToMicros(5, TimeUnit::kMilli), 5000);
  EXPECT_EQ(*TicksToMicros(5, TimeUnit::kMicro), 5);
  EXPECT_EQ(*TicksToMicros(-1, TimeUnit::kNano), -1);  // floor
  EXPECT_EQ(*TicksToMicros(1999, TimeUnit::kNano), 1);
  EXPECT_EQ(*TicksToNanos(5, TimeUnit::kMicro), 5000);
  EXPECT_FALSE(TicksToNanos(INT64_MAX / 100, TimeUnit::kMicro).ok());
}

TEST(TruncateTest, SpecExamples) {
  EXPECT_TRUE(TruncateInteger(1, 10) == 0);
  EXPECT_TRUE(TruncateInteger(-1, 10) == -10);
  EXPECT_TRUE(TruncateInteger(-11, 10) == -20);
  EXPECT_TRUE(TruncateInteger(10, 10) == 10);
  EXPECT_TRUE(TruncateInteger(1065, 50) == 1050);                    // decimal 10.65 → 10.50
  EXPECT_TRUE(TruncateInteger(-2147483648LL, 10) == -2147483650LL);  // exact, no wrap
  const __int128 u64_max = UINT64_MAX;
  EXPECT_TRUE(TruncateInteger(u64_max, 10) == u64_max - 5);
  EXPECT_EQ(TruncateUtf8("iceberg", 3), "ice");
  EXPECT_EQ(TruncateUtf8("\xf0\x9f\x92\xa9"
                         "abc",
                         2),
            "\xf0\x9f\x92\xa9"
            "a");
  EXPECT_EQ(TruncateUtf8("h\xc3\xa9llo", 2), "h\xc3\xa9");
  EXPECT_EQ(TruncateUtf8("ab", 5), "ab");
  EXPECT_EQ(TruncateUtf8("", 1), "");
  EXPECT_EQ(TruncateBinary(Unhex("01020304"), 2), Unhex("0102"));
  EXPECT_EQ(TruncateBinary(Unhex("01"), 2), Unhex("01"));
}

TEST(TransformSpecTest, Parsing) {
  EXPECT_EQ(*ParseTransform("identity", std::nullopt), (Transform{TransformKind::kIdentity, 0}));
  EXPECT_EQ(*ParseTransform("bucket", 16), (Transform{TransformKind::kBucket, 16}));
  EXPECT_EQ(*ParseTransform("truncate", 10), (Transform{TransformKind::kTruncate, 10}));
  EXPECT_EQ(ParseTransform("hour", std::nullopt)->kind, TransformKind::kHour);
  EXPECT_EQ(ParseTransform("bucket", 16)->ToString(), "bucket[16]");
  EXPECT_EQ(ParseTransform("year", std::nullopt)->ToString(), "year");
  const auto message = [](std::string_view name, std::optional<int64_t> param) {
    auto result = ParseTransform(name, param);
    EXPECT_FALSE(result.ok());
    EXPECT_EQ(result.error().code, ErrorCode::kValidation);
    return result.error().message;
  };
  EXPECT_EQ(message("bogus", std::nullopt), "unknown partition transform 'bogus'");
  EXPECT_EQ(message("Bucket", 4), "unknown partition transform 'Bucket'");
  EXPECT_EQ(message("bucket", std::nullopt), "bucket transform requires transform_param (N)");
  EXPECT_EQ(message("truncate", std::nullopt), "truncate transform requires transform_param (W)");
  EXPECT_EQ(message("bucket", 0), "bucket requires a positive bucket count");
  EXPECT_EQ(message("truncate", -3), "truncate requires a positive width");
  EXPECT_EQ(message("day", 3), "day transform takes no transform_param");
  EXPECT_NE(message("bucket", int64_t{1} << 31).find("2147483647"), std::string::npos);
}

std::set<T> Accepted(TransformKind kind) {
  std::set<T> out;
  for (T type : AllColumnTypes()) {
    if (TransformAccepts(kind, type)) out.insert(type);
  }
  return out;
}

TEST(TransformSpecTest, ExactGateSets) {
  EXPECT_EQ(Accepted(TransformKind::kBucket),
            (std::set<T>{T::kInt8, T::kInt16, T::kInt, T::kLong, T::kUInt8, T::kUInt16, T::kDate,
                         T::kTime, T::kTimestamp, T::kTimestamptz, T::kString, T::kUuid, T::kBinary,
                         T::kDecimal}));
  EXPECT_EQ(Accepted(TransformKind::kTruncate),
            (std::set<T>{T::kInt8, T::kInt16, T::kInt, T::kLong, T::kUInt8, T::kUInt16, T::kUInt32,
                         T::kUInt64, T::kString, T::kBinary, T::kDecimal}));
  const std::set<T> dated = {T::kDate,      T::kTimestampS,  T::kTimestampMs,
                             T::kTimestamp, T::kTimestampNs, T::kTimestamptz};
  EXPECT_EQ(Accepted(TransformKind::kYear), dated);
  EXPECT_EQ(Accepted(TransformKind::kMonth), dated);
  EXPECT_EQ(Accepted(TransformKind::kDay), dated);
  EXPECT_EQ(Accepted(TransformKind::kHour),
            (std::set<T>{T::kTimestampS, T::kTimestampMs, T::kTimestamp, T::kTimestampNs,
                         T::kTimestamptz}));
  // identity: every scalar; json allows identity only.
  EXPECT_EQ(Accepted(TransformKind::kIdentity).size(), 23u);
  for (TransformKind kind : {TransformKind::kBucket, TransformKind::kTruncate, TransformKind::kYear,
                             TransformKind::kMonth, TransformKind::kDay, TransformKind::kHour}) {
    EXPECT_FALSE(TransformAccepts(kind, T::kJson));
  }
  EXPECT_TRUE(TransformAccepts(TransformKind::kIdentity, T::kJson));
  EXPECT_FALSE(TransformAccepts(TransformKind::kIdentity, T::kVariant));
  EXPECT_FALSE(TransformAccepts(TransformKind::kIdentity, T::kStruct));
}

TEST(TransformSpecTest, GateMessages) {
  const auto message = [](TransformKind kind, T type) {
    Status status = CheckTransformSource(Transform{kind, 4}, type);
    EXPECT_FALSE(status.ok());
    EXPECT_EQ(status.error().code, ErrorCode::kValidation);
    return status.error().message;
  };
  for (T type : {T::kBoolean, T::kFloat, T::kDouble, T::kJson, T::kVariant, T::kUInt32, T::kUInt64,
                 T::kTimestampS, T::kTimestampMs, T::kTimestampNs}) {
    const std::string m = message(TransformKind::kBucket, type);
    EXPECT_EQ(m.rfind("bucket cannot be applied to column type '" +
                          std::string(ColumnTypeName(type)) + "'",
                      0),
              0u)
        << m;
  }
  EXPECT_EQ(message(TransformKind::kTruncate, T::kDate)
                .rfind("truncate cannot be applied to column type 'date'", 0),
            0u);
  EXPECT_EQ(message(TransformKind::kYear, T::kString)
                .rfind("year transform cannot be applied to column type 'string'", 0),
            0u);
  EXPECT_EQ(message(TransformKind::kHour, T::kDate)
                .rfind("hour transform cannot be applied to column type 'date'", 0),
            0u);
  EXPECT_TRUE(CheckTransformSource(Transform{TransformKind::kBucket, 4}, T::kUuid).ok());
}

}  // namespace
}  // namespace hoglake::iceberg
