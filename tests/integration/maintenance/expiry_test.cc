// Expiry (server digest §5.1) and the maintenance ledger over HTTP.
#include <thread>

#include "server_fixture.h"

namespace hoglake::testing {
namespace {

using S = ServerEnvironment;

TEST(ExpiryTest, FloorAdvancesHonoursConsumersAndQueuesUnreachableFiles) {
  const std::string name = NewCatalog();
  const std::string c = "/v1/catalogs/" + name;
  const std::string t = c + "/namespaces/ns/tables/t";
  ASSERT_EQ(S::Call("POST", c + "/namespaces", R"({"name":"ns"})").status, 201);
  ApiResponse table = S::Call("POST", c + "/namespaces/ns/tables",
                              R"({"name":"t","columns":[{"name":"id","type":"long"}]})");
  ASSERT_EQ(table.status, 201);
  const std::string uuid = table.json["table_uuid"].GetString();
  for (int i = 0; i < 3; ++i) {  // snapshots 3, 4, 5
    ASSERT_EQ(
        S::Call("POST", c + "/commit",
                R"({"appends":[{"namespace":"ns","table":"t","files":[{"path":"s3://bucket/)" +
                    name + "/f" + std::to_string(i) +
                    R"(.parquet","record_count":1,"file_size_bytes":1}]}]})")
            .status,
        200);
  }
  ASSERT_EQ(S::Call("POST", t + "/truncate?expected_table_uuid=" + uuid).status,
            200);  // 6: files end
  ASSERT_EQ(S::Call("POST", c + "/commit",
                    R"({"appends":[{"namespace":"ns","table":"t","files":[{"path":"s3://bucket/)" +
                        name + R"(/g.parquet","record_count":1,"file_size_bytes":1}]}]})")
                .status,
            200);  // 7

  // Expiry is off until a retention is set: nothing moves.
  ApiResponse off = S::Call("POST", c + "/maintenance/expire");
  ASSERT_EQ(off.status, 200) << off.body;
  EXPECT_EQ(off.json["snapshots_expired"].GetInt64(), 0);
  EXPECT_EQ(off.json["new_earliest_snapshot_id"].GetInt64(), 0);

  ASSERT_EQ(S::Call("PUT", c + "/consumers/etl/offsets/" + uuid, R"({"snapshot_id":5})").status,
            200);
  ASSERT_EQ(S::Call("PATCH", c + "/options", R"({"snapshot_retention_seconds":1})").status, 200);
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  ApiResponse floored = S::Call("POST", c + "/maintenance/expire");
  ASSERT_EQ(floored.status, 200) << floored.body;
  EXPECT_EQ(floored.json["new_earliest_snapshot_id"].GetInt64(), 5);
  EXPECT_EQ(floored.json["snapshots_expired"].GetInt64(), 5);
  EXPECT_STREQ(floored.json["floored_by_consumer"].GetString(), "etl");
  EXPECT_EQ(floored.json["data_files_queued"].GetInt64(), 0);  // they ended at 6 > 5

  ASSERT_EQ(S::Call("PATCH", c + "/options", R"({"consumer_floor":false})").status, 200);
  ApiResponse advanced = S::Call("POST", c + "/maintenance/expire?batch=100");
  ASSERT_EQ(advanced.status, 200) << advanced.body;
  EXPECT_EQ(advanced.json["new_earliest_snapshot_id"].GetInt64(), 7);  // never past head
  EXPECT_EQ(advanced.json["snapshots_expired"].GetInt64(), 2);
  EXPECT_EQ(advanced.json["data_files_queued"].GetInt64(), 3);

  ApiResponse catalog = S::Call("GET", c);
  EXPECT_TRUE(catalog.json.HasMember("earliest_snapshot_time"));
  ApiResponse old = S::Call("GET", t + "?snapshot=3");
  EXPECT_EQ(old.status, 410) << old.body;
  EXPECT_EQ(old.error(), "expired");
  EXPECT_NE(old.body.find("reached at"), std::string::npos) << old.body;
  EXPECT_EQ(S::Call("GET", t + "/changes?from_snapshot=5").status, 410);
  EXPECT_EQ(S::Call("GET", t + "/changes?from_snapshot=6").status, 200);
  EXPECT_EQ(S::Call("PUT", c + "/consumers/etl/offsets/" + uuid, R"({"snapshot_id":6})").status,
            410);
  ApiResponse snapshots = S::Call("GET", c + "/snapshots");
  ASSERT_EQ(snapshots.json["snapshots"].Size(), 1u);
  EXPECT_EQ(snapshots.json["snapshots"][0]["snapshot_id"].GetInt64(), 7);
  EXPECT_EQ(S::Call("GET", t + "/scan").json.Size(), 1u);  // the live file is untouched
  EXPECT_EQ(S::Call("POST", c + "/maintenance/expire?batch=0").status, 422);
  EXPECT_EQ(S::Call("POST", c + "/maintenance/expire?batch=x").status, 400);

  ApiResponse runs = S::Call("GET", c + "/maintenance/runs?task=expiry");
  ASSERT_EQ(runs.status, 200) << runs.body;
  ASSERT_GE(runs.json["runs"].Size(), 3u);
  const auto& newest = runs.json["runs"][0];
  EXPECT_STREQ(newest["trigger"].GetString(), "manual");
  EXPECT_STREQ(newest["status"].GetString(), "ok");
  EXPECT_EQ(newest["result"]["data_files_queued"].GetInt64(), 3);
  EXPECT_EQ(S::Call("GET", c + "/maintenance/runs?limit=1").json["has_more"].GetBool(), true);
  EXPECT_EQ(S::Call("GET", c + "/maintenance/runs?task=bogus").status, 422);
  EXPECT_EQ(S::Call("GET", "/v1/maintenance/runs?task=expiry").status, 200);
}

}  // namespace
}  // namespace hoglake::testing

