// The server outlives its database (pg/embedded_postgres.h, server
// error mapping in http_types.h):
//   * kill -9 of the embedded postmaster: the server restarts it by itself;
//     while it is down every 503 is `database_unavailable` (or /healthz's
//     "db unreachable") with Retry-After and no internal detail (no data
//     directory path, no socket name, no connection string); writes in
//     flight get that 503, never a 500; within 30 s /healthz is 200 again,
//     new commits succeed, everything acknowledged before is still there,
//     and the maintenance loop and metrics sampler run again;
//   * commits waiting inside PostgreSQL (for a catalog's commit lock) when
//     it dies answer that 503 too, and the pool's idle connections to the
//     dead server are never handed out once it is back;
//   * the same twice in a row (the second restart after backoff);
//   * an external --database-url that goes away answers the same 503s and
//     is reconnected to once it is back (nothing restarted by the server).
#include <signal.h>
#include <unistd.h>

#include <libpq-fe.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "pg_session.h"
#include "server_fixture.h"

namespace hoglake::testing {
namespace {

using Clock = std::chrono::steady_clock;

// A server stopped when the test ends however it ends (a failed ASSERT
// returns early), so none outlives the test binary.
class Server : public ServerProcess {
 public:
  ~Server() {
    if (running()) Stop();
  }
};

std::string NewDir(const char* name) {
  std::string pattern = std::string("/tmp/hoglake-") + name + "-XXXXXX";
  EXPECT_NE(mkdtemp(pattern.data()), nullptr);
  return pattern;
}

pid_t PostmasterPid(const std::string& dir) {
  std::ifstream in(dir + "/pg/postmaster.pid");
  pid_t pid = 0;
  in >> pid;
  return pid;
}

int Count(const std::string& text, const std::string& needle) {
  int n = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

// The server's log once it holds `needle` at least `count` times, waiting up
// to 10 s: the supervisor writes its "restarted" line just after the new
// postmaster accepts connections, so a client can be served before it.
template <typename ServerT>
std::string AwaitLogCount(const ServerT& server, const std::string& needle, int count) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  std::string log = server.Log();
  while (Count(log, needle) < count && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    log = server.Log();
  }
  return log;
}

// One lake on one server: catalog `name` with namespace ns and table t.
struct Lake {
  std::string url;
  std::string name;
  std::string catalog() const { return "/v1/catalogs/" + name; }
  std::string table() const { return catalog() + "/namespaces/ns/tables/t"; }
};

Lake MakeLake(const std::string& url, const std::string& name) {
  Lake lake{url, name};
  EXPECT_EQ(CallServer(url, "POST", "/v1/catalogs",
                       R"({"name":")" + name + R"(","data_path":"s3://b/)" + name + R"("})")
                .status,
            201);
  EXPECT_EQ(CallServer(url, "POST", lake.catalog() + "/namespaces", R"({"name":"ns"})").status,
            201);
  EXPECT_EQ(CallServer(url, "POST", lake.catalog() + "/namespaces/ns/tables",
                       R"({"name":"t","columns":[{"name":"id","type":"long"}]})")
                .status,
            201);
  return lake;
}

ApiResponse Commit(const Lake& lake, const std::string& file) {
  const std::string path = "s3://b/" + lake.name + "/" + file + ".parquet";
  return CallServer(lake.url, "POST", lake.catalog() + "/commit",
                    R"({"appends":[{"namespace":"ns","table":"t","files":[{"path":")" + path +
                        R"(","record_count":3,"file_size_bytes":30}]}]})");
}

// What the server answered while its database was (possibly) down.
class Answers {
 public:
  // `secrets`: texts no response body may contain.
  explicit Answers(std::vector<std::string> secrets) : secrets_(std::move(secrets)) {}

