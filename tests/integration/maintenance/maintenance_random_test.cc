// Randomized interleaving of maintenance with the writes it cleans up after
// (server digest §5, invariant 4): several threads commit files whose objects
// really exist on a file:// lake, claim uploads (registering, abandoning or
// holding them), drop, recreate and truncate tables, change the retention and
// run expiry, cleanup and the upload sweep, against a second server whose
// retirement loop is on. An auditor thread checks all along that no object a
// file row (live or historical) or an active upload claim names disappears;
// checkpoints between rounds check the catalog invariants; at the end, after
// expiry to head, retirement, the sweep and cleanup, everything nothing
// references any more is gone and everything referenced is still there.
//
// Seeded: every failure names the seed; HOGLAKE_TEST_SEED=<n> replays the
// same operation sequences (thread interleaving still varies).
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <random>
#include <set>
#include <thread>

#include "invariants.h"
#include "pg_session.h"
#include "server_fixture.h"

namespace hoglake::testing {
namespace {

constexpr int kThreads = 3;
constexpr int kRounds = 4;
constexpr int kOpsPerThreadPerRound = 60;
// t0 and t1 are also truncated; t2 and t3 are only dropped and recreated, so
// their live files tile their row ids from 0 (ExpectCatalogInvariantsAt).
constexpr int kTables = 4;
constexpr const char* kCatalog = "rnd";

using Rng = std::mt19937_64;

std::string RandomUuid(Rng& rng) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%08x-%04x-4%03x-8%03x-%012llx",
                static_cast<unsigned>(rng() & 0xffffffffu), static_cast<unsigned>(rng() & 0xffffu),
                static_cast<unsigned>(rng() & 0xfffu), static_cast<unsigned>(rng() & 0xfffu),
                static_cast<unsigned long long>(rng() & 0xffffffffffffull));
  return buf;
}

// The paths a file row or an active upload claim of the catalog names.
std::string ReferencedSql() {
  const std::string id =
      std::string("(SELECT catalog_id FROM hog_catalog WHERE name = '") + kCatalog + "')";
  return "SELECT path FROM hog_data_file WHERE catalog_id = " + id +
         " UNION SELECT path FROM hog_upload WHERE catalog_id = " + id + " AND state = 'active'";
}

// What the test wrote and what the server acknowledged, shared by the threads.
struct Ledger {
  std::mutex mutex;
  std::set<std::string> written;     // objects the test wrote and did not remove itself
  std::set<std::string> registered;  // paths an acknowledged commit registered
  std::set<std::string> abandoned;   // claimed paths given up: their objects must go
  std::set<std::string> held;        // claimed paths left active: their objects must stay
  int64_t still_referenced = 0;      // summed over cleanup responses (must stay 0)
  int64_t ops = 0;
};

class RandomMaintenance {
 public:
  RandomMaintenance(std::string url, std::string root, uint64_t seed)
      : url_(std::move(url)), root_(std::move(root)), seed_(seed) {}

  ApiResponse Call(const std::string& method, const std::string& path,
                   const std::string& body = "") const {
    return CallServer(url_, method, path, body);
  }
  std::string C() const { return std::string("/v1/catalogs/") + kCatalog; }
  std::string T(int table) const { return C() + "/namespaces/ns/tables/t" + std::to_string(table); }
  Ledger& ledger() { return ledger_; }

