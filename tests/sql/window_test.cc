// Window functions end to end over MemoryLake: answers written out from
// PostgreSQL, plus what the oracle corpus (tests/sql_oracle/corpus/
// window.test) cannot show — EXPLAIN, refusals, the memory budget,
// cancellation, column pruning and that cumulative frames stay linear.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "memory_lake.h"

namespace hoglake::sql::testing {
namespace {

using Rows = std::vector<std::string>;

std::string Joined(const Rows& rows) {
  std::string text;
  for (const std::string& line : rows) text += line + "\n";
  return text;
}

class WindowTest : public ::testing::Test {
 protected:
  void SetUp() override {
    lake_.CreateTable("s", {{"id", columnar::Int32()},
                            {"g", columnar::Utf8()},
                            {"x", columnar::Int64()},
                            {"d", columnar::Date32()}});
    lake_.Append("s", {{"1", "a", "10", "2024-01-01"},
                       {"2", "a", "20", "2024-01-03"},
                       {"3", "a", "20", "2024-01-04"},
                       {"4", "b", std::nullopt, "2024-01-10"}});
    lake_.Append("s", {{"5", "b", "5", std::nullopt},
                       {"6", std::nullopt, "7", "2024-01-02"},
                       {"7", "a", "30", "2024-01-06"}});
    lake_.CreateTable("none", {{"a", columnar::Int32()}});
    session_ = std::make_unique<Session>(lake_.MakeSessionOptions());
  }

  Rows Run(const std::string& sql) { return RunRows(*session_, sql); }
  std::string Value(const std::string& sql) { return RunValue(*session_, sql); }

  void MakeBig(int rows) {
    std::vector<TestRow> data;
    for (int i = 0; i < rows; ++i) data.push_back({std::to_string(i), std::to_string(i % 10)});
    lake_.CreateTable("big", {{"k", columnar::Int64()}, {"g", columnar::Int32()}});
    lake_.Append("big", data);
  }

