// Hash joins and aggregations run by two workers, large enough that the
// join build and the aggregation's merge split their keys into hash
// partitions (join_table.h, hash_aggregate.cc), against answers computed
// here from the rows themselves and against one worker's: many groups, NULL
// keys, a skewed key, every join kind with unmatched rows on both sides.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <optional>
#include <string>

#include "memory_lake.h"

namespace hoglake::sql::testing {
namespace {

using Rows = std::vector<std::string>;

Rows Sorted(Rows rows) {
  std::sort(rows.begin(), rows.end());
  return rows;
}

// Whether a line of EXPLAIN ANALYZE `plan` holds `text`.
bool PlanShows(const Rows& plan, const std::string& text) {
  return std::any_of(plan.begin(), plan.end(),
                     [&](const std::string& line) { return line.find(text) != std::string::npos; });
}

// fact: k 0 … 59,999; g NULL every 13th row, else 7 every 3rd row (a third
// of the rows on one key), else k % 20,000; s NULL every 17th, else
// "s<k % 25,000>". dim: id NULL every 101st row, else 7 every 1,500th row
// (20 rows), else 2·i; name NULL every 19th, else "s<3·i>". Both in files of
// 10,000 rows, row groups of 2,500, so both workers pull batches.
class ParallelOperatorsTest : public ::testing::Test {
 protected:
  static constexpr int64_t kFactRows = 60000;
  static constexpr int64_t kDimRows = 30000;

  static std::optional<int64_t> FactG(int64_t k) {
    if (k % 13 == 0) return std::nullopt;
    return k % 3 == 0 ? 7 : k % 20000;
  }
  static std::optional<int64_t> DimId(int64_t i) {
    if (i % 101 == 0) return std::nullopt;
    return i % 1500 == 1 ? 7 : 2 * i;
  }
  static std::optional<std::string> Text(std::optional<int64_t> v) {
    if (!v) return std::nullopt;
    return std::to_string(*v);
  }

  void SetUp() override {
    lake_.CreateTable("fact", {{"k", columnar::Int64()}, {"g", columnar::Int64()},
                               {"s", columnar::Utf8()}});
    for (int64_t file = 0; file < kFactRows / 10000; ++file) {
      std::vector<TestRow> rows;
      for (int64_t k = file * 10000; k < (file + 1) * 10000; ++k) {
        std::optional<std::string> s;
        if (k % 17 != 0) s = "s" + std::to_string(k % 25000);
        rows.push_back({std::to_string(k), Text(FactG(k)), s});
      }
      lake_.Append("fact", rows, /*row_group_rows=*/2500);
    }
    lake_.CreateTable("dim", {{"i", columnar::Int64()}, {"id", columnar::Int64()},
                              {"name", columnar::Utf8()}});
    for (int64_t file = 0; file < kDimRows / 10000; ++file) {
      std::vector<TestRow> rows;
      for (int64_t i = file * 10000; i < (file + 1) * 10000; ++i) {
        std::optional<std::string> name;
        if (i % 19 != 0) name = "s" + std::to_string(3 * i);
        rows.push_back({std::to_string(i), Text(DimId(i)), name});
      }
      lake_.Append("dim", rows, /*row_group_rows=*/2500);
    }
    SessionOptions options = lake_.MakeSessionOptions();
    options.threads = 2;
    parallel_ = std::make_unique<Session>(options);
    options.threads = 1;
    serial_ = std::make_unique<Session>(options);
  }

  // The rows of `sql` from two workers, as a multiset, after checking that
  // one worker gives the same multiset.
  Rows Both(const std::string& sql) {
    Rows rows = Sorted(RunRows(*parallel_, sql));
    EXPECT_EQ(rows, Sorted(RunRows(*serial_, sql))) << sql;
    return rows;
  }

