// maintenance_bench: snapshot expiry and removal-queue cleanup through the
// real HTTP contract (issue 7, rows "expiry" and "cleanup").
//
//   maintenance_bench [--quick] [--hoglake PATH] [--snapshots N] [--batch B]
//                     [--cleanup-batch C] [--seeders S] [--store file|s3]
//                     [--node PATH] [--s3rver-script PATH]
//
// Starts `hoglake serve` (embedded PostgreSQL) on a temporary data directory
// (chmod 0755: PostgreSQL runs as another user) with the background expiry
// and hydrator loops off, so only the calls below do maintenance. One catalog
// with data path file://<dir>/data and two tables, ns.hist and ns.fg.
// `--store s3` puts the data path on S3 instead: s3rver (npm, started through
// tests/storage_integration/start_s3rver.mjs with `--node`, default `node`
// on PATH; run from the source tree after `npm ci` in tests/interop), data
// path s3://lake/mb<pid>; objects are written and checked through S3 (the
// seeded keys spread over 256 prefixes, see hist_key), and cleanup deletes
// them there.
//
// Seeding (timed separately, "seed"): N commits to ns.hist, one appended file
// each (a real 64-byte object written under the data path first; column stats
// given, so nothing reads the object), from S HTTP threads; then ns.hist is
// truncated (one snapshot), which ends every seeded file. N snapshots + their
// N files are now expirable once retention passes.
//
// Foreground baseline ("expiry" fg_before_*): one thread commits one real file
// per commit to ns.fg (same catalog, so the same per-catalog commit lock) for
// a fixed time with no maintenance running.
//
// Expiry: PATCH …/options {snapshot_retention_seconds: 1}, sleep 1.1 s, start
// the foreground thread again, then POST …/maintenance/expire?batch=B in a
// loop until a call expires 0 snapshots, wall-timed. Reports snapshots
// expired/s and data files queued/s (sums of the calls' result fields ÷ wall
// time of the loop), per-call latency (max), foreground commit p50/p99/max
// during expiry vs before, and the commit-lock hold:
//  * lock_hold_upper_bound: the longest expire call measured by the server's
//    own ledger (GET …/maintenance/runs, finished_at − started_at). Only
//    phase A (floor advance + range DELETEs) of a call holds the commit lock;
//    the ledger span also covers the file-row purge and the ledger write, so
//    this is an upper bound.
//  * lock_wait_max_bucket_le: the bound `le` of the smallest /metrics
//    hoglake_commit_lock_wait_seconds bucket holding every wait sampled
//    during the expiry loop (the foreground commits' and the expire calls'
//    own waits), in ms: the longest wait is ≤ it and above the bucket below.
//    A commit arriving mid-hold waits only the rest of the hold, so waits
//    bound the hold from below, at histogram-bucket resolution.
//
// Cleanup: POST …/maintenance/cleanup?batch=C until a call settles nothing;
// reports paths/s (removed + missing per second of the loop), removed,
// missing, still_referenced (server-reported). Everything expiry queued is
// drained (N paths: 100K in full mode, 10K quick; the issue's row says 20K,
// this drains more).
//
// Checks (exit 1 if one breaks): every seeded object is gone from disk;
// every file row still live (GET …/files of both tables) has its object on
// disk (still_referenced_deleted must be 0); snapshot ids dense from the
// floor (the last expire's new_earliest_snapshot_id) to head; row ids tiling
// ns.fg from 0 with one file per foreground commit; expired ≥ N, queued ≥ N.
//
// One JSON line per measurement: {"scenario","metric","value","unit"[,"ratio"]}.
#include <httplib.h>
#include <rapidjson/document.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "bench_report.h"
#include "bench_server.h"
#include "s3rver_launch.h"
#include "storage/object_store.h"

