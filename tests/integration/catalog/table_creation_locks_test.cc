// Atomic table creation beneath the API (contract §2.10): lazy expiry of a
// prepared operation past expires_at, and lock waits — the catalog commit
// lock on publish, the operation row on status — bounded by the commit-lock
// timeout (503 commit_queue_timeout with Retry-After: 1, nothing written).
// Runs its own server on a scratch database with a short lock timeout.
#include <unistd.h>

#include <cstdlib>

#include "pg_session.h"
#include "server_fixture.h"

namespace hoglake::testing {
namespace {

// Mirrors src/pg/advisory_locks.h: (class << 32) | (catalog_id & 0xFFFFFFFF).
constexpr int64_t kCatalogCommitLockClass = 4740871;

constexpr const char* kOp = "0e000000-0000-4000-8000-000000000001";
constexpr const char* kExpiring = "0e000000-0000-4000-8000-000000000002";

TEST(TableCreationLocksTest, ExpiryAndLockTimeouts) {
  const std::string db = "table_creation_locks_" + std::to_string(getpid());
  ASSERT_NO_FATAL_FAILURE(CreateTestDatabase(db));
  char server_dir[] = "/tmp/hoglake-tc-locks-XXXXXX";
  ASSERT_NE(mkdtemp(server_dir), nullptr);
  ServerProcess server;
  setenv("HOGLAKE_COMMIT_LOCK_TIMEOUT_MS", "300", 1);
  setenv("HOGLAKE_EXPIRY_INTERVAL_MS", "0", 1);  // no background commits during the test
  server.Start(server_dir, {"--database-url", TestDatabaseUrl(db)});
  unsetenv("HOGLAKE_COMMIT_LOCK_TIMEOUT_MS");
  unsetenv("HOGLAKE_EXPIRY_INTERVAL_MS");
  ASSERT_TRUE(server.running());
  auto call = [&](const std::string& method, const std::string& path,
                  const std::string& body = "") {
    return CallServer(server.base_url(), method, path, body);
  };
  const std::string c = "/v1/catalogs/lake";
  ASSERT_EQ(
      call("POST", "/v1/catalogs", R"({"name":"lake","data_path":"s3://bucket/lake"})").status,
      201);
  ASSERT_EQ(call("POST", c + "/namespaces", R"({"name":"web"})").status, 201);
  const std::string body =
      R"({"namespace":"web","name":"events","columns":[{"name":"id","type":"long"}]})";
  ASSERT_EQ(call("PUT", c + "/table-creations/" + kOp, body).status, 200);
  ASSERT_EQ(call("PUT", c + "/table-creations/" + kExpiring, body).status, 200);
  const int64_t head = call("GET", c).json["head_snapshot_id"].GetInt64();

  PgSession pg(TestPgConninfo(db));
  ASSERT_TRUE(pg.ok());
  // Lazy expiry: a prepared operation past expires_at reads as aborted/expired.
  pg.Exec(std::string("UPDATE hog_table_creation SET expires_at = now() - interval '1 second' "
                      "WHERE operation_id = '") +
          kExpiring + "'");
  ApiResponse expired = call("GET", c + "/table-creations/" + kExpiring);
  ASSERT_EQ(expired.status, 200) << expired.body;
  EXPECT_STREQ(expired.json["state"].GetString(), "aborted");
  EXPECT_STREQ(expired.json["reason"].GetString(), "expired");
  ApiResponse publish_expired =
      call("POST", c + "/table-creations/" + kExpiring + "/commit", R"({"files":[]})");
  ASSERT_EQ(publish_expired.status, 200) << publish_expired.body;
  EXPECT_STREQ(publish_expired.json["reason"].GetString(), "expired");

  // The catalog commit lock held elsewhere: publish answers 503, writes nothing.
  const int64_t catalog_id = pg.Int("SELECT catalog_id FROM hog_catalog WHERE name = 'lake'");
  pg.Run("BEGIN");
  pg.Run("SELECT pg_advisory_xact_lock(" +
         std::to_string((kCatalogCommitLockClass << 32) | (catalog_id & 0xFFFFFFFF)) + ")");
  ApiResponse blocked = call("POST", c + "/table-creations/" + kOp + "/commit", R"({"files":[]})");
  EXPECT_EQ(blocked.status, 503) << blocked.body;
  EXPECT_EQ(blocked.error(), "commit_queue_timeout");
  EXPECT_EQ(blocked.header_retry_after, "1");
  pg.Run("COMMIT");

  // The operation row locked elsewhere: status and abort answer 503 too.
  pg.Run("BEGIN");
  pg.Run(std::string("SELECT 1 FROM hog_table_creation WHERE operation_id = '") + kOp +
         "' FOR UPDATE");
  ApiResponse status = call("GET", c + "/table-creations/" + kOp);
  EXPECT_EQ(status.status, 503) << status.body;
  EXPECT_EQ(status.header_retry_after, "1");
  ApiResponse abort = call("POST", c + "/table-creations/" + kOp + "/abort");
  EXPECT_EQ(abort.status, 503) << abort.body;
  pg.Run("COMMIT");

  EXPECT_EQ(call("GET", c).json["head_snapshot_id"].GetInt64(), head);
  ApiResponse still = call("GET", c + "/table-creations/" + kOp);
  ASSERT_EQ(still.status, 200) << still.body;
  EXPECT_STREQ(still.json["state"].GetString(), "prepared");
  ApiResponse published =
      call("POST", c + "/table-creations/" + kOp + "/commit", R"({"files":[]})");
  ASSERT_EQ(published.status, 200) << published.body;
  EXPECT_STREQ(published.json["state"].GetString(), "committed");
  server.Stop();
}

}  // namespace
}  // namespace hoglake::testing
