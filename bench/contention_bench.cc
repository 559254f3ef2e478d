// contention_bench: append contention through the real HTTP contract, and the
// PostgreSQL floor under it (issue 7, rows "append contention" and
// "PostgreSQL floor").
//
//   contention_bench [--quick] [--hoglake PATH] [--url URL --conninfo PG]
//                    [--seconds S] [--writers 1,2,4,8,16] [--no-floor]
//
// What it measures, for each K in --writers:
//
//  * ours/shared  — K writer threads, each with its own keep-alive HTTP
//    connection, commit appends of 10 files (1,000 rows, 64 KiB, one column's
//    stats each; s3:// paths under the catalog data path — the server does
//    not read objects at commit time) to ONE table, for --seconds.
//  * ours/private — the same, each writer to its own table (same catalog, so
//    the per-catalog commit lock still serializes them; only the table-stats
//    row differs). The two take turns going first from one K to the next.
//  * floor/shared, floor/private — the PostgreSQL floor: K threads, each with
//    its own libpq connection to the SAME PostgreSQL the server uses, write
//    the same rows a commit writes, one transaction per commit, sent as ONE
//    simple-query round trip:
//        BEGIN; pg_advisory_xact_lock(<the server's commit-lock key for the
//        catalog>); UPDATE hog_catalog (snapshot id + file-id allocation);
//        UPDATE hog_table_stats (row-id allocation, record/byte totals);
//        INSERT hog_snapshot; INSERT hog_snapshot_change
//        ('table_inserted_into'); INSERT 10 hog_data_file rows; INSERT 10
//        hog_file_stats rows (each file's one column, packed); COMMIT
//    into the real catalog tables (same indexes, same foreign keys), but into
//    separate scratch catalogs created through the API for the purpose (so
//    the lock key is the scratch catalog's, and the server's own catalogs are
//    not touched). This is what PostgreSQL allows for the same durable
//    writes (synchronous_commit=on, the same serialization on the advisory
//    lock). It leaves out what a server must do and the floor need not:
//    HTTP and JSON, the reads that validate a commit (catalog head, table
//    resolution, columns, partition spec, next row id), and one of the two
//    hog_catalog updates (the server updates the row twice: file-id
//    allocation and head). Because the rows land in real catalogs, the API
//    invariant checks below validate the floor's writes too.
//  * floor_per_statement/shared — the same statements, one round trip each
//    (10 round trips per commit), to show what round trips alone cost.
//  * floor_batched/shared (K > 1) — ONE connection writing K commits (K
//    snapshots, each with its own rows) per transaction: one lock
//    acquisition and one WAL flush for K commits. Not something the server
//    does today; it is the ceiling for grouping concurrent commits to a
//    catalog into one PostgreSQL transaction. Its latency is per batch.
//
// Reports, per mode and K: commits/s (successful commits ÷ wall time of the
// timed phase, after 3 untimed warm-up commits per writer), the worst and the
// median per-writer p99 latency, conflicts (any non-200 other than 503
// commit_queue_timeout; must be 0 — appends never conflict), 503
// commit_queue_timeouts (reported separately), and ours ÷ floor (goal ≥ 0.5
// at K = 8; commits/s goal ≥ 2,000 at K = 8). When it started the server
// itself, also the CPU spent per commit by the server and by its PostgreSQL
// (every process under the server, /proc utime + stime over the timed phase;
// steadier than commits/s on a noisy machine, so the figure to compare in an
// A/B), and the busiest PostgreSQL process's CPU ÷ wall time (near 1 when
// one connection running batch after batch is the limit). Always: the
// writers' own CPU per commit (this process) and the busy fraction of the
// whole machine over the timed phase; for ours, the mean commit requests per
// group-commit batch (the server's hoglake_commit_batch_requests). One JSON
// line per measurement:
// {"scenario","metric","value","unit"[,"ratio"]}.
//
// After the load it checks, for every catalog written (ours and floor):
// dense snapshot ids up to the head, head advanced by exactly the number of
// successful commits, row ids tiling each table from 0, each table holding
// exactly 10 files per commit made to it; exits non-zero if one breaks or a
// conflict was seen.
//
// Without --url it starts `hoglake serve` (embedded PostgreSQL) on a temporary
// data directory (server pid on stderr, for `perf record -p`); the floor then
// connects to the embedded PostgreSQL's socket under <data dir>/run as user
// hoglake, database hoglake (src/pg/embedded_postgres.cc). With --url
// the floor runs only if --conninfo is given.
#include <httplib.h>
#include <libpq-fe.h>
#include <rapidjson/document.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <latch>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "bench_report.h"
#include "bench_server.h"
#include "catalog/model/packed_stats.h"
#include "common/encoding.h"
#include "process_cpu.h"