namespace {

using Clock = std::chrono::steady_clock;
namespace fs = std::filesystem;

struct Options {
  bool quick = false;
  std::string hoglake = "build/src/cli/hoglake";
  int64_t snapshots = 100000;
  int64_t batch = 10000;
  int64_t cleanup_batch = 2000;
  int seeders = 4;
  double baseline_seconds = 3;
  std::string store = "file";
  std::string node = "node";
  std::string s3rver_script = "tests/storage_integration/start_s3rver.mjs";
};

std::unique_ptr<httplib::Client> MakeClient(const std::string& url) {
  auto client = std::make_unique<httplib::Client>(url);
  client->set_keep_alive(true);
  client->set_default_headers({{"Accept-Encoding", kClientAcceptEncoding}});
  client->set_tcp_nodelay(true);
  client->set_read_timeout(600, 0);
  return client;
}

class Api {
 public:
  explicit Api(const std::string& url) : client_(MakeClient(url)) {}
  std::string Send(const std::string& method, const std::string& path, const std::string& body,
                   int expect = 200) {
    httplib::Result r = method == "POST"    ? client_->Post(path, body, "application/json")
                        : method == "PATCH" ? client_->Patch(path, body, "application/json")
                                            : client_->Get(path);
    if (!r || r->status != expect) {
      Die(method + " " + path + " → " +
          (r ? std::to_string(r->status) + " " + r->body : httplib::to_string(r.error())));
    }
    return r->body;
  }
  rapidjson::Document Json(const std::string& method, const std::string& path,
                           const std::string& body = "", int expect = 200) {
    const std::string text = Send(method, path, body, expect);
    rapidjson::Document doc;
    doc.Parse(text.c_str());
    if (doc.HasParseError()) Die(method + " " + path + ": unparsable body");
    return doc;
  }

 private:
  std::unique_ptr<httplib::Client> client_;
};

// Where the catalog's objects live: a directory (file://, written with plain
// file writes, as a client's Parquet writer would) or an S3 prefix (through
// hoglake's own S3 store).
class Objects {
 public:
  Objects(std::string root_uri, std::string root_dir, std::unique_ptr<hoglake::ObjectStore> s3)
      : root_uri_(std::move(root_uri)), root_dir_(std::move(root_dir)), s3_(std::move(s3)) {}
  const std::string& root_uri() const { return root_uri_; }

  // A real 64-byte object at <root>/<key>.
  void Write(const std::string& key) {
    static const std::string kBody(64, 'x');
    if (s3_) {
      hoglake::Status put = s3_->Put(root_uri_ + "/" + key, kBody);
      if (!put.ok()) Die("cannot write " + key + ": " + put.error().ToString());
      return;
    }
    std::ofstream out(root_dir_ + "/" + key, std::ios::binary);
    out << kBody;
    if (!out) Die("cannot write " + root_dir_ + "/" + key);
  }
  // Whether the object at `path` (a full URI) exists.
  bool Exists(const std::string& path) {
    if (!path.starts_with(root_uri_ + "/")) return false;
    if (s3_) return s3_->Head(path).ok();
    return fs::exists(root_dir_ + path.substr(root_uri_.size()));
  }

 private:
  std::string root_uri_;
  std::string root_dir_;  // file:// only
  std::unique_ptr<hoglake::ObjectStore> s3_;
};

std::string CommitBody(const std::string& table, const std::string& path, int64_t rows) {
  return R"({"appends":[{"namespace":"ns","table":")" + table + R"(","files":[{"path":")" + path +
         R"(","record_count":)" + std::to_string(rows) +
         R"(,"file_size_bytes":64,"column_stats":[{"field_id":1,"value_count":)" +
         std::to_string(rows) +
         R"(,"null_count":0,"lower_bound":"AQAAAAAAAAA=","upper_bound":"6AMAAAAAAAA="}]}]}]})";
}

// The foreground writer: commits one real file per commit to ns.fg until
// stopped, recording latencies.
struct Foreground {
  std::vector<double> latencies_ms;
  int64_t failures = 0;
  std::string first_error;
};