#include <libpq-fe.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>

namespace hoglake::testing {
namespace {

TEST(ExpiryTest, BackgroundLoopExpiresOnItsOwn) {
  // A second server with a fast loop, on its own database of the test's PostgreSQL.
  const std::string socket_dir = ServerEnvironment::data_dir() + "/run";
  const std::string db = "loop_" + std::to_string(getpid());
  PGconn* conn =
      PQconnectdb(("host=" + socket_dir + " port=5432 user=hoglake dbname=postgres").c_str());
  ASSERT_EQ(PQstatus(conn), CONNECTION_OK);
  PQclear(PQexec(conn, ("CREATE DATABASE " + db).c_str()));
  PQfinish(conn);
  char pattern[] = "/tmp/hoglake-loop-XXXXXX";
  ASSERT_NE(mkdtemp(pattern), nullptr);
  ServerProcess server;
  setenv("HOGLAKE_EXPIRY_INTERVAL_MS", "200", 1);
  server.Start(pattern,
               {"--database-url", "postgresql:///" + db + "?host=" + socket_dir + "&user=hoglake"});
  unsetenv("HOGLAKE_EXPIRY_INTERVAL_MS");
  ASSERT_TRUE(server.running());
  const std::string url = server.base_url();
  ASSERT_EQ(
      CallServer(url, "POST", "/v1/catalogs", R"({"name":"looped","data_path":"s3://loop/x"})")
          .status,
      201);
  for (const char* ns : {"a", "b", "c"}) {
    ASSERT_EQ(CallServer(url, "POST", "/v1/catalogs/looped/namespaces",
                         std::string(R"({"name":")") + ns + "\"}")
                  .status,
              201);
  }
  ASSERT_EQ(
      CallServer(url, "PATCH", "/v1/catalogs/looped/options", R"({"snapshot_retention_seconds":1})")
          .status,
      200);
  int64_t earliest = 0;
  // Snapshots expire as they age past the 1 s retention, up to head (3).
  for (int i = 0; i < 60 && earliest != 3; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    earliest = CallServer(url, "GET", "/v1/catalogs/looped/options")
                   .json["earliest_snapshot_id"]
                   .GetInt64();
  }
  EXPECT_EQ(earliest, 3) << "the loop should advance the floor to head";
  ApiResponse runs = CallServer(url, "GET", "/v1/catalogs/looped/maintenance/runs?task=expiry");
  ASSERT_GT(runs.json["runs"].Size(), 0u);
  EXPECT_STREQ(runs.json["runs"][0]["trigger"].GetString(), "loop");
  server.Stop();
  if (!::testing::Test::HasFailure()) std::filesystem::remove_all(pattern);
}

}  // namespace
}  // namespace hoglake::testing

#include <fstream>

namespace hoglake::testing {
namespace {

TEST(CleanupTest, DeletesUnreferencedObjectsAndKeepsReferencedOnes) {
  const TableLake local = NewLocalTableLake("ns", "t");
  ASSERT_FALSE(local.uuid.empty());
  const std::string& lake = local.dir;
  const std::string& c = local.catalog;
  const std::string& uuid = local.uuid;
  auto write = [&](const std::string& file) {
    std::ofstream(lake + "/" + file) << "parquet bytes";
    ApiResponse r =
        S::Call("POST", c + "/commit",
                R"({"appends":[{"namespace":"ns","table":"t","files":[{"path":"file://)" + lake +
                    "/" + file + R"(","record_count":1,"file_size_bytes":13}]}]})");
    EXPECT_EQ(r.status, 200) << r.body;
  };
  write("a.parquet");
  write("b.parquet");
  ASSERT_EQ(
      S::Call("POST", c + "/namespaces/ns/tables/t/truncate?expected_table_uuid=" + uuid).status,
      200);
  write("c.parquet");
  // b's path is registered again after the truncate: its queue row must not delete it.
  ASSERT_EQ(S::Call("POST", c + "/commit",
                    R"({"appends":[{"namespace":"ns","table":"t","files":[{"path":"file://)" +
                        lake + R"(/b.parquet","record_count":1,"file_size_bytes":13}]}]})")
                .status,
            200);
  ASSERT_EQ(S::Call("PATCH", c + "/options", R"({"snapshot_retention_seconds":1})").status, 200);
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  ApiResponse expired = S::Call("POST", c + "/maintenance/expire");
  ASSERT_EQ(expired.status, 200) << expired.body;
  EXPECT_EQ(expired.json["data_files_queued"].GetInt64(), 2);  // a and the first b
  ApiResponse cleaned = S::Call("POST", c + "/maintenance/cleanup");
  ASSERT_EQ(cleaned.status, 200) << cleaned.body;
  EXPECT_EQ(cleaned.json["removed"].GetInt64(), 1);
  EXPECT_EQ(cleaned.json["still_referenced"].GetInt64(), 1);
  EXPECT_FALSE(std::filesystem::exists(lake + "/a.parquet"));
  EXPECT_TRUE(std::filesystem::exists(lake + "/b.parquet")) << "a live file's object must survive";
  EXPECT_TRUE(std::filesystem::exists(lake + "/c.parquet"));
  // Every live file's object exists.
  ApiResponse scan = S::Call("GET", c + "/namespaces/ns/tables/t/scan");
  for (const auto& f : scan.json.GetArray()) {
    std::string path = f["data_file"]["path"].GetString();
    EXPECT_TRUE(std::filesystem::exists(path.substr(7))) << path;
  }
  ApiResponse again = S::Call("POST", c + "/maintenance/cleanup");
  EXPECT_EQ(again.json["removed"].GetInt64(), 0);
  EXPECT_EQ(S::Call("POST", c + "/maintenance/cleanup?batch=0").status, 422);
  EXPECT_STREQ(
      S::Call("GET", c + "/maintenance/runs?task=cleanup").json["runs"][0]["task"].GetString(),
      "cleanup");
  if (!::testing::Test::HasFailure()) std::filesystem::remove_all(lake);
}

}  // namespace
}  // namespace hoglake::testing
