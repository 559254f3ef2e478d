// Cleanup's claims under concurrency: several cleanup calls draining one
// catalog's removal queue at once each delete a disjoint set of objects.
// A path claimed twice would be deleted by one caller and found absent by the
// other (drained_outcome 'absent'); a claim that lost rows would leave them
// undrained or their objects on disk. A double claim needs two claim
// statements to overlap in time, so eight callers with small batches run at
// once (a claim that took no row locks failed here in one of two runs).
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "pg_session.h"
#include "server_fixture.h"

namespace hoglake::testing {
namespace {

using S = ServerEnvironment;

TEST(CleanupTest, ConcurrentCallsDeleteEachQueuedObjectExactlyOnce) {
  const TableLake local = NewLocalTableLake("ns", "t");
  ASSERT_FALSE(local.uuid.empty());
  const std::string& lake = local.dir;
  const std::string& name = local.name;
  const std::string& c = local.catalog;
  const std::string& uuid = local.uuid;

  constexpr int kCommits = 3;
  constexpr int kFilesPerCommit = 2000;
  constexpr int64_t kQueued = int64_t{kCommits} * kFilesPerCommit;
  auto append = [&](const std::string& prefix, int files) {
    std::string body = R"({"appends":[{"namespace":"ns","table":"t","files":[)";
    for (int f = 0; f < files; ++f) {
      const std::string file = prefix + std::to_string(f) + ".parquet";
      std::ofstream(lake + "/" + file) << "parquet bytes";
      if (f > 0) body += ',';
      body +=
          R"({"path":"file://)" + lake + "/" + file + R"(","record_count":1,"file_size_bytes":13})";
    }
    body += "]}]}";
    ApiResponse r = S::Call("POST", c + "/commit", body);
    ASSERT_EQ(r.status, 200) << r.body.substr(0, 500);
  };
  for (int i = 0; i < kCommits; ++i) append("old" + std::to_string(i) + "-", kFilesPerCommit);
  ASSERT_EQ(
      S::Call("POST", c + "/namespaces/ns/tables/t/truncate?expected_table_uuid=" + uuid).status,
      200);
  append("kept-", 1);
  ASSERT_EQ(S::Call("PATCH", c + "/options", R"({"snapshot_retention_seconds":1})").status, 200);
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  ApiResponse expired = S::Call("POST", c + "/maintenance/expire");
  ASSERT_EQ(expired.status, 200) << expired.body;
  ASSERT_EQ(expired.json["data_files_queued"].GetInt64(), kQueued);

  // Eight callers, small batches, each until a call finds nothing to claim.
  constexpr int kCallers = 8;
  std::atomic<int64_t> removed{0}, missing{0}, still_referenced{0}, failed_calls{0};
  std::vector<std::thread> callers;
  for (int w = 0; w < kCallers; ++w) {
    callers.emplace_back([&] {
      for (int call = 0; call < 400; ++call) {
        ApiResponse r = S::Call("POST", c + "/maintenance/cleanup?batch=100");
        if (r.status != 200) {
          ++failed_calls;
          return;
        }
        const int64_t got = r.json["removed"].GetInt64();
        const int64_t absent = r.json["missing"].GetInt64();
        const int64_t kept = r.json["still_referenced"].GetInt64();
        removed += got;
        missing += absent;
        still_referenced += kept;
        if (got + absent + kept == 0) return;
      }
    });
  }
  for (std::thread& t : callers) t.join();
  EXPECT_EQ(failed_calls.load(), 0);
  EXPECT_EQ(removed.load(), kQueued);
  EXPECT_EQ(missing.load(), 0) << "an object was deleted by two callers";
  EXPECT_EQ(still_referenced.load(), 0);

  PgSession pg(TestPgConninfo("hoglake"));
  ASSERT_TRUE(pg.ok());
  const std::string id =
      std::to_string(pg.Int("SELECT catalog_id FROM hog_catalog WHERE name = '" + name + "'"));
  EXPECT_EQ(pg.Int("SELECT count(*) FROM hog_file_removal WHERE catalog_id = " + id +
                   " AND drained_at IS NULL"),
            0);
  EXPECT_EQ(pg.Int("SELECT count(*) FROM hog_file_removal WHERE catalog_id = " + id +
                   " AND drained_outcome = 'deleted' AND attempts = 1"),
            kQueued)
      << "every queued path is claimed once and deleted on that claim";

  int64_t left = 0;
  for (const auto& entry : std::filesystem::directory_iterator(lake)) {
    if (entry.path().filename().string().starts_with("old")) ++left;
  }
  EXPECT_EQ(left, 0) << "queued objects left on disk";
  EXPECT_TRUE(std::filesystem::exists(lake + "/kept-0.parquet"))
      << "the live file's object must survive";
  if (!::testing::Test::HasFailure()) std::filesystem::remove_all(lake);
}

}  // namespace
}  // namespace hoglake::testing