void RunForeground(const std::string& url, const std::string& catalog, Objects& objects,
                   std::atomic<int64_t>& seq, const std::atomic<bool>& stop, Foreground& out) {
  auto client = MakeClient(url);
  const std::string path = "/v1/catalogs/" + catalog + "/commit";
  while (!stop.load(std::memory_order_acquire)) {
    const std::string key = "fg/f" + std::to_string(seq.fetch_add(1)) + ".parquet";
    objects.Write(key);
    const std::string body = CommitBody("fg", objects.root_uri() + "/" + key, 10);
    const auto t0 = Clock::now();
    auto r = client->Post(path, body, "application/json");
    const double ms = Seconds(t0) * 1000;
    if (r && r->status == 200) {
      out.latencies_ms.push_back(ms);
    } else {
      ++out.failures;
      if (out.first_error.empty())
        out.first_error = r ? std::to_string(r->status) + " " + r->body : "transport error";
    }
  }
}

// Bucket upper bound → cumulative count, from /metrics.
std::map<double, int64_t> LockWaitBuckets(Api& api) {
  const std::string text = api.Send("GET", "/metrics", "");
  std::map<double, int64_t> out;
  const std::string prefix = "hoglake_commit_lock_wait_seconds_bucket{le=\"";
  size_t pos = 0;
  while ((pos = text.find(prefix, pos)) != std::string::npos) {
    pos += prefix.size();
    const size_t quote = text.find('"', pos);
    const std::string le = text.substr(pos, quote - pos);
    const size_t space = text.find(' ', quote);
    const int64_t count = std::stoll(text.substr(space + 1));
    out[le == "+Inf" ? 1e300 : std::stod(le)] = count;
    pos = quote;
  }
  return out;
}

// The smallest bucket bound b such that no sample above b arrived between the
// two scrapes (i.e. the max wait is ≤ b and > the previous bound).
double MaxWaitBucket(const std::map<double, int64_t>& before,
                     const std::map<double, int64_t>& after) {
  const int64_t total = after.rbegin()->second - before.rbegin()->second;
  if (total == 0) return 0;
  for (const auto& [le, count] : after) {
    const auto it = before.find(le);
    if (count - (it == before.end() ? 0 : it->second) == total) return le;
  }
  return after.rbegin()->first;
}

// Microseconds since epoch from "2026-11-29T23:46:58.123456Z".
int64_t ParseInstantMicros(const std::string& text) {
  std::tm tm{};
  if (!strptime(text.c_str(), "%Y-%m-%dT%H:%M:%S", &tm)) Die("bad instant " + text);
  int64_t micros = static_cast<int64_t>(timegm(&tm)) * 1000000;
  const size_t dot = text.find('.');
  if (dot != std::string::npos) {
    std::string frac;
    for (size_t i = dot + 1; i < text.size() && isdigit(static_cast<unsigned char>(text[i])); ++i)
      frac += text[i];
    while (frac.size() < 6) frac += '0';
    micros += std::stoll(frac.substr(0, 6));
  }
  return micros;
}