  // One worker's share of a round.
  void Work(int thread, int round) {
    SCOPED_TRACE("seed " + std::to_string(seed_));
    Rng rng(seed_ * 1000003 + round * kThreads + thread);
    // commit, claim, truncate, drop, create, retention, expire, cleanup, sweep
    std::discrete_distribution<int> pick({40, 14, 5, 5, 8, 5, 10, 10, 3});
    for (int i = 0; i < kOpsPerThreadPerRound; ++i) {
      const int table = static_cast<int>(rng() % kTables);
      switch (pick(rng)) {
        case 0:
          CommitFiles(rng, table, thread);
          break;
        case 1:
          ClaimUpload(rng, table, thread);
          break;
        case 2:
          Truncate(table % 2);
          break;
        case 3:
          Expect(Call("DELETE", T(table)), {200, 404, 409}, "drop");
          break;
        case 4:
          Expect(Call("POST", C() + "/namespaces/ns/tables",
                      R"({"name":"t)" + std::to_string(table) +
                          R"(","columns":[{"name":"id","type":"long"}]})"),
                 {201, 409}, "create");
          break;
        case 5: {
          static const char* kRetention[] = {"1", "2", "3600", "null"};
          Expect(
              Call("PATCH", C() + "/options",
                   std::string(R"({"snapshot_retention_seconds":)") + kRetention[rng() % 4] + "}"),
              {200}, "retention");
          break;
        }
        case 6: {
          static const char* kBatch[] = {"1", "3", "10000"};
          Expect(Call("POST", C() + "/maintenance/expire?batch=" + kBatch[rng() % 3]), {200},
                 "expire");
          break;
        }
        case 7: {
          static const char* kBatch[] = {"1", "7", "2000"};
          Cleanup(kBatch[rng() % 3]);
          break;
        }
        default:
          Expect(Call("POST", C() + "/uploads/schedule-expired"), {200}, "schedule-expired");
      }
      std::lock_guard lock(ledger_.mutex);
      ++ledger_.ops;
    }
  }

  ApiResponse Cleanup(const std::string& batch) {
    ApiResponse r = Call("POST", C() + "/maintenance/cleanup?batch=" + batch);
    Expect(r, {200}, "cleanup");
    if (r.status == 200) {
      std::lock_guard lock(ledger_.mutex);
      ledger_.still_referenced += r.json["still_referenced"].GetInt64();
    }
    return r;
  }

  // Runs until `stop`: a path referenced both before and after its object was
  // found missing was referenced all along (paths are never reused, and a
  // reference, once gone, never comes back), so its object was deleted while
  // referenced.
  void Audit(const std::atomic<bool>& stop, std::atomic<int>& audits) {
    SCOPED_TRACE("seed " + std::to_string(seed_));
    PgSession pg(TestPgConninfo(db_));
    ASSERT_TRUE(pg.ok());
    while (!stop) {
      const std::vector<std::string> before = pg.Column(ReferencedSql());
      std::set<std::string> written;
      {
        std::lock_guard lock(ledger_.mutex);
        written = ledger_.written;
      }
      std::vector<std::string> missing;
      for (const std::string& path : before) {
        if (written.contains(path) && !LocalObjectExists(path)) missing.push_back(path);
      }
      if (!missing.empty()) {
        const std::vector<std::string> after_rows = pg.Column(ReferencedSql());
        const std::set<std::string> after(after_rows.begin(), after_rows.end());
        for (const std::string& path : missing) {
          EXPECT_FALSE(after.contains(path)) << "object deleted while referenced: " << path;
        }
      }
      ++audits;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }

  void set_db(const std::string& db) { db_ = db; }

 private:
  void Expect(const ApiResponse& r, std::initializer_list<int> ok, const char* what) {
    for (int status : ok) {
      if (r.status == status) return;
    }
    ADD_FAILURE() << what << ": unexpected " << r.status << " " << r.body;
  }

  std::string NewObject(const std::string& path) {
    std::ofstream(path.substr(7)) << "parquet bytes";
    return path;
  }

  void CommitFiles(Rng& rng, int table, int thread) {
    const int n = 1 + static_cast<int>(rng() % 3);
    std::vector<std::string> paths;
    std::string files;
    for (int i = 0; i < n; ++i) {
      const std::string path = NewObject("file://" + root_ + "/f/w" + std::to_string(thread) + "-" +
                                         RandomUuid(rng) + ".parquet");
      paths.push_back(path);
      files += std::string(i ? "," : "") + R"({"path":")" + path + R"(","record_count":)" +
               std::to_string(1 + rng() % 5) + R"(,"file_size_bytes":13})";
    }
    {
      std::lock_guard lock(ledger_.mutex);
      ledger_.written.insert(paths.begin(), paths.end());
    }
    ApiResponse r = Call("POST", C() + "/commit",
                         R"({"appends":[{"namespace":"ns","table":"t)" + std::to_string(table) +
                             R"(","files":[)" + files + "]}]}");
    std::lock_guard lock(ledger_.mutex);
    if (r.status == 200) {
      ledger_.registered.insert(paths.begin(), paths.end());
      return;
    }
    // The table was dropped (409 table_dropped), or dropped and expired past
    // its drop so its name is unknown (422): the writer removes its objects.
    Expect(r, {409, 422}, "commit");
    for (const std::string& path : paths) {
      ledger_.written.erase(path);
      std::filesystem::remove(path.substr(7));
    }
  }

  // Claim, write the object, then publish it, abandon it or leave it active.
  void ClaimUpload(Rng& rng, int table, int thread) {
    const std::string owner = RandomUuid(rng);
    const std::string id = RandomUuid(rng);
    ApiResponse claim = Call("PUT", C() + "/uploads/" + id,
                             R"({"owner":")" + owner + R"(","prefix":"file://)" + root_ + "/up/w" +
                                 std::to_string(thread) + R"(","file_kind":"data"})");
    Expect(claim, {200}, "claim");
    if (claim.status != 200) return;
    const std::string path = NewObject(claim.json["path"].GetString());
    {
      std::lock_guard lock(ledger_.mutex);
      ledger_.written.insert(path);
    }
    const uint64_t fate = rng() % 10;
    if (fate < 1) {
      std::lock_guard lock(ledger_.mutex);
      ledger_.held.insert(path);
      return;
    }
    if (fate < 7) {
      ApiResponse r =
          Call("POST", C() + "/commit",
               R"({"idempotency_key":")" + owner + R"(","appends":[{"namespace":"ns","table":"t)" +
                   std::to_string(table) + R"(","files":[{"path":")" + path +
                   R"(","record_count":3,"file_size_bytes":13}]}]})");
      if (r.status == 200) {
        std::lock_guard lock(ledger_.mutex);
        ledger_.registered.insert(path);
        return;
      }
      Expect(r, {409, 422}, "claimed commit");  // dropped (and maybe expired): give it up
    }
    ApiResponse abandoned = Call("POST", C() + "/uploads/abandon",
                                 R"({"owner":")" + owner + R"(","paths":[")" + path + R"("]})");
    Expect(abandoned, {200}, "abandon");
    EXPECT_EQ(abandoned.json["abandoned"].GetInt64(), 1) << abandoned.body;
    std::lock_guard lock(ledger_.mutex);
    ledger_.abandoned.insert(path);
  }

  void Truncate(int table) {
    ApiResponse t = Call("GET", T(table));
    if (t.status != 200) return;  // dropped
    Expect(Call("POST",
                T(table) + "/truncate?expected_table_uuid=" + t.json["table_uuid"].GetString()),
           {200, 404, 409}, "truncate");
  }

  std::string url_;
  std::string root_;
  std::string db_;
  uint64_t seed_;
  Ledger ledger_;
};

