// GET …/maintenance/status (contract §2.14) against the real server: every
// task listed with its newest ledger row and a live backlog.
#include <filesystem>
#include <string>
#include <thread>

#include "server_fixture.h"

namespace hoglake::testing {
namespace {

using S = ServerEnvironment;

const rapidjson::Value& TaskOf(const ApiResponse& status, const std::string& task) {
  static const rapidjson::Value kMissing;
  for (const auto& t : status.json["tasks"].GetArray()) {
    if (task == t["task"].GetString()) return t;
  }
  ADD_FAILURE() << "task " << task << " missing from " << status.body;
  return kMissing;
}

ApiResponse GetStatus(const std::string& catalog) {
  ApiResponse r = S::Call("GET", "/v1/catalogs/" + catalog + "/maintenance/status");
  EXPECT_EQ(r.status, 200) << r.body;
  return r;
}

std::string FileJson(const std::string& path) {
  return R"({"path":")" + path + R"(","record_count":1,"file_size_bytes":100})";
}

// Registers files without column_stats (⇒ pending) in one commit to ns.t.
void RegisterPending(const std::string& catalog, const std::vector<std::string>& paths) {
  std::string files;
  for (const std::string& p : paths) files += (files.empty() ? "" : ",") + FileJson(p);
  ApiResponse r =
      S::Call("POST", "/v1/catalogs/" + catalog + "/commit",
              R"({"appends":[{"namespace":"ns","table":"t","files":[)" + files + "]}]}");
  ASSERT_EQ(r.status, 200) << r.body;
}

std::string CreateTable(const std::string& catalog) {
  const std::string c = "/v1/catalogs/" + catalog;
  EXPECT_EQ(S::Call("POST", c + "/namespaces", R"({"name":"ns"})").status, 201);
  ApiResponse table = S::Call("POST", c + "/namespaces/ns/tables",
                              R"({"name":"t","columns":[{"name":"id","type":"long"}]})");
  EXPECT_EQ(table.status, 201) << table.body;
  return table.json.HasMember("table_uuid") ? table.json["table_uuid"].GetString() : "";
}

TEST(MaintenanceStatusTest, FreshCatalogListsEveryTaskWithEmptyBacklogs) {
  const std::string name = NewCatalog();
  ApiResponse status = GetStatus(name);
  ASSERT_TRUE(status.json.IsObject()) << status.body;
  EXPECT_STREQ(status.json["catalog"].GetString(), name.c_str());
  EXPECT_FALSE(status.json.HasMember("sampled_at"));
  const char* kTasks[] = {"hydrator", "expiry", "cleanup", "compaction", "verify", "retirement"};
  ASSERT_EQ(status.json["tasks"].Size(), std::size(kTasks)) << status.body;
  for (size_t i = 0; i < std::size(kTasks); ++i) {
    const auto& task = status.json["tasks"][static_cast<rapidjson::SizeType>(i)];
    EXPECT_STREQ(task["task"].GetString(), kTasks[i]);
    ASSERT_TRUE(task.HasMember("last_run")) << status.body;  // always a key
    EXPECT_TRUE(task["last_run"].IsNull()) << status.body;
    EXPECT_TRUE(task["backlog"].IsObject());
    EXPECT_EQ(task.HasMember("loop_interval_ms"), std::string(kTasks[i]) != "verify");
  }
  const auto& hydrator = TaskOf(status, "hydrator")["backlog"];
  EXPECT_EQ(hydrator["pending_files"].GetInt64(), 0);
  EXPECT_EQ(hydrator["failed_files"].GetInt64(), 0);
  const auto& expiry = TaskOf(status, "expiry")["backlog"];
  EXPECT_FALSE(expiry.HasMember("snapshot_retention_seconds"));  // retention off: omitted
  EXPECT_TRUE(expiry["consumer_floor"].GetBool());
  EXPECT_EQ(expiry["earliest_snapshot_id"].GetInt64(), 0);
  EXPECT_EQ(expiry["head_snapshot_id"].GetInt64(), 0);
  const auto& cleanup = TaskOf(status, "cleanup")["backlog"];
  EXPECT_EQ(cleanup["queued_removals"].GetInt64(), 0);
  EXPECT_FALSE(cleanup.HasMember("oldest_queued_age_seconds"));
  const auto& compaction = TaskOf(status, "compaction");
  EXPECT_EQ(compaction["loop_interval_ms"].GetInt64(), 0);  // never runs here
  EXPECT_FALSE(compaction["backlog"].HasMember("small_files"));
  EXPECT_EQ(compaction["backlog"]["target_bytes"].GetInt64(), 536870912);
  EXPECT_EQ(TaskOf(status, "verify")["backlog"].MemberCount(), 0u);
  EXPECT_EQ(TaskOf(status, "retirement")["backlog"].MemberCount(), 0u);
  EXPECT_EQ(TaskOf(status, "retirement")["loop_interval_ms"].GetInt64(), 0);
  EXPECT_GT(TaskOf(status, "hydrator")["loop_interval_ms"].GetInt64(), 0);
}

TEST(MaintenanceStatusTest, UnknownCatalogIs404) {
  ApiResponse r = S::Call("GET", "/v1/catalogs/no-such-catalog/maintenance/status");
  EXPECT_EQ(r.status, 404) << r.body;
  EXPECT_EQ(r.error(), "not_found");
}

TEST(MaintenanceStatusTest, ExpiryQueuesShowAsCleanupBacklog) {
  const std::string name = NewCatalog();
  const std::string c = "/v1/catalogs/" + name;
  const std::string uuid = CreateTable(name);
  ASSERT_FALSE(uuid.empty());
  ASSERT_NO_FATAL_FAILURE(RegisterPending(
      name, {"s3://bucket/" + name + "/a.parquet", "s3://bucket/" + name + "/b.parquet"}));
  ASSERT_NO_FATAL_FAILURE(RegisterPending(name, {"s3://bucket/" + name + "/c.parquet"}));
  ApiResponse pending = GetStatus(name);
  EXPECT_EQ(TaskOf(pending, "hydrator")["backlog"]["pending_files"].GetInt64(), 3) << pending.body;
  EXPECT_EQ(TaskOf(pending, "hydrator")["backlog"]["failed_files"].GetInt64(), 0);
  EXPECT_EQ(TaskOf(pending, "expiry")["backlog"]["head_snapshot_id"].GetInt64(), 4) << pending.body;

  ASSERT_EQ(
      S::Call("POST", c + "/namespaces/ns/tables/t/truncate?expected_table_uuid=" + uuid).status,
      200);  // 5: the files end, leaving the pending backlog
  ASSERT_NO_FATAL_FAILURE(RegisterPending(name, {"s3://bucket/" + name + "/d.parquet"}));  // 6
  ASSERT_EQ(
      S::Call("PATCH", c + "/options", R"({"snapshot_retention_seconds":1,"consumer_floor":false})")
          .status,
      200);
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  ApiResponse expired = S::Call("POST", c + "/maintenance/expire");
  ASSERT_EQ(expired.status, 200) << expired.body;
  EXPECT_EQ(expired.json["new_earliest_snapshot_id"].GetInt64(), 6);
  const int64_t queued = expired.json["data_files_queued"].GetInt64();
  EXPECT_EQ(queued, 3);

  ApiResponse status = GetStatus(name);
  const auto& hydrator = TaskOf(status, "hydrator")["backlog"];
  EXPECT_EQ(hydrator["pending_files"].GetInt64(), 1) << status.body;  // only the live d
  const auto& expiry = TaskOf(status, "expiry");
  EXPECT_EQ(expiry["backlog"]["snapshot_retention_seconds"].GetInt64(), 1);
  EXPECT_FALSE(expiry["backlog"]["consumer_floor"].GetBool());
  EXPECT_EQ(expiry["backlog"]["earliest_snapshot_id"].GetInt64(), 6);
  EXPECT_EQ(expiry["backlog"]["head_snapshot_id"].GetInt64(), 6);
  ASSERT_TRUE(expiry["last_run"].IsObject()) << status.body;
  EXPECT_STREQ(expiry["last_run"]["task"].GetString(), "expiry");
  EXPECT_STREQ(expiry["last_run"]["trigger"].GetString(), "manual");
  EXPECT_STREQ(expiry["last_run"]["status"].GetString(), "ok");
  EXPECT_STREQ(expiry["last_run"]["catalog"].GetString(), name.c_str());
  EXPECT_EQ(expiry["last_run"]["result"]["data_files_queued"].GetInt64(), queued);
  const auto& cleanup = TaskOf(status, "cleanup")["backlog"];
  EXPECT_EQ(cleanup["queued_removals"].GetInt64(), queued) << status.body;
  ASSERT_TRUE(cleanup.HasMember("oldest_queued_age_seconds")) << status.body;
  EXPECT_TRUE(cleanup["oldest_queued_age_seconds"].IsNumber());
  EXPECT_GE(cleanup["oldest_queued_age_seconds"].GetDouble(), 0.0);
  EXPECT_TRUE(TaskOf(status, "cleanup")["last_run"].IsNull());
}

TEST(MaintenanceStatusTest, ManualHydrateShowsAsLastRun) {
  // A file:// catalog: the registered paths do not exist, so hydration fails them.
  const std::string name = "mstatus-hydrate";
  const std::string root = "file://" + S::data_dir() + "/mstatus-lake/" + name + "/";
  std::filesystem::create_directories(S::data_dir() + "/mstatus-lake/" + name);
  ApiResponse created = S::Call("POST", "/v1/catalogs",
                                R"({"name":")" + name + R"(","data_path":")" + root + R"("})");
  ASSERT_EQ(created.status, 201) << created.body;
  ASSERT_FALSE(CreateTable(name).empty());
  ASSERT_NO_FATAL_FAILURE(RegisterPending(name, {root + "x.parquet", root + "y.parquet"}));
  ApiResponse before = GetStatus(name);
  EXPECT_EQ(TaskOf(before, "hydrator")["backlog"]["pending_files"].GetInt64(), 2) << before.body;
  EXPECT_TRUE(TaskOf(before, "hydrator")["last_run"].IsNull());

  ApiResponse hydrated = S::Call("POST", "/v1/catalogs/" + name + "/maintenance/hydrate");
  ASSERT_EQ(hydrated.status, 200) << hydrated.body;
  EXPECT_EQ(hydrated.json["claimed"].GetInt64(), 2);

  ApiResponse after = GetStatus(name);
  const auto& hydrator = TaskOf(after, "hydrator");
  ASSERT_TRUE(hydrator["last_run"].IsObject()) << after.body;
  EXPECT_STREQ(hydrator["last_run"]["trigger"].GetString(), "manual");
  EXPECT_STREQ(hydrator["last_run"]["status"].GetString(), "ok");
  EXPECT_EQ(hydrator["last_run"]["result"]["claimed"].GetInt64(), 2);
  EXPECT_EQ(hydrator["backlog"]["failed_files"].GetInt64(), hydrated.json["failed"].GetInt64());
  EXPECT_EQ(hydrator["backlog"]["pending_files"].GetInt64(),
            2 - hydrated.json["failed"].GetInt64() - hydrated.json["hydrated"].GetInt64());
  EXPECT_EQ(hydrated.json["failed"].GetInt64(), 2) << hydrated.body;  // missing objects
  // Other tasks' rows do not leak into the hydrator's.
  EXPECT_TRUE(TaskOf(after, "expiry")["last_run"].IsNull());
}

}  // namespace
}  // namespace hoglake::testing
