// Cleanup against real S3 (s3rver on loopback) through the server (server
// digest §5.2): a second server given the S3 endpoint and credentials in its
// environment, a catalog whose data_path is s3://bucket/prefix/, objects made
// unreachable by a table drop (retirement), a truncate (expiry) and an
// abandoned upload claim; cleanup over HTTP deletes exactly those, as an S3
// listing shows, and keeps live files, an active claim and a stray object.
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <set>
#include <thread>

#include "../storage_integration/s3rver_process.h"
#include "invariants.h"
#include "pg_session.h"
#include "server_fixture.h"
#include "storage/object_store.h"

namespace hoglake::testing {
namespace {

constexpr const char* kOwner = "0c000000-0000-4000-8000-00000000000c";

TEST(MaintenanceS3Test, CleanupDeletesExactlyTheUnreferencedS3Objects) {
  ASSERT_EQ(S3rverProcess::Get().startup_error(), "");
  const int port = S3rverProcess::Get().port();
  const std::string db = "ms3_" + std::to_string(getpid());
  ASSERT_NO_FATAL_FAILURE(CreateTestDatabase(db));
  char server_dir[] = "/tmp/hoglake-ms3-XXXXXX";
  ASSERT_NE(mkdtemp(server_dir), nullptr);
  ServerProcess server;
  server.Start(server_dir, {"--database-url", TestDatabaseUrl(db)},
               {{"AWS_ENDPOINT_URL_S3", "http://127.0.0.1:" + std::to_string(port)},
                {"AWS_ACCESS_KEY_ID", "S3RVER"},
                {"AWS_SECRET_ACCESS_KEY", "S3RVER"},
                {"AWS_REGION", "us-east-1"},
                {"HOGLAKE_EXPIRY_INTERVAL_MS", "0"},
                {"HOGLAKE_RETIREMENT_INTERVAL_MS", "100"},
                {"HOGLAKE_RETIREMENT_PAUSE_MS", "0"}});
  ASSERT_TRUE(server.running());
  auto call = [&](const std::string& method, const std::string& path,
                  const std::string& body = "") {
    return CallServer(server.base_url(), method, path, body);
  };
  const std::string root =
      std::string("s3://") + kS3rverBucket + "/maint-s3-" + std::to_string(getpid()) + "/lake";
  auto store = OpenObjectStore(root, LoopbackConfig(port));
  ASSERT_TRUE(store.ok()) << store.status().ToString();
  auto listing = [&]() {
    std::set<std::string> paths;
    auto objects = (*store)->List(root);
    EXPECT_TRUE(objects.ok()) << objects.status().ToString();
    if (objects.ok()) {
      for (const ObjectInfo& o : *objects) paths.insert(o.path);
    }
    return paths;
  };
  auto path = [&](const std::string& name) { return root + "/" + name; };

  const std::string c = "/v1/catalogs/s3lake";
  ASSERT_EQ(
      call("POST", "/v1/catalogs", R"({"name":"s3lake","data_path":")" + root + "/\"}").status,
      201);
  ASSERT_EQ(call("POST", c + "/namespaces", R"({"name":"ns"})").status, 201);
  for (const char* t : {"gone", "keep", "trunc"}) {
    ASSERT_EQ(
        call("POST", c + "/namespaces/ns/tables",
             std::string(R"({"name":")") + t + R"(","columns":[{"name":"id","type":"long"}]})")
            .status,
        201);
  }
  auto commit = [&](const std::string& table, const std::vector<std::string>& names, bool upload) {
    std::string files;
    for (const std::string& name : names) {
      if (upload) {
        ASSERT_TRUE((*store)->Put(path(name), "parquet bytes").ok()) << name;
      }
      files += std::string(files.empty() ? "" : ",") + R"({"path":")" + path(name) +
               R"(","record_count":1,"file_size_bytes":13})";
    }
    ApiResponse r = call(
        "POST", c + "/commit",
        R"({"appends":[{"namespace":"ns","table":")" + table + R"(","files":[)" + files + "]}]}");
    ASSERT_EQ(r.status, 200) << r.body;
  };
  ASSERT_NO_FATAL_FAILURE(commit("gone", {"data/gone/a.parquet", "data/gone/b.parquet"}, true));
  ASSERT_NO_FATAL_FAILURE(commit("keep", {"data/keep/c.parquet", "data/keep/d.parquet"}, true));
  ASSERT_NO_FATAL_FAILURE(commit("trunc", {"data/trunc/e.parquet", "data/trunc/f.parquet"}, true));
  // Registered but never uploaded: cleanup finds nothing to delete.
  ASSERT_NO_FATAL_FAILURE(commit("trunc", {"data/trunc/h.parquet"}, false));
  ApiResponse trunc = call("GET", c + "/namespaces/ns/tables/trunc");
  ASSERT_EQ(call("POST", c + "/namespaces/ns/tables/trunc/truncate?expected_table_uuid=" +
                             trunc.json["table_uuid"].GetString())
                .status,
            200);
  ASSERT_NO_FATAL_FAILURE(commit("trunc", {"data/trunc/g.parquet"}, true));
  ASSERT_TRUE((*store)->Put(path("stray.parquet"), "never registered").ok());
  // Two upload claims: one held (active), one abandoned.
  std::vector<std::string> claimed;
  for (const char* id :
       {"00000000-0000-4000-8000-000000000001", "00000000-0000-4000-8000-000000000002"}) {
    ApiResponse claim = call("PUT", c + "/uploads/" + id,
                             R"({"owner":")" + std::string(kOwner) + R"(","prefix":")" +
                                 path("up") + R"(","file_kind":"data"})");
    ASSERT_EQ(claim.status, 200) << claim.body;
    claimed.push_back(claim.json["path"].GetString());
    ASSERT_TRUE((*store)->Put(claimed.back(), "uploaded").ok());
  }
  ApiResponse abandoned =
      call("POST", c + "/uploads/abandon",
           R"({"owner":")" + std::string(kOwner) + R"(","paths":[")" + claimed[1] + R"("]})");
  ASSERT_EQ(abandoned.status, 200) << abandoned.body;
  ASSERT_EQ(call("DELETE", c + "/namespaces/ns/tables/gone").status, 200);

  // Expire to head (queues e, f, h), let retirement queue gone's a and b,
  // sweep the abandoned claim.
  ASSERT_EQ(call("PATCH", c + "/options", R"({"snapshot_retention_seconds":1})").status, 200);
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  ApiResponse expired = call("POST", c + "/maintenance/expire");
  ASSERT_EQ(expired.status, 200) << expired.body;
  EXPECT_EQ(expired.json["data_files_queued"].GetInt64(), 3) << expired.body;
  PgSession pg(TestPgConninfo(db));
  ASSERT_TRUE(pg.ok());
  const std::string retired =
      "SELECT count(*) FROM hog_file_removal WHERE reason = 'table_drop_gc'";
  for (int i = 0; i < 100 && pg.Int(retired) < 2; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  ASSERT_EQ(pg.Int(retired), 2) << server.Log();
  ApiResponse scheduled = call("POST", c + "/uploads/schedule-expired");
  ASSERT_EQ(scheduled.status, 200) << scheduled.body;
  EXPECT_EQ(scheduled.json["scheduled"].GetInt64(), 1);

  const std::set<std::string> before = listing();
  for (const char* name : {"data/gone/a.parquet", "data/gone/b.parquet", "data/keep/c.parquet",
                           "data/trunc/e.parquet", "data/trunc/g.parquet", "stray.parquet"}) {
    EXPECT_TRUE(before.contains(path(name))) << name;
  }
  ApiResponse cleaned = call("POST", c + "/maintenance/cleanup");
  ASSERT_EQ(cleaned.status, 200) << cleaned.body;
  // a, b, e, f, the abandoned claim, and h: S3's DeleteObjects does not
  // tell a key that was never uploaded from one it deleted.
  EXPECT_EQ(cleaned.json["removed"].GetInt64(), 6) << cleaned.body;
  EXPECT_EQ(cleaned.json["missing"].GetInt64(), 0) << cleaned.body;
  EXPECT_EQ(cleaned.json["still_referenced"].GetInt64(), 0) << cleaned.body;
  const std::set<std::string> after = listing();
  const std::set<std::string> expected = {path("data/keep/c.parquet"), path("data/keep/d.parquet"),
                                          path("data/trunc/g.parquet"), path("stray.parquet"),
                                          claimed[0]};
  EXPECT_EQ(after, expected);
  // Every live file's object is still there.
  for (const char* t : {"keep", "trunc"}) {
    ApiResponse scan = call("GET", c + "/namespaces/ns/tables/" + t + "/scan");
    ASSERT_EQ(scan.status, 200) << scan.body;
    for (const auto& f : scan.json.GetArray()) {
      EXPECT_TRUE(after.contains(f["data_file"]["path"].GetString()))
          << f["data_file"]["path"].GetString();
    }
  }
  ExpectFileRowObjectsExist(pg, "s3lake",
                            [&](const std::string& p) { return (*store)->Head(p).ok(); });
  ExpectRemovalBookkeeping(pg, "s3lake", {});
  EXPECT_EQ(pg.Int("SELECT count(*) FROM hog_file_removal WHERE drained_at IS NULL"), 0);
  ApiResponse again = call("POST", c + "/maintenance/cleanup");
  ASSERT_EQ(again.status, 200) << again.body;
  EXPECT_EQ(again.json["removed"].GetInt64(), 0);
  EXPECT_EQ(listing(), expected);
  server.Stop();
  if (!::testing::Test::HasFailure()) std::filesystem::remove_all(server_dir);
}

}  // namespace
}  // namespace hoglake::testing
