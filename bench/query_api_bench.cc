// query_api_bench: the query API's overhead and result streaming (issue 25).
//
//   round_trip  SELECT 1 the way hotdata-ibis runs it — POST /v1/query
//               {"async": true} → poll GET /v1/query-runs/{id} until done
//               (no sleep between polls) → GET /v1/results/{id} as an Arrow
//               stream — and synchronously (POST without async, 200 inline);
//               p50/p99 over --iterations, against the engine alone
//               (sql::Session::Execute("SELECT 1") in this process) measured
//               in the same run. Goal: async p50 ≤ 5 ms.
//   result      an N-row table (--rows, default 10M: id bigint, x double,
//               name text) appended through the SDK, SELECT * stored as a
//               result, then fetched as Arrow IPC: bytes/s from the results
//               store to the socket (the client discards as it reads), also
//               as a ratio to reading the stored Parquet object back
//               (format=parquet, the same bytes path without rendering).
//               Goal: ≥ 1 GB/s.
//
//   query_api_bench [--hoglake PATH] [--iterations N] [--rows N]
#include <httplib.h>

#include <cstring>
#include <string>
#include <vector>

#include "bench_report.h"
#include "bench_server.h"
#include "client/client.h"
#include "columnar/builder.h"
#include "sql/engine.h"

namespace {

using Clock = std::chrono::steady_clock;

std::string JsonField(const std::string& body, const std::string& key) {
  const std::string needle = "\"" + key + "\":\"";
  size_t at = body.find(needle);
  if (at == std::string::npos) return "";
  at += needle.size();
  return body.substr(at, body.find('"', at) - at);
}

struct Fetched {
  int64_t bytes = 0;
  double seconds = 0;
};

// GET `path` with `accept`, counting the body's bytes as they arrive.
Fetched Fetch(httplib::Client& http, const std::string& path, const std::string& accept) {
  Fetched f;
  const auto start = Clock::now();
  auto r = http.Get(path, httplib::Headers{{"Accept", accept}},
                    [&](const char*, size_t n) {
                      f.bytes += static_cast<int64_t>(n);
                      return true;
                    });
  f.seconds = Seconds(start);
  if (!r || r->status != 200) Die("GET " + path + " failed");
  return f;
}

std::string RunAsync(httplib::Client& http, const std::string& sql) {
  auto posted = http.Post("/v1/query", "{\"sql\":\"" + sql + "\",\"async\":true}",
                          "application/json");
  if (!posted || posted->status != 202) Die("POST /v1/query failed");
  const std::string run = JsonField(posted->body, "query_run_id");
  while (true) {
    auto polled = http.Get("/v1/query-runs/" + run);
    if (!polled || polled->status != 200) Die("poll failed");
    const std::string status = JsonField(polled->body, "status");
    if (status == "succeeded") return JsonField(polled->body, "result_id");
    if (status != "running") Die("run " + run + " ended " + status + ": " + polled->body);
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::string hoglake = "build/src/cli/hoglake";
  int iterations = 300;
  int64_t rows = 10000000;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--hoglake" && i + 1 < argc) {
      hoglake = argv[++i];
    } else if (arg == "--iterations" && i + 1 < argc) {
      iterations = std::atoi(argv[++i]);
    } else if (arg == "--rows" && i + 1 < argc) {
      rows = std::atoll(argv[++i]);
    } else {
      Die("usage: query_api_bench [--hoglake PATH] [--iterations N] [--rows N]");
    }
  }
  BenchServer server = BenchServer::Start("query_api_bench", hoglake);
  httplib::Client http(server.url);
  http.set_keep_alive(true);
  http.set_tcp_nodelay(true);  // as urllib3 (the Python clients) does
  http.set_read_timeout(600, 0);

