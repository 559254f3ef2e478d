// Retirement of dropped tables' data files (server digest §5.4): a second
// server with only the retirement loop on (expiry and cleanup are triggered
// by hand, so the floor moves only when the test says), on its own database
// of the shared PostgreSQL, inspected directly with libpq.
#include <libpq-fe.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <thread>

#include "invariants.h"
#include "pg_session.h"
#include "server_fixture.h"

namespace hoglake::testing {
namespace {

using Db = PgSession;

// Polls `done` every 50 ms for up to 10 s.
bool Eventually(const std::function<bool()>& done) {
  for (int i = 0; i < 200; ++i) {
    if (done()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return done();
}

TEST(RetirementTest, RetiresOnlyTablesDroppedBelowTheFloor) {
  const std::string socket_dir = ServerEnvironment::data_dir() + "/run";
  const std::string db = "retire_" + std::to_string(getpid());
  ASSERT_NO_FATAL_FAILURE(CreateTestDatabase(db));
  char server_dir[] = "/tmp/hoglake-retire-XXXXXX";
  ASSERT_NE(mkdtemp(server_dir), nullptr);
  char lake_dir[] = "/tmp/hoglake-retire-lake-XXXXXX";
  ASSERT_NE(mkdtemp(lake_dir), nullptr);
  const std::string lake = lake_dir;
  ServerProcess server;
  setenv("HOGLAKE_EXPIRY_INTERVAL_MS", "0", 1);
  setenv("HOGLAKE_RETIREMENT_INTERVAL_MS", "100", 1);
  setenv("HOGLAKE_RETIREMENT_BATCH", "2", 1);
  setenv("HOGLAKE_RETIREMENT_PAUSE_MS", "10", 1);
  server.Start(server_dir, {"--database-url", TestDatabaseUrl(db)});
  for (const char* knob : {"HOGLAKE_EXPIRY_INTERVAL_MS", "HOGLAKE_RETIREMENT_INTERVAL_MS",
                           "HOGLAKE_RETIREMENT_BATCH", "HOGLAKE_RETIREMENT_PAUSE_MS"}) {
    unsetenv(knob);
  }
  ASSERT_TRUE(server.running());
  const std::string url = server.base_url();
  auto call = [&](const std::string& method, const std::string& path,
                  const std::string& body = "") { return CallServer(url, method, path, body); };
  const std::string c = "/v1/catalogs/lake";
  ASSERT_EQ(
      call("POST", "/v1/catalogs", R"({"name":"lake","data_path":"file://)" + lake + "/\"}").status,
      201);
  ASSERT_EQ(call("POST", c + "/namespaces", R"({"name":"ns"})").status, 201);
  auto write = [&](const std::string& table, const std::string& file) {
    std::ofstream(lake + "/" + file) << "parquet bytes";
    ApiResponse r = call("POST", c + "/commit",
                         R"({"appends":[{"namespace":"ns","table":")" + table +
                             R"(","files":[{"path":"file://)" + lake + "/" + file +
                             R"(","record_count":2,"file_size_bytes":13,"column_stats":[)"
                             R"({"field_id":1,"value_count":2,"null_count":0}]}]}]})");
    EXPECT_EQ(r.status, 200) << r.body;
  };
  for (const char* table : {"gone", "live", "late"}) {
    ASSERT_EQ(
        call("POST", c + "/namespaces/ns/tables",
             std::string(R"({"name":")") + table + R"(","columns":[{"name":"id","type":"long"}]})")
            .status,
        201);
  }
  for (const char* file : {"gone-1", "gone-2", "gone-3"}) write("gone", file);
  write("live", "live-1");
  write("live", "live-2");
  write("late", "late-1");
  ASSERT_EQ(call("DELETE", c + "/namespaces/ns/tables/gone").status, 200);

  Db pg("host=" + socket_dir + " port=5432 user=hoglake dbname=" + db);
  ASSERT_TRUE(pg.ok());
  const std::string catalog_id =
      std::to_string(pg.Int("SELECT catalog_id FROM hog_catalog WHERE name = 'lake'"));
  auto live_rows = [&](const std::string& prefix) {
    return pg.Int(
        "SELECT count(*) FROM hog_data_file WHERE end_snapshot IS NULL AND path LIKE "
        "'%/" +
        prefix + "-%'");
  };
  auto queued = [&](const std::string& prefix) {
    return pg.Int(
        "SELECT count(*) FROM hog_file_removal WHERE reason = 'table_drop_gc' AND "
        "file_kind = 'data' AND path LIKE '%/" +
        prefix + "-%'");
  };

  // The floor has not moved: a dropped table's files stay (time travel may read them).
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  EXPECT_EQ(live_rows("gone"), 3);

  // Advance the floor past the drop of `gone`, then drop `late` above it.
  ASSERT_EQ(call("PATCH", c + "/options", R"({"snapshot_retention_seconds":1})").status, 200);
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  ApiResponse expired = call("POST", c + "/maintenance/expire");
  ASSERT_EQ(expired.status, 200) << expired.body;
  const int64_t floor = expired.json["new_earliest_snapshot_id"].GetInt64();
  ASSERT_EQ(call("DELETE", c + "/namespaces/ns/tables/late").status, 200);
  EXPECT_GT(pg.Int("SELECT max(dropped_snapshot) FROM hog_table WHERE catalog_id = " + catalog_id),
            floor);

  EXPECT_TRUE(Eventually([&] { return queued("gone") == 3; })) << server.Log();
  EXPECT_EQ(live_rows("gone"), 0);
  EXPECT_EQ(pg.Int("SELECT count(*) FROM hog_data_file WHERE path LIKE '%/gone-%'"), 0);
  EXPECT_EQ(pg.Int("SELECT count(*) FROM hog_file_stats s WHERE NOT EXISTS (SELECT 1 FROM "
                   "hog_data_file d WHERE d.catalog_id = s.catalog_id AND d.data_file_id = "
                   "s.data_file_id)"),
            0);
  ExpectNoOrphanFileChildren(pg, "lake");
  EXPECT_EQ(pg.Int("SELECT count(*) FROM hog_file_stats WHERE catalog_id = " + catalog_id), 3)
      << "the live and late tables' files keep their stats";
  EXPECT_EQ(live_rows("live"), 2) << "a live table's files are untouched";
  EXPECT_EQ(live_rows("late"), 1) << "a table dropped above the floor is untouched";
  EXPECT_EQ(queued("late"), 0);
  EXPECT_EQ(pg.Int("SELECT count(*) FROM hog_table WHERE retirement_eligible_at IS NOT NULL"), 1);
  // Batches of 2: 3 rows take two batches, recorded as `retirement` loop runs.
  EXPECT_TRUE(Eventually([&] {
    return pg.Int(
               "SELECT coalesce(sum((result->>'batches')::bigint), 0) FROM hog_maintenance_run "
               "WHERE task = 'retirement' AND run_trigger = 'loop'") == 2;
  }));
  EXPECT_EQ(pg.Int("SELECT coalesce(sum((result->>'rows_retired')::bigint), 0) FROM "
                   "hog_maintenance_run WHERE task = 'retirement'"),
            3);
  ApiResponse runs = call("GET", c + "/maintenance/runs?task=retirement");
  ASSERT_EQ(runs.status, 200) << runs.body;
  ASSERT_GT(runs.json["runs"].Size(), 0u);
  EXPECT_STREQ(runs.json["runs"][0]["status"].GetString(), "ok");

  // Cleanup removes the retired objects and nothing else.
  ApiResponse cleaned = call("POST", c + "/maintenance/cleanup");
  ASSERT_EQ(cleaned.status, 200) << cleaned.body;
  EXPECT_EQ(cleaned.json["removed"].GetInt64(), 3);
  EXPECT_EQ(cleaned.json["still_referenced"].GetInt64(), 0);
  for (const char* file : {"gone-1", "gone-2", "gone-3"}) {
    EXPECT_FALSE(std::filesystem::exists(lake + "/" + file)) << file;
  }
  for (const char* file : {"live-1", "live-2", "late-1"}) {
    EXPECT_TRUE(std::filesystem::exists(lake + "/" + file)) << file;
  }
  EXPECT_EQ(call("GET", c + "/namespaces/ns/tables/live/scan").json.Size(), 2u);
  ExpectCatalogInvariantsAt(url, "lake", {"ns.live"});

  // Single flight: while another session holds the catalog's retirement
  // lock, a table that became eligible is left alone.
  const std::string lock_key = "((4740872::bigint << 32) | (" + catalog_id + " & 4294967295))";
  Db holder("host=" + socket_dir + " port=5432 user=hoglake dbname=" + db);
  ASSERT_EQ(holder.Int("SELECT pg_try_advisory_lock(" + lock_key + ")::int"), 1);
  ASSERT_EQ(call("POST", c + "/commit",
                 R"({"appends":[{"namespace":"ns","table":"live","files":[{"path":"file://)" +
                     lake + R"(/live-3","record_count":2,"file_size_bytes":13}]}]})")
                .status,
            200);
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  ASSERT_EQ(call("POST", c + "/maintenance/expire").status, 200);
  std::this_thread::sleep_for(std::chrono::milliseconds(400));
  EXPECT_EQ(live_rows("late"), 1) << "the lock holder owns this catalog's retirement";
  ASSERT_EQ(holder.Int("SELECT pg_advisory_unlock(" + lock_key + ")::int"), 1);
  EXPECT_TRUE(Eventually([&] { return queued("late") == 1; }));
  EXPECT_EQ(live_rows("late"), 0);
  EXPECT_EQ(live_rows("live"), 3);
  ExpectCatalogInvariantsAt(url, "lake", {"ns.live"});

  server.Stop();
  if (!::testing::Test::HasFailure()) {
    std::filesystem::remove_all(server_dir);
    std::filesystem::remove_all(lake);
  }
}

}  // namespace
}  // namespace hoglake::testing
