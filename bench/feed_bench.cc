// feed_bench: changefeed latency and DDL churn through the real HTTP contract
// (issue 7, rows "changefeed" and "DDL churn").
//
//   feed_bench [--quick] [--hoglake PATH] [--url URL] [--sizes 2000,10000,50000]
//              [--windows 10,100,1000,10000] [--calls N] [--cycles N] [--probe N]
//              [--no-analyze] [--skip-feed] [--skip-churn]
//
// What it measures:
//
//  * changefeed — one catalog with two tables, `a` and `b`, grown by
//    single-writer commits of one file each (four of every five commits go to
//    `a`, the fifth to `b`, so every window mixes snapshots that touch `a`
//    with snapshots that do not). At each catalog size in --sizes (head
//    snapshot id; full 2K / 10K / 50K, --quick 2K / 5K) it times
//    GET …/tables/a/changes?from_snapshot=head-100&to_snapshot=head
//    (--calls timed calls after 20 untimed warm-ups; latency = request sent
//    → whole body received, JSON parsing excluded) and reports p50/p99 and
//    the ratio of each size's p50 to the smallest size's (goal: flat, ≤ 1.2).
//    At the largest size it sweeps windows of --windows snapshots (those ≤ the
//    head) and reports p50/p99, files and bytes returned, and µs per file.
//    Before each measurement it runs ANALYZE on the catalog tables through
//    libpq (as hoglake's own harness does; --no-analyze to leave it to
//    autovacuum) when it started the server itself.
//    Every response is checked: the number of files equals the number of
//    commits made to `a` inside the window (the bench records which table
//    each snapshot id went to from the commit responses).
//  * DDL churn — a fresh catalog with a steady table `probe`: single-writer
//    one-file append commit p50 on `probe` (--probe timed commits after 20
//    warm-ups), then --cycles cycles of create table → append one file →
//    drop table (3 snapshots per cycle; cycle latency and tables/s), then the
//    same probe again. Reports p50 after ÷ before (goal ≤ 1.2). Each probe
//    commit is paired with one to the same-shaped table of a second catalog
//    that sees no churn; its after ÷ before is the machine's drift (the disk's
//    flush rate wanders by tens of percent on this VM), and the churned ratio
//    divided by it is reported as p50_ratio_drift_corrected.
//
// One JSON line per measurement: {"scenario","metric","value","unit"[,"ratio"]}.
// After each scenario it checks the invariants through the API: snapshot ids
// dense from 1 to the head, row ids tiling every live table from 0, each live
// table holding exactly the files committed to it, and (churn) only `probe`
// left live with every churned table gone. Exits non-zero if one breaks or a
// changefeed response returns the wrong number of files.
//
// Without --url it starts `hoglake serve` (embedded PostgreSQL) on a temporary
// data directory (mode 0755: PostgreSQL runs as another user); the server pid
// and data dir go to stderr so the run can be profiled with psql on
// host=<dir>/run port=5432 user=hoglake dbname=hoglake.
#include <httplib.h>
#include <libpq-fe.h>
#include <rapidjson/document.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "bench_report.h"
#include "bench_server.h"

namespace {

using Clock = std::chrono::steady_clock;

struct Options {
  bool quick = false;
  bool analyze = true;
  bool feed = true;
  bool churn = true;
  std::string hoglake = "build/src/cli/hoglake";
  std::string url;
  std::vector<int> sizes = {2000, 10000, 50000};
  std::vector<int> windows = {10, 100, 1000, 10000};
  int calls = 50;
  int cycles = 1000;
  int probe = 200;
};

double Ms(Clock::time_point since) {
  return std::chrono::duration<double, std::milli>(Clock::now() - since).count();
}

class Api {
 public:
  explicit Api(const std::string& url) : client_(url) {
    client_.set_keep_alive(true);
    client_.set_default_headers({{"Accept-Encoding", kClientAcceptEncoding}});
    client_.set_tcp_nodelay(true);
    client_.set_read_timeout(120, 0);
  }
  std::string Post(const std::string& path, const std::string& body, int expect = 200) {
    auto r = client_.Post(path.c_str(), body, "application/json");
    if (!r || r->status != expect) {
      Die("POST " + path + " → " +
          (r ? std::to_string(r->status) + " " + r->body : "transport error"));
    }
    return r->body;
  }
  void Delete(const std::string& path) {
    auto r = client_.Delete(path.c_str());
    if (!r || r->status != 200) {
      Die("DELETE " + path + " → " +
          (r ? std::to_string(r->status) + " " + r->body : "transport error"));
    }
  }
  int Status(const std::string& path) {
    auto r = client_.Get(path.c_str());
    return r ? r->status : -1;
  }
  // The raw body (timed callers parse it afterwards).
  std::string GetBody(const std::string& path) {
    auto r = client_.Get(path.c_str());
    if (!r || r->status != 200) {
      Die("GET " + path + " → " +
          (r ? std::to_string(r->status) + " " + r->body : "transport error"));
    }
    return std::move(r->body);
  }
  rapidjson::Document Get(const std::string& path) { return Parse(GetBody(path), path); }
  static rapidjson::Document Parse(const std::string& body, const std::string& what) {
    rapidjson::Document doc;
    doc.Parse(body.c_str());
    if (doc.HasParseError()) Die(what + ": unparsable body");
    return doc;
  }