uint64_t TestSeed() {
  if (const char* fixed = std::getenv("HOGLAKE_TEST_SEED"))
    return std::strtoull(fixed, nullptr, 10);
  return std::random_device{}();
}

TEST(MaintenanceRandomTest, InterleavedWritesAndMaintenanceNeverLoseAReferencedObject) {
  const uint64_t seed = TestSeed();
  SCOPED_TRACE("seed " + std::to_string(seed) + " (replay with HOGLAKE_TEST_SEED)");
  std::printf("MaintenanceRandomTest seed %llu\n", static_cast<unsigned long long>(seed));
  const std::string db = "mrandom_" + std::to_string(getpid());
  ASSERT_NO_FATAL_FAILURE(CreateTestDatabase(db));
  char server_dir[] = "/tmp/hoglake-mrandom-XXXXXX";
  ASSERT_NE(mkdtemp(server_dir), nullptr);
  char lake_dir[] = "/tmp/hoglake-mrandom-lake-XXXXXX";
  ASSERT_NE(mkdtemp(lake_dir), nullptr);
  const std::string root = lake_dir;
  for (const char* sub :
       {"/f", "/up/w0/trino-upload", "/up/w1/trino-upload", "/up/w2/trino-upload"}) {
    std::filesystem::create_directories(root + sub);
  }
  ServerProcess server;
  // Expiry and cleanup run only when the threads say; retirement runs on its own.
  server.Start(server_dir, {"--database-url", TestDatabaseUrl(db)},
               {{"HOGLAKE_EXPIRY_INTERVAL_MS", "0"},
                {"HOGLAKE_RETIREMENT_INTERVAL_MS", "100"},
                {"HOGLAKE_RETIREMENT_BATCH", "4"},
                {"HOGLAKE_RETIREMENT_PAUSE_MS", "0"}});
  ASSERT_TRUE(server.running());
  RandomMaintenance run(server.base_url(), root, seed);
  run.set_db(db);
  ASSERT_EQ(
      run.Call("POST", "/v1/catalogs",
               std::string(R"({"name":")") + kCatalog + R"(","data_path":"file://)" + root + "/\"}")
          .status,
      201);
  ASSERT_EQ(run.Call("POST", run.C() + "/namespaces", R"({"name":"ns"})").status, 201);
  for (int t = 0; t < kTables; ++t) {
    ASSERT_EQ(run.Call("POST", run.C() + "/namespaces/ns/tables",
                       R"({"name":"t)" + std::to_string(t) +
                           R"(","columns":[{"name":"id","type":"long"}]})")
                  .status,
              201);
  }
  PgSession pg(TestPgConninfo(db));
  ASSERT_TRUE(pg.ok());
  Ledger& ledger = run.ledger();

  auto checkpoint = [&](const std::string& when) {
    SCOPED_TRACE(when);
    std::vector<std::string> tiled;  // live tables that are never truncated
    for (int t = 2; t < kTables; ++t) {
      if (run.Call("GET", run.T(t)).status == 200) tiled.push_back("ns.t" + std::to_string(t));
    }
    ExpectCatalogInvariantsAt(server.base_url(), kCatalog, tiled);
    ExpectRowIdRangesDisjoint(pg, kCatalog);
    ExpectLiveTotalsKept(pg, kCatalog);
    ExpectFileRowObjectsExist(pg, kCatalog, LocalObjectExists);
    std::lock_guard lock(ledger.mutex);
    ExpectRemovalBookkeeping(pg, kCatalog, ledger.registered);
    for (const std::string& path : ledger.held) {
      EXPECT_TRUE(LocalObjectExists(path)) << "an active claim's object is gone: " << path;
    }
    EXPECT_EQ(ledger.still_referenced, 0) << "cleanup met a queued path still referenced";
  };

  // What each table showed at a checkpoint's head: while that snapshot is
  // retained, a scan at it must show the same files, every object present.
  struct View {
    int64_t snapshot;
    std::map<int, std::set<std::string>> files;  // by table, for tables live then
  };
  std::vector<View> views;
  int views_checked = 0;
  auto scan_at = [&](int table, int64_t snapshot, std::set<std::string>* files) {
    ApiResponse scan = run.Call("GET", run.T(table) + "/scan?snapshot=" + std::to_string(snapshot));
    if (scan.status != 200) return scan.status;
    for (const auto& f : scan.json.GetArray()) files->insert(f["data_file"]["path"].GetString());
    return 200;
  };
  auto check_views = [&](const std::string& when) {
    SCOPED_TRACE(when);
    const int64_t floor =
        run.Call("GET", run.C() + "/options").json["earliest_snapshot_id"].GetInt64();
    for (const View& view : views) {
      if (view.snapshot < floor) continue;  // expired: no longer readable
      ++views_checked;
      for (const auto& [table, files] : view.files) {
        std::set<std::string> now;
        EXPECT_EQ(scan_at(table, view.snapshot, &now), 200);
        EXPECT_EQ(now, files) << "t" << table << " at retained snapshot " << view.snapshot
                              << " changed (floor " << floor << ")";
        for (const std::string& path : now) {
          EXPECT_TRUE(LocalObjectExists(path))
              << "t" << table << " at retained snapshot " << view.snapshot << " lost " << path;
        }
      }
    }
    View view{run.Call("GET", run.C()).json["head_snapshot_id"].GetInt64(), {}};
    for (int t = 0; t < kTables; ++t) {
      std::set<std::string> files;
      if (scan_at(t, view.snapshot, &files) == 200) view.files[t] = std::move(files);
    }
    views.push_back(std::move(view));
  };

  std::atomic<bool> stop_audit{false};
  std::atomic<int> audits{0};
  std::thread auditor([&] { run.Audit(stop_audit, audits); });
  // A failed ASSERT below returns early: stop and join the auditor then too
  // (a joinable std::thread destroyed would abort the binary, leaving its
  // servers behind instead of reporting the failure).
  struct StopAuditor {
    std::atomic<bool>& stop;
    std::thread& thread;
    ~StopAuditor() {
      stop = true;
      if (thread.joinable()) thread.join();
    }
  } stop_auditor_on_exit{stop_audit, auditor};
  for (int round = 0; round < kRounds; ++round) {
    std::vector<std::thread> workers;
    for (int w = 0; w < kThreads; ++w) workers.emplace_back([&, w] { run.Work(w, round); });
    for (auto& t : workers) t.join();
    checkpoint("after round " + std::to_string(round));
    check_views("after round " + std::to_string(round));
  }

  // Drain: expire everything to head, let retirement take the dropped tables'
  // files, sweep the abandoned claims, then clean until the queue is empty.
  ASSERT_EQ(run.Call("PATCH", run.C() + "/options", R"({"snapshot_retention_seconds":1})").status,
            200);
  const int64_t head = run.Call("GET", run.C()).json["head_snapshot_id"].GetInt64();
  int64_t floor = -1;
  for (int i = 0; i < 50 && floor != head; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(i == 0 ? 1100 : 100));
    ApiResponse r = run.Call("POST", run.C() + "/maintenance/expire");
    ASSERT_EQ(r.status, 200) << r.body;
    floor = r.json["new_earliest_snapshot_id"].GetInt64();
  }
  ASSERT_EQ(floor, head) << "expiry should reach head";
  const std::string live_of_dropped =
      "SELECT count(*) FROM hog_data_file d JOIN hog_table t USING (catalog_id, table_id) "
      "WHERE t.dropped_snapshot IS NOT NULL AND d.end_snapshot IS NULL";
  for (int i = 0; i < 300 && pg.Int(live_of_dropped) > 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  ASSERT_EQ(pg.Int(live_of_dropped), 0) << "retirement should take every dropped table's files\n"
                                        << server.Log();
  EXPECT_EQ(pg.Int("SELECT count(*) FROM hog_data_file WHERE end_snapshot IS NOT NULL"), 0)
      << "expiry to head should purge every ended file row";
  ASSERT_EQ(run.Call("POST", run.C() + "/uploads/schedule-expired?limit=10000").status, 200);
  const std::string undrained = "SELECT count(*) FROM hog_file_removal WHERE drained_at IS NULL";
  for (int i = 0; i < 50 && pg.Int(undrained) > 0; ++i) run.Cleanup("2000");
  EXPECT_EQ(pg.Int(undrained), 0) << "the removal queue should drain";
  stop_audit = true;
  if (auditor.joinable()) auditor.join();
  EXPECT_GT(audits.load(), 0);
  checkpoint("after the drain");

  // Everything referenced is there; everything else the catalog knew is gone.
  const std::vector<std::string> referenced_rows = pg.Column(ReferencedSql());
  const std::set<std::string> referenced(referenced_rows.begin(), referenced_rows.end());
  int64_t kept = 0, removed = 0;
  for (const std::string& path : ledger.written) {
    if (referenced.contains(path)) {
      EXPECT_TRUE(LocalObjectExists(path)) << "referenced object gone: " << path;
      ++kept;
    } else if (ledger.registered.contains(path) || ledger.abandoned.contains(path)) {
      EXPECT_FALSE(LocalObjectExists(path)) << "unreferenced object left behind: " << path;
      ++removed;
    }
  }
  EXPECT_EQ(pg.Int("SELECT count(*) FROM hog_file_removal WHERE drained_outcome = 'absent'"), 0)
      << "no object should have been deleted twice";
  std::printf(
      "MaintenanceRandomTest: %lld ops, %d audits, %d retained views rechecked, %lld objects "
      "kept, %lld removed\n",
      static_cast<long long>(ledger.ops), audits.load(), views_checked,
      static_cast<long long>(kept), static_cast<long long>(removed));
  server.Stop();
  if (!::testing::Test::HasFailure()) {
    std::filesystem::remove_all(server_dir);
    std::filesystem::remove_all(root);
  }
}