namespace {

using Clock = std::chrono::steady_clock;

constexpr int kFilesPerCommit = 10;
constexpr int kRowsPerFile = 1000;
constexpr int kBytesPerFile = 65536;
constexpr int kWarmupCommits = 3;
// src/pg/advisory_locks.h: LockClass::kCatalogCommit, key =
// (class << 32) | (catalog_id & 0xFFFFFFFF).
constexpr int64_t kCatalogCommitLockClass = 4740871;

struct Options {
  bool quick = false;
  bool floor = true;
  std::string hoglake = "build/src/cli/hoglake";
  std::string url;
  std::string conninfo;
  double seconds = 5;
  std::vector<int> writers = {1, 2, 4, 8, 16};
};

std::unique_ptr<httplib::Client> MakeClient(const std::string& url) {
  auto client = std::make_unique<httplib::Client>(url);
  client->set_keep_alive(true);
  client->set_default_headers({{"Accept-Encoding", kClientAcceptEncoding}});
  client->set_tcp_nodelay(true);
  client->set_read_timeout(120, 0);
  return client;
}

// Setup and checks. Short-lived on purpose: the server handles a keep-alive
// connection on one of its 16 HTTP threads until it closes, so an idle
// connection held across a run would starve a writer at K = 16.
class Api {
 public:
  explicit Api(const std::string& url) : client_(MakeClient(url)) {}
  std::string Post(const std::string& path, const std::string& body, int expect = 200) {
    auto r = client_->Post(path.c_str(), body, "application/json");
    if (!r || r->status != expect) {
      Die("POST " + path + " → " +
          (r ? std::to_string(r->status) + " " + r->body : "transport error"));
    }
    return r->body;
  }
  rapidjson::Document Get(const std::string& path) {
    auto r = client_->Get(path.c_str());
    if (!r || r->status != 200) Die("GET " + path + " failed");
    rapidjson::Document doc;
    doc.Parse(r->body.c_str());
    if (doc.HasParseError()) Die("GET " + path + ": unparsable body");
    return doc;
  }

