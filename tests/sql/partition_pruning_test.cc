// Files pruned by their partition values alone (no column statistics),
// counted at the store: identity partitions for =, <, <=, >, >=, IN, OR,
// BETWEEN, IS [NOT] NULL with a NULL partition value among them; day and
// month transforms as ranges of the source column; bucket by the catalog's
// hash for equality and IN; truncate of integers; and partition evolution,
// where each file is read through the spec it was written under. Every
// answer equals the one of the same query written so nothing can prune.
#include <gtest/gtest.h>

#include <set>

#include "common/time_text.h"
#include "counting_stores.h"
#include "iceberg/transforms.h"
#include "memory_lake.h"

namespace hoglake::sql::testing {
namespace {

// `where` with every `column` wrapped in "(column + 0)" (or a cast to text
// and back), which no statistics can prune.
std::string Unprunable(std::string where, const std::string& column, const std::string& wrap) {
  std::string out;
  size_t at = 0;
  for (size_t hit; (hit = where.find(column, at)) != std::string::npos; at = hit + column.size()) {
    out += where.substr(at, hit - at) + wrap;
  }
  return out + where.substr(at);
}

class PartitionPruningTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto stores = std::make_unique<CountingStores>();
    counted_ = stores.get();
    // No footer cache: every file opened reads its footer at the store, even
    // one whose row groups its footer statistics then rule out.
    files_ = CountedLakeFiles(std::move(stores), /*footer_cache_bytes=*/0);
  }

  Session& session() {
    if (!session_) {
      SessionOptions options = lake_.MakeSessionOptions();
      options.files = files_;
      session_ = std::make_unique<Session>(options);
    }
    return *session_;
  }

  // Runs `select … WHERE where`: returns the files it read at the store
  // and checks its rows against the unprunable form of the query.
  size_t FilesRead(const std::string& select, const std::string& where, const std::string& column,
                   const std::string& wrap) {
    counted_->Reset();
    std::vector<std::string> pruned = RunRows(session(), select + " WHERE " + where);
    const size_t read = counted_->files_read().size();
    std::vector<std::string> all = RunRows(session(), select + " WHERE " + Unprunable(where, column, wrap));
    EXPECT_EQ(pruned, all) << where;
    EXPECT_FALSE(!pruned.empty() && pruned[0].rfind("ERROR", 0) == 0) << pruned[0];
    return read;
  }

  MemoryLake lake_;
  CountingStores* counted_ = nullptr;
  std::shared_ptr<LakeFiles> files_;
  std::unique_ptr<Session> session_;
};

// A hundred files, one region each, and one whose region is NULL.
TEST_F(PartitionPruningTest, IdentityValuesPruneFilesWithoutStatistics) {
  lake_.CreateTable("parts", {{"region", columnar::Int32()}, {"k", columnar::Int64()},
                              {"v", columnar::Utf8()}});
  lake_.SetPartitionSpec("parts", {{lake_.FieldId("parts", "region"), "identity", std::nullopt}});
  for (int i = 0; i <= 100; ++i) {
    std::optional<std::string> region = i < 100 ? std::optional(std::to_string(i)) : std::nullopt;
    std::vector<TestRow> rows;
    for (int j = 0; j < 3; ++j) rows.push_back({region, std::to_string(i * 3 + j), "v"});
    lake_.AppendPartitioned("parts", rows, {region});
  }
  const std::string select = "SELECT count(*), sum(k), min(region), max(region) FROM parts";
  const std::string wrap = "(region + 0)";
  auto read = [&](const std::string& where) { return FilesRead(select, where, "region", wrap); };
  EXPECT_EQ(read("region = 42"), 1u);
  EXPECT_EQ(RunValue(session(), select + " WHERE region = 42"), "3|381|42|42");
  EXPECT_EQ(read("region < 10"), 10u);
  EXPECT_EQ(read("region <= 10"), 11u);
  EXPECT_EQ(read("region > 95"), 4u);
  EXPECT_EQ(read("region >= 95"), 5u);
  EXPECT_EQ(read("region IN (3, 7, 200)"), 2u);
  EXPECT_EQ(read("region = 42 OR region = 43"), 2u);
  EXPECT_EQ(read("region BETWEEN 20 AND 29"), 10u);
  EXPECT_EQ(read("region IS NULL"), 1u);
  EXPECT_EQ(read("region IS NOT NULL"), 100u);
  EXPECT_EQ(read("region::bigint = 42"), 1u);  // an order-preserving cast
  EXPECT_EQ(read("region = 1000"), 0u);
  EXPECT_EQ(read("k = 5"), 101u);  // k is no partition source: nothing to prune by
  std::string plan = JoinLines(RunRows(session(), "EXPLAIN ANALYZE " + select + " WHERE region = 42"));
  EXPECT_NE(plan.find("files=1/101 (pruned 100)"), std::string::npos) << plan;
}

