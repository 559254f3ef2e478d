// kill -9 of the server in the middle of expiry and of cleanup (server digest
// §5.1, §5.2): a second server on its own database of the shared PostgreSQL
// and a file:// lake of real objects, thousands of expirable snapshots and
// queued removals, the maintenance POST fired and the server SIGKILLed at
// several delays. After every restart no reference is lost (every file row's
// object exists, every purged row's path is queued, the catalog invariants
// hold, the floor never moved back); then the job resumes and completes: the
// floor reaches head, every ended row is purged, the queue drains and exactly
// the unreferenced objects are gone.
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include "invariants.h"
#include "pg_session.h"
#include "server_fixture.h"

namespace hoglake::testing {
namespace {

constexpr const char* kCatalog = "crash";
const std::string kC = "/v1/catalogs/crash";

// A second server (restartable) on a scratch database, with a file:// lake.
class CrashLake {
 public:
  explicit CrashLake(const std::string& tag) : db_(tag + "_" + std::to_string(getpid())) {}
  ~CrashLake() {
    if (server_.running()) server_.Kill9();
    if (!::testing::Test::HasFailure()) {
      std::filesystem::remove_all(server_dir_);
      std::filesystem::remove_all(root_);
    }
  }

  // Creates the database, the directories, the catalog and namespace ns with
  // tables `tables`.
  void Create(const std::vector<std::string>& tables) {
    ASSERT_NO_FATAL_FAILURE(CreateTestDatabase(db_));
    char server_dir[] = "/tmp/hoglake-mcrash-XXXXXX";
    ASSERT_NE(mkdtemp(server_dir), nullptr);
    server_dir_ = server_dir;
    char lake_dir[] = "/tmp/hoglake-mcrash-lake-XXXXXX";
    ASSERT_NE(mkdtemp(lake_dir), nullptr);
    root_ = lake_dir;
    std::filesystem::create_directories(root_ + "/f");
    ASSERT_NO_FATAL_FAILURE(Start());
    pg_ = std::make_unique<PgSession>(TestPgConninfo(db_));
    ASSERT_TRUE(pg_->ok());
    ASSERT_EQ(
        Call("POST", "/v1/catalogs",
             std::string(R"({"name":")") + kCatalog + R"(","data_path":"file://)" + root_ + "/\"}")
            .status,
        201);
    ASSERT_EQ(Call("POST", kC + "/namespaces", R"({"name":"ns"})").status, 201);
    for (const std::string& t : tables) {
      ASSERT_EQ(Call("POST", kC + "/namespaces/ns/tables",
                     R"({"name":")" + t + R"(","columns":[{"name":"id","type":"long"}]})")
                    .status,
                201);
    }
  }

  // Starts (or restarts) the server; `loop_ms` > 0 turns the expiry+cleanup loop on.
  void Start(int64_t loop_ms = 0) {
    server_.Start(server_dir_, {"--database-url", TestDatabaseUrl(db_)},
                  {{"HOGLAKE_EXPIRY_INTERVAL_MS", std::to_string(loop_ms)},
                   {"HOGLAKE_CLEANUP_CLAIM_LEASE_SECONDS", "1"}});
    ASSERT_TRUE(server_.running());
  }

  ApiResponse Call(const std::string& method, const std::string& path,
                   const std::string& body = "") const {
    return CallServer(server_.base_url(), method, path, body);
  }

  // `commits` appends of `files` new objects each to ns.<table>, from two
  // threads; every path acknowledged joins registered().
  void CommitMany(const std::string& table, int commits, int files) {
    std::mutex mutex;
    std::vector<std::thread> writers;
    for (int w = 0; w < 2; ++w) {
      writers.emplace_back([&, w] {
        for (int i = w; i < commits; i += 2) {
          std::vector<std::string> paths;
          std::string list;
          for (int j = 0; j < files; ++j) {
            const std::string name = table + "-" + std::to_string(next_batch_) + "-" +
                                     std::to_string(i) + "-" + std::to_string(j) + ".parquet";
            std::ofstream(root_ + "/f/" + name) << "parquet bytes";
            paths.push_back("file://" + root_ + "/f/" + name);
            list += std::string(j ? "," : "") + R"({"path":")" + paths.back() +
                    R"(","record_count":2,"file_size_bytes":13})";
          }
          ApiResponse r = Call("POST", kC + "/commit",
                               R"({"appends":[{"namespace":"ns","table":")" + table +
                                   R"(","files":[)" + list + "]}]}");
          ASSERT_EQ(r.status, 200) << r.body;
          std::lock_guard lock(mutex);
          registered_.insert(paths.begin(), paths.end());
        }
      });
    }
    for (auto& t : writers) t.join();
    ++next_batch_;
  }

  void Truncate(const std::string& table) {
    ApiResponse t = Call("GET", kC + "/namespaces/ns/tables/" + table);
    ASSERT_EQ(t.status, 200) << t.body;
    ASSERT_EQ(Call("POST", kC + "/namespaces/ns/tables/" + table +
                               "/truncate?expected_table_uuid=" + t.json["table_uuid"].GetString())
                  .status,
              200);
  }

  // Fires `path` (a maintenance POST) and SIGKILLs the server after `delay`;
  // the status the POST saw (-1 when the kill cut it off).
  int KillDuring(const std::string& path, std::chrono::milliseconds delay) {
    std::atomic<int> status{0};
    std::thread request([&] { status = Call("POST", path).status; });
    std::this_thread::sleep_for(delay);
    server_.Kill9();
    request.join();
    return status;
  }

  // What must hold after any crash: the catalog invariants over `tiled`
  // tables, row ids, every file row's object, every once-registered path
  // still tracked, no path queued twice.
  void ExpectNoLostReference(const std::vector<std::string>& tiled) {
    ExpectCatalogInvariantsAt(server_.base_url(), kCatalog, tiled);
    ExpectRowIdRangesDisjoint(*pg_, kCatalog);
    ExpectLiveTotalsKept(*pg_, kCatalog);
    ExpectFileRowObjectsExist(*pg_, kCatalog, LocalObjectExists);
    ExpectRemovalBookkeeping(*pg_, kCatalog, registered_);
    EXPECT_EQ(pg_->Int("SELECT count(*) FROM (SELECT path FROM hog_file_removal GROUP BY path "
                       "HAVING count(*) > 1) twice"),
              0)
        << "a path was queued twice";
  }

  int64_t Floor() { return pg_->Int("SELECT earliest_snapshot_id FROM hog_catalog"); }
  int64_t Head() { return pg_->Int("SELECT last_snapshot_id FROM hog_catalog"); }
  int64_t Undrained() {
    return pg_->Int("SELECT count(*) FROM hog_file_removal WHERE drained_at IS NULL");
  }

  PgSession& pg() { return *pg_; }
  ServerProcess& server() { return server_; }
  const std::set<std::string>& registered() const { return registered_; }

 private:
  std::string db_;
  std::string server_dir_;
  std::string root_;
  ServerProcess server_;
  std::unique_ptr<PgSession> pg_;
  std::set<std::string> registered_;
  int next_batch_ = 0;
};