 private:
  std::unique_ptr<httplib::Client> client_;
};

// pyhoglake's layout, <data_path>/data/<ns>/<table>/<uuid4>.parquet, with a
// name that looks random (as a UUID is) but is a function of the writer,
// commit and file, so every run writes the same paths.
std::string FilePath(const std::string& catalog, int writer, int64_t seq, int f) {
  uint64_t x = (static_cast<uint64_t>(writer) << 48) ^ (static_cast<uint64_t>(seq) << 8) ^
               static_cast<uint64_t>(f);
  auto mix = [&x] {  // splitmix64
    x += 0x9e3779b97f4a7c15ULL;
    uint64_t z = x;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  };
  char name[33];
  std::snprintf(name, sizeof name, "%016llx%016llx", static_cast<unsigned long long>(mix()),
                static_cast<unsigned long long>(mix()));
  return "s3://bench/" + catalog + "/data/ns/w" + std::to_string(writer) + "/" + name + ".parquet";
}

std::string CommitBody(const std::string& catalog, const std::string& table, int writer,
                       int64_t seq) {
  std::string out = R"({"appends":[{"namespace":"ns","table":")" + table + R"(","files":[)";
  for (int f = 0; f < kFilesPerCommit; ++f) {
    if (f) out += ",";
    out +=
        R"({"path":")" + FilePath(catalog, writer, seq, f) + R"(","record_count":)" +
        std::to_string(kRowsPerFile) + R"(,"file_size_bytes":)" + std::to_string(kBytesPerFile) +
        R"(,"footer_size":1024,"column_stats":[)"
        R"({"field_id":1,"value_count":1000,"null_count":0,"lower_bound":"AQAAAAAAAAA=","upper_bound":"6AMAAAAAAAA="}]})";
  }
  return out + "]}]}";
}

// The packed stats row (packed_stats.h) of one file of CommitBody: field 1,
// kRowsPerFile values, no nulls, bounds 1 and 1000 (int64 little-endian).
// Packed once; every floor commit's statement embeds it.
const std::string& PackedFileStatsHex() {
  static const std::string hex = [] {
    hoglake::catalog::ColumnStatsInput s;
    s.field_id = 1;
    s.value_count = kRowsPerFile;
    s.null_count = 0;
    s.lower_bound = std::string("\x01\0\0\0\0\0\0\0", 8);
    s.upper_bound = std::string("\xe8\x03\0\0\0\0\0\0", 8);
    return hoglake::HexEncode(hoglake::catalog::PackColumnStats({s}));
  }();
  return hex;
}

// One catalog written by one run: what the checks expect of it afterwards.
struct CatalogUnderTest {
  std::string name;
  std::vector<std::string> tables;
  int64_t head_before = 0;                 // head after setup, before any load
  std::map<std::string, int64_t> commits;  // successful commits per table (warm-up included)
};

CatalogUnderTest CreateCatalog(const std::string& url, const std::string& name, int tables) {
  Api api(url);
  api.Post("/v1/catalogs", R"({"name":")" + name + R"(","data_path":"s3://bench/)" + name + "\"}",
           201);
  api.Post("/v1/catalogs/" + name + "/namespaces", R"({"name":"ns"})", 201);
  CatalogUnderTest c;
  c.name = name;
  for (int t = 0; t < tables; ++t) {
    const std::string table = tables == 1 ? "events" : "t" + std::to_string(t);
    api.Post("/v1/catalogs/" + name + "/namespaces/ns/tables",
             R"({"name":")" + table + R"(","columns":[{"name":"id","type":"long"}]})", 201);
    c.tables.push_back(table);
  }
  c.head_before = api.Get("/v1/catalogs/" + name)["head_snapshot_id"].GetInt64();
  return c;
}

// Dense snapshot ids, head = setup head + commits, row ids tiling each table
// from 0 with exactly 10 files per commit. Returns false (and says why) if
// broken.
bool CheckInvariants(const std::string& url, const CatalogUnderTest& cat) {
  Api api(url);
  const std::string c = "/v1/catalogs/" + cat.name;
  const int64_t head = api.Get(c)["head_snapshot_id"].GetInt64();
  int64_t commits = 0;
  for (const auto& [table, n] : cat.commits) commits += n;
  if (head != cat.head_before + commits) {
    std::cerr << "invariant broken: " << cat.name << " head " << head << " != " << cat.head_before
              << " + " << commits << " commits\n";
    return false;
  }
  int64_t next_expected = 1;
  int64_t after = 0;
  while (true) {
    auto page = api.Get(c + "/snapshots?after=" + std::to_string(after) + "&limit=10000");
    for (const auto& s : page["snapshots"].GetArray()) {
      if (s["snapshot_id"].GetInt64() != next_expected) {
        std::cerr << "invariant broken: snapshot " << next_expected << " missing in " << cat.name
                  << "\n";
        return false;
      }
      after = next_expected++;
    }
    if (!page["has_more"].GetBool()) break;
  }
  if (next_expected != head + 1) {
    std::cerr << "invariant broken: " << cat.name << " snapshots end at " << next_expected - 1
              << ", head is " << head << "\n";
    return false;
  }
  for (const std::string& table : cat.tables) {
    auto scan = api.Get(c + "/namespaces/ns/tables/" + table + "/scan");
    std::vector<std::pair<int64_t, int64_t>> ranges;
    for (const auto& f : scan.GetArray()) {
      ranges.emplace_back(f["data_file"]["row_id_start"].GetInt64(),
                          f["data_file"]["record_count"].GetInt64());
    }
    std::sort(ranges.begin(), ranges.end());
    int64_t row = 0;
    for (const auto& [start, count] : ranges) {
      if (start != row) {
        std::cerr << "invariant broken: row ids do not tile " << cat.name << "." << table << " at "
                  << row << " (next file starts at " << start << ")\n";
        return false;
      }
      row += count;
    }
    const auto it = cat.commits.find(table);
    const int64_t expected = (it == cat.commits.end() ? 0 : it->second) * kFilesPerCommit;
    if (static_cast<int64_t>(ranges.size()) != expected) {
      std::cerr << "invariant broken: " << cat.name << "." << table << " has " << ranges.size()
                << " files, expected " << expected << "\n";
      return false;
    }
  }
  return true;
}

// ---- load ----

struct WriterStats {
  std::vector<double> latencies_ms;
  int64_t ok = 0;
  int64_t warmup_ok = 0;
  int64_t conflicts = 0;       // any non-200 other than 503 commit_queue_timeout
  int64_t queue_timeouts = 0;  // 503 commit_queue_timeout
  int64_t transport_errors = 0;
  std::string first_error;
};

struct RunResult {
  std::vector<WriterStats> writers;
  double seconds = 0;
  std::optional<TreeCpuDelta> cpu;  // over the timed phase, when the server is ours
  double client_cpu = 0;            // this process's CPU seconds over the timed phase
  double machine_busy = 0;          // busy fraction of all CPUs over the timed phase
};

// Runs `writers` threads: each calls `setup(i)` (untimed: connect), then
// `commit(i, seq)` kWarmupCommits times untimed, waits for all, then commits
// until the deadline. `commit` returns the HTTP-like status (200 ok, 503
// queue timeout, anything else a failure; 0 transport error) and may set the
// error text. With `cpu_root` > 0 (the server we started) the CPU of the
// server and of its PostgreSQL over the timed phase is sampled too.
template <typename Setup, typename Commit>
RunResult RunWriters(int writers, double seconds, pid_t cpu_root, Setup setup, Commit commit) {
  RunResult result;
  result.writers.resize(writers);
  // Writers block (not spin) while the others warm up: a spinning thread
  // would take a core from the server on this 2-core machine.
  std::latch ready(writers);
  std::latch go(1);
  Clock::time_point start, deadline;
  std::vector<Clock::time_point> finished(writers);
  std::vector<std::thread> threads;
  for (int w = 0; w < writers; ++w) {
    threads.emplace_back([&, w] {
      WriterStats& stats = result.writers[w];
      auto state = setup(w);
      int64_t seq = 0;
      auto one = [&](bool timed) {
        std::string error;
        const auto t0 = Clock::now();
        const int status = commit(state, w, seq++, error);
        const double ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
        if (status == 200) {
          (timed ? stats.ok : stats.warmup_ok)++;
          if (timed) stats.latencies_ms.push_back(ms);
          return;
        }
        if (stats.first_error.empty()) stats.first_error = std::to_string(status) + " " + error;
        if (status == 503 && error.find("commit_queue_timeout") != std::string::npos) {
          stats.queue_timeouts++;
        } else if (status == 0) {
          stats.transport_errors++;
        } else {
          stats.conflicts++;
        }
      };
      for (int i = 0; i < kWarmupCommits; ++i) one(false);
      ready.count_down();
      go.wait();
      while (Clock::now() < deadline) one(true);
      finished[w] = Clock::now();
    });
  }
  ready.wait();
  TreeCpu cpu_before;
  if (cpu_root > 0) cpu_before = SampleTreeCpu(cpu_root);
  const double client_before = SelfCpuSeconds();
  const MachineCpu machine_before = SampleMachineCpu();
  start = Clock::now();
  deadline =
      start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
  go.count_down();
  for (auto& t : threads) t.join();
  result.machine_busy = MachineBusyBetween(machine_before, SampleMachineCpu());
  result.client_cpu = SelfCpuSeconds() - client_before;
  if (cpu_root > 0) result.cpu = CpuBetween(cpu_before, SampleTreeCpu(cpu_root));
  result.seconds =
      std::chrono::duration<double>(*std::max_element(finished.begin(), finished.end()) - start)
          .count();
  return result;
}

struct Summary {
  double commits_per_second = 0;
  int64_t conflicts = 0;
  int64_t queue_timeouts = 0;
  int64_t transport_errors = 0;
};

Summary Report(const std::string& scenario, const RunResult& r) {
  Summary s;
  int64_t ok = 0;
  std::vector<double> p99s, all;
  for (const WriterStats& w : r.writers) {
    ok += w.ok;
    s.conflicts += w.conflicts;
    s.queue_timeouts += w.queue_timeouts;
    s.transport_errors += w.transport_errors;
    p99s.push_back(Percentile(w.latencies_ms, 0.99));
    all.insert(all.end(), w.latencies_ms.begin(), w.latencies_ms.end());
    if (!w.first_error.empty())
      std::cerr << scenario << ": first failure: " << w.first_error << "\n";
  }
  s.commits_per_second = static_cast<double>(ok) / r.seconds;
  Emit(scenario, "commits_per_second", s.commits_per_second, "commits/s");
  Emit(scenario, "p50", Percentile(all, 0.5), "ms");
  Emit(scenario, "per_writer_p99_max", *std::max_element(p99s.begin(), p99s.end()), "ms");
  Emit(scenario, "per_writer_p99_median", Percentile(p99s, 0.5), "ms");
  Emit(scenario, "conflicts", static_cast<double>(s.conflicts + s.transport_errors), "count");
  Emit(scenario, "commit_queue_timeouts", static_cast<double>(s.queue_timeouts), "count");
  if (r.cpu && ok > 0) {
    // CPU per commit is steadier than commits/s on this noisy machine; the
    // busiest backend's share of the wall time shows how close the batches'
    // one connection is to running back to back.
    Emit(scenario, "server_cpu_per_commit", r.cpu->server * 1000 / static_cast<double>(ok), "ms");
    Emit(scenario, "postgres_cpu_per_commit", r.cpu->descendants * 1000 / static_cast<double>(ok),
         "ms");
    Emit(scenario, "busiest_backend_busy", r.cpu->busiest / r.seconds, "fraction");
  }
  if (ok > 0) {
    // The writers' own CPU (HTTP or libpq clients, in this process) and how
    // busy the whole machine was: on 2 shared cores, server + PostgreSQL +
    // client CPU per commit bounds commits/s at about 2 ÷ their sum.
    Emit(scenario, "client_cpu_per_commit", r.client_cpu * 1000 / static_cast<double>(ok), "ms");
    Emit(scenario, "machine_busy", r.machine_busy, "fraction");
  }
  return s;
}

void CountCommits(CatalogUnderTest& cat, const RunResult& r, bool shared) {
  for (size_t w = 0; w < r.writers.size(); ++w) {
    const std::string& table = shared ? cat.tables[0] : cat.tables[w];
    cat.commits[table] += r.writers[w].ok + r.writers[w].warmup_ok;
  }
}

// The server's group-commit counters: the hoglake_commit_batch_requests
// histogram's sum and count, and batches by path (cached, read, fallback).
struct BatchCounters {
  double requests = 0, batches = 0, cached = 0, read = 0, fallback = 0;
};
BatchCounters BatchRequests(const std::string& url) {
  auto r = MakeClient(url)->Get("/metrics");
  if (!r || r->status != 200) return {};
  auto sample = [&](const std::string& series) {
    const size_t at = r->body.find("\n" + series + " ");
    return at == std::string::npos ? 0.0 : std::atof(r->body.c_str() + at + series.size() + 2);
  };
  auto path = [&](const std::string& name) {
    return sample("hoglake_commit_batches_total{path=\"" + name + "\"}");
  };
  return {sample("hoglake_commit_batch_requests_sum"),
          sample("hoglake_commit_batch_requests_count"), path("cached"), path("read"),
          path("fallback")};
}

// Ours: commits through HTTP.
RunResult RunOurs(const std::string& url, const CatalogUnderTest& cat, int writers, bool shared,
                  double seconds, pid_t cpu_root) {
  const std::string path = "/v1/catalogs/" + cat.name + "/commit";
  return RunWriters(
      writers, seconds, cpu_root, [&](int) { return MakeClient(url); },
      [&](std::unique_ptr<httplib::Client>& client, int w, int64_t seq, std::string& error) {
        const std::string& table = shared ? cat.tables[0] : cat.tables[w];
        auto r =
            client->Post(path.c_str(), CommitBody(cat.name, table, w, seq), "application/json");
        if (!r) {
          error = httplib::to_string(r.error());
          return 0;
        }
        if (r->status != 200) error = r->body;
        return r->status;
      });
}

// ---- the floor ----

struct PgConnDeleter {
  void operator()(PGconn* c) const { PQfinish(c); }
};
using PgConnPtr = std::unique_ptr<PGconn, PgConnDeleter>;

PgConnPtr Connect(const std::string& conninfo) {
  PgConnPtr conn(PQconnectdb(conninfo.c_str()));
  if (PQstatus(conn.get()) != CONNECTION_OK) {
    Die("cannot connect to PostgreSQL (" + conninfo + "): " + PQerrorMessage(conn.get()));
  }
  return conn;
}

// Runs `sql` (one or more statements); returns "" or the error.
std::string ExecAll(PGconn* conn, const std::string& sql) {
  if (!PQsendQuery(conn, sql.c_str())) return PQerrorMessage(conn);
  std::string error;
  while (PGresult* r = PQgetResult(conn)) {
    const auto status = PQresultStatus(r);
    if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK && error.empty()) {
      error = PQresultErrorMessage(r);
    }
    PQclear(r);
  }
  return error;
}

