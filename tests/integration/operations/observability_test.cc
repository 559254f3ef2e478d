// Observability (server digest §12): a second server on its own database
// with HOGLAKE_AUDIT_LOG pointing at a file and a fast metrics sampler.
// Mutations leave one audit line each with outcome and X-Request-Id;
// maintenance runs that did work are audited and counted, zero-work runs
// are not; the sampler's gauges (head, floor, queue, live totals, pending
// stats, consumer lag) track the catalog; /v1/info reports live totals.
#include <httplib.h>
#include <rapidjson/document.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "pg_session.h"
#include "server_fixture.h"

namespace hoglake::testing {
namespace {

// The audit lines written so far, parsed.
std::vector<rapidjson::Document> AuditLines(const std::string& path) {
  std::ifstream in(path);
  std::vector<rapidjson::Document> lines;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    rapidjson::Document doc;
    doc.Parse(line.c_str());
    EXPECT_FALSE(doc.HasParseError()) << "not JSON: " << line;
    if (!doc.HasParseError()) lines.push_back(std::move(doc));
  }
  return lines;
}

std::string Str(const rapidjson::Document& d, const char* key) {
  auto it = d.FindMember(key);
  return it != d.MemberEnd() && it->value.IsString() ? it->value.GetString() : "";
}

TEST(ObservabilityTest, AuditLinesMetricsAndGauges) {
  const std::string db = "observability_" + std::to_string(getpid());
  ASSERT_NO_FATAL_FAILURE(CreateTestDatabase(db));
  char server_dir[] = "/tmp/hoglake-obs-XXXXXX";
  ASSERT_NE(mkdtemp(server_dir), nullptr);
  char lake_dir[] = "/tmp/hoglake-obs-lake-XXXXXX";
  ASSERT_NE(mkdtemp(lake_dir), nullptr);
  const std::string lake = lake_dir;
  const std::string audit_path = std::string(server_dir) + "/audit.log";
  ServerProcess server;
  server.Start(server_dir, {"--database-url", TestDatabaseUrl(db)},
               {{"HOGLAKE_AUDIT_LOG", audit_path},
                {"HOGLAKE_METRICS_SAMPLE_INTERVAL_MS", "100"},
                {"HOGLAKE_EXPIRY_INTERVAL_MS", "0"}});  // only manual maintenance here
  ASSERT_TRUE(server.running());
  const std::string url = server.base_url();
  httplib::Client http(url);
  auto call = [&](const std::string& method, const std::string& path, const std::string& body = "",
                  const std::string& request_id = "") {
    httplib::Headers headers;
    if (!request_id.empty()) headers.emplace("X-Request-Id", request_id);
    httplib::Result r = method == "GET"     ? http.Get(path, headers)
                        : method == "PUT"   ? http.Put(path, headers, body, "application/json")
                        : method == "PATCH" ? http.Patch(path, headers, body, "application/json")
                                            : http.Post(path, headers, body, "application/json");
    EXPECT_TRUE(r) << method << " " << path;
    if (r && !request_id.empty()) {
      EXPECT_EQ(r->get_header_value("X-Request-Id"), request_id);
    }
    return r ? std::make_pair(r->status, r->body) : std::make_pair(0, std::string());
  };
  const std::string c = "/v1/catalogs/lake";

  ASSERT_EQ(
      call("POST", "/v1/catalogs", R"({"name":"lake","data_path":"file://)" + lake + "/\"}").first,
      201);
  ASSERT_EQ(call("POST", c + "/namespaces", R"({"name":"web"})").first, 201);
  auto table = call("POST", c + "/namespaces/web/tables",
                    R"({"name":"events","columns":[{"name":"id","type":"long"}]})");
  ASSERT_EQ(table.first, 201) << table.second;
  rapidjson::Document table_json;
  table_json.Parse(table.second.c_str());
  const std::string uuid = table_json["table_uuid"].GetString();
  for (int i = 0; i < 3; ++i) {
    std::ofstream(lake + "/f" + std::to_string(i) + ".parquet") << "bytes";
  }
  auto commit = [&](int i, bool stats, const std::string& request_id) {
    const std::string file = R"({"path":"file://)" + lake + "/f" + std::to_string(i) +
                             R"(.parquet","record_count":10,"file_size_bytes":5)" +
                             (stats ? R"(,"column_stats":[])" : "") + "}";
    return call("POST", c + "/commit",
                R"({"appends":[{"namespace":"web","table":"events","files":[)" + file + "]}]}",
                request_id);
  };
  auto committed = commit(0, true, "req-commit-0");
  ASSERT_EQ(committed.first, 200) << committed.second;
  ASSERT_EQ(commit(1, false, "").first, 200);  // pending stats
  // A refused commit (unknown table: 422) and a refused offset regression.
  ASSERT_EQ(call("POST", c + "/commit",
                 R"({"appends":[{"namespace":"web","table":"nope","files":[{"path":"file://)" +
                     lake + R"(/f2.parquet","record_count":1,"file_size_bytes":5}]}]})",
                 "req-422")
                .first,
            422);
  ASSERT_EQ(call("PUT", c + "/consumers/etl/offsets/" + uuid, R"({"snapshot_id":4})").first, 200);
  ASSERT_EQ(call("PUT", c + "/consumers/etl/offsets/" + uuid, R"({"snapshot_id":3})", "req-regress")
                .first,
            409);

  std::vector<rapidjson::Document> lines = AuditLines(audit_path);
  auto find = [&](const std::string& action, const std::string& outcome,
                  const std::string& request_id = "") -> const rapidjson::Document* {
    for (const auto& line : lines) {
      if (Str(line, "action") == action && Str(line, "outcome") == outcome &&
          (request_id.empty() || Str(line, "request_id") == request_id)) {
        return &line;
      }
    }
    return nullptr;
  };
  const rapidjson::Document* created = find("catalog_create", "success");
  ASSERT_NE(created, nullptr);
  EXPECT_EQ(Str(*created, "catalog"), "lake");
  EXPECT_EQ(Str(*created, "logger"), "hoglake.audit");
  EXPECT_EQ(Str(*created, "actor"), "anonymous");
  ASSERT_NE(find("namespace_create", "success"), nullptr);
  EXPECT_EQ(Str(*find("namespace_create", "success"), "object"), "web");
  ASSERT_NE(find("table_create", "success"), nullptr);
  EXPECT_EQ(Str(*find("table_create", "success"), "object"), "web.events");
  const rapidjson::Document* first_commit = find("commit", "success", "req-commit-0");
  ASSERT_NE(first_commit, nullptr);
  EXPECT_EQ((*first_commit)["detail"]["snapshot_id"].GetInt64(), 3);
  const rapidjson::Document* refused = find("commit", "validation", "req-422");
  ASSERT_NE(refused, nullptr);
  EXPECT_EQ((*refused)["detail"]["status"].GetInt(), 422);
  EXPECT_NE(std::string((*refused)["detail"]["message"].GetString()).find("web.nope"),
            std::string::npos);
  const rapidjson::Document* regression = find("offset_commit", "regression", "req-regress");
  ASSERT_NE(regression, nullptr);
  EXPECT_EQ(Str(*regression, "object"), "etl/" + uuid);
  // Reads are not audited.
  for (const auto& line : lines) EXPECT_NE(Str(line, "action"), "");
  const size_t mutations = lines.size();
  ASSERT_EQ(call("GET", c).first, 200);
  EXPECT_EQ(AuditLines(audit_path).size(), mutations);

  // Gauges follow the catalog: head 4, two live files (one pending), lag.
  auto metrics = [&] { return call("GET", "/metrics").second; };
  std::string text;
  for (int i = 0; i < 100; ++i) {
    text = metrics();
    if (MetricSample(text, "hoglake_head_snapshot_id{catalog=\"lake\"}") == 4) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  EXPECT_EQ(MetricSample(text, "hoglake_head_snapshot_id{catalog=\"lake\"}"), 4) << text;
  EXPECT_EQ(MetricSample(text, "hoglake_earliest_snapshot_id{catalog=\"lake\"}"), 0);
  EXPECT_EQ(MetricSample(text, "hoglake_snapshot_count{catalog=\"lake\"}"), 5);
  EXPECT_EQ(MetricSample(text, "hoglake_live_files{catalog=\"lake\"}"), 2);
  EXPECT_EQ(MetricSample(text, "hoglake_live_rows{catalog=\"lake\"}"), 20);
  EXPECT_EQ(MetricSample(text, "hoglake_stats_pending_files{catalog=\"lake\"}"), 1);
  EXPECT_EQ(MetricSample(text, "hoglake_table_count{catalog=\"lake\"}"), 1);
  EXPECT_EQ(MetricSample(text, "hoglake_removal_queue_depth{catalog=\"lake\"}"), 0);
  EXPECT_EQ(MetricSample(text, "hoglake_consumer_lag_snapshots{catalog=\"lake\",consumer=\"etl\"}"),
            0);
  EXPECT_GE(MetricSample(text, "hoglake_head_age_seconds{catalog=\"lake\"}"), 0);
  EXPECT_GT(MetricSample(text, "hoglake_metrics_last_sample_epoch"), 1.7e9);
  rapidjson::Document info;
  info.Parse(call("GET", "/v1/info").second.c_str());
  ASSERT_TRUE(info.HasMember("total_rows"));
  EXPECT_EQ(info["total_rows"].GetInt64(), 20);
  EXPECT_EQ(info["total_size_bytes"].GetInt64(), 10);

  // Make both files unreachable, expire and clean up: audited and counted.
  ASSERT_EQ(
      call("POST", c + "/namespaces/web/tables/events/truncate?expected_table_uuid=" + uuid).first,
      200);  // 5
  ASSERT_EQ(call("PUT", c + "/consumers/etl/offsets/" + uuid, R"({"snapshot_id":5})").first, 200);
  ASSERT_EQ(call("PATCH", c + "/options", R"({"snapshot_retention_seconds":1})").first, 200);
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  auto expired = call("POST", c + "/maintenance/expire", "", "req-expire");
  ASSERT_EQ(expired.first, 200) << expired.second;
  auto cleaned = call("POST", c + "/maintenance/cleanup", "", "req-cleanup");
  ASSERT_EQ(cleaned.first, 200) << cleaned.second;
  lines = AuditLines(audit_path);
  const rapidjson::Document* expiry = find("expiry", "success", "req-expire");
  ASSERT_NE(expiry, nullptr) << expired.second;
  EXPECT_EQ((*expiry)["detail"]["snapshots_expired"].GetInt64(), 5);
  EXPECT_EQ((*expiry)["detail"]["data_files_queued"].GetInt64(), 2);
  const rapidjson::Document* cleanup = find("cleanup", "success", "req-cleanup");
  ASSERT_NE(cleanup, nullptr) << cleaned.second;
  EXPECT_EQ((*cleanup)["detail"]["removed"].GetInt64(), 2);
  // A run with nothing to do leaves no line.
  const size_t before_idle = lines.size();
  ASSERT_EQ(call("POST", c + "/maintenance/cleanup").first, 200);
  EXPECT_EQ(AuditLines(audit_path).size(), before_idle);

  text = metrics();
  EXPECT_EQ(MetricSample(text, "hoglake_snapshots_expired_total{catalog=\"lake\"}"), 5) << text;
  EXPECT_EQ(MetricSample(text, "hoglake_expiry_files_queued_total{catalog=\"lake\"}"), 2);
  EXPECT_EQ(MetricSample(text, "hoglake_files_removed_total{catalog=\"lake\"}"), 2);
  EXPECT_EQ(
      MetricSample(
          text, "hoglake_maintenance_runs_total{task=\"expiry\",trigger=\"manual\",status=\"ok\"}"),
      1);
  EXPECT_EQ(
      MetricSample(
          text,
          "hoglake_maintenance_runs_total{task=\"cleanup\",trigger=\"manual\",status=\"ok\"}"),
      2);
  // The gauges come from a periodic sample: wait for one taken after both
  // the expiry's commit and its maintenance-ledger row (written in a
  // transaction of its own), not just the first.
  const std::string duration =
      "hoglake_maintenance_last_run_duration_seconds{catalog=\"lake\",task=\"expiry\"}";
  for (int i = 0; i < 100; ++i) {
    text = metrics();
    if (MetricSample(text, "hoglake_earliest_snapshot_id{catalog=\"lake\"}") == 5 &&
        MetricSample(text, duration) >= 0) {
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  EXPECT_EQ(MetricSample(text, "hoglake_earliest_snapshot_id{catalog=\"lake\"}"), 5) << text;
  EXPECT_EQ(MetricSample(text, "hoglake_live_files{catalog=\"lake\"}"), 0);
  EXPECT_GE(MetricSample(text, duration), 0) << text;
  server.Stop();
}

}  // namespace
}  // namespace hoglake::testing
