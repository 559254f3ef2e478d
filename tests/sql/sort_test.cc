// ORDER BY on several workers: large sorts with many ties, NULLs, NaN, −0,
// long shared text prefixes, wide numerics, descending and multi-key orders
// and top-N with an offset. Each answer is checked against a reference
// ordering built on CompareValues (PostgreSQL's value order) row pair by
// row pair, against the input as a multiset, and against one worker.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>

#include "memory_lake.h"
#include "sql/function/compare_values.h"
#include "sql/types/value.h"

namespace hoglake::sql::testing {
namespace {

using Rows = std::vector<std::string>;

struct Direction {
  bool descending = false;
  bool nulls_first = false;
};

// Negative, zero or positive as row i sorts before, with or after row j on
// `columns` (one direction each), by PostgreSQL's rules.
int ReferenceCompare(const std::vector<const columnar::ArrayData*>& a, int64_t i,
                     const std::vector<const columnar::ArrayData*>& b, int64_t j,
                     const std::vector<SqlType>& types, const std::vector<Direction>& directions) {
  for (size_t k = 0; k < types.size(); ++k) {
    const bool xn = a[k]->IsNull(i), yn = b[k]->IsNull(j);
    if (xn && yn) continue;
    if (xn != yn) return xn == directions[k].nulls_first ? -1 : 1;
    int c = CompareValues(*a[k], i, types[k], *b[k], j, types[k]);
    if (c != 0) return directions[k].descending ? -c : c;
  }
  return 0;
}

class SortTest : public ::testing::Test {
 protected:
  static constexpr int kRows = 150000;

  void SetUp() override {
    lake_.CreateTable("s", {{"id", columnar::Int64()},
                            {"g", columnar::Int32()},
                            {"d", columnar::Float64()},
                            {"t", columnar::Utf8()},
                            {"n", columnar::Decimal128(38, 4)},
                            {"day", columnar::Date32()},
                            {"b", columnar::Bool()},
                            {"r", columnar::Float32()},
                            {"h", columnar::Int16()}});
    const char* doubles[] = {"NaN", "-0", "0", "1.5", "-2.25", "Infinity", "-Infinity", "1e300"};
    const std::string long_prefix = "a shared prefix longer than any normalized key word ";
    for (int file = 0; file < 5; ++file) {
      std::vector<TestRow> rows;
      for (int i = file * (kRows / 5); i < (file + 1) * (kRows / 5); ++i) {
        const uint32_t x = static_cast<uint32_t>(i) * 2654435761U;  // scrambled, repeatable
        TestRow row;
        row.push_back(std::to_string(i));
        row.push_back(x % 13 == 0 ? std::nullopt : std::optional<std::string>(std::to_string(x % 7)));
        row.push_back(x % 11 == 0 ? std::nullopt : std::optional<std::string>(doubles[(x >> 4) % 8]));
        std::optional<std::string> text;
        switch ((x >> 8) % 6) {
          case 0: break;  // NULL
          case 1: text = ""; break;
          case 2: text = std::to_string(x % 100); break;
          case 3: text = long_prefix + std::to_string(x % 50); break;
          case 4: text = long_prefix; break;
          default: text = "zz" + std::to_string(x % 3); break;
        }
        row.push_back(text);
        // Some numerics beyond 64 bits, so the wide encoding is used.
        std::string numeric = (x % 17 == 0 ? "-" : "") + std::to_string(x % 1000) + "." +
                              std::to_string(x % 10);
        if (x % 29 == 0) numeric = "123456789012345678901234.5678";
        if (x % 31 == 0) numeric = "-98765432109876543210987.0001";
        row.push_back(x % 19 == 0 ? std::nullopt : std::optional<std::string>(numeric));
        row.push_back("2024-0" + std::to_string(1 + x % 9) + "-1" + std::to_string(x % 10));
        row.push_back(x % 23 == 0 ? std::nullopt
                                  : std::optional<std::string>(x % 2 ? "true" : "false"));
        row.push_back(x % 37 == 0 ? "NaN" : std::to_string(static_cast<int>(x % 9) - 4) + ".5");
        row.push_back(std::to_string(static_cast<int>(x % 401) - 200));
        rows.push_back(std::move(row));
      }
      lake_.Append("s", rows, /*row_group_rows=*/7000);
    }
  }

  std::unique_ptr<Session> MakeSession(int threads) {
    SessionOptions options = lake_.MakeSessionOptions();
    options.threads = threads;
    return std::make_unique<Session>(options);
  }

  // Runs `select_keys` ("SELECT id, k1, k2, … FROM s …") ordered as
  // `order_by` says, with `directions` of k1, k2, …, and checks the answer
  // holds every row once (unless limited) in the reference order.
  void ExpectOrdered(Session& session, const std::string& sql,
                     const std::vector<Direction>& directions, int64_t expected_rows) {
    Result<QueryResult> result = session.Execute(sql);
    ASSERT_TRUE(result.ok()) << sql << ": " << result.status().ToString();
    ASSERT_EQ(result->num_rows(), expected_rows) << sql;
    std::vector<SqlType> types;
    for (size_t c = 1; c < result->columns.size(); ++c) types.push_back(result->columns[c].type);
    ASSERT_EQ(types.size(), directions.size()) << sql;
    std::vector<bool> seen(kRows, false);
    std::vector<const columnar::ArrayData*> previous;
    int64_t previous_row = -1;
    int64_t position = 0;
    for (const columnar::RecordBatch& batch : result->batches) {
      std::vector<const columnar::ArrayData*> keys;
      for (int c = 1; c < batch.num_columns(); ++c) keys.push_back(batch.columns[c].get());
      const int64_t* ids = batch.columns[0]->values<int64_t>();
      for (int64_t i = 0; i < batch.num_rows; ++i, ++position) {
        ASSERT_FALSE(seen[ids[i]]) << sql << ": row " << ids[i] << " twice";
        seen[ids[i]] = true;
        if (previous_row >= 0) {
          ASSERT_LE(ReferenceCompare(previous, previous_row, keys, i, types, directions), 0)
              << sql << ": out of order at " << position;
        }
        previous = keys;
        previous_row = i;
      }
    }
  }

