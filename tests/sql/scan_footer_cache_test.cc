// Scans and the footer cache, counted at the store: the first query reads
// every file's footer once, a second query — in another session sharing the
// same LakeFiles, as the query service's queries do — reads none and
// EXPLAIN ANALYZE says its footers were cached; without room in the cache
// every query reads them again; a parallel scan answers the same.
#include <gtest/gtest.h>

#include "counting_stores.h"
#include "memory_lake.h"

namespace hoglake::sql::testing {
namespace {

class ScanFooterCacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    lake_.CreateTable("t", {{"k", columnar::Int64()}, {"v", columnar::Utf8()}});
    for (int f = 0; f < 10; ++f) {
      std::vector<TestRow> rows;
      for (int i = 0; i < 50; ++i) {
        rows.push_back({std::to_string(f * 50 + i), "v" + std::to_string(i % 3)});
      }
      lake_.Append("t", rows, /*row_group_rows=*/20);
    }
  }

  SessionOptions Options(const std::shared_ptr<LakeFiles>& files, int threads = 1) {
    SessionOptions options = lake_.MakeSessionOptions();
    options.files = files;
    options.threads = threads;
    return options;
  }

  MemoryLake lake_;
};

TEST_F(ScanFooterCacheTest, ASecondQueryReadsNoFooter) {
  auto stores = std::make_unique<CountingStores>();
  CountingStores* counted = stores.get();
  std::shared_ptr<LakeFiles> files = CountedLakeFiles(std::move(stores));
  const std::string query = "SELECT v, count(*), sum(k) FROM t GROUP BY v ORDER BY v";
  std::vector<std::string> first_answer;
  {
    Session first(Options(files));
    first_answer = RunRows(first, query);
  }
  EXPECT_EQ(first_answer, (std::vector<std::string>{"v0|170|42330", "v1|170|42500", "v2|160|39920"}));
  EXPECT_EQ(counted->files_read().size(), 10u);
  EXPECT_EQ(counted->footer_reads(), 10);
  EXPECT_EQ(files->footers->counters().entries, 10);

  counted->Reset();
  Session second(Options(files));
  EXPECT_EQ(RunRows(second, query), first_answer);
  EXPECT_EQ(counted->files_read().size(), 10u);  // the row groups, read again
  EXPECT_EQ(counted->footer_reads(), 0);
  std::string plan = JoinLines(RunRows(second, "EXPLAIN ANALYZE SELECT count(*) FROM t WHERE k >= 100"));
  EXPECT_NE(plan.find("files=8/10 (pruned 2)"), std::string::npos) << plan;
  EXPECT_NE(plan.find("footers_cached=8"), std::string::npos) << plan;
  EXPECT_EQ(counted->footer_reads(), 0);
}

TEST_F(ScanFooterCacheTest, WithoutRoomEveryQueryReadsTheFooters) {
  auto stores = std::make_unique<CountingStores>();
  CountingStores* counted = stores.get();
  std::shared_ptr<LakeFiles> files = CountedLakeFiles(std::move(stores), /*footer_cache_bytes=*/0);
  Session session(Options(files));
  EXPECT_EQ(RunValue(session, "SELECT count(*) FROM t"), "500");
  EXPECT_EQ(RunValue(session, "SELECT count(*) FROM t"), "500");
  EXPECT_EQ(counted->footer_reads(), 20);
  std::string plan = JoinLines(RunRows(session, "EXPLAIN ANALYZE SELECT count(*) FROM t"));
  EXPECT_NE(plan.find("footers_cached=0"), std::string::npos) << plan;
}

// Two workers take row groups of the same files; every footer is read once
// however the row groups were shared out, and later queries read none.
TEST_F(ScanFooterCacheTest, AParallelScanReadsEachFooterOnce) {
  lake_.CreateTable("big", {{"k", columnar::Int64()}});
  for (int f = 0; f < 3; ++f) {
    std::vector<TestRow> rows;
    for (int i = 0; i < 60000; ++i) rows.push_back({std::to_string(f * 60000 + i)});
    lake_.Append("big", rows, /*row_group_rows=*/10000);
  }
  auto stores = std::make_unique<CountingStores>();
  CountingStores* counted = stores.get();
  std::shared_ptr<LakeFiles> files = CountedLakeFiles(std::move(stores));
  Session session(Options(files, /*threads=*/2));
  EXPECT_EQ(RunValue(session, "SELECT sum(k) FROM big"), "16199910000");
  EXPECT_EQ(counted->footer_reads(), 3);
  EXPECT_EQ(RunValue(session, "SELECT sum(k) FROM big WHERE k % 2 = 0"), "8099910000");
  EXPECT_EQ(counted->footer_reads(), 3);
}

}  // namespace
}  // namespace hoglake::sql::testing