std::string QueryOne(PGconn* conn, const std::string& sql) {
  PGresult* r = PQexec(conn, sql.c_str());
  if (PQresultStatus(r) != PGRES_TUPLES_OK || PQntuples(r) != 1) {
    const std::string error = PQresultErrorMessage(r);
    PQclear(r);
    Die("query failed: " + sql + ": " + error);
  }
  std::string value = PQgetvalue(r, 0, 0);
  PQclear(r);
  return value;
}

struct FloorTarget {
  int64_t catalog_id = 0;
  std::vector<int64_t> table_ids;  // parallel to CatalogUnderTest::tables
};

FloorTarget ResolveFloorTarget(const std::string& conninfo, const CatalogUnderTest& cat) {
  PgConnPtr conn = Connect(conninfo);
  FloorTarget t;
  t.catalog_id = std::stoll(
      QueryOne(conn.get(), "SELECT catalog_id FROM hog_catalog WHERE name = '" + cat.name + "'"));
  for (const std::string& table : cat.tables) {
    t.table_ids.push_back(std::stoll(
        QueryOne(conn.get(), "SELECT table_id FROM hog_table_version WHERE catalog_id = " +
                                 std::to_string(t.catalog_id) + " AND name = '" + table +
                                 "' AND end_snapshot IS NULL")));
  }
  return t;
}