std::vector<std::pair<std::string, std::pair<int64_t, int64_t>>> ListLiveFiles(
    Api& api, const std::string& catalog, const std::string& table) {
  std::vector<std::pair<std::string, std::pair<int64_t, int64_t>>> out;
  const int64_t page = 10000;
  for (int64_t offset = 0;; offset += page) {
    auto doc = api.Json("GET", "/v1/catalogs/" + catalog + "/namespaces/ns/tables/" + table +
                                   "/files?sort=id&limit=" + std::to_string(page) +
                                   "&offset=" + std::to_string(offset));
    for (const auto& f : doc.GetArray()) {
      out.push_back(
          {f["path"].GetString(), {f["row_id_start"].GetInt64(), f["record_count"].GetInt64()}});
    }
    if (static_cast<int64_t>(doc.GetArray().Size()) < page) break;
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  bool snapshots_given = false;
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
    } else if (arg == "--snapshots") {
      options.snapshots = std::stoll(value());
      snapshots_given = true;
    } else if (arg == "--batch") {
      options.batch = std::stoll(value());
    } else if (arg == "--cleanup-batch") {
      options.cleanup_batch = std::stoll(value());
    } else if (arg == "--seeders") {
      options.seeders = std::stoi(value());
    } else if (arg == "--store") {
      options.store = value();
      if (options.store != "file" && options.store != "s3") Die("--store is file or s3");
    } else if (arg == "--node") {
      options.node = value();
    } else if (arg == "--s3rver-script") {
      options.s3rver_script = value();
    } else {
      Die("unknown argument " + arg);
    }
  }
  if (options.quick) {
    if (!snapshots_given) options.snapshots = 10000;
    options.baseline_seconds = 2;
  }

  // ---- object store, server ----
  const std::string catalog = "mb" + std::to_string(getpid());
  hoglake::testing::S3rverLaunch s3;
  std::vector<std::pair<std::string, std::string>> server_env = {
      {"HOGLAKE_EXPIRY_INTERVAL_MS", "0"}, {"HOGLAKE_HYDRATOR_INTERVAL_MS", "0"}};
  if (options.store == "s3") {
    s3 = hoglake::testing::S3rverLaunch::Start(options.node.c_str(), options.s3rver_script.c_str(),
                                               {"lake"});
    if (!s3.error.empty()) Die(s3.error);
    const hoglake::S3Config config = hoglake::testing::S3rverConfig(s3.port);
    server_env.insert(server_env.end(), {{"AWS_ENDPOINT_URL_S3", config.endpoint},
                                         {"AWS_ACCESS_KEY_ID", config.access_key_id},
                                         {"AWS_SECRET_ACCESS_KEY", config.secret_access_key},
                                         {"AWS_REGION", config.region}});
  }
  BenchServer server = BenchServer::Start("maintenance_bench", options.hoglake, server_env);
  const std::string& dir = server.dir;
  const std::string& url = server.url;

  const std::string root_dir = dir + "/data";
  std::unique_ptr<hoglake::ObjectStore> s3_store;
  std::string root_uri = "file://" + root_dir;
  if (options.store == "s3") {
    root_uri = "s3://lake/" + catalog;
    auto opened = hoglake::OpenObjectStore(root_uri, hoglake::testing::S3rverConfig(s3.port));
    if (!opened.ok()) Die(opened.error().ToString());
    s3_store = std::move(*opened);
  } else {
    fs::create_directories(root_dir + "/hist");
    fs::create_directories(root_dir + "/fg");
  }
  Objects objects(root_uri, root_dir, std::move(s3_store));
  const std::string c = "/v1/catalogs/" + catalog;
  Api api(url);
  api.Send("POST", "/v1/catalogs",
           R"({"name":")" + catalog + R"(","data_path":")" + root_uri + "\"}", 201);
  api.Send("POST", c + "/namespaces", R"({"name":"ns"})", 201);
  for (const char* table : {"hist", "fg"}) {
    api.Send("POST", c + "/namespaces/ns/tables",
             std::string(R"({"name":")") + table + R"(","columns":[{"name":"id","type":"long"}]})",
             201);
  }
  bool ok = true;
  auto fail = [&](const std::string& why) {
    std::cerr << "maintenance_bench: CHECK FAILED: " << why << "\n";
    ok = false;
  };

  // ---- seed ----
  const int64_t n = options.snapshots;
  // On S3 the keys spread over 256 prefixes: s3rver keeps objects as files
  // and, on every delete, lists the object's directory to see whether it
  // became empty — with all N in one directory its deletes would measure that
  // listing (S3 has no directories), not the cleanup.
  const bool spread = options.store == "s3";
  auto hist_key = [spread](int64_t i) {
    return (spread ? "hist/" + std::to_string(i % 256) + "/s" : std::string("hist/s")) +
           std::to_string(i) + ".parquet";
  };
  {
    const auto t0 = Clock::now();
    std::atomic<int64_t> next{0};
    std::vector<std::thread> writers;
    for (int w = 0; w < options.seeders; ++w) {
      writers.emplace_back([&] {
        for (int64_t i; (i = next.fetch_add(1)) < n;) objects.Write(hist_key(i));
      });
    }
    for (auto& t : writers) t.join();
    Emit("expiry_seed", "objects_written_per_second", static_cast<double>(n) / Seconds(t0),
         "objects/s");
  }
  {
    std::atomic<int64_t> next{0};
    std::atomic<int64_t> failures{0};
    const auto t0 = Clock::now();
    std::vector<std::thread> threads;
    for (int s = 0; s < options.seeders; ++s) {
      threads.emplace_back([&] {
        auto client = MakeClient(url);
        const std::string path = c + "/commit";
        for (int64_t i; (i = next.fetch_add(1)) < n;) {
          auto r = client->Post(path, CommitBody("hist", root_uri + "/" + hist_key(i), 10),
                                "application/json");
          if (!r || r->status != 200) {
            if (failures.fetch_add(1) == 0)
              std::cerr << "seed commit failed: " << (r ? r->body : "transport error") << "\n";
          }
        }
      });
    }
    for (auto& t : threads) t.join();
    const double s = Seconds(t0);
    Emit("expiry_seed", "commits_per_second", static_cast<double>(n) / s, "commits/s");
    Emit("expiry_seed", "seconds", s, "s");
    if (failures.load() > 0) Die(std::to_string(failures.load()) + " seed commits failed");
  }
  {
    auto table = api.Json("GET", c + "/namespaces/ns/tables/hist");
    api.Send("POST",
             c + "/namespaces/ns/tables/hist/truncate?expected_table_uuid=" +
                 table["table_uuid"].GetString(),
             "");
  }

  // ---- foreground baseline ----
  std::atomic<int64_t> fg_seq{0};
  Foreground before;
  {
    std::atomic<bool> stop{false};
    std::thread fg([&] { RunForeground(url, catalog, objects, fg_seq, stop, before); });
    std::this_thread::sleep_for(std::chrono::duration<double>(options.baseline_seconds));
    stop.store(true);
    fg.join();
  }

  // ---- expiry ----
  api.Send("PATCH", c + "/options", R"({"snapshot_retention_seconds":1})");
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  const auto lock_before = LockWaitBuckets(api);
  Foreground during;
  int64_t expired = 0, queued = 0, calls = 0, floor = 0;
  std::vector<double> call_ms;
  double expiry_seconds = 0;
  // The backlog: from the first call to the end of the call that queued the
  // N-th seeded file (its floor passed the truncate, so all N snapshots are
  // gone); the calls after it chase the foreground's own snapshots.
  double backlog_seconds = 0;
  int64_t backlog_expired = 0, backlog_calls = 0;
  {
    std::atomic<bool> stop{false};
    std::thread fg([&] { RunForeground(url, catalog, objects, fg_seq, stop, during); });
    std::this_thread::sleep_for(std::chrono::milliseconds(20));  // let it start committing
    const auto t0 = Clock::now();
    while (true) {
      const auto c0 = Clock::now();
      auto r = api.Json("POST", c + "/maintenance/expire?batch=" + std::to_string(options.batch));
      call_ms.push_back(Seconds(c0) * 1000);
      ++calls;
      const int64_t e = r["snapshots_expired"].GetInt64();
      expired += e;
      queued += r["data_files_queued"].GetInt64();
      floor = r["new_earliest_snapshot_id"].GetInt64();
      if (backlog_calls == 0 && queued >= n) {
        backlog_seconds = Seconds(t0);
        backlog_expired = expired;
        backlog_calls = calls;
      }
      if (e == 0) break;
    }
    expiry_seconds = Seconds(t0);
    stop.store(true);
    fg.join();
  }
  const auto lock_after = LockWaitBuckets(api);
  Emit("expiry", "snapshots_expired", static_cast<double>(expired), "count");
  Emit("expiry", "snapshots_per_second", static_cast<double>(expired) / expiry_seconds,
       "snapshots/s", static_cast<double>(expired) / expiry_seconds / 14462.0);
  if (backlog_calls > 0) {
    Emit("expiry", "backlog_snapshots_per_second",
         static_cast<double>(backlog_expired) / backlog_seconds, "snapshots/s");
    Emit("expiry", "backlog_seconds", backlog_seconds, "s");
    Emit("expiry", "backlog_calls", static_cast<double>(backlog_calls), "count");
  }
  Emit("expiry", "data_files_queued", static_cast<double>(queued), "count");
  Emit("expiry", "files_queued_per_second", static_cast<double>(queued) / expiry_seconds, "files/s",
       static_cast<double>(queued) / expiry_seconds / 14885.0);
  Emit("expiry", "seconds", expiry_seconds, "s");
  Emit("expiry", "expire_calls", static_cast<double>(calls), "count");
  Emit("expiry", "expire_call_max", *std::max_element(call_ms.begin(), call_ms.end()), "ms");
  {
    // The server's own span of each expire run (ledger), newest first.
    auto runs = api.Json("GET", c + "/maintenance/runs?task=expiry&limit=" +
                                    std::to_string(std::min<int64_t>(calls, 500)));
    double longest = 0;
    for (const auto& run : runs["runs"].GetArray()) {
      const double ms = static_cast<double>(ParseInstantMicros(run["finished_at"].GetString()) -
                                            ParseInstantMicros(run["started_at"].GetString())) /
                        1000.0;
      longest = std::max(longest, ms);
    }
    Emit("expiry", "lock_hold_upper_bound_ledger_run_max", longest, "ms");
  }
  Emit("expiry", "lock_wait_max_bucket_le", MaxWaitBucket(lock_before, lock_after) * 1000, "ms");
  const double p50_before = Percentile(before.latencies_ms, 0.5);
  const double p99_before = Percentile(before.latencies_ms, 0.99);
  Emit("expiry", "fg_commits_before", static_cast<double>(before.latencies_ms.size()), "count");
  Emit("expiry", "fg_p50_before", p50_before, "ms");
  Emit("expiry", "fg_p99_before", p99_before, "ms");
  Emit("expiry", "fg_commits_during", static_cast<double>(during.latencies_ms.size()), "count");
  Emit("expiry", "fg_p50_during", Percentile(during.latencies_ms, 0.5), "ms",
       Percentile(during.latencies_ms, 0.5) / p50_before);
  Emit("expiry", "fg_p99_during", Percentile(during.latencies_ms, 0.99), "ms",
       Percentile(during.latencies_ms, 0.99) / p99_before);
  Emit("expiry", "fg_max_during", Percentile(during.latencies_ms, 1.0), "ms");
  if (before.failures + during.failures > 0)
    fail("foreground commits failed: " + before.first_error + during.first_error);
  if (expired < n) fail("expired " + std::to_string(expired) + " < " + std::to_string(n));
  if (queued < n) fail("queued " + std::to_string(queued) + " < " + std::to_string(n));

  // ---- cleanup ----
  int64_t removed = 0, missing = 0, still_referenced = 0, cleanup_calls = 0;
  double cleanup_seconds = 0;
  {
    const auto t0 = Clock::now();
    while (true) {
      auto r = api.Json("POST",
                        c + "/maintenance/cleanup?batch=" + std::to_string(options.cleanup_batch));
      ++cleanup_calls;
      const int64_t rm = r["removed"].GetInt64(), ms = r["missing"].GetInt64(),
                    sr = r["still_referenced"].GetInt64();
      removed += rm;
      missing += ms;
      still_referenced += sr;
      if (rm + ms + sr == 0) break;
    }
    cleanup_seconds = Seconds(t0);
  }
  const double paths = static_cast<double>(removed + missing);
  Emit("cleanup", "paths_drained", paths, "count");
  Emit("cleanup", "paths_per_second", paths / cleanup_seconds, "paths/s",
       paths / cleanup_seconds / 900.0);
  Emit("cleanup", "removed", static_cast<double>(removed), "count");
  Emit("cleanup", "missing", static_cast<double>(missing), "count");
  Emit("cleanup", "still_referenced_kept", static_cast<double>(still_referenced), "count");
  Emit("cleanup", "seconds", cleanup_seconds, "s");
  Emit("cleanup", "cleanup_calls", static_cast<double>(cleanup_calls), "count");
  if (removed < n) fail("removed " + std::to_string(removed) + " < " + std::to_string(n));

  // ---- checks ----
  int64_t seeded_left = 0;
  for (int64_t i = 0; i < n; ++i) seeded_left += objects.Exists(root_uri + "/" + hist_key(i));
  Emit("cleanup", "queued_objects_left_on_disk", static_cast<double>(seeded_left), "count");
  if (seeded_left > 0) fail(std::to_string(seeded_left) + " queued objects still on disk");

  int64_t referenced_deleted = 0;
  int64_t live_files = 0;
  for (const char* table : {"hist", "fg"}) {
    auto files = ListLiveFiles(api, catalog, table);
    live_files += static_cast<int64_t>(files.size());
    std::sort(files.begin(), files.end(),
              [](const auto& a, const auto& b) { return a.second < b.second; });
    int64_t row = -1;
    for (const auto& [path, range] : files) {
      if (!objects.Exists(path)) ++referenced_deleted;
      if (row >= 0 && range.first != row)
        fail(std::string("row ids do not tile ns.") + table + " at " + std::to_string(row));
      if (row < 0 && std::string(table) == "fg" && range.first != 0)
        fail("ns.fg row ids do not start at 0");
      row = range.first + range.second;
    }
    if (std::string(table) == "hist" && !files.empty())
      fail("ns.hist still has live files after truncate");
    if (std::string(table) == "fg" &&
        static_cast<int64_t>(files.size()) !=
            static_cast<int64_t>(before.latencies_ms.size() + during.latencies_ms.size()))
      fail("ns.fg has " + std::to_string(files.size()) + " files, expected one per fg commit");
  }
  Emit("cleanup", "live_files_checked", static_cast<double>(live_files), "count");
  Emit("cleanup", "still_referenced_deleted", static_cast<double>(referenced_deleted), "count");
  if (referenced_deleted > 0) fail("live file objects deleted");

  {
    const int64_t head = api.Json("GET", c)["head_snapshot_id"].GetInt64();
    int64_t expect = floor, after = 0;
    bool first = true;
    while (true) {
      auto page = api.Json("GET", c + "/snapshots?after=" + std::to_string(after) + "&limit=10000");
      for (const auto& s : page["snapshots"].GetArray()) {
        const int64_t id = s["snapshot_id"].GetInt64();
        if (first && id != floor)
          fail("first retained snapshot " + std::to_string(id) + " != floor " +
               std::to_string(floor));
        first = false;
        if (id != expect) {
          fail("snapshot ids not dense at " + std::to_string(expect));
          break;
        }
        after = id;
        ++expect;
      }
      if (!page["has_more"].GetBool()) break;
    }
    if (expect != head + 1)
      fail("snapshots end at " + std::to_string(expect - 1) + ", head is " + std::to_string(head));
  }
  Emit("invariants", "ok", ok ? 1 : 0, "bool");

  server.Stop();
  s3.Stop();
  if (ok) fs::remove_all(dir);
  return ok ? 0 : 1;
}