  MemoryLake lake_;
  std::unique_ptr<Session> parallel_;
  std::unique_ptr<Session> serial_;
};

TEST_F(ParallelOperatorsTest, AggregationMergesManyGroupsWithNullAndSkewedKeys) {
  struct Group {
    int64_t count = 0;
    int64_t sum = 0;
    int64_t min = INT64_MAX;
    int64_t max = INT64_MIN;
  };
  std::map<std::optional<int64_t>, Group> by_g;
  for (int64_t k = 0; k < kFactRows; ++k) {
    Group& group = by_g[FactG(k)];
    ++group.count;
    group.sum += k;
    group.min = std::min(group.min, k);
    group.max = std::max(group.max, k);
  }
  Rows expected;
  for (const auto& [g, group] : by_g) {
    expected.push_back(StrCat(g ? std::to_string(*g) : "NULL", "|", group.count, "|", group.sum, "|",
                              group.min, "|", group.max));
  }
  EXPECT_EQ(Both("SELECT g, count(*), sum(k), min(k), max(k) FROM fact GROUP BY g"),
            Sorted(expected));

  // Text and integer keys together, each with NULLs: every (s, g) pair.
  std::map<std::pair<std::optional<std::string>, std::optional<int64_t>>, int64_t> by_sg;
  for (int64_t k = 0; k < kFactRows; ++k) {
    std::optional<std::string> s;
    if (k % 17 != 0) s = "s" + std::to_string(k % 25000);
    ++by_sg[{s, FactG(k)}];
  }
  Rows rows = Both("SELECT s, g, count(*) FROM fact GROUP BY s, g");
  EXPECT_EQ(rows.size(), by_sg.size());
  int64_t largest = 0;
  for (const auto& entry : by_sg) largest = std::max(largest, entry.second);
  EXPECT_EQ(Both("SELECT count(*), sum(c), max(c) FROM (SELECT s, g, count(*) AS c FROM fact "
                 "GROUP BY s, g) x"),
            (Rows{StrCat(by_sg.size(), "|", kFactRows, "|", largest)}));

  // One group per row: the merge is split into partitions.
  EXPECT_EQ(Both("SELECT count(*), sum(n), min(k), max(k) FROM (SELECT k, count(*) AS n FROM fact "
                 "GROUP BY k) x"),
            (Rows{"60000|60000|0|59999"}));
  Rows plan = RunRows(*parallel_, "EXPLAIN ANALYZE SELECT k, count(*) FROM fact GROUP BY k");
  EXPECT_TRUE(PlanShows(plan, "partitions=64")) << ::testing::PrintToString(plan);

  // Without keys: one row, also over no rows.
  EXPECT_EQ(Both("SELECT count(*), sum(k), max(g) FROM fact"), (Rows{"60000|1799970000|19999"}));
  EXPECT_EQ(Both("SELECT count(*), sum(k) FROM fact WHERE k < 0"), (Rows{"0|NULL"}));
  EXPECT_EQ(Both("SELECT g, count(*) FROM fact WHERE k < 0 GROUP BY g"), Rows{});
}

TEST_F(ParallelOperatorsTest, EveryJoinKindAgreesOverAPartitionedBuild) {
  std::map<int64_t, int64_t> dim_rows_of;   // id → dim rows
  std::map<int64_t, int64_t> fact_rows_of;  // g → fact rows
  int64_t dim_null = 0, fact_null = 0;
  for (int64_t i = 0; i < kDimRows; ++i) {
    if (auto id = DimId(i)) ++dim_rows_of[*id]; else ++dim_null;
  }
  for (int64_t k = 0; k < kFactRows; ++k) {
    if (auto g = FactG(k)) ++fact_rows_of[*g]; else ++fact_null;
  }
  int64_t pairs = 0, fact_unmatched = fact_null, dim_unmatched = dim_null;
  for (const auto& [g, n] : fact_rows_of) {
    auto it = dim_rows_of.find(g);
    if (it == dim_rows_of.end()) {
      fact_unmatched += n;
    } else {
      pairs += n * it->second;
    }
  }
  for (const auto& [id, n] : dim_rows_of) {
    if (!fact_rows_of.count(id)) dim_unmatched += n;
  }
  const int64_t fact_matched = kFactRows - fact_unmatched;

  const std::string on = " ON f.g = d.id";
  EXPECT_EQ(Both("SELECT count(*) FROM fact f JOIN dim d" + on), (Rows{std::to_string(pairs)}));
  EXPECT_EQ(Both("SELECT count(*), count(d.i) FROM fact f LEFT JOIN dim d" + on),
            (Rows{StrCat(pairs + fact_unmatched, "|", pairs)}));
  EXPECT_EQ(Both("SELECT count(*), count(f.k) FROM fact f RIGHT JOIN dim d" + on),
            (Rows{StrCat(pairs + dim_unmatched, "|", pairs)}));
  EXPECT_EQ(Both("SELECT count(*), count(f.k), count(d.i) FROM fact f FULL JOIN dim d" + on),
            (Rows{StrCat(pairs + fact_unmatched + dim_unmatched, "|", pairs + fact_unmatched, "|",
                         pairs + dim_unmatched)}));
  EXPECT_EQ(Both("SELECT count(*) FROM fact f WHERE EXISTS (SELECT 1 FROM dim d WHERE d.id = f.g)"),
            (Rows{std::to_string(fact_matched)}));
  EXPECT_EQ(Both("SELECT count(*) FROM fact f WHERE NOT EXISTS "
                 "(SELECT 1 FROM dim d WHERE d.id = f.g)"),
            (Rows{std::to_string(kFactRows - fact_matched)}));

  // The rows themselves, build rows never matched (and those whose key is
  // NULL) included, with a residual condition beside the key.
  Rows full = Both("SELECT f.k, d.i FROM fact f FULL JOIN dim d ON f.k = d.id AND d.i % 4 <> 1");
  int64_t both = 0, dim_only = 0;
  for (int64_t i = 0; i < kDimRows; ++i) {
    auto id = DimId(i);
    if (id && *id < kFactRows && i % 4 != 1) ++both; else ++dim_only;
  }
  EXPECT_EQ(static_cast<int64_t>(full.size()), kFactRows + dim_only);
  EXPECT_EQ(std::count_if(full.begin(), full.end(),
                          [](const std::string& r) { return r.find("NULL") == std::string::npos; }),
            both);
  EXPECT_TRUE(std::binary_search(full.begin(), full.end(), std::string("NULL|0")));    // id NULL
  EXPECT_TRUE(std::binary_search(full.begin(), full.end(), std::string("NULL|1501")));  // i % 4 == 1
  EXPECT_TRUE(std::binary_search(full.begin(), full.end(), std::string("40|20")));
  Rows right = Both("SELECT f.s, d.name FROM fact f RIGHT JOIN dim d ON f.s = d.name");
  EXPECT_EQ(right.size(), Both("SELECT f.s, d.name FROM dim d LEFT JOIN fact f ON f.s = d.name").size());

  // A build side of 60,000 rows is split into partitions.
  EXPECT_EQ(Both("SELECT count(*) FROM fact a JOIN fact b ON a.k = b.k AND a.s = b.s"),
            (Rows{std::to_string(kFactRows - (kFactRows + 16) / 17)}));  // s NULL never equals
  Rows plan = RunRows(*parallel_, "EXPLAIN ANALYZE SELECT count(*) FROM fact a JOIN fact b ON a.k = b.k");
  EXPECT_TRUE(PlanShows(plan, "partitions=64")) << ::testing::PrintToString(plan);
}

// The partitioned build and merge count what they hold against the budget.
TEST_F(ParallelOperatorsTest, PartitionedWorkStaysWithinTheMemoryBudget) {
  SessionOptions options = lake_.MakeSessionOptions();
  options.threads = 2;
  options.memory_budget_bytes = 1 << 20;
  Session small(options);
  for (const char* sql : {"SELECT k, count(*) FROM fact GROUP BY k",
                          "SELECT count(*) FROM fact a JOIN fact b ON a.k = b.k"}) {
    std::string answer = RunValue(small, sql);
    EXPECT_EQ(answer.rfind("ERROR 53200:", 0), 0u) << sql << ": " << answer;
  }
  EXPECT_EQ(RunValue(small, "SELECT count(*) FROM fact"), "60000");
}

}  // namespace
}  // namespace hoglake::sql::testing