// The statements of one floor commit (see the header), BEGIN … COMMIT.
std::vector<std::string> FloorStatements(const std::string& catalog_name, int64_t catalog,
                                         int64_t table, int writer, int64_t seq) {
  const std::string c = std::to_string(catalog);
  const std::string t = std::to_string(table);
  const std::string n = std::to_string(kFilesPerCommit);
  const std::string rows = std::to_string(kFilesPerCommit * kRowsPerFile);
  const std::string bytes = std::to_string(static_cast<int64_t>(kFilesPerCommit) * kBytesPerFile);
  std::string paths = "'{";
  for (int f = 0; f < kFilesPerCommit; ++f) {
    if (f) paths += ',';
    paths += FilePath(catalog_name, writer, seq, f);
  }
  paths += "}'::text[]";
  return {
      "BEGIN",
      "SELECT pg_advisory_xact_lock(" + std::to_string((kCatalogCommitLockClass << 32) | catalog) +
          ")",
      "UPDATE hog_catalog SET last_snapshot_id = last_snapshot_id + 1, next_file_id = "
      "next_file_id + " +
          n + " WHERE catalog_id = " + c,
      "UPDATE hog_table_stats SET record_count = record_count + " + rows +
          ", file_size_bytes = file_size_bytes + " + bytes + ", next_row_id = next_row_id + " +
          rows + " WHERE catalog_id = " + c + " AND table_id = " + t,
      "INSERT INTO hog_snapshot (catalog_id, snapshot_id, snapshot_time, schema_version) "
      "SELECT catalog_id, last_snapshot_id, clock_timestamp(), schema_version FROM hog_catalog "
      "WHERE catalog_id = " +
          c,
      "INSERT INTO hog_snapshot_change (catalog_id, snapshot_id, kind, object_id) "
      "SELECT catalog_id, last_snapshot_id, 'table_inserted_into', " +
          t + " FROM hog_catalog WHERE catalog_id = " + c,
      "INSERT INTO hog_data_file (catalog_id, begin_snapshot, data_file_id, table_id, path, "
      "record_count, file_size_bytes, footer_size, row_id_start, stats_state) "
      "SELECT c.catalog_id, c.last_snapshot_id, c.next_file_id - " +
          n + " + u.i - 1, " + t + ", u.p, " + std::to_string(kRowsPerFile) + ", " +
          std::to_string(kBytesPerFile) + ", 1024, s.next_row_id - " + rows + " + (u.i - 1) * " +
          std::to_string(kRowsPerFile) +
          ", 'provided' FROM hog_catalog c, hog_table_stats s, unnest(" + paths +
          ") WITH ORDINALITY AS u(p, i) WHERE c.catalog_id = " + c + " AND s.catalog_id = " + c +
          " AND s.table_id = " + t,
      "INSERT INTO hog_file_stats (catalog_id, data_file_id, stats) "
      "SELECT c.catalog_id, c.next_file_id - " +
          n + " + g, '\\x" + PackedFileStatsHex() +
          "'::bytea FROM hog_catalog c, generate_series(0, " + std::to_string(kFilesPerCommit - 1) +
          ") AS g WHERE c.catalog_id = " + c,
      "COMMIT",
  };
}