  // Records one answer to `what`; returns whether it was a 503.
  bool Check(const std::string& what, const ApiResponse& r, bool health) {
    std::lock_guard lock(mutex_);
    for (const std::string& secret : secrets_) {
      EXPECT_EQ(r.body.find(secret), std::string::npos)
          << what << " leaks '" << secret << "': " << r.status << " " << r.body;
    }
    if (r.status == 200 || r.status == 201) return false;
    EXPECT_EQ(r.status, 503) << what << ": " << r.body;  // never a 500, never a dropped request
    if (r.status != 503) return false;
    ++unavailable_;
    EXPECT_EQ(r.header_retry_after, "1") << what << ": " << r.body;
    if (health) {
      EXPECT_EQ(r.body, "db unreachable") << what;
    } else {
      EXPECT_EQ(r.error(), "database_unavailable") << what << ": " << r.body;
      EXPECT_NE(r.body.find("\"detail\""), std::string::npos) << what << ": " << r.body;
    }
    return true;
  }
  int unavailable() {
    std::lock_guard lock(mutex_);
    return unavailable_;
  }

 private:
  const std::vector<std::string> secrets_;
  std::mutex mutex_;
  int unavailable_ = 0;
};

// Writers committing to `lake` until stopped; every answer is checked, and
// the files of acknowledged commits are kept.
class Writers {
 public:
  // Files are named after `tag`, so each round of writers writes new paths.
  Writers(const Lake& lake, Answers* answers, int count, const std::string& tag) {
    for (int w = 0; w < count; ++w) {
      threads_.emplace_back([this, lake, answers, w, tag] {
        for (int i = 0; !stop_; ++i) {
          const std::string file = tag + "-w" + std::to_string(w) + "-" + std::to_string(i);
          ApiResponse r = Commit(lake, file);
          answers->Check("in-flight commit " + file, r, false);
          if (r.status == 200) {
            std::lock_guard lock(mutex_);
            acknowledged_.insert("s3://b/" + lake.name + "/" + file + ".parquet");
          }
          std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
      });
    }
  }
  std::set<std::string> Stop() {
    stop_ = true;
    for (auto& t : threads_) t.join();
    threads_.clear();
    return acknowledged_;
  }
  ~Writers() { Stop(); }

 private:
  std::vector<std::thread> threads_;
  std::atomic<bool> stop_{false};
  std::mutex mutex_;
  std::set<std::string> acknowledged_;
};

// Polls `lake`'s server until /healthz is 200 and a commit succeeds, checking
// every answer on the way. Returns whether it did within `bound`; the files
// of every commit acknowledged meanwhile go to `acknowledged`.
bool AwaitRecovery(const Lake& lake, Answers* answers, const std::string& tag,
                   std::set<std::string>* acknowledged,
                   std::chrono::seconds bound = std::chrono::seconds(30)) {
  const auto deadline = Clock::now() + bound;
  for (int i = 0; Clock::now() < deadline; ++i) {
    ApiResponse health = CallServer(lake.url, "GET", "/healthz");
    answers->Check("GET /healthz", health, true);
    answers->Check("GET catalog", CallServer(lake.url, "GET", lake.catalog()), false);
    answers->Check("GET snapshots", CallServer(lake.url, "GET", lake.catalog() + "/snapshots"),
                   false);
    const std::string file = tag + "-" + std::to_string(i);
    ApiResponse commit = Commit(lake, file);
    answers->Check("commit " + file, commit, false);
    if (commit.status == 200) acknowledged->insert("s3://b/" + lake.name + "/" + file + ".parquet");
    if (health.status == 200 && commit.status == 200) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return false;
}

// Every acknowledged file is live exactly once, and the snapshots are dense
// from the catalog's creation to its head.
void ExpectAllThere(const Lake& lake, const std::set<std::string>& acknowledged) {
  ApiResponse scan = CallServer(lake.url, "GET", lake.table() + "/scan");
  ASSERT_EQ(scan.status, 200) << scan.body;
  std::set<std::string> live;
  for (const auto& f : scan.json.GetArray()) {
    EXPECT_TRUE(live.insert(f["data_file"]["path"].GetString()).second)
        << "registered twice: " << f["data_file"]["path"].GetString();
  }
  for (const std::string& path : acknowledged) EXPECT_TRUE(live.contains(path)) << "lost: " << path;
  ApiResponse catalog = CallServer(lake.url, "GET", lake.catalog());
  ASSERT_EQ(catalog.status, 200) << catalog.body;
  // 0 = catalog, 1 = namespace, 2 = table, then one per commit that took.
  const int64_t head = catalog.json["head_snapshot_id"].GetInt64();
  EXPECT_EQ(head, 2 + static_cast<int64_t>(live.size()));
  // The history from before the outage is listed: namespace, table, the
  // first commit (the listing starts after snapshot 0).
  ApiResponse snapshots = CallServer(lake.url, "GET", lake.catalog() + "/snapshots?limit=3");
  ASSERT_EQ(snapshots.status, 200) << snapshots.body;
  ASSERT_EQ(snapshots.json["snapshots"].Size(), 3u) << snapshots.body;
  const char* kinds[] = {"namespace_created", "table_created", "table_inserted_into"};
  for (rapidjson::SizeType i = 0; i < 3; ++i) {
    const auto& snapshot = snapshots.json["snapshots"][i];
    EXPECT_EQ(snapshot["snapshot_id"].GetInt64(), i + 1) << snapshots.body;
    EXPECT_STREQ(snapshot["changes"][0]["kind"].GetString(), kinds[i]) << snapshots.body;
  }
}

// Kills the postmaster of the server on `dir` and waits until the server
// has recovered, with writers in flight; returns the files acknowledged.
std::set<std::string> KillAndRecover(const ServerProcess& server, const std::string& dir,
                                     const Lake& lake, const std::string& tag) {
  Answers answers({dir, ".s.PGSQL", "host=", "dbname="});
  const pid_t postmaster = PostmasterPid(dir);
  EXPECT_GT(postmaster, 0);
  if (postmaster <= 0) return {};
  Writers writers(lake, &answers, 2, tag);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));  // commits in flight
  EXPECT_EQ(kill(postmaster, SIGKILL), 0);
  const auto killed = Clock::now();
  std::set<std::string> after;
  EXPECT_TRUE(AwaitRecovery(lake, &answers, tag + "-after", &after))
      << "no recovery within 30 s:\n" << server.Log();
  std::set<std::string> acknowledged = writers.Stop();
  acknowledged.insert(after.begin(), after.end());
  // The outage was seen, and the server really runs a new postmaster.
  EXPECT_GT(answers.unavailable(), 0);
  EXPECT_NE(PostmasterPid(dir), postmaster);
  EXPECT_LT(Clock::now() - killed, std::chrono::seconds(30));
  return acknowledged;
}

