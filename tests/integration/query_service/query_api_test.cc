// The Hotdata-compatible query API over HTTP against the test server:
// connections and information_schema (REST and SQL) over SDK-written tables, synchronous
// and asynchronous queries, runs and their listing, results in every
// format with paging headers, and the error statuses and bodies; plus, on
// servers of their own, admission (429), the per-query timeout, cancel, and
// a run interrupted by kill -9 reported failed after the restart.
#include <libpq-fe.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include <httplib.h>
#include <rapidjson/document.h>

#include "columnar/builder.h"
#include "sdk_lake.h"
#include "server_fixture.h"

namespace hoglake::testing {
namespace {

using iceberg::ColumnType;

columnar::RecordBatch Rows(int64_t first, int64_t count) {
  auto schema = std::make_shared<columnar::Schema>();
  schema->fields = {{"id", columnar::Int64(), true, {}},
                    {"name", columnar::Utf8(), true, {}},
                    {"amount", columnar::Decimal128(10, 2), true, {}}};
  columnar::Int64Builder id;
  columnar::StringBuilder name;
  columnar::Decimal128Builder amount(columnar::Decimal128(10, 2));
  for (int64_t i = first; i < first + count; ++i) {
    id.Append(i);
    name.Append("n" + std::to_string(i));
    amount.Append(i * 100 + 25);
  }
  auto batch = columnar::MakeRecordBatch(schema, {*id.Finish(), *name.Finish(), *amount.Finish()});
  EXPECT_TRUE(batch.ok()) << batch.status().ToString();
  return *batch;
}

// A catalog "<prefix>N" with ns.events (id, name, amount) holding `rows` rows.
std::string MakeLake(SdkLake& lake, const std::string& prefix, int64_t rows) {
  OpenSdkLake(lake, prefix);
  auto table = lake.ns->CreateTable(
      "events", {SdkColumn("id", ColumnType::kLong, false), SdkColumn("name", ColumnType::kString),
                 SdkColumn("amount", iceberg::TypeSpec::Decimal(10, 2))});
  EXPECT_TRUE(table.ok()) << table.status().ToString();
  if (table.ok() && rows > 0) {
    auto appended = table->Append(Rows(1, rows));
    EXPECT_TRUE(appended.ok()) << appended.status().ToString();
  }
  return lake.catalog->name();
}

std::string Query(const std::string& sql, const std::string& extra = "") {
  std::string body = "{\"sql\":\"" + sql + "\"";
  if (!extra.empty()) body += "," + extra;
  return body + "}";
}

std::string HotdataCode(const ApiResponse& r) {
  if (!r.json.IsObject() || !r.json.HasMember("error") || !r.json["error"].IsObject()) return "";
  return r.json["error"]["code"].GetString();
}

// Polls a run until it leaves "running" (or 30 s pass).
ApiResponse AwaitRun(const std::string& base, const std::string& run_id) {
  ApiResponse r;
  for (int i = 0; i < 600; ++i) {
    r = CallServer(base, "GET", "/v1/query-runs/" + run_id);
    if (r.status != 200 || std::string(r.json["status"].GetString()) != "running") return r;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return r;
}

std::string Submit(const std::string& base, const std::string& sql) {
  ApiResponse r = CallServer(base, "POST", "/v1/query", Query(sql, "\"async\":true"));
  EXPECT_EQ(r.status, 202) << r.body;
  if (r.status != 202) return "";
  EXPECT_EQ(std::string(r.json["status_url"].GetString()),
            "/v1/query-runs/" + std::string(r.json["query_run_id"].GetString()));
  return r.json["query_run_id"].GetString();
}

TEST(QueryApiTest, ConnectionsAreTheCatalogs) {
  SdkLake lake;
  const std::string catalog = MakeLake(lake, "qconn", 3);
  ApiResponse list = ServerEnvironment::Call("GET", "/v1/connections");
  ASSERT_EQ(list.status, 200) << list.body;
  bool found = false;
  for (const auto& c : list.json["connections"].GetArray()) {
    if (std::string(c["id"].GetString()) != catalog) continue;
    found = true;
    EXPECT_EQ(std::string(c["name"].GetString()), catalog);
    EXPECT_EQ(std::string(c["source_type"].GetString()), "hoglake");
  }
  EXPECT_TRUE(found) << list.body;
  ApiResponse one = ServerEnvironment::Call("GET", "/v1/connections/" + catalog);
  ASSERT_EQ(one.status, 200) << one.body;
  EXPECT_EQ(one.json["table_count"].GetInt64(), 1);
  ApiResponse missing = ServerEnvironment::Call("GET", "/v1/connections/no_such_catalog");
  EXPECT_EQ(missing.status, 404);
  EXPECT_EQ(HotdataCode(missing), "NOT_FOUND") << missing.body;
}

TEST(QueryApiTest, InformationSchemaFiltersPagesAndNamesPostgresTypes) {
  SdkLake lake;
  const std::string catalog = MakeLake(lake, "qinfo", 0);
  for (const char* name : {"alpha", "beta"}) {
    auto t = lake.ns->CreateTable(name, {SdkColumn("x", ColumnType::kDouble)});
    ASSERT_TRUE(t.ok()) << t.status().ToString();
  }
  const std::string base = "/v1/information_schema?connection_id=" + catalog;
  ApiResponse all = ServerEnvironment::Call("GET", base + "&include_columns=true");
  ASSERT_EQ(all.status, 200) << all.body;
  ASSERT_EQ(all.json["count"].GetInt64(), 3) << all.body;
  EXPECT_FALSE(all.json["has_more"].GetBool());
  const auto& events = all.json["tables"][2];
  EXPECT_EQ(std::string(events["table"].GetString()), "events");
  EXPECT_EQ(std::string(events["connection"].GetString()), catalog);
  EXPECT_EQ(std::string(events["schema"].GetString()), "ns");
  EXPECT_TRUE(events["synced"].GetBool());
  EXPECT_TRUE(events["partition_by"].IsArray());
  EXPECT_TRUE(events["sorted_by"].IsArray());
  ASSERT_EQ(events["columns"].Size(), 3u);
  EXPECT_EQ(std::string(events["columns"][0]["data_type"].GetString()), "bigint");
  EXPECT_FALSE(events["columns"][0]["nullable"].GetBool());
  EXPECT_EQ(std::string(events["columns"][1]["data_type"].GetString()), "text");
  EXPECT_EQ(std::string(events["columns"][2]["data_type"].GetString()), "numeric(10,2)");

  ApiResponse bare = ServerEnvironment::Call("GET", base);
  EXPECT_FALSE(bare.json["tables"][0].HasMember("columns")) << bare.body;

  ApiResponse pattern = ServerEnvironment::Call("GET", base + "&schema=n%25&table=_eta");
  ASSERT_EQ(pattern.status, 200) << pattern.body;
  ASSERT_EQ(pattern.json["count"].GetInt64(), 1) << pattern.body;
  EXPECT_EQ(std::string(pattern.json["tables"][0]["table"].GetString()), "beta");

  // Paging one table at a time visits each once, in order.
  std::vector<std::string> seen;
  std::string cursor;
  for (int page = 0; page < 5; ++page) {
    ApiResponse r = ServerEnvironment::Call(
        "GET", base + "&limit=1" + (cursor.empty() ? "" : "&cursor=" + cursor));
    ASSERT_EQ(r.status, 200) << r.body;
    for (const auto& t : r.json["tables"].GetArray()) seen.push_back(t["table"].GetString());
    if (!r.json["has_more"].GetBool()) {
      EXPECT_FALSE(r.json.HasMember("next_cursor"));
      break;
    }
    cursor = r.json["next_cursor"].GetString();
  }
  EXPECT_EQ(seen, (std::vector<std::string>{"alpha", "beta", "events"}));

  EXPECT_EQ(ServerEnvironment::Call("GET", base + "&cursor=%21%21").status, 400);
  EXPECT_EQ(ServerEnvironment::Call("GET", base + "&include_columns=maybe").status, 400);
  ApiResponse unknown =
      ServerEnvironment::Call("GET", "/v1/information_schema?connection_id=no_such");
  EXPECT_EQ(unknown.status, 404);
  EXPECT_EQ(HotdataCode(unknown), "NOT_FOUND");
}

// Every (connection, schema, table[, column, data_type, nullable]) the REST
// listing shows, all pages, as "a|b|c…" lines.
std::vector<std::string> RestListing(const std::string& filter, bool columns) {
  std::vector<std::string> lines;
  std::string cursor;
  for (int page = 0; page < 1000; ++page) {
    ApiResponse r = ServerEnvironment::Call("GET", "/v1/information_schema?limit=1000" + filter +
                                                       (columns ? "&include_columns=true" : "") +
                                                       (cursor.empty() ? "" : "&cursor=" + cursor));
    EXPECT_EQ(r.status, 200) << r.body;
    if (r.status != 200) break;
    for (const auto& t : r.json["tables"].GetArray()) {
      std::string key = std::string(t["connection"].GetString()) + "|" + t["schema"].GetString() +
                        "|" + t["table"].GetString();
      if (!columns) {
        lines.push_back(key);
        continue;
      }
      int ordinal = 0;
      for (const auto& c : t["columns"].GetArray()) {
        lines.push_back(key + "|" + c["name"].GetString() + "|" + std::to_string(++ordinal) + "|" +
                        c["data_type"].GetString() + "|" +
                        (c["nullable"].GetBool() ? "YES" : "NO"));
      }
    }
    if (!r.json["has_more"].GetBool()) break;
    cursor = r.json["next_cursor"].GetString();
  }
  return lines;
}

// A synchronous query's rows as "a|b|c…" lines (integers as digits).
std::vector<std::string> SqlLines(const std::string& sql) {
  ApiResponse r = ServerEnvironment::Call("POST", "/v1/query", Query(sql));
  EXPECT_EQ(r.status, 200) << r.body;
  std::vector<std::string> lines;
  if (r.status != 200) return lines;
  EXPECT_FALSE(r.json["truncated"].GetBool()) << r.body;
  for (const auto& row : r.json["rows"].GetArray()) {
    std::string line;
    for (const auto& v : row.GetArray()) {
      if (!line.empty()) line += "|";
      line += v.IsString() ? v.GetString() : v.IsNull() ? "NULL" : std::to_string(v.GetInt64());
    }
    lines.push_back(line);
  }
  return lines;
}

TEST(QueryApiTest, SqlInformationSchemaAnswersAsTheRestListing) {
  SdkLake lake;
  const std::string catalog = MakeLake(lake, "qsqlinfo", 2);
  auto extra = lake.ns->CreateTable("zeta", {SdkColumn("when", ColumnType::kTimestamptz),
                                             SdkColumn("ok", ColumnType::kBoolean, false)});
  ASSERT_TRUE(extra.ok()) << extra.status().ToString();

  const std::vector<std::string> columns = SqlLines(
      "SELECT table_catalog, table_schema, table_name, column_name, ordinal_position, data_type, "
      "is_nullable FROM information_schema.columns WHERE table_catalog = '" +
      catalog + "' ORDER BY table_name, ordinal_position");
  EXPECT_EQ(columns, RestListing("&connection_id=" + catalog, true));
  EXPECT_EQ(columns,
            (std::vector<std::string>{catalog + "|ns|events|id|1|bigint|NO",
                                      catalog + "|ns|events|name|2|text|YES",
                                      catalog + "|ns|events|amount|3|numeric(10,2)|YES",
                                      catalog + "|ns|zeta|when|1|timestamp with time zone|YES",
                                      catalog + "|ns|zeta|ok|2|boolean|NO"}));
  EXPECT_EQ(SqlLines("SELECT column_name FROM information_schema.columns WHERE table_name = "
                     "'zeta' AND table_catalog = '" +
                     catalog + "' AND is_nullable = 'NO'"),
            (std::vector<std::string>{"ok"}));
  EXPECT_EQ(SqlLines("SELECT schema_name FROM " + catalog + ".information_schema.schemata"),
            (std::vector<std::string>{"ns"}));

  // The whole lake: SQL and REST list the same tables (managed databases
  // under their connection ids, deleted ones in neither).
  EXPECT_EQ(SqlLines("SELECT table_catalog, table_schema, table_name FROM "
                     "information_schema.tables ORDER BY 1, 2, 3"),
            RestListing("", false));

  ApiResponse unknown = ServerEnvironment::Call("POST", "/v1/query",
                                                Query("SELECT * FROM information_schema.routines"));
  EXPECT_EQ(unknown.status, 400);
  EXPECT_NE(unknown.body.find("information_schema.routines"), std::string::npos) << unknown.body;
}

TEST(QueryApiTest, SynchronousQueryAnswersWithThePreview) {
  SdkLake lake;
  const std::string catalog = MakeLake(lake, "qsync", 5);
  ApiResponse r = ServerEnvironment::Call(
      "POST", "/v1/query",
      Query("SELECT id, name, amount FROM " + catalog + ".ns.events WHERE id > 2 ORDER BY id"));
  ASSERT_EQ(r.status, 200) << r.body;
  ASSERT_EQ(r.json["columns"].Size(), 3u);
  EXPECT_EQ(std::string(r.json["columns"][1].GetString()), "name");
  EXPECT_EQ(r.json["nullable"].Size(), 3u);
  ASSERT_EQ(r.json["rows"].Size(), 3u);
  EXPECT_EQ(r.json["rows"][0][0].GetInt64(), 3);
  EXPECT_EQ(std::string(r.json["rows"][0][1].GetString()), "n3");
  EXPECT_DOUBLE_EQ(r.json["rows"][2][2].GetDouble(), 5.25);
  EXPECT_EQ(r.json["preview_row_count"].GetInt64(), 3);
  EXPECT_EQ(r.json["total_row_count"].GetInt64(), 3);
  EXPECT_FALSE(r.json["truncated"].GetBool());
  EXPECT_TRUE(r.json["query_run_id"].IsString());
  EXPECT_TRUE(r.json["result_id"].IsString());

  // Unqualified names use default_catalog / default_schema.
  ApiResponse d = ServerEnvironment::Call(
      "POST", "/v1/query",
      Query("SELECT count(*) FROM events",
            "\"default_catalog\":\"" + catalog + "\",\"default_schema\":\"ns\""));
  ASSERT_EQ(d.status, 200) << d.body;
  EXPECT_EQ(d.json["rows"][0][0].GetInt64(), 5);

  // SQL errors: 400 with the engine's message.
  ApiResponse bad = ServerEnvironment::Call("POST", "/v1/query", Query("SELECT 1/0"));
  EXPECT_EQ(bad.status, 400);
  EXPECT_EQ(HotdataCode(bad), "BAD_REQUEST");
  EXPECT_NE(bad.body.find("division by zero"), std::string::npos) << bad.body;
  ApiResponse missing = ServerEnvironment::Call("POST", "/v1/query", Query("SELECT * FROM nope"));
  EXPECT_EQ(missing.status, 400);
  EXPECT_NE(missing.body.find("nope"), std::string::npos) << missing.body;
}

TEST(QueryApiTest, AsynchronousRunSucceedsAndItsResultComesInEveryFormat) {
  SdkLake lake;
  const std::string catalog = MakeLake(lake, "qasync", 4);
  const std::string run_id = Submit(ServerEnvironment::base_url(),
                                    "SELECT id, name FROM " + catalog + ".ns.events ORDER BY id");
  ASSERT_FALSE(run_id.empty());
  ApiResponse run = AwaitRun(ServerEnvironment::base_url(), run_id);
  ASSERT_EQ(run.status, 200) << run.body;
  ASSERT_EQ(std::string(run.json["status"].GetString()), "succeeded") << run.body;
  for (const char* field :
       {"id", "sql_text", "sql_hash", "snapshot_id", "created_at", "completed_at", "result_id"}) {
    EXPECT_TRUE(run.json.HasMember(field) && run.json[field].IsString()) << field << run.body;
  }
  EXPECT_EQ(run.json["row_count"].GetInt64(), 4);
  EXPECT_GE(run.json["rows_scanned"].GetInt64(), 4);
  const std::string result = run.json["result_id"].GetString();
  EXPECT_EQ(result.rfind("rslt", 0), 0u);
  EXPECT_EQ(run_id.rfind("qrun", 0), 0u);

  ApiResponse json = ServerEnvironment::Call("GET", "/v1/results/" + result);
  ASSERT_EQ(json.status, 200) << json.body;
  EXPECT_EQ(std::string(json.json["status"].GetString()), "ready");
  EXPECT_EQ(json.json["row_count"].GetInt64(), 4);
  EXPECT_EQ(json.headers["x-total-row-count"], "4");

  ApiResponse csv = ServerEnvironment::Call("GET", "/v1/results/" + result + "?format=csv");
  ASSERT_EQ(csv.status, 200);
  EXPECT_EQ(csv.headers["content-type"], "text/csv; charset=utf-8");
  EXPECT_EQ(csv.body, "id,name\n1,n1\n2,n2\n3,n3\n4,n4\n");

  ApiResponse page =
      ServerEnvironment::Call("GET", "/v1/results/" + result + "?format=csv&offset=1&limit=2");
  EXPECT_EQ(page.body, "id,name\n2,n2\n3,n3\n");
  EXPECT_EQ(page.headers["x-total-row-count"], "4");
  EXPECT_EQ(page.headers["link"], "</v1/results/" + result + "?offset=3&limit=2>; rel=\"next\"");
  ApiResponse last =
      ServerEnvironment::Call("GET", "/v1/results/" + result + "?format=csv&offset=3&limit=2");
  EXPECT_EQ(last.body, "id,name\n4,n4\n");
  EXPECT_EQ(last.headers.count("link"), 0u);

  ApiResponse md = ServerEnvironment::Call("GET", "/v1/results/" + result + "?format=markdown");
  EXPECT_EQ(md.body.substr(0, 22), "| id | name |\n| --- | ") << md.body;

  ApiResponse arrow = ServerEnvironment::Call("GET", "/v1/results/" + result + "?format=arrow");
  ASSERT_EQ(arrow.status, 200);
  EXPECT_EQ(arrow.headers["content-type"], "application/vnd.apache.arrow.stream");
  ASSERT_GE(arrow.body.size(), 8u);
  EXPECT_EQ(arrow.body.substr(0, 4), std::string("\xff\xff\xff\xff", 4));  // stream, not file
  EXPECT_EQ(arrow.body.substr(arrow.body.size() - 8), std::string("\xff\xff\xff\xff\0\0\0\0", 8));

  ApiResponse parquet = ServerEnvironment::Call("GET", "/v1/results/" + result + "?format=parquet");
  ASSERT_EQ(parquet.status, 200);
  EXPECT_EQ(parquet.body.substr(0, 4), "PAR1");

  EXPECT_EQ(ServerEnvironment::Call("GET", "/v1/results/" + result + "?format=xml").status, 400);
  EXPECT_EQ(ServerEnvironment::Call("GET", "/v1/results/" + result + "?offset=-1").status, 400);
}

TEST(QueryApiTest, FailedRunAndItsResultCarryTheMessage) {
  const std::string run_id = Submit(ServerEnvironment::base_url(), "SELECT 1/0");
  ApiResponse run = AwaitRun(ServerEnvironment::base_url(), run_id);
  ASSERT_EQ(std::string(run.json["status"].GetString()), "failed") << run.body;
  EXPECT_EQ(std::string(run.json["error_message"].GetString()), "division by zero");
  EXPECT_EQ(std::string(run.json["error_sqlstate"].GetString()), "22012");
  EXPECT_FALSE(run.json.HasMember("result_id"));
  // The run's result failed with it.
  ApiResponse results = ServerEnvironment::Call("GET", "/v1/results?limit=1000");
  ASSERT_EQ(results.status, 200);
  std::string failed_result;
  for (const auto& r : results.json["results"].GetArray()) {
    if (std::string(r["status"].GetString()) == "failed" && r.HasMember("error_message") &&
        std::string(r["error_message"].GetString()) == "division by zero") {
      failed_result = r["id"].GetString();
    }
  }
  ASSERT_FALSE(failed_result.empty()) << results.body;
  ApiResponse conflict = ServerEnvironment::Call("GET", "/v1/results/" + failed_result);
  EXPECT_EQ(conflict.status, 409);
  EXPECT_EQ(std::string(conflict.json["error_message"].GetString()), "division by zero");
}

TEST(QueryApiTest, RunsListNewestFirstWithCursorsAndStatusFilter) {
  std::vector<std::string> ids;
  for (int i = 0; i < 3; ++i) {
    ids.push_back(Submit(ServerEnvironment::base_url(), "SELECT " + std::to_string(i)));
  }
  for (const std::string& id : ids) AwaitRun(ServerEnvironment::base_url(), id);
  std::vector<std::string> listed;
  std::string cursor;
  for (int page = 0; page < 3; ++page) {
    ApiResponse r =
        ServerEnvironment::Call("GET", "/v1/query-runs?status=succeeded&limit=1" +
                                           (cursor.empty() ? std::string() : "&cursor=" + cursor));
    ASSERT_EQ(r.status, 200) << r.body;
    ASSERT_EQ(r.json["count"].GetInt64(), 1);
    listed.push_back(r.json["query_runs"][0]["id"].GetString());
    EXPECT_EQ(std::string(r.json["query_runs"][0]["status"].GetString()), "succeeded");
    ASSERT_TRUE(r.json["has_more"].GetBool());
    cursor = r.json["next_cursor"].GetString();
  }
  EXPECT_EQ(listed, (std::vector<std::string>{ids[2], ids[1], ids[0]}));
  EXPECT_EQ(ServerEnvironment::Call("GET", "/v1/query-runs?status=queued").status, 400);
  EXPECT_EQ(ServerEnvironment::Call("GET", "/v1/query-runs?cursor=zzz").status, 400);
}

TEST(QueryApiTest, RefusedRequestsNameTheProblem) {
  auto call = [](const std::string& body) {
    return ServerEnvironment::Call("POST", "/v1/query", body);
  };
  ApiResponse empty = call(Query("  "));
  EXPECT_EQ(empty.status, 400);
  EXPECT_NE(empty.body.find("cannot be empty"), std::string::npos);
  EXPECT_EQ(call("{}").status, 400);
  EXPECT_EQ(call("{\"sql\": 5}").status, 400);
  EXPECT_EQ(call("not json").status, 400);
  EXPECT_EQ(call(Query("SELECT 1", "\"async_after_ms\":2000")).status, 400);
  EXPECT_EQ(call(Query("SELECT 1", "\"async\":true,\"async_after_ms\":10")).status, 400);
  ApiResponse dialect = call(Query("SELECT 1", "\"dialect\":\"snowflake\""));
  EXPECT_EQ(dialect.status, 400);
  EXPECT_NE(dialect.body.find("snowflake"), std::string::npos);
  ApiResponse run = ServerEnvironment::Call("GET", "/v1/query-runs/qrunnope");
  EXPECT_EQ(run.status, 404);
  EXPECT_EQ(HotdataCode(run), "NOT_FOUND");
  EXPECT_EQ(ServerEnvironment::Call("GET", "/v1/results/rsltnope").status, 404);
  ApiResponse unmatched = ServerEnvironment::Call("GET", "/v1/results/a/b");
  EXPECT_EQ(unmatched.status, 404);
  EXPECT_EQ(HotdataCode(unmatched), "NOT_FOUND") << unmatched.body;
}

TEST(QueryApiTest, AsyncAfterWaitsThenAnswersInline) {
  ApiResponse r = ServerEnvironment::Call(
      "POST", "/v1/query", Query("SELECT 42", "\"async\":true,\"async_after_ms\":5000"));
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.json["rows"][0][0].GetInt64(), 42);
}

// ---- on servers of their own -------------------------------------------------

// A slow statement: a four-way cross join over a 300-row table (8.1e9 rows).
std::string SlowQuery(const std::string& catalog) {
  const std::string t = catalog + ".ns.events";
  return "SELECT count(*) FROM " + t + " a, " + t + " b, " + t + " c, " + t + " d";
}

TEST(QueryApiAdmissionTest, TimeoutCancelOverloadAndInterruption) {
  // This server has its own PostgreSQL: its lake is made through its API.
  const std::string dir = MakeServerDir("hoglake-query");
  ServerProcess server;
  ASSERT_NO_FATAL_FAILURE(server.Start(dir, {},
                                       {{"HOGLAKE_QUERY_WORKERS", "1"},
                                        {"HOGLAKE_QUERY_QUEUE_LIMIT", "1"},
                                        {"HOGLAKE_QUERY_TIMEOUT_MS", "3000"},
                                        {"HOGLAKE_QUERY_STALE_MS", "1500"}}));
  const std::string base = server.base_url();
  client::HoglakeClient sdk(base);
  auto catalog = sdk.CreateCatalog("slow", "file://" + dir + "/lake/slow/");
  ASSERT_TRUE(catalog.ok()) << catalog.status().ToString();
  auto ns = catalog->CreateNamespace("ns");
  ASSERT_TRUE(ns.ok());
  auto table = ns->CreateTable(
      "events", {SdkColumn("id", ColumnType::kLong, false), SdkColumn("name", ColumnType::kString),
                 SdkColumn("amount", iceberg::TypeSpec::Decimal(10, 2))});
  ASSERT_TRUE(table.ok()) << table.status().ToString();
  ASSERT_TRUE(table->Append(Rows(1, 300)).ok());

  // One running, one queued; the third is refused.
  const std::string running = Submit(base, SlowQuery("slow"));
  const std::string queued = Submit(base, SlowQuery("slow"));
  ApiResponse refused = CallServer(base, "POST", "/v1/query", Query("SELECT 1", "\"async\":true"));
  EXPECT_EQ(refused.status, 429) << refused.body;
  EXPECT_EQ(HotdataCode(refused), "OVERLOADED");
  EXPECT_EQ(refused.header_retry_after, "1");

  // Cancel the queued one; the running one hits the 3 s timeout.
  ApiResponse cancelled = CallServer(base, "POST", "/v1/query-runs/" + queued + "/cancel");
  ASSERT_EQ(cancelled.status, 200) << cancelled.body;
  ApiResponse c = AwaitRun(base, queued);
  EXPECT_EQ(std::string(c.json["status"].GetString()), "cancelled") << c.body;
  ApiResponse t = AwaitRun(base, running);
  EXPECT_EQ(std::string(t.json["status"].GetString()), "failed") << t.body;
  EXPECT_NE(std::string(t.json["error_message"].GetString()).find("timeout"), std::string::npos)
      << t.body;

  // A run whose server is killed is reported failed after the restart.
  const std::string doomed = Submit(base, SlowQuery("slow"));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  server.Kill9();
  ServerProcess restarted;
  ASSERT_NO_FATAL_FAILURE(restarted.Start(dir, {}, {{"HOGLAKE_QUERY_STALE_MS", "1500"}}));
  ApiResponse after;
  for (int i = 0; i < 300; ++i) {
    after = CallServer(restarted.base_url(), "GET", "/v1/query-runs/" + doomed);
    if (after.status == 200 && std::string(after.json["status"].GetString()) != "running") break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  EXPECT_EQ(std::string(after.json["status"].GetString()), "failed") << after.body;
  EXPECT_NE(std::string(after.json["error_message"].GetString()).find("interrupted"),
            std::string::npos);
  // Results of earlier runs are still readable.
  ApiResponse earlier = CallServer(restarted.base_url(), "POST", "/v1/query",
                                   Query("SELECT count(*) FROM slow.ns.events"));
  ASSERT_EQ(earlier.status, 200) << earlier.body;
  EXPECT_EQ(earlier.json["rows"][0][0].GetInt64(), 300);
  restarted.Stop();
}

TEST(QueryApiReplicasTest, AnotherReplicaAnswersPollsAndFetchesOfRunsOneExecuted) {
  // The test server's embedded PostgreSQL plays the shared database.
  const std::string socket_dir = ServerEnvironment::data_dir() + "/run";
  const std::string db = "query_replicas_" + std::to_string(getpid());
  ApiResponse ignored;
  {
    PGconn* conn =
        PQconnectdb(("host=" + socket_dir + " port=5432 user=hoglake dbname=postgres").c_str());
    ASSERT_EQ(PQstatus(conn), CONNECTION_OK) << PQerrorMessage(conn);
    PGresult* created = PQexec(conn, ("CREATE DATABASE " + db).c_str());
    ASSERT_EQ(PQresultStatus(created), PGRES_COMMAND_OK) << PQerrorMessage(conn);
    PQclear(created);
    PQfinish(conn);
  }
  const std::string url = "postgresql:///" + db + "?host=" + socket_dir + "&user=hoglake";
  const std::string shared = MakeServerDir("hoglake-query-shared");
  const std::map<std::string, std::string> env = {
      {"HOGLAKE_DATA_ROOT", "file://" + shared + "/lake/"},
      {"HOGLAKE_RESULTS_ROOT", "file://" + shared + "/results"}};
  ServerProcess a, b;
  ASSERT_NO_FATAL_FAILURE(a.Start(MakeServerDir("hoglake-query-a"), {"--database-url", url}, env));
  ASSERT_NO_FATAL_FAILURE(b.Start(MakeServerDir("hoglake-query-b"), {"--database-url", url}, env));

  client::HoglakeClient sdk(a.base_url());
  auto catalog = sdk.CreateCatalog("replicated", "file://" + shared + "/lake/replicated/");
  ASSERT_TRUE(catalog.ok()) << catalog.status().ToString();
  auto ns = catalog->CreateNamespace("ns");
  ASSERT_TRUE(ns.ok());
  auto table = ns->CreateTable(
      "events", {SdkColumn("id", ColumnType::kLong, false), SdkColumn("name", ColumnType::kString),
                 SdkColumn("amount", iceberg::TypeSpec::Decimal(10, 2))});
  ASSERT_TRUE(table.ok()) << table.status().ToString();
  ASSERT_TRUE(table->Append(Rows(1, 10)).ok());

  const std::string run_id =
      Submit(a.base_url(), "SELECT sum(id), max(name) FROM replicated.ns.events");
  ApiResponse run = AwaitRun(b.base_url(), run_id);
  ASSERT_EQ(std::string(run.json["status"].GetString()), "succeeded") << run.body;
  ApiResponse csv =
      CallServer(b.base_url(), "GET",
                 "/v1/results/" + std::string(run.json["result_id"].GetString()) + "?format=csv");
  ASSERT_EQ(csv.status, 200) << csv.body;
  EXPECT_EQ(csv.body, "sum,max\n55,n9\n");
  ApiResponse listed = CallServer(b.base_url(), "GET", "/v1/query-runs?limit=5");
  ASSERT_EQ(listed.status, 200);
  EXPECT_EQ(std::string(listed.json["query_runs"][0]["id"].GetString()), run_id);

  // A presigned upload minted by one replica is accepted by the other: the
  // signing key is shared through the database.
  const std::string bytes = "id,name\n1,a\n2,b\n";
  ApiResponse session = CallServer(a.base_url(), "POST", "/v1/uploads",
                                   "{\"content_type\":\"text/csv\",\"declared_size_bytes\":" +
                                       std::to_string(bytes.size()) + "}");
  ASSERT_EQ(session.status, 201) << session.body;
  const std::string upload = session.json["upload_id"].GetString();
  const std::string put_url = session.json["url"].GetString();
  const std::string path = put_url.substr(put_url.find('/', 7));
  httplib::Client to_b(b.base_url());
  auto put = to_b.Put(path, bytes, "application/octet-stream");
  ASSERT_TRUE(put);
  EXPECT_EQ(put->status, 200) << put->body;
  auto forged =
      to_b.Put(path.substr(0, path.find("signature=")) + "signature=00", bytes, "text/plain");
  ASSERT_TRUE(forged);
  EXPECT_EQ(forged->status, 400) << forged->body;
  httplib::Headers token{{"X-Upload-Finalize-Token", session.json["finalize_token"].GetString()}};
  auto finalized =
      to_b.Post("/v1/uploads/" + upload + "/finalize", token, "{}", "application/json");
  ASSERT_TRUE(finalized);
  EXPECT_EQ(finalized->status, 200) << finalized->body;
  ApiResponse database = CallServer(a.base_url(), "POST", "/v1/databases", "{}");
  ASSERT_EQ(database.status, 201) << database.body;
  ApiResponse loaded = CallServer(
      a.base_url(), "POST",
      "/v1/databases/" + std::string(database.json["id"].GetString()) +
          "/schemas/main/tables/shared/loads",
      "{\"mode\":\"replace\",\"upload_id\":\"" + upload + "\"}");
  ASSERT_EQ(loaded.status, 200) << loaded.body;
  EXPECT_EQ(loaded.json["row_count"].GetInt64(), 2);
  a.Stop();
  b.Stop();
}

// Every file under `dir` (recursively), as paths relative to it.
std::vector<std::string> FilesUnder(const std::string& dir) {
  std::vector<std::string> files;
  std::error_code ec;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir, ec)) {
    if (entry.is_regular_file()) files.push_back(entry.path().string().substr(dir.size()));
  }
  return files;
}

TEST(QueryApiExpiryTest, ResultsAndUnfinalizedUploadsExpireWithTheirObjects) {
  const std::string dir = MakeServerDir("hoglake-expiry");
  const std::string results = dir + "/results";
  ServerProcess server;
  ASSERT_NO_FATAL_FAILURE(server.Start(dir, {},
                                       {{"HOGLAKE_RESULTS_ROOT", "file://" + results},
                                        {"HOGLAKE_RESULT_RETENTION_SECONDS", "1"},
                                        {"HOGLAKE_UPLOAD_TTL_SECONDS", "1"},
                                        {"HOGLAKE_QUERY_SWEEP_INTERVAL_MS", "200"}}));
  const std::string base = server.base_url();
  ApiResponse query = CallServer(base, "POST", "/v1/query", Query("SELECT 42 AS answer"));
  ASSERT_EQ(query.status, 200) << query.body;
  const std::string result_id = query.json["result_id"].GetString();
  ASSERT_EQ(CallServer(base, "GET", "/v1/results/" + result_id).status, 200);
  auto result_files = [&] {
    std::vector<std::string> out;
    for (const std::string& f : FilesUnder(results)) {
      if (f.rfind("/uploads/", 0) != 0) out.push_back(f);
    }
    return out;
  };
  EXPECT_FALSE(result_files().empty());

  // An upload session with one part stored, never finalized.
  ApiResponse session = CallServer(base, "POST", "/v1/uploads", R"({"declared_size_bytes":3})");
  ASSERT_EQ(session.status, 201) << session.body;
  const std::string upload = session.json["upload_id"].GetString();
  const std::string put_url = session.json["url"].GetString();
  httplib::Client http(base);
  auto put = http.Put(put_url.substr(put_url.find('/', 7)), "abc", "application/octet-stream");
  ASSERT_TRUE(put);
  ASSERT_EQ(put->status, 200) << put->body;
  auto upload_files = [&] { return FilesUnder(results + "/uploads"); };
  EXPECT_FALSE(upload_files().empty());

  // The sweep removes both (polled: its cadence is 200 ms, retention 1 s).
  ApiResponse gone;
  for (int i = 0; i < 300; ++i) {
    gone = CallServer(base, "GET", "/v1/results/" + result_id);
    if (gone.status == 404 && upload_files().empty()) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  EXPECT_EQ(gone.status, 404) << gone.body;
  EXPECT_TRUE(result_files().empty()) << result_files()[0];
  EXPECT_TRUE(upload_files().empty()) << upload_files()[0];
  httplib::Headers token{{"X-Upload-Finalize-Token", session.json["finalize_token"].GetString()}};
  auto finalize = http.Post("/v1/uploads/" + upload + "/finalize", token, "{}", "application/json");
  ASSERT_TRUE(finalize);
  EXPECT_EQ(finalize->status, 404) << finalize->body;
  server.Stop();
}

// The CLI over the same server: `hoglake sql` in process, `query-runs` and
// `results` through the query API.
TEST(QueryApiCliTest, SqlQueryRunsAndResultsCommands) {
  SdkLake lake;
  const std::string catalog = MakeLake(lake, "qcli", 3);
  const std::string bin = std::getenv("HOGLAKE_BIN");
  const std::string dir = MakeServerDir("hoglake-cli");
  auto run = [&](const std::string& args, const std::string& out) {
    const int rc = std::system(
        (bin + " " + args + " >" + dir + "/" + out + " 2>" + dir + "/" + out + ".err").c_str());
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
  };
  const std::string data_dir = "--data-dir " + ServerEnvironment::data_dir();
  EXPECT_EQ(run("sql " + data_dir + " --format csv 'SELECT id, name FROM " + catalog +
                    ".ns.events ORDER BY id'",
                "csv"),
            0);
  EXPECT_EQ(ReadFile(dir + "/csv"), "id,name\n1,n1\n2,n2\n3,n3\n");
  {
    std::ofstream query(dir + "/q.sql");
    query << "SELECT count(*) AS n FROM " << catalog << ".ns.events";
  }
  EXPECT_EQ(run("sql " + data_dir + " -f " + dir + "/q.sql", "table"), 0);
  // Names, then SQL types, then the rule, the rows, the count and the time.
  const std::string table = ReadFile(dir + "/table");
  EXPECT_EQ(table.substr(0, table.find("Time: ")), " n     \n bigint\n--------\n      3\n(1 row)\n")
      << table;
  EXPECT_EQ(
      run("sql " + data_dir + " --format parquet -o " + dir + "/r.parquet -f " + dir + "/q.sql",
          "pq"),
      0);
  EXPECT_EQ(ReadFile(dir + "/r.parquet").substr(0, 4), "PAR1");
  EXPECT_EQ(run("sql " + data_dir + " 'SELECT 1/0'", "err"), 1);
  EXPECT_NE(ReadFile(dir + "/err.err").find("22012"), std::string::npos);
  EXPECT_EQ(run("sql " + data_dir + " </dev/null", "usage"), 2);  // no statement at all

  const std::string run_id = Submit(ServerEnvironment::base_url(), "SELECT 5 AS five");
  ApiResponse done = AwaitRun(ServerEnvironment::base_url(), run_id);
  const std::string url = "--url " + ServerEnvironment::base_url();
  EXPECT_EQ(run("query-runs list --limit 50 " + url, "list"), 0);
  EXPECT_NE(ReadFile(dir + "/list").find(run_id), std::string::npos) << ReadFile(dir + "/list");
  EXPECT_EQ(run("query-runs show " + run_id + " " + url, "show"), 0);
  EXPECT_NE(ReadFile(dir + "/show").find("\"succeeded\""), std::string::npos);
  EXPECT_EQ(
      run("results get " + std::string(done.json["result_id"].GetString()) + " " + url, "result"),
      0);
  EXPECT_EQ(ReadFile(dir + "/result"), "five\n5\n");
  EXPECT_EQ(run("query-runs show qrunnope " + url, "missing"), 1);
}

TEST(QueryApiAuthTest, TokensGuardTheQueryApiAndTheExchangeMintsAccessTokens) {
  const std::string dir = MakeServerDir("hoglake-auth");
  ServerProcess server;
  const std::string token = "test-token-0123456789abcdef";
  ASSERT_NO_FATAL_FAILURE(
      server.Start(dir, {}, {{"HOGLAKE_API_TOKENS", "short-but-other-token-xyz, " + token}}));
  httplib::Client http(server.base_url());
  auto query = [&](const std::string& authorization) {
    httplib::Headers headers;
    if (!authorization.empty()) headers.emplace("Authorization", authorization);
    return http.Post("/v1/query", headers, Query("SELECT 7"), "application/json");
  };
  auto none = query("");
  ASSERT_TRUE(none);
  EXPECT_EQ(none->status, 401);
  EXPECT_EQ(none->get_header_value("WWW-Authenticate"), "Bearer");
  EXPECT_NE(none->body.find("UNAUTHORIZED"), std::string::npos) << none->body;
  EXPECT_EQ(query("Bearer wrong-token-0123456789")->status, 401);
  EXPECT_EQ(query("Basic " + token)->status, 401);
  auto ok = query("Bearer " + token);
  EXPECT_EQ(ok->status, 200) << ok->body;
  // Catalog routes stay open on loopback (pyhoglake sends no credentials);
  // health and metrics always.
  EXPECT_EQ(CallServer(server.base_url(), "GET", "/v1/catalogs").status, 200);
  EXPECT_EQ(CallServer(server.base_url(), "GET", "/healthz").status, 200);

  // The SDK's exchange: form-encoded api_token → access (eyJ…) + refresh.
  auto exchanged = http.Post(
      "/v1/auth/jwt", "grant_type=api_token&api_token=" + token + "&client_id=hotdata-python-sdk",
      "application/x-www-form-urlencoded");
  ASSERT_EQ(exchanged->status, 200) << exchanged->body;
  rapidjson::Document minted;
  minted.Parse(exchanged->body.c_str());
  const std::string access = minted["access_token"].GetString();
  EXPECT_EQ(access.rfind("eyJ", 0), 0u);
  EXPECT_GT(minted["expires_in"].GetInt64(), 0);
  EXPECT_EQ(query("Bearer " + access)->status, 200);
  // A refresh token is not an access token, but it mints one.
  const std::string refresh = minted["refresh_token"].GetString();
  EXPECT_EQ(query("Bearer " + refresh)->status, 401);
  auto refreshed = http.Post("/v1/auth/jwt", "grant_type=refresh_token&refresh_token=" + refresh,
                             "application/x-www-form-urlencoded");
  ASSERT_EQ(refreshed->status, 200) << refreshed->body;
  // A tampered access token is refused.
  std::string tampered = access;
  tampered[tampered.size() - 2] = tampered[tampered.size() - 2] == 'A' ? 'B' : 'A';
  EXPECT_EQ(query("Bearer " + tampered)->status, 401);
  auto refused = http.Post("/v1/auth/jwt", "grant_type=api_token&api_token=nope-nope-nope-nope",
                           "application/x-www-form-urlencoded");
  EXPECT_EQ(refused->status, 401);
  auto malformed =
      http.Post("/v1/auth/jwt", "grant_type=password", "application/x-www-form-urlencoded");
  EXPECT_EQ(malformed->status, 400);
  server.Stop();

  // A token shorter than 16 characters stops the server before it starts.
  const std::string log = dir + "/weak.log";
  const int rc = std::system(("HOGLAKE_API_TOKENS=short timeout 60 " +
                              std::string(std::getenv("HOGLAKE_BIN")) + " serve --data-dir " + dir +
                              "/weak --listen 127.0.0.1:0 2>" + log)
                                 .c_str());
  ASSERT_TRUE(WIFEXITED(rc));
  EXPECT_EQ(WEXITSTATUS(rc), 1);
  EXPECT_NE(ReadFile(log).find("at least 16 characters"), std::string::npos) << ReadFile(log);
}

}  // namespace
}  // namespace hoglake::testing