// The batched floor: one connection writes `batch` commits (snapshots) per
// transaction under one lock acquisition and one WAL flush — what the server
// could reach if it grouped concurrent commits to a catalog into one
// PostgreSQL transaction. Each "commit" of the returned result is a batch.
RunResult RunFloorBatched(const std::string& conninfo, const CatalogUnderTest& cat, int batch,
                          double seconds, pid_t cpu_root) {
  const FloorTarget target = ResolveFloorTarget(conninfo, cat);
  return RunWriters(
      1, seconds, cpu_root, [&](int) { return Connect(conninfo); },
      [&](PgConnPtr& conn, int, int64_t seq, std::string& error) {
        std::string sql;
        for (int b = 0; b < batch; ++b) {
          const auto statements =
              FloorStatements(cat.name, target.catalog_id, target.table_ids[0], b, seq);
          for (size_t i = 0; i < statements.size(); ++i) {
            const bool head = i < 2, tail = i + 1 == statements.size();  // BEGIN+lock, COMMIT
            if ((head && b > 0) || (tail && b + 1 < batch)) continue;
            sql += statements[i] + ";\n";
          }
        }
        error = ExecAll(conn.get(), sql);
        if (error.empty()) return 200;
        (void)ExecAll(conn.get(), "ROLLBACK");
        return 500;
      });
}