TEST_F(PartitionPruningTest, DayAndMonthTransformsBoundTheirSourceColumn) {
  lake_.CreateTable("ticks", {{"ts", columnar::Timestamp(columnar::TimeUnit::kMicro)},
                              {"n", columnar::Int64()}});
  lake_.SetPartitionSpec("ticks", {{lake_.FieldId("ticks", "ts"), "day", std::nullopt}});
  const int64_t march_first = DaysFromCivil(2024, 3, 1);
  for (int i = 0; i < 30; ++i) {
    std::vector<TestRow> rows;
    for (int hour : {0, 13, 23}) {
      std::string day;
      AppendDate(march_first + i, &day);
      rows.push_back({day + " " + (hour < 10 ? "0" : "") + std::to_string(hour) + ":00:00",
                      std::to_string(i * 100 + hour)});
    }
    lake_.AppendPartitioned("ticks", rows, {std::to_string(march_first + i)});
  }
  const std::string select = "SELECT count(*), sum(n), min(ts), max(ts) FROM ticks";
  const std::string wrap = "(ts + interval '0 seconds')";
  auto read = [&](const std::string& where) { return FilesRead(select, where, "ts", wrap); };
  EXPECT_EQ(read("ts >= '2024-03-05' AND ts < '2024-03-06'"), 1u);
  EXPECT_EQ(read("ts = '2024-03-10 13:00:00'"), 1u);
  EXPECT_EQ(read("ts < '2024-03-03'"), 2u);
  EXPECT_EQ(read("ts <= '2024-03-03'"), 3u);  // midnight of the 3rd is in its file
  EXPECT_EQ(read("ts BETWEEN '2024-03-05 23:00:00' AND '2024-03-06 00:30:00'"), 2u);
  EXPECT_EQ(read("ts > '2024-03-30 23:59:59.999999'"), 0u);
  EXPECT_EQ(read("ts::date = '2024-03-07'"), 30u);  // a cast that loses order: no pruning

  lake_.CreateTable("daily", {{"d", columnar::Date32()}, {"n", columnar::Int64()}});
  lake_.SetPartitionSpec("daily", {{lake_.FieldId("daily", "d"), "month", std::nullopt}});
  // 1969-11 … 1970-02 (months −2 … 1) and 2023's twelve.
  std::vector<std::pair<int64_t, int>> months = {{1969, 11}, {1969, 12}, {1970, 1}, {1970, 2}};
  for (int m = 1; m <= 12; ++m) months.emplace_back(2023, m);
  for (auto [year, month] : months) {
    std::vector<TestRow> rows;
    const int64_t first = DaysFromCivil(year, month, 1);
    const int64_t last = (month == 12 ? DaysFromCivil(year + 1, 1, 1) : DaysFromCivil(year, month + 1, 1)) - 1;
    for (int64_t day : {first, first + 14, last}) {
      std::string text;
      AppendDate(day, &text);
      rows.push_back({text, std::to_string(day)});
    }
    lake_.AppendPartitioned("daily", rows, {std::to_string((year - 1970) * 12 + month - 1)});
  }
  const std::string daily = "SELECT count(*), sum(n), min(d), max(d) FROM daily";
  const std::string date_wrap = "(d + 0)";
  auto daily_read = [&](const std::string& where) { return FilesRead(daily, where, "d", date_wrap); };
  EXPECT_EQ(daily_read("d >= '2023-06-01' AND d < '2023-07-01'"), 1u);
  EXPECT_EQ(daily_read("d = '2023-02-28'"), 1u);
  EXPECT_EQ(daily_read("d = '1969-12-31'"), 1u);
  EXPECT_EQ(daily_read("d < '1970-01-01'"), 2u);
  EXPECT_EQ(daily_read("d > '2023-11-30'"), 1u);
}