 private:
  httplib::Client client_;
};

std::string CommitBody(const std::string& catalog, const std::string& table, int64_t seq) {
  return R"({"appends":[{"namespace":"ns","table":")" + table +
         R"(","files":[{"path":"s3://bench/)" + catalog + "/" + table + "-" + std::to_string(seq) +
         R"(.parquet","record_count":10,"file_size_bytes":4096,"footer_size":512,"column_stats":[)"
         R"({"field_id":1,"value_count":10,"null_count":0,"lower_bound":"AQAAAAAAAAA=","upper_bound":"CgAAAAAAAAA="}]}]}]})";
}

// Commits one file to `table`; returns the new snapshot id.
int64_t Commit(Api& api, const std::string& catalog, const std::string& table, int64_t seq) {
  auto doc = Api::Parse(
      api.Post("/v1/catalogs/" + catalog + "/commit", CommitBody(catalog, table, seq)), "commit");
  return doc["snapshot_id"].GetInt64();
}

void CreateTable(Api& api, const std::string& catalog, const std::string& table) {
  api.Post("/v1/catalogs/" + catalog + "/namespaces/ns/tables",
           R"({"name":")" + table + R"(","columns":[{"name":"id","type":"long"}]})", 201);
}

void CreateCatalog(Api& api, const std::string& name) {
  api.Post("/v1/catalogs", R"({"name":")" + name + R"(","data_path":"s3://bench/)" + name + "\"}",
           201);
  api.Post("/v1/catalogs/" + name + "/namespaces", R"({"name":"ns"})", 201);
}

int64_t Head(Api& api, const std::string& catalog) {
  return api.Get("/v1/catalogs/" + catalog)["head_snapshot_id"].GetInt64();
}

// ANALYZE the catalog tables (when we own the PostgreSQL).
void Analyze(const std::string& conninfo) {
  if (conninfo.empty()) return;
  PGconn* conn = PQconnectdb(conninfo.c_str());
  if (PQstatus(conn) != CONNECTION_OK) Die(std::string("libpq: ") + PQerrorMessage(conn));
  PGresult* r = PQexec(conn, "ANALYZE");
  if (PQresultStatus(r) != PGRES_COMMAND_OK) Die(std::string("ANALYZE: ") + PQerrorMessage(conn));
  PQclear(r);
  PQfinish(conn);
}

// Dense snapshot ids; row ids tiling every live table; live tables and their
// file counts exactly `expected_files`. Returns false (and says why) if broken.
bool CheckInvariants(Api& api, const std::string& catalog,
                     const std::map<std::string, int64_t>& expected_files) {
  const std::string c = "/v1/catalogs/" + catalog;
  const int64_t head = Head(api, catalog);
  int64_t next_expected = 1;
  int64_t after = 0;
  while (true) {
    auto page = api.Get(c + "/snapshots?after=" + std::to_string(after) + "&limit=10000");
    for (const auto& s : page["snapshots"].GetArray()) {
      if (s["snapshot_id"].GetInt64() != next_expected) {
        std::cerr << "invariant broken: snapshot " << next_expected << " missing in " << catalog
                  << "\n";
        return false;
      }
      after = next_expected++;
    }
    if (!page["has_more"].GetBool()) break;
  }
  if (next_expected != head + 1) {
    std::cerr << "invariant broken: snapshots end at " << next_expected - 1 << ", head is " << head
              << " in " << catalog << "\n";
    return false;
  }
  auto tables = api.Get(c + "/namespaces/ns/tables");
  std::map<std::string, int64_t> live;
  for (const auto& t : tables.GetArray()) live[t["name"].GetString()] = t["file_count"].GetInt64();
  if (live != expected_files) {
    std::cerr << "invariant broken: live tables/file counts in " << catalog
              << " differ from what was committed:";
    for (const auto& [name, files] : live) std::cerr << " " << name << "=" << files;
    std::cerr << "\n";
    return false;
  }
  for (const auto& [name, files] : expected_files) {
    auto scan = api.Get(c + "/namespaces/ns/tables/" + name + "/scan");
    int64_t row = 0, count = 0;
    for (const auto& f : scan.GetArray()) {
      if (f["data_file"]["row_id_start"].GetInt64() != row) {
        std::cerr << "invariant broken: row ids do not tile " << catalog << ".ns." << name << "\n";
        return false;
      }
      row += f["data_file"]["record_count"].GetInt64();
      ++count;
    }
    if (count != files) {
      std::cerr << "invariant broken: scan of " << name << " returned " << count << " files, "
                << files << " committed\n";
      return false;
    }
  }
  return true;
}

// ---- changefeed ----------------------------------------------------------------------

struct Feed {
  std::string catalog;
  std::vector<int64_t> a_upto = {0};  // a_upto[s] = commits to `a` with snapshot id ≤ s
  std::map<std::string, int64_t> files;
  int64_t seq = 0;
  int64_t head = 0;

  void Record(int64_t snapshot, bool to_a) {
    if (snapshot <= head) Die("snapshot ids went backwards");
    while (static_cast<int64_t>(a_upto.size()) <= snapshot) a_upto.push_back(a_upto.back());
    if (to_a) ++a_upto[snapshot];
    head = snapshot;
  }
  int64_t Expected(int64_t from, int64_t to) const { return a_upto[to] - a_upto[from]; }
};

struct WindowResult {
  std::vector<double> latency_ms;
  int64_t files = 0;
  size_t bytes = 0;
  bool ok = true;
};

WindowResult TimeWindow(Api& api, const Feed& feed, int64_t window, int warm, int calls) {
  const int64_t to = feed.head, from = std::max<int64_t>(0, feed.head - window);
  const std::string path = "/v1/catalogs/" + feed.catalog +
                           "/namespaces/ns/tables/a/changes?from_snapshot=" + std::to_string(from) +
                           "&to_snapshot=" + std::to_string(to);
  const int64_t expected = feed.Expected(from, to);
  WindowResult out;
  for (int i = 0; i < warm + calls; ++i) {
    const auto start = Clock::now();
    std::string body = api.GetBody(path);
    const double ms = Ms(start);
    if (i >= warm) out.latency_ms.push_back(ms);
    auto doc = Api::Parse(body, path);
    const int64_t got = doc["files"].Size();
    if (got != expected) {
      std::cerr << "changefeed wrong: window (" << from << ", " << to << "] returned " << got
                << " files, " << expected << " committed\n";
      out.ok = false;
    }
    out.files = got;
    out.bytes = body.size();
  }
  return out;
}

bool RunFeed(Api& api, const Options& options, const std::string& conninfo,
             const std::string& suffix) {
  Feed feed;
  feed.catalog = "feed-" + suffix;
  CreateCatalog(api, feed.catalog);
  CreateTable(api, feed.catalog, "a");
  CreateTable(api, feed.catalog, "b");
  feed.head = Head(api, feed.catalog);
  feed.a_upto.assign(feed.head + 1, 0);
  feed.files = {{"a", 0}, {"b", 0}};
  bool ok = true;

  double first_p50 = 0;
  std::vector<int> sizes = options.sizes;
  std::sort(sizes.begin(), sizes.end());
  for (size_t k = 0; k < sizes.size(); ++k) {
    const int size = sizes[k];
    const int64_t grow_from = feed.head;
    const auto grow_start = Clock::now();
    while (feed.head < size) {
      const bool to_a = feed.seq % 5 != 4;
      const std::string table = to_a ? "a" : "b";
      feed.Record(Commit(api, feed.catalog, table, feed.seq++), to_a);
      ++feed.files[table];
    }
    if (feed.head > grow_from) {
      Emit("changefeed_grow", "commits_per_second_to_" + std::to_string(size),
           static_cast<double>(feed.head - grow_from) / (Ms(grow_start) / 1000.0), "commits/s");
    }
    if (options.analyze) Analyze(conninfo);
    const std::string scenario = "changefeed_fixed100_at_" + std::to_string(size);
    WindowResult r = TimeWindow(api, feed, 100, 20, options.calls);
    ok = r.ok && ok;
    const double p50 = Percentile(r.latency_ms, 0.5);
    if (k == 0) first_p50 = p50;
    Emit(scenario, "p50", p50, "ms", p50 / first_p50);
    Emit(scenario, "p99", Percentile(r.latency_ms, 0.99), "ms");
    Emit(scenario, "files_returned", static_cast<double>(r.files), "files");
  }
  for (int w : options.windows) {
    if (w > feed.head) continue;
    const std::string scenario = "changefeed_window_" + std::to_string(w);
    const int calls = w >= 10000 ? std::max(5, options.calls / 3) : options.calls;
    WindowResult r = TimeWindow(api, feed, w, w >= 1000 ? 3 : 10, calls);
    ok = r.ok && ok;
    const double p50 = Percentile(r.latency_ms, 0.5);
    Emit(scenario, "p50", p50, "ms");
    Emit(scenario, "p99", Percentile(r.latency_ms, 0.99), "ms");
    Emit(scenario, "files_returned", static_cast<double>(r.files), "files");
    Emit(scenario, "bytes_returned", static_cast<double>(r.bytes), "bytes");
    if (r.files > 0)
      Emit(scenario, "us_per_file", 1000.0 * p50 / static_cast<double>(r.files), "us");
  }
  const bool inv = CheckInvariants(api, feed.catalog, feed.files);
  Emit("changefeed_invariants", "ok", inv && ok ? 1 : 0, "bool");
  return inv && ok;
}

// ---- DDL churn -------------------------------------------------------------------------

// Probe commits to `probe` in `catalog`, interleaved one for one with commits
// to the never-churned `control` catalog (so disk-flush drift between the
// "before" and "after" phases can be told apart from the churn's effect).
struct ProbeResult {
  std::vector<double> churned, control;
};

ProbeResult Probe(Api& api, const std::string& catalog, const std::string& control, int64_t& seq,
                  int warm, int n) {
  ProbeResult out;
  for (int i = 0; i < warm + n; ++i) {
    auto start = Clock::now();
    Commit(api, catalog, "probe", seq);
    if (i >= warm) out.churned.push_back(Ms(start));
    start = Clock::now();
    Commit(api, control, "probe", seq++);
    if (i >= warm) out.control.push_back(Ms(start));
  }
  return out;
}

bool RunChurn(Api& api, const Options& options, const std::string& suffix) {
  const std::string catalog = "churn-" + suffix;
  CreateCatalog(api, catalog);
  CreateTable(api, catalog, "probe");
  const std::string control = "churnctl-" + suffix;
  CreateCatalog(api, control);
  CreateTable(api, control, "probe");
  int64_t seq = 0;
  auto before = Probe(api, catalog, control, seq, 20, options.probe);
  const double p50_before = Percentile(before.churned, 0.5);
  const double ctl_before = Percentile(before.control, 0.5);
  Emit("ddl_churn", "probe_p50_before", p50_before, "ms");
  Emit("ddl_churn", "probe_p99_before", Percentile(before.churned, 0.99), "ms");
  Emit("ddl_churn", "control_p50_before", ctl_before, "ms");

  const std::string tables = "/v1/catalogs/" + catalog + "/namespaces/ns/tables/";
  std::vector<double> cycle;
  const auto churn_start = Clock::now();
  for (int i = 0; i < options.cycles; ++i) {
    const std::string name = "c" + std::to_string(i);
    const auto start = Clock::now();
    CreateTable(api, catalog, name);
    Commit(api, catalog, name, i);
    api.Delete(tables + name);
    cycle.push_back(Ms(start));
  }
  const double churn_seconds = Ms(churn_start) / 1000.0;
  Emit("ddl_churn", "cycle_p50", Percentile(cycle, 0.5), "ms");
  Emit("ddl_churn", "cycle_p99", Percentile(cycle, 0.99), "ms");
  Emit("ddl_churn", "tables_per_second", options.cycles / churn_seconds, "tables/s");

  auto after = Probe(api, catalog, control, seq, 20, options.probe);
  const double p50_after = Percentile(after.churned, 0.5);
  const double ctl_after = Percentile(after.control, 0.5);
  Emit("ddl_churn", "probe_p50_after", p50_after, "ms", p50_after / p50_before);
  Emit("ddl_churn", "probe_p99_after", Percentile(after.churned, 0.99), "ms");
  Emit("ddl_churn", "control_p50_after", ctl_after, "ms", ctl_after / ctl_before);
  // after/before of the churned catalog divided by the same for the control:
  // the churn's effect with the machine's drift between the phases removed.
  const double corrected = (p50_after / p50_before) / (ctl_after / ctl_before);
  Emit("ddl_churn", "p50_ratio_drift_corrected", corrected, "ratio", corrected);

  bool ok = CheckInvariants(api, catalog, {{"probe", seq}}) &&
            CheckInvariants(api, control, {{"probe", seq}});
  // Every churned table is gone (sample: first, middle, last).
  for (int i : {0, options.cycles / 2, options.cycles - 1}) {
    if (i < 0) continue;
    const int status = api.Status(tables + "c" + std::to_string(i));
    if (status != 404) {
      std::cerr << "invariant broken: dropped table c" << i << " answers " << status << "\n";
      ok = false;
    }
  }
  const int64_t head = Head(api, catalog);
  // 1 (create probe) + 2 × (20 + probe) probe commits + 3 per cycle.
  Emit("ddl_churn", "head_snapshot", static_cast<double>(head), "snapshots");
  Emit("ddl_churn_invariants", "ok", ok ? 1 : 0, "bool");
  return ok;
}

std::vector<int> ParseList(const std::string& text) {
  std::vector<int> out;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) out.push_back(std::stoi(item));
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  bool sizes_given = false, windows_given = false, calls_given = false, cycles_given = false,
       probe_given = false;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) Die(arg + " needs a value");
      return argv[++i];
    };
    if (arg == "--quick") {
      options.quick = true;
    } else if (arg == "--hoglake") {
      options.hoglake = value();
    } else if (arg == "--url") {
      options.url = value();
    } else if (arg == "--sizes") {
      options.sizes = ParseList(value());
      sizes_given = true;
    } else if (arg == "--windows") {
      options.windows = ParseList(value());
      windows_given = true;
    } else if (arg == "--calls") {
      options.calls = std::stoi(value());
      calls_given = true;
    } else if (arg == "--cycles") {
      options.cycles = std::stoi(value());
      cycles_given = true;
    } else if (arg == "--probe") {
      options.probe = std::stoi(value());
      probe_given = true;
    } else if (arg == "--no-analyze") {
      options.analyze = false;
    } else if (arg == "--skip-feed") {
      options.feed = false;
    } else if (arg == "--skip-churn") {
      options.churn = false;
    } else {
      Die("unknown argument " + arg);
    }
  }
  if (options.quick) {
    if (!sizes_given) options.sizes = {2000, 5000};
    if (!windows_given) options.windows = {10, 100, 1000};
    if (!calls_given) options.calls = 50;
    if (!cycles_given) options.cycles = 200;
    if (!probe_given) options.probe = 100;
  }
  if (options.sizes.empty() || options.calls < 1 || options.cycles < 0 || options.probe < 1)
    Die("bad sizes/calls/cycles/probe");

  BenchServer server;
  std::string conninfo;
  if (options.url.empty()) {
    server = BenchServer::Start("feed_bench", options.hoglake);
    options.url = server.url;
    conninfo = server.Conninfo();
  }
  Api api(options.url);
  const std::string suffix = std::to_string(getpid());
  bool ok = true;
  const auto start = Clock::now();
  if (options.feed) ok = RunFeed(api, options, conninfo, suffix) && ok;
  if (options.churn) ok = RunChurn(api, options, suffix) && ok;
  Emit("feed_bench", "wall", Ms(start) / 1000.0, "s");
  Emit("invariants", "ok", ok ? 1 : 0, "bool");

  if (server.pid > 0) {
    server.Stop();
    if (getenv("FEED_BENCH_KEEP") == nullptr) std::filesystem::remove_all(server.dir);
  }
  return ok ? 0 : 1;
}