// Contract §4.2 step 13: a path with an undrained removal-queue row cannot be
// registered again (409): otherwise a commit can publish a path between
// cleanup's reference check and its delete, and the live file loses its object.
// Contract §4.2: a path with an undrained removal row is refused (409), so a
// commit can never publish an object cleanup is about to delete.
TEST(MaintenanceQueueTest, CommitOfAPathQueuedForRemovalIsRefused) {
  using S = ServerEnvironment;
  const std::string name = NewCatalog();
  const std::string c = "/v1/catalogs/" + name;
  ASSERT_EQ(S::Call("POST", c + "/namespaces", R"({"name":"ns"})").status, 201);
  ApiResponse table = S::Call("POST", c + "/namespaces/ns/tables",
                              R"({"name":"t","columns":[{"name":"id","type":"long"}]})");
  ASSERT_EQ(table.status, 201) << table.body;
  const std::string path = "s3://bucket/" + name + "/queued.parquet";
  const std::string append = R"({"appends":[{"namespace":"ns","table":"t","files":[{"path":")" +
                             path + R"(","record_count":1,"file_size_bytes":1}]}]})";
  ASSERT_EQ(S::Call("POST", c + "/commit", append).status, 200);
  ASSERT_EQ(S::Call("POST", c + "/namespaces/ns/tables/t/truncate?expected_table_uuid=" +
                                table.json["table_uuid"].GetString())
                .status,
            200);
  ASSERT_EQ(S::Call("PATCH", c + "/options", R"({"snapshot_retention_seconds":1})").status, 200);
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  ApiResponse expired = S::Call("POST", c + "/maintenance/expire");
  ASSERT_EQ(expired.status, 200) << expired.body;
  ASSERT_EQ(expired.json["data_files_queued"].GetInt64(), 1) << expired.body;
  const int64_t head = S::Call("GET", c).json["head_snapshot_id"].GetInt64();
  ApiResponse again = S::Call("POST", c + "/commit", append);
  EXPECT_EQ(again.status, 409) << again.body;
  EXPECT_EQ(again.error(), "commit_conflict");
  EXPECT_EQ(S::Call("GET", c).json["head_snapshot_id"].GetInt64(), head);
}

}  // namespace
}  // namespace hoglake::testing