// Identity values of dates, decimals, text and timestamptz read back from
// their wire spellings; hour and year (before 1970 too) as ranges.
TEST_F(PartitionPruningTest, EveryTypesWireSpellingReadsBack) {
  lake_.CreateTable("typed", {{"ts", columnar::Timestamp(columnar::TimeUnit::kMicro)},
                              {"tz", columnar::Timestamp(columnar::TimeUnit::kMicro, "UTC")},
                              {"d", columnar::Date32()},
                              {"y", columnar::Date32()},
                              {"amount", columnar::Decimal128(10, 2)},
                              {"name", columnar::Utf8()}});
  auto id = [&](const char* column) { return lake_.FieldId("typed", column); };
  lake_.SetPartitionSpec("typed", {{id("ts"), "hour", std::nullopt},
                                   {id("tz"), "identity", std::nullopt},
                                   {id("d"), "identity", std::nullopt},
                                   {id("y"), "year", std::nullopt},
                                   {id("amount"), "identity", std::nullopt},
                                   {id("name"), "identity", std::nullopt}});
  const int64_t march_first = DaysFromCivil(2024, 3, 1);
  const int64_t june_1968 = DaysFromCivil(1968, 6, 1);
  for (int i = 0; i < 10; ++i) {
    const int64_t hours = (march_first * 24) + i * 25;  // distinct hours and days
    std::string day;
    AppendDate(hours / 24, &day);
    const std::string hh = (hours % 24 < 10 ? "0" : "") + std::to_string(hours % 24);
    std::string d;
    AppendDate(DaysFromCivil(2020, 1, 1) + i * 200, &d);
    std::string y;
    AppendDate(june_1968 + i * 365, &y);
    const std::string amount = std::to_string(i) + ".50";
    const std::string name = "n" + std::to_string(i);
    const std::string year = std::to_string(CivilFromDays(june_1968 + i * 365).year - 1970);
    lake_.AppendPartitioned("typed", {{day + " " + hh + ":00:00", day + " " + hh + ":00:00+00", d, y, amount, name}},
                            {std::to_string(hours), day + "T" + hh + ":00:00+00:00", d, year, amount, name});
  }
  const std::string select = "SELECT count(*), min(ts), max(d), max(amount), min(name) FROM typed";
  auto read = [&](const std::string& where, const std::string& column, const std::string& wrap) {
    return FilesRead(select, where, column, wrap);
  };
  const std::string ts_wrap = "(ts + interval '0 seconds')";
  EXPECT_EQ(read("ts = '2024-03-02 01:00:00'", "ts", ts_wrap), 1u);
  EXPECT_EQ(read("ts >= '2024-03-02 01:00:00' AND ts < '2024-03-02 02:00:00'", "ts", ts_wrap), 1u);
  // The 01:00 file may hold 01:30: only the hours before it are ruled out.
  EXPECT_EQ(read("ts > '2024-03-02 01:00:00'", "ts", ts_wrap), 9u);
  EXPECT_EQ(read("tz = '2024-03-02 01:00:00+00'", "tz", "(tz + interval '0 seconds')"), 1u);
  EXPECT_EQ(read("d = '2020-07-19'", "d", "(d + 0)"), 1u);
  EXPECT_EQ(read("y < '1970-01-01'", "y", "(y + 0)"), 2u);
  EXPECT_EQ(read("y BETWEEN '1975-01-01' AND '1975-12-31'", "y", "(y + 0)"), 1u);
  EXPECT_EQ(read("amount = 3.5", "amount", "(amount + 0)"), 1u);
  EXPECT_EQ(read("amount > 7", "amount", "(amount + 0)"), 3u);
  EXPECT_EQ(read("name = 'n5'", "name", "(name || '')"), 1u);
  EXPECT_EQ(read("name >= 'n7'", "name", "(name || '')"), 3u);
}

