// The packed per-file statistics layout (packed_stats.h): round trips,
// ordering, and typed errors for damaged bytes.
#include "catalog/model/packed_stats.h"

#include <gtest/gtest.h>

namespace hoglake::catalog {
namespace {

ColumnStatsInput Input(int64_t field_id, int64_t values, int64_t nulls,
                       std::optional<int64_t> nans = std::nullopt,
                       std::optional<int64_t> size = std::nullopt,
                       std::optional<std::string> lower = std::nullopt,
                       std::optional<std::string> upper = std::nullopt) {
  return ColumnStatsInput{field_id, values, nulls, nans, size, std::move(lower), std::move(upper)};
}

TEST(PackedStatsTest, RoundTripsEveryFieldInFieldIdOrder) {
  const std::string zero_bytes("\0\0\x01", 3);
  const std::vector<ColumnStatsInput> in = {
      Input(7, 100, 3, 2, 4096, std::string("\x01\0\0\0", 4), std::string("\x09\0\0\0", 4)),
      Input(2, 50, 0),
      Input(30, 10, 10, std::nullopt, 12, std::nullopt, zero_bytes),
      Input(5, 1, 0, 0, std::nullopt, std::string(), std::string("z")),
  };
  const std::string packed = PackColumnStats(in);
  Result<std::vector<ColumnStatRow>> rows = UnpackColumnStats(packed);
  ASSERT_TRUE(rows.ok()) << rows.error().message;
  ASSERT_EQ(rows->size(), 4u);
  EXPECT_EQ((*rows)[0].field_id, 2);
  EXPECT_EQ((*rows)[0].value_count, 50);
  EXPECT_FALSE((*rows)[0].nan_count);
  EXPECT_FALSE((*rows)[0].size_bytes);
  EXPECT_FALSE((*rows)[0].lower_bound);
  EXPECT_FALSE((*rows)[0].upper_bound);
  EXPECT_EQ((*rows)[1].field_id, 5);
  EXPECT_EQ((*rows)[1].nan_count, 0);
  ASSERT_TRUE((*rows)[1].lower_bound);
  EXPECT_EQ(*(*rows)[1].lower_bound, "") << "an empty bound is kept, not dropped";
  EXPECT_EQ((*rows)[1].upper_bound, "z");
  EXPECT_EQ((*rows)[2].field_id, 7);
  EXPECT_EQ((*rows)[2].null_count, 3);
  EXPECT_EQ((*rows)[2].nan_count, 2);
  EXPECT_EQ((*rows)[2].size_bytes, 4096);
  EXPECT_EQ((*rows)[2].lower_bound, std::string("\x01\0\0\0", 4));
  EXPECT_EQ((*rows)[2].upper_bound, std::string("\x09\0\0\0", 4));
  EXPECT_EQ((*rows)[3].field_id, 30);
  EXPECT_FALSE((*rows)[3].lower_bound);
  EXPECT_EQ((*rows)[3].upper_bound, zero_bytes);
  EXPECT_EQ((*rows)[3].size_bytes, 12);
}

TEST(PackedStatsTest, LayoutIsBigEndianWithAVersion) {
  const std::string packed = PackColumnStats({Input(0x01020304, 0x05, 0x06, 0x07)});
  const std::string expected = std::string("\x00\x01", 2) +          // version
                               std::string("\x01\x02\x03\x04", 4) +  // field id
                               std::string("\x00\x01", 2) +          // flags: nan_count
                               std::string("\0\0\0\0\0\0\0\x05", 8) +
                               std::string("\0\0\0\0\0\0\0\x06", 8) +
                               std::string("\0\0\0\0\0\0\0\x07", 8);
  EXPECT_EQ(packed, expected);
}

TEST(PackedStatsTest, PackedViewsRepackToTheSameBytes) {
  const std::string packed = PackColumnStats(
      {Input(3, 9, 1, std::nullopt, 7, std::string("a"), std::string("b")), Input(1, 9, 0)});
  std::vector<PackedStat> entries;
  PackedStatsReader reader(packed);
  for (PackedStat s; reader.Next(&s);) entries.push_back(s);
  ASSERT_TRUE(reader.status().ok());
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(PackColumnStats(entries), packed);
}

TEST(PackedStatsTest, EmptyListIsTheVersionAlone) {
  const std::string packed = PackColumnStats(std::vector<ColumnStatsInput>{});
  EXPECT_EQ(packed, std::string("\x00\x01", 2));
  Result<std::vector<ColumnStatRow>> rows = UnpackColumnStats(packed);
  ASSERT_TRUE(rows.ok());
  EXPECT_TRUE(rows->empty());
}

TEST(PackedStatsTest, DamagedBytesAreTypedErrors) {
  const std::string good =
      PackColumnStats({Input(1, 2, 0, std::nullopt, std::nullopt, std::string("abc"))});
  for (size_t cut = 0; cut < good.size(); ++cut) {
    Result<std::vector<ColumnStatRow>> rows = UnpackColumnStats(good.substr(0, cut));
    if (cut == 2) {
      EXPECT_TRUE(rows.ok()) << "the version alone is an empty list";
      continue;
    }
    ASSERT_FALSE(rows.ok()) << "cut at " << cut;
    EXPECT_EQ(rows.error().code, ErrorCode::kInternal);
    EXPECT_NE(rows.error().message.find("corrupt packed column statistics"), std::string::npos);
  }
  std::string bad_version = good;
  bad_version[1] = 9;
  Result<std::vector<ColumnStatRow>> v = UnpackColumnStats(bad_version);
  ASSERT_FALSE(v.ok());
  EXPECT_NE(v.error().message.find("unknown version 9"), std::string::npos);
  std::string bad_flags = good;
  bad_flags[7] = 0x40;  // flags low byte
  Result<std::vector<ColumnStatRow>> f = UnpackColumnStats(bad_flags);
  ASSERT_FALSE(f.ok());
  EXPECT_NE(f.error().message.find("unknown flags"), std::string::npos);
}

}  // namespace
}  // namespace hoglake::catalog