  MemoryLake lake_;
};

TEST_F(SortTest, ManyWorkersOrderLikePostgres) {
  const Direction asc, desc{true, true}, asc_nulls_first{false, true}, desc_nulls_last{true, false};
  for (int threads : {4, 3, 1}) {
    SCOPED_TRACE(threads);
    std::unique_ptr<Session> session = MakeSession(threads);
    ExpectOrdered(*session, "SELECT id, d FROM s ORDER BY d", {asc}, kRows);
    ExpectOrdered(*session, "SELECT id, d FROM s ORDER BY d DESC", {desc}, kRows);
    ExpectOrdered(*session, "SELECT id, r, h FROM s ORDER BY r DESC NULLS LAST, h", {desc_nulls_last, asc}, kRows);
    ExpectOrdered(*session, "SELECT id, t FROM s ORDER BY t", {asc}, kRows);
    ExpectOrdered(*session, "SELECT id, t, g FROM s ORDER BY t DESC, g NULLS FIRST", {desc, asc_nulls_first}, kRows);
    ExpectOrdered(*session, "SELECT id, n FROM s ORDER BY n DESC", {desc}, kRows);
    ExpectOrdered(*session, "SELECT id, g, n, d FROM s ORDER BY g, n NULLS FIRST, d DESC NULLS LAST",
                  {asc, asc_nulls_first, desc_nulls_last}, kRows);
    ExpectOrdered(*session, "SELECT id, b, day, t, d, g FROM s ORDER BY b DESC, day, t NULLS FIRST, d, g DESC",
                  {desc, asc, asc_nulls_first, asc, desc}, kRows);
    // Past the normalized words: the rest is compared value by value.
    ExpectOrdered(*session, "SELECT id, n, t, d, g, day FROM s ORDER BY n, t, d, g, day DESC",
                  {asc, asc, asc, asc, desc}, kRows);
    ExpectOrdered(*session, "SELECT id, day::timestamp - timestamp '2024-03-01 12:00' FROM s ORDER BY 2 DESC",
                  {desc}, kRows);
    ExpectOrdered(*session, "SELECT id, t || g FROM s ORDER BY 2 DESC", {desc}, kRows);
  }
}

// With every key and the unique id ordered the answer is fixed: several
// workers give exactly what one does, and top-N (cutting its buffers back
// past 65,536 rows) gives the full order's slice.
TEST_F(SortTest, ManyWorkersAgreeWithOneAndTopNWithOffset) {
  std::unique_ptr<Session> serial = MakeSession(1);
  const std::string order = " ORDER BY g DESC NULLS LAST, t, d DESC, n NULLS FIRST, id";
  const std::string full = "SELECT id, g, t, d, n FROM s" + order;
  const Rows expected = RunRows(*serial, full);
  ASSERT_EQ(expected.size(), static_cast<size_t>(kRows));
  for (int threads : {2, 4}) {
    SCOPED_TRACE(threads);
    std::unique_ptr<Session> parallel = MakeSession(threads);
    EXPECT_EQ(RunRows(*parallel, full), expected);
    for (auto [limit, offset] : {std::pair{10, 0}, {25, 1000}, {70000, 5000}, {3, 149990}}) {
      const Rows top = RunRows(*parallel, full + " LIMIT " + std::to_string(limit) + " OFFSET " +
                                              std::to_string(offset));
      const size_t end = std::min<size_t>(expected.size(), offset + limit);
      EXPECT_EQ(top, Rows(expected.begin() + offset, expected.begin() + end))
          << "LIMIT " << limit << " OFFSET " << offset;
    }
  }
}

// A sort over a scan holds the scan's row groups, each counted once however
// many morsels were cut from it, and emits morsels owning their buffers, so
// a result well inside the budget is not refused.
TEST_F(SortTest, SortedScanCountsEachRowGroupOnce) {
  lake_.CreateTable("one_group", {{"k", columnar::Int64()}});
  std::vector<TestRow> rows;
  for (int i = 0; i < 100000; ++i) rows.push_back({std::to_string((i * 7919) % 100000)});
  lake_.Append("one_group", rows, /*row_group_rows=*/100000);
  SessionOptions options = lake_.MakeSessionOptions();
  options.threads = 2;
  options.memory_budget_bytes = 8 << 20;
  Session session(options);
  Result<QueryResult> result = session.Execute("SELECT k FROM one_group ORDER BY k DESC");
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  ASSERT_EQ(result->num_rows(), 100000);
  EXPECT_EQ(result->batches.front().columns[0]->values<int64_t>()[0], 99999);
  EXPECT_EQ(result->batches.back().columns[0]->values<int64_t>()[result->batches.back().num_rows - 1], 0);
  // Still refused when the rows themselves do not fit.
  options.memory_budget_bytes = 1 << 20;
  Session small(options);
  EXPECT_EQ(RunValue(small, "SELECT k FROM one_group ORDER BY k").rfind("ERROR 53200:", 0), 0u);
}

}  // namespace
}  // namespace hoglake::sql::testing