std::string Metrics(const std::string& url) { return CallServer(url, "GET", "/metrics").body; }

constexpr const char* kExpiryRunsOk =
    "hoglake_maintenance_runs_total{task=\"expiry\",trigger=\"loop\",status=\"ok\"}";

// Starts a server whose maintenance loop and metrics sampler tick fast.
void StartFastServer(ServerProcess& server, const std::string& dir,
                     const std::vector<std::string>& args = {}) {
  server.Start(dir, args,
               {{"HOGLAKE_EXPIRY_INTERVAL_MS", "200"},
                {"HOGLAKE_METRICS_SAMPLE_INTERVAL_MS", "200"}});
}

// Both background loops succeed again after the outage: the sampler takes
// new samples and the expiry loop completes new runs.
void ExpectLoopsRunAgain(const std::string& url) {
  const std::string before = Metrics(url);
  const double sampled = MetricSample(before, "hoglake_metrics_last_sample_epoch");
  const double expiry_runs = MetricSample(before, kExpiryRunsOk);
  const auto deadline = Clock::now() + std::chrono::seconds(15);
  bool sampler = false, expiry = false;
  while (Clock::now() < deadline && !(sampler && expiry)) {
    const std::string now = Metrics(url);
    sampler = MetricSample(now, "hoglake_metrics_last_sample_epoch") > sampled;
    expiry = MetricSample(now, kExpiryRunsOk) > expiry_runs;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  EXPECT_TRUE(sampler) << "the metrics sampler did not sample again";
  EXPECT_TRUE(expiry) << "the maintenance loop did not run again";
}

TEST(DatabaseRecoveryTest, KilledEmbeddedPostgresIsRestartedAndServesAgain) {
  const std::string dir = NewDir("pgkill");
  Server server;
  StartFastServer(server, dir);
  ASSERT_TRUE(server.running()) << server.Log();
  const Lake lake = MakeLake(server.base_url(), "kill1");
  // A retention long enough that expiry never removes a snapshot: the loop
  // runs (and is counted) but keeps the history this test checks.
  ASSERT_EQ(CallServer(server.base_url(), "PATCH", lake.catalog() + "/options",
                       R"({"snapshot_retention_seconds":86400})")
                .status,
            200);
  ASSERT_EQ(Commit(lake, "before").status, 200);
  std::set<std::string> acknowledged = {"s3://b/kill1/before.parquet"};

  const std::set<std::string> during = KillAndRecover(server, dir, lake, "after");
  acknowledged.insert(during.begin(), during.end());
  ExpectAllThere(lake, acknowledged);
  ExpectLoopsRunAgain(server.base_url());
  const std::string log = AwaitLogCount(server, "embedded PostgreSQL restarted", 1);
  EXPECT_NE(log.find("embedded PostgreSQL restarted"), std::string::npos) << log;
  EXPECT_EQ(log.find("unhandled exception"), std::string::npos) << log;
  server.Stop();
  if (!::testing::Test::HasFailure()) std::filesystem::remove_all(dir);
}

// Mirrors src/pg/advisory_locks.h: (class << 32) | (catalog_id & 0xFFFFFFFF).
int64_t CommitLockKey(int64_t catalog_id) {
  constexpr int64_t kCatalogCommitLockClass = 4740871;
  return (kCatalogCommitLockClass << 32) | (catalog_id & 0xFFFFFFFF);
}

TEST(DatabaseRecoveryTest, CommitsWaitingInsideTheDatabaseWhenItDiesAnswer503) {
  const std::string dir = NewDir("pgkill-inflight");
  Server server;
  server.Start(dir);
  ASSERT_TRUE(server.running()) << server.Log();
  const Lake lake = MakeLake(server.base_url(), "inflight");
  ASSERT_EQ(Commit(lake, "before").status, 200);
  // A session of our own holds the catalog's commit lock, so the commits
  // sent next wait inside PostgreSQL, each on a connection of the pool.
  PgSession holder("host=" + dir + "/run port=5432 user=hoglake dbname=hoglake");
  ASSERT_TRUE(holder.ok());
  const int64_t catalog_id =
      holder.Int("SELECT catalog_id FROM hog_catalog WHERE name = 'inflight'");
  holder.Run("BEGIN");
  holder.Run("SELECT pg_advisory_xact_lock(" + std::to_string(CommitLockKey(catalog_id)) + ")");
  constexpr int kWaiting = 3;
  std::vector<ApiResponse> answers(kWaiting);
  std::vector<std::thread> commits;
  for (int i = 0; i < kWaiting; ++i) {
    commits.emplace_back([&, i] { answers[i] = Commit(lake, "waiting-" + std::to_string(i)); });
  }
  // Group commit may put them in one transaction: at least one waits.
  const auto deadline = Clock::now() + std::chrono::seconds(10);
  int64_t waiting = 0;
  while (Clock::now() < deadline && waiting == 0) {
    waiting =
        holder.Int("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted");
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ASSERT_GT(waiting, 0);
  const pid_t postmaster = PostmasterPid(dir);
  ASSERT_GT(postmaster, 0);
  ASSERT_EQ(kill(postmaster, SIGKILL), 0);
  for (auto& t : commits) t.join();
  Answers checked({dir, ".s.PGSQL", "host=", "dbname="});
  for (int i = 0; i < kWaiting; ++i) {
    SCOPED_TRACE(i);
    EXPECT_TRUE(checked.Check("waiting commit", answers[i], false)) << answers[i].body;
  }
  // The server recovers, and none of the waiting commits was applied.
  std::set<std::string> acknowledged = {"s3://b/inflight/before.parquet"};
  ASSERT_TRUE(AwaitRecovery(lake, &checked, "after", &acknowledged))
      << "no recovery within 30 s:\n" << server.Log();
  ExpectAllThere(lake, acknowledged);
  ApiResponse scan = CallServer(lake.url, "GET", lake.table() + "/scan");
  EXPECT_EQ(scan.body.find("waiting-"), std::string::npos) << scan.body;
  EXPECT_EQ(scan.json.Size(), acknowledged.size()) << scan.body;
  server.Stop();
  if (!::testing::Test::HasFailure()) std::filesystem::remove_all(dir);
}

// `threads` clients each reading the catalog `rounds` times at once: the
// pool opens a connection per concurrent request. Returns the statuses
// that were not 200.
std::vector<int> ConcurrentReads(const Lake& lake, int threads, int rounds) {
  std::mutex mutex;
  std::vector<int> failed;
  std::vector<std::thread> readers;
  for (int t = 0; t < threads; ++t) {
    readers.emplace_back([&] {
      for (int i = 0; i < rounds; ++i) {
        const ApiResponse r = CallServer(lake.url, "GET", lake.table() + "/scan");
        if (r.status != 200) {
          std::lock_guard lock(mutex);
          failed.push_back(r.status);
        }
      }
    });
  }
  for (auto& t : readers) t.join();
  return failed;
}

TEST(DatabaseRecoveryTest, IdleConnectionsOfTheDeadServerAreNotHandedOut) {
  const std::string dir = NewDir("pgkill-idle");
  Server server;
  server.Start(dir, {}, {{"HOGLAKE_EXPIRY_INTERVAL_MS", "0"}});
  ASSERT_TRUE(server.running()) << server.Log();
  const Lake lake = MakeLake(server.base_url(), "idle");
  ASSERT_EQ(Commit(lake, "before").status, 200);
  // Fill the pool with idle connections, then kill their server.
  EXPECT_TRUE(ConcurrentReads(lake, 12, 5).empty());
  const pid_t postmaster = PostmasterPid(dir);
  ASSERT_GT(postmaster, 0);
  ASSERT_EQ(kill(postmaster, SIGKILL), 0);
  // Wait for the restart without touching the pool (/healthz has its own
  // connection).
  const auto deadline = Clock::now() + std::chrono::seconds(30);
  bool healthy = false;
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  while (Clock::now() < deadline && !healthy) {
    healthy = CallServer(lake.url, "GET", "/healthz").status == 200;
    if (!healthy) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ASSERT_TRUE(healthy) << server.Log();
  ASSERT_NE(PostmasterPid(dir), postmaster);
  // Every pooled connection died with the old server: none is handed out.
  const std::vector<int> failed = ConcurrentReads(lake, 12, 5);
  EXPECT_TRUE(failed.empty()) << failed.size() << " reads failed, the first with "
                              << (failed.empty() ? 0 : failed[0]);
  EXPECT_EQ(Commit(lake, "after").status, 200);
  server.Stop();
  if (!::testing::Test::HasFailure()) std::filesystem::remove_all(dir);
}

TEST(DatabaseRecoveryTest, KilledTwiceInARowRecoversTwice) {
  const std::string dir = NewDir("pgkill2");
  Server server;
  StartFastServer(server, dir);
  ASSERT_TRUE(server.running()) << server.Log();
  const Lake lake = MakeLake(server.base_url(), "kill2");
  ASSERT_EQ(Commit(lake, "before").status, 200);
  std::set<std::string> acknowledged = {"s3://b/kill2/before.parquet"};
  // The second kill comes right after the first recovery: the supervisor
  // backs off longer, and recovers again.
  for (const char* round : {"first", "second"}) {
    SCOPED_TRACE(round);
    const std::set<std::string> during = KillAndRecover(server, dir, lake, round);
    acknowledged.insert(during.begin(), during.end());
  }
  ExpectAllThere(lake, acknowledged);
  const std::string log = AwaitLogCount(server, "embedded PostgreSQL restarted", 2);
  EXPECT_EQ(Count(log, "embedded PostgreSQL restarted"), 2) << log;
  // Shutdown is clean after the restarts (ServerProcess::Stop checks exit 0),
  // and leaves no postmaster behind.
  const pid_t postmaster = PostmasterPid(dir);
  server.Stop();
  EXPECT_TRUE(postmaster <= 0 || kill(postmaster, 0) != 0) << "postmaster " << postmaster;
  if (!::testing::Test::HasFailure()) std::filesystem::remove_all(dir);
}

TEST(DatabaseRecoveryTest, ShutdownWhileARestartIsPendingIsClean) {
  const std::string dir = NewDir("pgkill3");
  Server server;
  server.Start(dir);
  ASSERT_TRUE(server.running()) << server.Log();
  const pid_t postmaster = PostmasterPid(dir);
  ASSERT_GT(postmaster, 0);
  ASSERT_EQ(kill(postmaster, SIGKILL), 0);
  // Stop at once, while the supervisor waits to restart (or is restarting).
  server.Stop();  // expects a clean exit
  const pid_t left = PostmasterPid(dir);
  EXPECT_TRUE(left <= 0 || left == postmaster || kill(left, 0) != 0) << "postmaster " << left;
  // The data directory is usable again.
  Server again;
  again.Start(dir);
  ASSERT_TRUE(again.running()) << again.Log();
  EXPECT_EQ(CallServer(again.base_url(), "GET", "/healthz").status, 200);
  again.Stop();
  if (!::testing::Test::HasFailure()) std::filesystem::remove_all(dir);
}

TEST(DatabaseRecoveryTest, ExternalDatabaseOutageAnswers503AndReconnects) {
  // A server of our own plays the external database: stopping it takes its
  // PostgreSQL away for as long as the test wants; starting it on the same
  // directory brings the database back on the same socket.
  const std::string db_dir = NewDir("extdb");
  Server database;
  database.Start(db_dir);
  ASSERT_TRUE(database.running()) << database.Log();
  const std::string socket_dir = db_dir + "/run";
  const std::string db = "outage_" + std::to_string(getpid());
  {
    PGconn* conn = PQconnectdb(
        ("host=" + socket_dir + " port=5432 user=hoglake dbname=postgres").c_str());
    ASSERT_EQ(PQstatus(conn), CONNECTION_OK) << PQerrorMessage(conn);
    PGresult* created = PQexec(conn, ("CREATE DATABASE " + db).c_str());
    ASSERT_EQ(PQresultStatus(created), PGRES_COMMAND_OK) << PQerrorMessage(conn);
    PQclear(created);
    PQfinish(conn);
  }
  const std::string url = "postgresql:///" + db + "?host=" + socket_dir + "&user=hoglake";
  const std::string dir = NewDir("extsrv");
  Server server;
  StartFastServer(server, dir, {"--database-url", url});
  ASSERT_TRUE(server.running()) << server.Log();
  const Lake lake = MakeLake(server.base_url(), "ext");
  ASSERT_EQ(CallServer(server.base_url(), "PATCH", lake.catalog() + "/options",
                       R"({"snapshot_retention_seconds":86400})")
                .status,
            200);
  ASSERT_EQ(Commit(lake, "before").status, 200);
  std::set<std::string> acknowledged = {"s3://b/ext/before.parquet"};

  Answers answers({db_dir, ".s.PGSQL", "host=", "dbname=", db});
  {
    Writers writers(lake, &answers, 2, "down");
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    database.Stop();
    // Down for a while: everything that needs the database is a clean 503.
    const auto until = Clock::now() + std::chrono::milliseconds(1500);
    int down = 0;
    for (int i = 0; Clock::now() < until; ++i) {
      down += answers.Check("GET /healthz", CallServer(lake.url, "GET", "/healthz"), true);
      down += answers.Check("GET catalog", CallServer(lake.url, "GET", lake.catalog()), false);
      down += answers.Check("commit", Commit(lake, "poll-" + std::to_string(i)), false);
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    EXPECT_GT(down, 10);
    const std::set<std::string> during = writers.Stop();
    acknowledged.insert(during.begin(), during.end());
  }
  // While down, /healthz said so every time.
  EXPECT_EQ(CallServer(lake.url, "GET", "/healthz").status, 503);

  database.Start(db_dir);
  ASSERT_TRUE(database.running()) << database.Log();
  ASSERT_TRUE(AwaitRecovery(lake, &answers, "back", &acknowledged))
      << "no reconnection within 30 s:\n" << server.Log();
  ExpectAllThere(lake, acknowledged);
  ExpectLoopsRunAgain(server.base_url());
  const std::string log = server.Log();
  EXPECT_EQ(log.find("restarting"), std::string::npos) << log;  // not ours to restart
  EXPECT_FALSE(std::filesystem::exists(dir + "/pg"));
  server.Stop();
  database.Stop();
  if (!::testing::Test::HasFailure()) {
    std::filesystem::remove_all(dir);
    std::filesystem::remove_all(db_dir);
  }
}

}  // namespace
}  // namespace hoglake::testing