  // ---- round trip ----------------------------------------------------------
  hoglake::sql::Session engine(hoglake::sql::SessionOptions{});
  std::vector<double> alone, async_trip, sync_trip;
  for (int i = 0; i < iterations + 20; ++i) {  // the first 20 warm up
    auto start = Clock::now();
    if (!engine.Execute("SELECT 1").ok()) Die("engine failed");
    const double engine_ms = Seconds(start) * 1000;
    start = Clock::now();
    const std::string result = RunAsync(http, "SELECT 1");
    Fetch(http, "/v1/results/" + result, "application/vnd.apache.arrow.stream");
    const double async_ms = Seconds(start) * 1000;
    start = Clock::now();
    auto sync = http.Post("/v1/query", "{\"sql\":\"SELECT 1\"}", "application/json");
    if (!sync || sync->status != 200) Die("sync query failed");
    const double sync_ms = Seconds(start) * 1000;
    if (i < 20) continue;
    alone.push_back(engine_ms);
    async_trip.push_back(async_ms);
    sync_trip.push_back(sync_ms);
  }
  const double alone_p50 = Percentile(alone, 0.5);
  Emit("round_trip", "engine_alone_p50", alone_p50, "ms");
  Emit("round_trip", "engine_alone_p99", Percentile(alone, 0.99), "ms");
  Emit("round_trip", "async_arrow_p50", Percentile(async_trip, 0.5), "ms",
       Percentile(async_trip, 0.5) / alone_p50);
  Emit("round_trip", "async_arrow_p99", Percentile(async_trip, 0.99), "ms");
  Emit("round_trip", "sync_inline_p50", Percentile(sync_trip, 0.5), "ms",
       Percentile(sync_trip, 0.5) / alone_p50);
  Emit("round_trip", "sync_inline_p99", Percentile(sync_trip, 0.99), "ms");

  // ---- result streaming ------------------------------------------------------
  if (rows > 0) {
    hoglake::client::HoglakeClient sdk(server.url);
    auto catalog = sdk.CreateCatalog("bench", "file://" + server.dir + "/lake/bench/");
    if (!catalog.ok()) Die(catalog.status().ToString());
    auto ns = catalog->CreateNamespace("b");
    if (!ns.ok()) Die(ns.status().ToString());
    auto schema = std::make_shared<hoglake::columnar::Schema>();
    schema->fields = {{"id", hoglake::columnar::Int64(), false, {}},
                      {"x", hoglake::columnar::Float64(), true, {}},
                      {"name", hoglake::columnar::Utf8(), true, {}}};
    auto columns = hoglake::client::ColumnDefsFromSchema(*schema);
    if (!columns.ok()) Die(columns.status().ToString());
    auto table = ns->CreateTable("wide", *columns);
    if (!table.ok()) Die(table.status().ToString());
    const int64_t per_batch = 1 << 20;
    for (int64_t first = 0; first < rows; first += per_batch) {
      const int64_t n = std::min(per_batch, rows - first);
      hoglake::columnar::Int64Builder id;
      hoglake::columnar::Float64Builder x;
      hoglake::columnar::StringBuilder name;
      char text[32];
      for (int64_t i = first; i < first + n; ++i) {
        id.Append(i);
        x.Append(static_cast<double>(i % 100000) / 7.0);
        int len = std::snprintf(text, sizeof(text), "name-%lld", static_cast<long long>(i % 5000));
        name.Append(std::string_view(text, static_cast<size_t>(len)));
      }
      auto batch = hoglake::columnar::MakeRecordBatch(
          schema, {*id.Finish(), *x.Finish(), *name.Finish()});
      if (!batch.ok() || !table->Append(*batch).ok()) Die("append failed");
    }
    std::cerr << "query_api_bench: " << rows << " rows appended\n";
    auto start = Clock::now();
    const std::string result = RunAsync(http, "SELECT * FROM bench.b.wide");
    Emit("result", "select_star_stored_seconds", Seconds(start), "s");
    Fetched parquet = Fetch(http, "/v1/results/" + result + "?format=parquet", "*/*");
    Fetched arrow = Fetch(http, "/v1/results/" + result, "application/vnd.apache.arrow.stream");
    const double arrow_rate = static_cast<double>(arrow.bytes) / arrow.seconds;
    const double parquet_rate = static_cast<double>(parquet.bytes) / parquet.seconds;
    Emit("result", "arrow_bytes", static_cast<double>(arrow.bytes), "bytes");
    Emit("result", "arrow_stream_bytes_per_second", arrow_rate / 1e9, "GB/s");
    Emit("result", "arrow_rows_per_second", static_cast<double>(rows) / arrow.seconds, "rows/s");
    Emit("result", "parquet_verbatim_bytes_per_second", parquet_rate / 1e9, "GB/s",
         arrow_rate / parquet_rate);
  }
  server.Stop();
  return 0;
}