TEST_F(PartitionPruningTest, BucketsRuleOutEqualityConstants) {
  lake_.CreateTable("named", {{"name", columnar::Utf8()}, {"n", columnar::Int64()}});
  lake_.SetPartitionSpec("named", {{lake_.FieldId("named", "name"), "bucket", 4}});
  std::vector<int> bucket_of(40);
  for (int i = 0; i < 40; ++i) {
    const std::string name = "user-" + std::to_string(i);
    bucket_of[i] = iceberg::BucketOf(iceberg::IcebergHashBytes(name), 4);
    lake_.AppendPartitioned("named", {{name, std::to_string(i)}, {name, std::to_string(i + 100)}},
                            {std::to_string(bucket_of[i])});
  }
  auto files_in = [&](std::initializer_list<int> users) {
    std::set<int> buckets;
    for (int u : users) buckets.insert(bucket_of[u]);
    size_t n = 0;
    for (int b : bucket_of) n += buckets.count(b);
    return n;
  };
  ASSERT_LT(files_in({7}), 40u);
  const std::string select = "SELECT count(*), sum(n) FROM named";
  const std::string wrap = "(name || '')";
  auto read = [&](const std::string& where) { return FilesRead(select, where, "name", wrap); };
  EXPECT_EQ(read("name = 'user-7'"), files_in({7}));
  EXPECT_EQ(RunValue(session(), select + " WHERE name = 'user-7'"), "2|114");
  EXPECT_EQ(read("name IN ('user-1', 'user-2')"), files_in({1, 2}));
  EXPECT_EQ(read("name < 'user-2'"), 40u);  // buckets say nothing of order
}

TEST_F(PartitionPruningTest, TruncatedIntegersBoundARange) {
  lake_.CreateTable("sized", {{"size", columnar::Int64()}});
  lake_.SetPartitionSpec("sized", {{lake_.FieldId("sized", "size"), "truncate", 10}});
  for (int base = -50; base < 50; base += 10) {
    lake_.AppendPartitioned("sized", {{std::to_string(base)}, {std::to_string(base + 9)}},
                            {std::to_string(base)});
  }
  const std::string select = "SELECT count(*), sum(size) FROM sized";
  auto read = [&](const std::string& where) { return FilesRead(select, where, "size", "(size + 0)"); };
  EXPECT_EQ(read("size = -41"), 1u);
  EXPECT_EQ(read("size >= 30"), 2u);
  EXPECT_EQ(read("size < -40"), 1u);
}

// Files written under spec 1 (identity of region) and spec 2 (identity of
// k, same position): each is read through its own spec, so the spec-2
// file's value "500" says nothing about region.
TEST_F(PartitionPruningTest, EachFileIsReadThroughItsOwnSpec) {
  lake_.CreateTable("evo", {{"region", columnar::Int32()}, {"k", columnar::Int64()}});
  lake_.SetPartitionSpec("evo", {{lake_.FieldId("evo", "region"), "identity", std::nullopt}});
  for (int r = 0; r < 10; ++r) {
    lake_.AppendPartitioned("evo", {{std::to_string(r), std::to_string(r)}}, {std::to_string(r)});
  }
  lake_.SetPartitionSpec("evo", {{lake_.FieldId("evo", "k"), "identity", std::nullopt}});
  lake_.AppendPartitioned("evo", {{"5", "500"}}, {"500"});
  const std::string select = "SELECT count(*), sum(k) FROM evo";
  auto by_region = [&](const std::string& where) {
    return FilesRead(select, where, "region", "(region + 0)");
  };
  EXPECT_EQ(by_region("region = 5"), 2u);
  EXPECT_GT(lake_.partition_spec_lookups(), 0);  // spec 1 asked for, as of the catalog
  EXPECT_EQ(RunValue(session(), select + " WHERE region = 5"), "2|505");
  EXPECT_EQ(by_region("region = 500"), 1u);  // only the spec-2 file may hold it
  auto by_k = [&](const std::string& where) { return FilesRead(select, where, "k", "(k + 0)"); };
  EXPECT_EQ(by_k("k = 500"), 11u);  // spec-1 files say nothing of k
  EXPECT_EQ(by_k("k = 3"), 10u);    // the spec-2 file is ruled out
}

}  // namespace
}  // namespace hoglake::sql::testing