// Kill delays: from "before the job starts" to "after it has finished".
const std::vector<int> kDelaysMs = {0, 10, 30, 60, 100, 160, 250, 400};

TEST(MaintenanceCrashTest, KillNineDuringExpiryLosesNoReferenceAndExpiryResumes) {
  CrashLake lake("mcrash_expiry");
  ASSERT_NO_FATAL_FAILURE(lake.Create({"t", "keep"}));
  // ~2,000 snapshots; t's 3,800 files all end at the truncate.
  lake.CommitMany("t", 1900, 2);
  lake.CommitMany("keep", 100, 1);
  ASSERT_NO_FATAL_FAILURE(lake.Truncate("t"));
  lake.CommitMany("t", 10, 1);
  const int64_t head = lake.Head();
  ASSERT_GT(head, 2000);
  ASSERT_EQ(lake.Call("PATCH", kC + "/options", R"({"snapshot_retention_seconds":1})").status, 200);
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));

  int64_t floor = lake.Floor();
  int cut = 0;
  for (size_t round = 0; round < kDelaysMs.size(); ++round) {
    SCOPED_TRACE("kill after " + std::to_string(kDelaysMs[round]) + " ms");
    // Small batches move the floor a little per run; the big one crosses the
    // truncate and purges thousands of rows in pages.
    const std::string batch = round % 2 == 0 ? "300" : "10000";
    const int status = lake.KillDuring(kC + "/maintenance/expire?batch=" + batch,
                                       std::chrono::milliseconds(kDelaysMs[round]));
    cut += status == -1;
    ASSERT_NO_FATAL_FAILURE(lake.Start());
    const int64_t now = lake.Floor();
    EXPECT_GE(now, floor) << "the floor moved back";
    EXPECT_LE(now, head);
    floor = now;
    std::printf("expiry killed after %d ms (status %d): floor %lld, %lld ended rows, %lld queued\n",
                kDelaysMs[round], status, static_cast<long long>(floor),
                static_cast<long long>(lake.pg().Int(
                    "SELECT count(*) FROM hog_data_file WHERE end_snapshot IS NOT NULL")),
                static_cast<long long>(lake.pg().Int("SELECT count(*) FROM hog_file_removal")));
    lake.ExpectNoLostReference({"ns.keep"});
    if (::testing::Test::HasFailure()) break;
  }
  std::printf("expiry: %d of %zu runs cut off by the kill; floor %lld of head %lld\n", cut,
              kDelaysMs.size(), static_cast<long long>(floor), static_cast<long long>(head));

  // The job resumes and completes.
  for (int i = 0; i < 20 && lake.Floor() != head; ++i) {
    ApiResponse r = lake.Call("POST", kC + "/maintenance/expire");
    ASSERT_EQ(r.status, 200) << r.body;
  }
  EXPECT_EQ(lake.Floor(), head) << "expiry should reach head";
  ApiResponse last = lake.Call("POST", kC + "/maintenance/expire");  // purges leftovers
  ASSERT_EQ(last.status, 200) << last.body;
  EXPECT_EQ(lake.pg().Int("SELECT count(*) FROM hog_data_file WHERE end_snapshot IS NOT NULL"), 0)
      << "every ended row should be purged";
  EXPECT_EQ(lake.pg().Int("SELECT count(*) FROM hog_file_removal"), 3800)
      << "each truncated file queued exactly once";
  EXPECT_EQ(lake.pg().Int("SELECT count(*) FROM hog_snapshot"), 1);
  lake.ExpectNoLostReference({"ns.keep"});
  // And cleanup then removes exactly the truncated files' objects.
  for (int i = 0; i < 10 && lake.Undrained() > 0; ++i) {
    ASSERT_EQ(lake.Call("POST", kC + "/maintenance/cleanup").status, 200);
  }
  EXPECT_EQ(lake.Undrained(), 0);
  int64_t gone = 0;
  for (const std::string& path : lake.registered()) gone += !LocalObjectExists(path);
  EXPECT_EQ(gone, 3800);
  lake.ExpectNoLostReference({"ns.keep"});
  lake.server().Stop();
}