  MemoryLake lake_;
  std::unique_ptr<Session> session_;
};

TEST_F(WindowTest, RankingAndPeers) {
  EXPECT_EQ(
      Run("SELECT id, row_number() OVER (PARTITION BY g ORDER BY x), rank() OVER (PARTITION "
          "BY g ORDER BY x), dense_rank() OVER (PARTITION BY g ORDER BY x) FROM s ORDER BY id"),
      (Rows{"1|1|1|1", "2|2|2|2", "3|3|2|2", "4|2|2|2", "5|1|1|1", "6|1|1|1", "7|4|4|3"}));
  // The default frame with ORDER BY runs to the last peer.
  EXPECT_EQ(Run("SELECT id, sum(x) OVER (ORDER BY x) FROM s WHERE g = 'a' ORDER BY id"),
            (Rows{"1|10", "2|50", "3|50", "7|80"}));
  EXPECT_EQ(Run("SELECT id, sum(x) OVER () FROM s WHERE g = 'b' ORDER BY id"),
            (Rows{"4|5", "5|5"}));
}

TEST_F(WindowTest, OffsetsAndValues) {
  EXPECT_EQ(Run("SELECT id, lag(x) OVER w, lead(x, 2, -1) OVER w, first_value(id) OVER w, "
                "last_value(id) OVER w FROM s WHERE g = 'a' WINDOW w AS (ORDER BY id) ORDER BY id"),
            (Rows{"1|NULL|20|1|1", "2|10|30|1|2", "3|20|-1|1|3", "7|20|-1|1|7"}));
  EXPECT_EQ(Run("SELECT id, ntile(3) OVER (ORDER BY id) FROM s ORDER BY id"),
            (Rows{"1|1", "2|1", "3|1", "4|2", "5|2", "6|3", "7|3"}));
}

TEST_F(WindowTest, Frames) {
  EXPECT_EQ(Run("SELECT id, sum(id) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING), "
                "count(*) OVER (ORDER BY id ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) "
                "FROM s WHERE id <= 4 ORDER BY id"),
            (Rows{"1|3|4", "2|6|3", "3|9|2", "4|7|1"}));
  // RANGE over dates with an interval offset; the NULL date's frame is its peers.
  EXPECT_EQ(Run("SELECT id, count(*) OVER (ORDER BY d RANGE BETWEEN interval '2 days' PRECEDING "
                "AND CURRENT ROW) FROM s ORDER BY id"),
            (Rows{"1|1", "2|3", "3|3", "4|1", "5|1", "6|2", "7|2"}));
  EXPECT_EQ(Run("SELECT id, sum(id) OVER (ORDER BY x GROUPS BETWEEN 1 PRECEDING AND CURRENT ROW) "
                "FROM s WHERE g = 'a' ORDER BY id"),
            (Rows{"1|1", "2|6", "3|6", "7|12"}));
}

TEST_F(WindowTest, GroupedDerivedAndOrdered) {
  EXPECT_EQ(Run("SELECT g, sum(x), rank() OVER (ORDER BY sum(x) DESC NULLS LAST) FROM s "
                "GROUP BY g ORDER BY 3"),
            (Rows{"a|80|1", "NULL|7|2", "b|5|3"}));
  EXPECT_EQ(Run("SELECT id FROM (SELECT id, row_number() OVER (PARTITION BY g ORDER BY id DESC) "
                "AS rn FROM s) t WHERE rn = 1 ORDER BY id"),
            (Rows{"5", "6", "7"}));
  EXPECT_EQ(Run("SELECT id, row_number() OVER (ORDER BY id) - 1 FROM s ORDER BY "
                "row_number() OVER (ORDER BY id) DESC LIMIT 2"),
            (Rows{"7|6", "6|5"}));
  EXPECT_EQ(Run("SELECT a, row_number() OVER () FROM none"), Rows{});
}

TEST_F(WindowTest, MisplacedAndRefused) {
  EXPECT_EQ(Value("SELECT id FROM s WHERE row_number() OVER () > 1"),
            "ERROR 42P20: window functions are not allowed in WHERE at position 24");
  EXPECT_EQ(Value("SELECT count(*) FROM s GROUP BY rank() OVER ()").substr(0, 12), "ERROR 42P20:");
  EXPECT_EQ(Value("SELECT sum(rank() OVER ()) FROM s").substr(0, 12), "ERROR 42803:");
  EXPECT_EQ(Value("SELECT rank() FROM s"),
            "ERROR 42809: window function rank requires an OVER clause at position 8");
  EXPECT_EQ(Value("SELECT sum(id) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW "
                  "EXCLUDE TIES) FROM s")
                .substr(0, 12),
            "ERROR 0A000:");
  EXPECT_EQ(Value("SELECT count(DISTINCT g) OVER () FROM s"),
            "ERROR 0A000: DISTINCT is not implemented for window functions at position 8");
  EXPECT_EQ(Value("SELECT sum(id) OVER (ORDER BY g RANGE 1 PRECEDING) FROM s").substr(0, 12),
            "ERROR 0A000:");
  // A correlated subquery's WHERE cannot become a join condition under a window.
  EXPECT_EQ(Value("SELECT id FROM s WHERE id IN (SELECT row_number() OVER () FROM s AS i "
                  "WHERE i.g = s.g)")
                .substr(0, 12),
            "ERROR 0A000:");
}

TEST_F(WindowTest, ExplainShowsTheWindow) {
  std::string plan =
      Joined(Run("EXPLAIN SELECT id, sum(x) OVER (PARTITION BY g ORDER BY id ROWS "
                 "2 PRECEDING) FROM s"));
  EXPECT_NE(plan.find("Window sum(x) OVER (PARTITION BY g ORDER BY id NULLS LAST ROWS BETWEEN 2 "
                      "PRECEDING AND CURRENT ROW)"),
            std::string::npos)
      << plan;
  std::string analyzed =
      Joined(Run("EXPLAIN ANALYZE SELECT row_number() OVER (ORDER BY id) FROM s"));
  EXPECT_NE(analyzed.find("Window"), std::string::npos) << analyzed;
  // A window nobody reads is pruned away.
  std::string pruned =
      Joined(Run("EXPLAIN SELECT id FROM (SELECT id, rank() OVER (ORDER BY x) AS r FROM s) t"));
  EXPECT_EQ(pruned.find("Window"), std::string::npos) << pruned;
}

TEST_F(WindowTest, CumulativeFramesAreLinear) {
  MakeBig(200000);
  auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(Value("SELECT max(s) FROM (SELECT sum(k) OVER (ORDER BY k) AS s, count(*) OVER "
                  "(PARTITION BY g ORDER BY k ROWS BETWEEN 100 PRECEDING AND 100 FOLLOWING) AS "
                  "c, min(k) OVER (ORDER BY k ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) "
                  "AS m FROM big) t"),
            "19999900000");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(20));
}

TEST_F(WindowTest, MemoryBudgetAndCancel) {
  MakeBig(50000);
  SessionOptions options = lake_.MakeSessionOptions();
  options.memory_budget_bytes = 1 << 20;
  Session small(options);
  std::string answer = RunValue(small, "SELECT row_number() OVER (ORDER BY k) FROM big");
  EXPECT_EQ(answer.rfind("ERROR 53200:", 0), 0u) << answer;

  Session session(lake_.MakeSessionOptions());
  std::thread canceller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    session.Cancel();
  });
  auto start = std::chrono::steady_clock::now();
  // max() restarts on every row of a 40,001-row sliding frame: a minute if not stopped.
  answer = RunValue(session,
                    "SELECT count(m) FROM (SELECT max(k) OVER (ORDER BY k ROWS BETWEEN "
                    "20000 PRECEDING AND 20000 FOLLOWING) AS m FROM big) t");
  auto elapsed = std::chrono::steady_clock::now() - start;
  canceller.join();
  EXPECT_EQ(answer, "ERROR 57014: canceling statement due to user request");
  EXPECT_LT(elapsed, std::chrono::seconds(30));
}

}  // namespace
}  // namespace hoglake::sql::testing