RunResult RunFloor(const std::string& conninfo, const CatalogUnderTest& cat, int writers,
                   bool shared, bool one_round_trip, double seconds, pid_t cpu_root) {
  const FloorTarget target = ResolveFloorTarget(conninfo, cat);
  return RunWriters(
      writers, seconds, cpu_root, [&](int) { return Connect(conninfo); },
      [&](PgConnPtr& conn, int w, int64_t seq, std::string& error) {
        const int64_t table = shared ? target.table_ids[0] : target.table_ids[w];
        const auto statements = FloorStatements(cat.name, target.catalog_id, table, w, seq);
        if (one_round_trip) {
          std::string sql;
          for (const auto& s : statements) sql += s + ";\n";
          error = ExecAll(conn.get(), sql);
        } else {
          for (const auto& s : statements) {
            error = ExecAll(conn.get(), s);
            if (!error.empty()) break;
          }
        }
        if (error.empty()) return 200;
        (void)ExecAll(conn.get(), "ROLLBACK");
        return 500;
      });
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
  bool writers_given = false, seconds_given = false;
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
    } else if (arg == "--conninfo") {
      options.conninfo = value();
    } else if (arg == "--seconds") {
      options.seconds = std::stod(value());
      seconds_given = true;
    } else if (arg == "--writers") {
      options.writers = ParseList(value());
      writers_given = true;
    } else if (arg == "--no-floor") {
      options.floor = false;
    } else {
      Die("unknown argument " + arg);
    }
  }
  if (options.quick) {
    if (!seconds_given) options.seconds = 2;
    if (!writers_given) options.writers = {1, 2, 4, 8};
  }

  BenchServer server;
  if (options.url.empty()) {
    server = BenchServer::Start("contention_bench", options.hoglake);
    options.url = server.url;
    if (options.conninfo.empty()) options.conninfo = server.Conninfo();
  }
  const bool floor = options.floor && !options.conninfo.empty();

  const std::string suffix = std::to_string(getpid());
  std::vector<CatalogUnderTest> catalogs;
  bool ok = true;
  int64_t failures = 0;
  auto fresh = [&](const std::string& what, int k, int tables) {
    return CreateCatalog(options.url, "cb-" + suffix + "-" + what + "-k" + std::to_string(k),
                         tables);
  };
  for (size_t level = 0; level < options.writers.size(); ++level) {
    const int k = options.writers[level];
    const std::string kk = "_k" + std::to_string(k);
    double ours[2] = {0, 0};
    // The shared and private runs take turns going first, so neither always
    // meets the background work (autovacuum, the maintenance loop's ANALYZE)
    // that the other's inserts left behind.
    const bool shared_first = level % 2 == 0;
    for (const int shared : {shared_first ? 1 : 0, shared_first ? 0 : 1}) {
      const std::string mode = shared ? "shared" : "private";
      CatalogUnderTest cat = fresh(mode, k, shared ? 1 : k);
      const auto batched_before = BatchRequests(options.url);
      RunResult r = RunOurs(options.url, cat, k, shared, options.seconds, server.pid);
      const auto batched_after = BatchRequests(options.url);
      CountCommits(cat, r, shared);
      Summary s = Report("append_contention_" + mode + kk, r);
      // Requests per group-commit transaction (warm-up commits included).
      if (batched_after.batches > batched_before.batches) {
        Emit("append_contention_" + mode + kk, "requests_per_batch",
             (batched_after.requests - batched_before.requests) /
                 (batched_after.batches - batched_before.batches),
             "requests");
      }
      // How the batches ran (a fallback is a cached attempt that failed its
      // check and read after all).
      Emit("append_contention_" + mode + kk, "batches_cached",
           batched_after.cached - batched_before.cached, "count");
      Emit("append_contention_" + mode + kk, "batches_read",
           batched_after.read - batched_before.read, "count");
      Emit("append_contention_" + mode + kk, "batches_fallback",
           batched_after.fallback - batched_before.fallback, "count");
      failures += s.conflicts + s.transport_errors;
      ours[shared] = s.commits_per_second;
      catalogs.push_back(std::move(cat));
    }
    if (!floor) continue;
    for (int shared = 1; shared >= 0; --shared) {
      const std::string mode = shared ? "shared" : "private";
      CatalogUnderTest cat = fresh("floor-" + mode, k, shared ? 1 : k);
      RunResult r = RunFloor(options.conninfo, cat, k, shared, true, options.seconds, server.pid);
      CountCommits(cat, r, shared);
      Summary s = Report("postgres_floor_" + mode + kk, r);
      failures += s.conflicts + s.transport_errors;
      const double ratio = s.commits_per_second > 0 ? ours[shared] / s.commits_per_second : 0;
      Emit("append_contention_" + mode + kk, "ours_over_floor", ratio, "ratio", ratio);
      catalogs.push_back(std::move(cat));
    }
    {
      CatalogUnderTest cat = fresh("floor-stmt", k, 1);
      RunResult r = RunFloor(options.conninfo, cat, k, true, false, options.seconds, server.pid);
      CountCommits(cat, r, true);
      Summary s = Report("postgres_floor_per_statement_shared" + kk, r);
      failures += s.conflicts + s.transport_errors;
      catalogs.push_back(std::move(cat));
    }
    if (k > 1) {
      CatalogUnderTest cat = fresh("floor-batch", k, 1);
      RunResult r = RunFloorBatched(options.conninfo, cat, k, options.seconds, server.pid);
      cat.commits[cat.tables[0]] = (r.writers[0].ok + r.writers[0].warmup_ok) * k;
      r.writers[0].ok *= k;  // commits, not transactions
      Summary s = Report("postgres_floor_batched_shared" + kk, r);
      failures += s.conflicts + s.transport_errors;
      catalogs.push_back(std::move(cat));
    }
  }
  if (failures > 0) {
    std::cerr << "contention_bench: " << failures << " failed commits (appends must not fail)\n";
    ok = false;
  }
  for (const CatalogUnderTest& cat : catalogs) ok = CheckInvariants(options.url, cat) && ok;
  Emit("invariants", "ok", ok ? 1 : 0, "bool");

  if (server.pid > 0) {
    server.Stop();
    std::filesystem::remove_all(server.dir);
  }
  return ok ? 0 : 1;
}