TEST(MaintenanceCrashTest, KillNineDuringCleanupDeletesNothingReferencedAndTheQueueDrains) {
  CrashLake lake("mcrash_cleanup");
  ASSERT_NO_FATAL_FAILURE(lake.Create({"t", "keep"}));
  // 6,000 objects queued for removal, 300 live ones beside them.
  lake.CommitMany("t", 60, 100);
  lake.CommitMany("keep", 30, 10);
  ASSERT_NO_FATAL_FAILURE(lake.Truncate("t"));
  lake.CommitMany("t", 10, 1);
  ASSERT_EQ(lake.Call("PATCH", kC + "/options", R"({"snapshot_retention_seconds":1})").status, 200);
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  ApiResponse expired = lake.Call("POST", kC + "/maintenance/expire");
  ASSERT_EQ(expired.status, 200) << expired.body;
  ASSERT_EQ(lake.Undrained(), 6000) << expired.body;

  int cut = 0;
  for (size_t round = 0; round < kDelaysMs.size(); ++round) {
    SCOPED_TRACE("kill after " + std::to_string(kDelaysMs[round]) + " ms");
    const int status = lake.KillDuring(kC + "/maintenance/cleanup?batch=1500",
                                       std::chrono::milliseconds(kDelaysMs[round]));
    cut += status == -1;
    ASSERT_NO_FATAL_FAILURE(lake.Start());
    std::printf("cleanup killed after %d ms (status %d): %lld rows left claimed, %lld undrained\n",
                kDelaysMs[round], status,
                static_cast<long long>(lake.pg().Int(
                    "SELECT count(*) FROM hog_file_removal WHERE claimed_by IS NOT NULL")),
                static_cast<long long>(lake.Undrained()));
    lake.ExpectNoLostReference({"ns.keep"});
    // New writes between crashes must survive what follows.
    lake.CommitMany("keep", 2, 3);
    if (::testing::Test::HasFailure()) break;
  }
  const int64_t stranded =
      lake.pg().Int("SELECT count(*) FROM hog_file_removal WHERE claimed_by IS NOT NULL");
  std::printf(
      "cleanup: %d of %zu runs cut off by the kill; %lld rows left claimed; %lld undrained\n", cut,
      kDelaysMs.size(), static_cast<long long>(stranded), static_cast<long long>(lake.Undrained()));

  // The loop resumes: rows a killed worker claimed come back once the lease
  // (1 s here) lapses, and the queue drains.
  lake.server().Kill9();
  ASSERT_NO_FATAL_FAILURE(lake.Start(/*loop_ms=*/200));
  for (int i = 0; i < 300 && lake.Undrained() > 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  EXPECT_EQ(lake.Undrained(), 0) << "the removal queue should drain\n" << lake.server().Log();
  EXPECT_EQ(lake.pg().Int("SELECT count(*) FROM hog_file_removal WHERE drained_outcome NOT IN "
                          "('deleted', 'absent')"),
            0);
  lake.ExpectNoLostReference({"ns.keep"});
  const std::vector<std::string> live_rows =
      lake.pg().Column("SELECT path FROM hog_data_file WHERE end_snapshot IS NULL");
  const std::set<std::string> live(live_rows.begin(), live_rows.end());
  int64_t gone = 0;
  for (const std::string& path : lake.registered()) {
    if (live.contains(path)) {
      EXPECT_TRUE(LocalObjectExists(path)) << "a live file's object is gone: " << path;
    } else {
      EXPECT_FALSE(LocalObjectExists(path)) << "an unreferenced object was left: " << path;
      ++gone;
    }
  }
  EXPECT_EQ(gone, 6000);
  lake.server().Stop();
}

}  // namespace
}  // namespace hoglake::testing
