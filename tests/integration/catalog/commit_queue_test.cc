// Commit-lock backpressure (contract §1.5, §1.11; server digest §2): a second
// server with HOGLAKE_COMMIT_LOCK_TIMEOUT_MS=300 on its own database of the
// shared PostgreSQL. A libpq session holds a catalog's commit advisory lock;
// commits and DDL of that catalog must then answer 503 commit_queue_timeout
// with Retry-After: 1 and write nothing, and succeed once it is released.
// /metrics must show every wait in hoglake_commit_lock_wait_seconds and each
// timeout in hoglake_commit_queue_timeouts_total.
#include <libpq-fe.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <string>

#include "pg_session.h"
#include "server_fixture.h"

namespace hoglake::testing {
namespace {

// Mirrors src/pg/advisory_locks.h: (class << 32) | (catalog_id & 0xFFFFFFFF).
constexpr int64_t kCatalogCommitLockClass = 4740871;
int64_t CommitLockKey(int64_t catalog_id) {
  return (kCatalogCommitLockClass << 32) | (catalog_id & 0xFFFFFFFF);
}

using Session = PgSession;

// The value of an unlabelled sample `name` in Prometheus text, -1 if absent.
TEST(CommitQueueTest, HeldCommitLockAnswers503AndWritesNothing) {
  const std::string socket_dir = ServerEnvironment::data_dir() + "/run";
  const std::string db = "commit_queue_" + std::to_string(getpid());
  ASSERT_NO_FATAL_FAILURE(CreateTestDatabase(db));
  char server_dir[] = "/tmp/hoglake-queue-XXXXXX";
  ASSERT_NE(mkdtemp(server_dir), nullptr);
  char lake_dir[] = "/tmp/hoglake-queue-lake-XXXXXX";
  ASSERT_NE(mkdtemp(lake_dir), nullptr);
  const std::string lake = lake_dir;
  ServerProcess server;
  setenv("HOGLAKE_COMMIT_LOCK_TIMEOUT_MS", "300", 1);
  setenv("HOGLAKE_EXPIRY_INTERVAL_MS", "0", 1);  // no background commits during the test
  server.Start(server_dir, {"--database-url", TestDatabaseUrl(db)});
  unsetenv("HOGLAKE_COMMIT_LOCK_TIMEOUT_MS");
  unsetenv("HOGLAKE_EXPIRY_INTERVAL_MS");
  ASSERT_TRUE(server.running());
  const std::string url = server.base_url();
  auto call = [&](const std::string& method, const std::string& path,
                  const std::string& body = "") { return CallServer(url, method, path, body); };
  const std::string c = "/v1/catalogs/lake";
  auto head = [&] { return call("GET", c).json["head_snapshot_id"].GetInt64(); };

  int lock_waits = 0;  // request-path commit-lock acquisitions made below
  ASSERT_EQ(
      call("POST", "/v1/catalogs", R"({"name":"lake","data_path":"file://)" + lake + "/\"}").status,
      201);
  ASSERT_EQ(call("POST", c + "/namespaces", R"({"name":"ns"})").status, 201);
  ASSERT_EQ(call("POST", c + "/namespaces/ns/tables",
                 R"({"name":"events","columns":[{"name":"id","type":"long"}]})")
                .status,
            201);
  lock_waits += 3;
  std::ofstream(lake + "/f1.parquet") << "parquet bytes";
  const std::string commit = R"({"appends":[{"namespace":"ns","table":"events","files":[)"
                             R"({"path":"file://)" +
                             lake + R"(/f1.parquet","record_count":2,"file_size_bytes":13}]}]})";
  const std::string alter = R"({"ops":[{"op":"add_column","column":{"name":"v","type":"int"}}]})";
  const int64_t before = head();

  Session holder("host=" + socket_dir + " port=5432 user=hoglake dbname=" + db);
  ASSERT_TRUE(holder.ok());
  const int64_t catalog_id = holder.Int("SELECT catalog_id FROM hog_catalog WHERE name = 'lake'");
  holder.Run("BEGIN");
  holder.Run("SELECT pg_advisory_xact_lock(" + std::to_string(CommitLockKey(catalog_id)) + ")");

  ApiResponse blocked = call("POST", c + "/commit", commit);
  EXPECT_EQ(blocked.status, 503) << blocked.body;
  EXPECT_EQ(blocked.error(), "commit_queue_timeout") << blocked.body;
  EXPECT_EQ(blocked.header_retry_after, "1");
  ApiResponse blocked_ddl = call("POST", c + "/namespaces/ns/tables/events/alter", alter);
  EXPECT_EQ(blocked_ddl.status, 503) << blocked_ddl.body;
  EXPECT_EQ(blocked_ddl.error(), "commit_queue_timeout") << blocked_ddl.body;
  EXPECT_EQ(blocked_ddl.header_retry_after, "1");
  lock_waits += 2;
  const int timeouts = 2;
  // Nothing written: the head did not move and the file is not registered.
  EXPECT_EQ(head(), before);
  ApiResponse files = call("GET", c + "/namespaces/ns/tables/events/files");
  ASSERT_TRUE(files.json.IsArray()) << files.body;
  EXPECT_EQ(files.json.Size(), 0u);

  holder.Run("COMMIT");  // releases the xact lock
  // DDL first: add_column is refused once pending-stats files are live.
  ApiResponse altered = call("POST", c + "/namespaces/ns/tables/events/alter", alter);
  EXPECT_EQ(altered.status, 200) << altered.body;
  EXPECT_EQ(head(), before + 1);
  ApiResponse accepted = call("POST", c + "/commit", commit);
  EXPECT_EQ(accepted.status, 200) << accepted.body;
  EXPECT_EQ(head(), before + 2);
  lock_waits += 2;

  const std::string metrics = call("GET", "/metrics").body;
  EXPECT_NE(metrics.find("# TYPE hoglake_commit_lock_wait_seconds histogram\n"), std::string::npos);
  EXPECT_GE(MetricSample(metrics, "hoglake_commit_lock_wait_seconds_count"), lock_waits) << metrics;
  // Both timed-out waits lasted at least the 300 ms bound.
  EXPECT_GE(MetricSample(metrics, "hoglake_commit_lock_wait_seconds_sum"), 0.29 * timeouts)
      << metrics;
  EXPECT_EQ(MetricSample(metrics, "hoglake_commit_queue_timeouts_total"), timeouts) << metrics;

  server.Stop();
}

}  // namespace
}  // namespace hoglake::testing
