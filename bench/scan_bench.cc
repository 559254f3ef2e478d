// scan_bench: scan planning through the real HTTP contract (issue 7, row
// "scan planning": tables of 1K / 20K / 100K files × 30 columns, with and
// without stats; goal: 20K files with stats ≤ 250 ms).
//
//   scan_bench [--quick] [--hoglake PATH] [--sizes 1000,20000,100000]
//              [--files-per-commit N] [--keep]
//
// Starts `hoglake serve` (embedded PostgreSQL) on a temporary data directory
// (chmod 0755: PostgreSQL runs as another user) with the background expiry
// and hydrator loops off, so pending files stay pending. One catalog with
// data path s3://scan-bench/data (nothing is read at commit time: stats are
// given or the file is registered pending). For each size N two tables of 30
// columns (10 long, 10 double, 10 string, field ids in that order):
//  * s<N>: N files registered with column_stats for all 30 columns
//    (stats_state provided; bounds of every type);
//  * p<N>: the same N paths' shape registered without column_stats
//    (stats_state pending, the contract's "no stats" case).
// Seeding commits --files-per-commit files (default 1,000) to both tables in
// one commit (two appends), then ANALYZE through libpq (as hoglake's own
// harness does before measuring).
//
// Measured per size (after 3 untimed warm-ups; latency = request sent →
// whole body received, JSON parsing excluded):
//  * scan_stats    GET …/s<N>/scan?include=column_stats — the planned case;
//                  at 100K the 30-column plan exceeds the contract's cap of
//                  1,000,000 entries and must be refused with 422 (checked,
//                  its latency reported), so the 100K row measures
//                  stats_fields narrowed to 10 columns (1,000,000 entries,
//                  exactly the cap) instead: scan_stats10.
//  * scan_plain    GET …/s<N>/scan — no stats requested.
//  * scan_pending  GET …/p<N>/scan?include=column_stats — stats asked for,
//                  none stored (at 100K narrowed to the same 10 columns: the
//                  cap counts every file of the plan, pending ones too).
// Metrics: p50 / p99 latency (ms), response bytes, server CPU per plan (ms of
// utime+stime from /proc/<pid>/stat of the hoglake process, before and after
// the timed plans, ÷ plans) and PostgreSQL CPU per plan (the same for every
// process descended from the server: the embedded postmaster and its
// backends).
//
// Reference (same run, same PostgreSQL): the floor of a plan — one libpq
// connection, a READ ONLY REPEATABLE READ transaction running the two SELECTs
// the catalog needs (the file rows at the head snapshot, and the packed stats
// row of each of those files, in binary, as the server selects them), all
// rows received into client memory and each packed row walked entry by entry
// (PackedStatsReader, counting the entries asked for), nothing encoded. ratio =
// ours p50 ÷ reference p50 (how much the server adds on top of reading the
// rows from PostgreSQL).
//
// Checks after the load (exit 1 if one breaks): every scan returns exactly N
// files; row ids tile each table from 0; every s<N> file carries 30
// column_stats entries (10 when narrowed) with the bounds it was committed
// with, decoded (sampled files compared field by field) and stats_state
// provided; every p<N> file is pending and has no column_stats; the 30-column
// 100K plan is refused with 422.
//
// --quick: sizes 1K and 20K only (< 2 min). --keep: leave the server running
// afterwards (pid and conninfo on stderr) for EXPLAIN / perf.
// One JSON line per measurement: {"scenario","metric","value","unit"[,"ratio"]}.
#include <httplib.h>
#include <libpq-fe.h>
#include <rapidjson/document.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "bench_report.h"
#include "bench_server.h"
#include "catalog/model/packed_stats.h"
#include "process_cpu.h"

namespace {

using Clock = std::chrono::steady_clock;
constexpr int kLongs = 10, kDoubles = 10, kStrings = 10, kColumns = 30;

struct Options {
  bool quick = false;
  std::string hoglake = "build/src/cli/hoglake";
  std::vector<int64_t> sizes = {1000, 20000, 100000};
  int64_t files_per_commit = 1000;
  bool keep = false;  // leave the server running after the run (profiling)
};

std::string Base64(const std::string& bytes) {
  static const char* kAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    const uint32_t v =
        (uint8_t(bytes[i]) << 16) | (uint8_t(bytes[i + 1]) << 8) | uint8_t(bytes[i + 2]);
    out += kAlphabet[v >> 18];
    out += kAlphabet[(v >> 12) & 63];
    out += kAlphabet[(v >> 6) & 63];
    out += kAlphabet[v & 63];
  }
  if (i + 1 == bytes.size()) {
    const uint32_t v = uint8_t(bytes[i]) << 16;
    out += kAlphabet[v >> 18];
    out += kAlphabet[(v >> 12) & 63];
    out += "==";
  } else if (i + 2 == bytes.size()) {
    const uint32_t v = (uint8_t(bytes[i]) << 16) | (uint8_t(bytes[i + 1]) << 8);
    out += kAlphabet[v >> 18];
    out += kAlphabet[(v >> 12) & 63];
    out += kAlphabet[(v >> 6) & 63];
    out += '=';
  }
  return out;
}

template <typename T>
std::string LittleEndian(T value) {
  std::string out(sizeof(T), '\0');
  std::memcpy(out.data(), &value, sizeof(T));  // x86-64: little-endian already
  return out;
}

// The committed bounds of file `i`, column `c` (0-based: longs, doubles,
// strings), as the values the scan must decode them to.
int64_t LongLower(int64_t i, int c) { return i * 1000 + c; }
int64_t LongUpper(int64_t i, int c) { return i * 1000 + c + 999; }
double DoubleLower(int64_t i, int c) { return static_cast<double>(i) + c * 0.25; }
double DoubleUpper(int64_t i, int c) { return static_cast<double>(i) + c * 0.25 + 0.5; }
std::string StringLower(int64_t i, int c) {
  return "alpha-" + std::to_string(c) + "-" + std::to_string(i);
}
std::string StringUpper(int64_t i, int c) {
  return "omega-" + std::to_string(c) + "-" + std::to_string(i);
}

std::string FileJson(const std::string& path, int64_t i, bool stats) {
  std::string s = R"({"path":")" + path + R"(","record_count":1000,"file_size_bytes":65536)";
  if (stats) {
    s += R"(,"column_stats":[)";
    for (int c = 0; c < kColumns; ++c) {
      std::string lo, hi;
      if (c < kLongs) {
        lo = LittleEndian<int64_t>(LongLower(i, c));
        hi = LittleEndian<int64_t>(LongUpper(i, c));
      } else if (c < kLongs + kDoubles) {
        lo = LittleEndian<double>(DoubleLower(i, c - kLongs));
        hi = LittleEndian<double>(DoubleUpper(i, c - kLongs));
      } else {
        lo = StringLower(i, c - kLongs - kDoubles);
        hi = StringUpper(i, c - kLongs - kDoubles);
      }
      if (c > 0) s += ',';
      s += R"({"field_id":)" + std::to_string(c + 1) +
           R"(,"value_count":1000,"null_count":0,"lower_bound":")" + Base64(lo) +
           R"(","upper_bound":")" + Base64(hi) + "\"}";
    }
    s += ']';
  }
  return s + '}';
}

std::unique_ptr<httplib::Client> MakeClient(const std::string& url) {
  auto client = std::make_unique<httplib::Client>(url);
  client->set_keep_alive(true);
  client->set_default_headers({{"Accept-Encoding", kClientAcceptEncoding}});
  client->set_tcp_nodelay(true);
  client->set_read_timeout(600, 0);
  client->set_write_timeout(600, 0);
  return client;
}

// ---- libpq reference ----

struct Pg {
  PGconn* conn = nullptr;
  explicit Pg(const std::string& conninfo) : conn(PQconnectdb(conninfo.c_str())) {
    if (PQstatus(conn) != CONNECTION_OK) Die(std::string("libpq: ") + PQerrorMessage(conn));
  }
  ~Pg() { PQfinish(conn); }
  // result_format: 0 text, 1 binary.
  PGresult* Exec(const std::string& sql, const std::vector<std::string>& params = {},
                 int result_format = 0) {
    std::vector<const char*> values;
    for (const auto& p : params) values.push_back(p.c_str());
    PGresult* r = PQexecParams(conn, sql.c_str(), static_cast<int>(values.size()), nullptr,
                               values.data(), nullptr, nullptr, result_format);
    const auto status = PQresultStatus(r);
    if (status != PGRES_TUPLES_OK && status != PGRES_COMMAND_OK)
      Die("SQL failed: " + std::string(PQresultErrorMessage(r)) + " in " + sql);
    return r;
  }
  std::string Scalar(const std::string& sql, const std::vector<std::string>& params = {}) {
    PGresult* r = Exec(sql, params);
    if (PQntuples(r) != 1) Die("expected one row from " + sql);
    std::string v = PQgetvalue(r, 0, 0);
    PQclear(r);
    return v;
  }
};

// One reference plan: returns rows received plus stats entries unpacked.
// `fields` narrows the stats rows ("{1,4}" as an integer[] literal; empty =
// all fields).
int64_t ReferencePlan(Pg& pg, const std::string& catalog_id, const std::string& table_id,
                      bool stats, const std::string& fields = "") {
  PQclear(pg.Exec("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"));
  const std::string snapshot =
      pg.Scalar("SELECT last_snapshot_id FROM hog_catalog WHERE catalog_id = $1", {catalog_id});
  const std::vector<std::string> params = {catalog_id, table_id, snapshot};
  const char* visible =
      "f.catalog_id = $1 AND f.table_id = $2 AND f.begin_snapshot <= $3 AND "
      "(f.end_snapshot IS NULL OR $3 < f.end_snapshot)";
  PGresult* files =
      pg.Exec(std::string("SELECT f.data_file_id, f.path, f.file_format, f.record_count, "
                          "f.file_size_bytes, f.footer_size, f.row_id_start, f.stats_state, "
                          "f.begin_snapshot, f.spec_id, f.explicit_row_ids, f.split_offsets::text "
                          "FROM hog_data_file f WHERE ") +
                  visible + " ORDER BY f.row_id_start, f.data_file_id",
              params);
  int64_t rows = PQntuples(files);
  PQclear(files);
  if (stats) {
    std::set<int32_t> wanted;  // empty = all
    if (!fields.empty()) {
      std::stringstream in(fields.substr(1, fields.size() - 2));
      for (std::string f; std::getline(in, f, ',');) wanted.insert(std::stoi(f));
    }
    // The server's shape: files in plan order, each joined to its stats row
    // by the primary key (no sort of the wide rows), no parallel workers.
    PQclear(pg.Exec("SET LOCAL max_parallel_workers_per_gather = 0"));
    PGresult* s =
        pg.Exec(std::string("SELECT f.data_file_id, s.stats FROM (SELECT f.catalog_id, "
                            "f.data_file_id, f.row_id_start FROM hog_data_file f WHERE ") +
                    visible +
                    " AND f.stats_state = 'provided' ORDER BY f.row_id_start, "
                    "f.data_file_id) f CROSS JOIN LATERAL (SELECT s.stats FROM "
                    "hog_file_stats s WHERE s.catalog_id = f.catalog_id AND "
                    "s.data_file_id = f.data_file_id) s",
                params, 1);
    for (int i = 0; i < PQntuples(s); ++i) {
      hoglake::catalog::PackedStatsReader reader(
          std::string_view(PQgetvalue(s, i, 1), PQgetlength(s, i, 1)));
      for (hoglake::catalog::PackedStat e; reader.Next(&e);) {
        rows += wanted.empty() || wanted.contains(e.field_id);
      }
      if (!reader.status().ok()) Die(reader.status().error().message);
    }
    PQclear(s);
  }
  PQclear(pg.Exec("COMMIT"));
  return rows;
}

// ---- checks ----

struct Checker {
  bool ok = true;
  void Fail(const std::string& why) {
    std::cerr << "scan_bench: CHECK FAILED: " << why << "\n";
    ok = false;
  }
};

bool NearlyEqual(double a, double b) {
  return std::fabs(a - b) <= 1e-9 * std::max(1.0, std::fabs(b));
}

// Verifies one scan body of table `table` with `n` files.
void CheckScan(const std::string& body, const std::string& table, int64_t n, bool stats_table,
               int expected_stats, const std::string& path_prefix, Checker& check) {
  rapidjson::Document doc;
  doc.Parse(body.c_str(), body.size());
  if (doc.HasParseError() || !doc.IsArray()) {
    check.Fail(table + ": scan body is not a JSON array");
    return;
  }
  const auto& files = doc.GetArray();
  if (static_cast<int64_t>(files.Size()) != n) {
    check.Fail(table + ": scan returned " + std::to_string(files.Size()) + " files, expected " +
               std::to_string(n));
    return;
  }
  int64_t row = 0;
  int64_t stats_checked = 0;
  for (rapidjson::SizeType k = 0; k < files.Size(); ++k) {
    const auto& f = files[k]["data_file"];
    if (f["row_id_start"].GetInt64() != row) {
      check.Fail(table + ": row ids do not tile at file " + std::to_string(k));
      return;
    }
    row += f["record_count"].GetInt64();
    const std::string path = f["path"].GetString();
    // Paths are <prefix>/f<i>.parquet; i is the seed index the bounds derive from.
    const int64_t i = std::stoll(path.substr(path_prefix.size() + 2));
    const std::string state = f["stats_state"].GetString();
    if (!stats_table) {
      if (state != "pending" || f.HasMember("column_stats")) {
        check.Fail(table + ": file " + path + " is not a pending file without column_stats");
        return;
      }
      continue;
    }
    if (state != "provided") {
      check.Fail(table + ": file " + path + " is " + state);
      return;
    }
    if (expected_stats == 0) {
      if (f.HasMember("column_stats")) check.Fail(table + ": column_stats without include");
      continue;
    }
    if (!f.HasMember("column_stats") ||
        static_cast<int>(f["column_stats"].Size()) != expected_stats) {
      check.Fail(table + ": file " + path + " lacks " + std::to_string(expected_stats) +
                 " column_stats");
      return;
    }
    if (k % 97 != 0 && k + 1 != files.Size()) continue;  // sample field by field
    for (const auto& s : f["column_stats"].GetArray()) {
      const int c = s["field_id"].GetInt() - 1;
      bool same = false;
      if (c < kLongs) {
        same = s["lower_bound"].IsInt64() && s["lower_bound"].GetInt64() == LongLower(i, c) &&
               s["upper_bound"].GetInt64() == LongUpper(i, c);
      } else if (c < kLongs + kDoubles) {
        same = s["lower_bound"].IsNumber() &&
               NearlyEqual(s["lower_bound"].GetDouble(), DoubleLower(i, c - kLongs)) &&
               NearlyEqual(s["upper_bound"].GetDouble(), DoubleUpper(i, c - kLongs));
      } else {
        same = s["lower_bound"].IsString() &&
               s["lower_bound"].GetString() == StringLower(i, c - kLongs - kDoubles) &&
               s["upper_bound"].GetString() == StringUpper(i, c - kLongs - kDoubles);
      }
      if (!same || s["value_count"].GetInt64() != 1000 || s["null_count"].GetInt64() != 0) {
        check.Fail(table + ": file " + path + " field " + std::to_string(c + 1) +
                   " stats differ from the committed ones");
        return;
      }
      ++stats_checked;
    }
  }
  if (expected_stats > 0 && stats_checked == 0) check.Fail(table + ": no stats compared");
}

struct Measured {
  double p50 = 0, p99 = 0, bytes = 0, server_cpu_ms = 0, pg_cpu_ms = 0;
  std::string last_body;
  int status = 0;
};

Measured TimePlans(httplib::Client& client, const std::string& path, int plans, pid_t server_pid,
                   int expect_status) {
  Measured m;
  // The body is received into one buffer kept across plans (warm-ups
  // included: capacity of the largest body so far), so the timing does not
  // include this client's own buffer regrowth and first-touch page faults.
  std::string body;
  auto receive = [&](const char* data, size_t n) {
    body.append(data, n);
    return true;
  };
  for (int w = 0; w < 3; ++w) {
    body.clear();
    auto r = client.Get(path, receive);
    if (!r) Die("GET " + path + ": transport error");
    if (r->status != expect_status)
      Die("GET " + path + " → " + std::to_string(r->status) + " " + body.substr(0, 300));
  }
  std::vector<double> ms;
  const TreeCpu cpu0 = SampleTreeCpu(server_pid);
  for (int k = 0; k < plans; ++k) {
    body.clear();
    const auto t0 = Clock::now();
    auto r = client.Get(path, receive);
    ms.push_back(Seconds(t0) * 1000);
    if (!r || r->status != expect_status) Die("GET " + path + " failed during timing");
    m.bytes = static_cast<double>(body.size());
    m.status = r->status;
  }
  m.last_body = std::move(body);
  const TreeCpuDelta cpu = CpuBetween(cpu0, SampleTreeCpu(server_pid));
  m.p50 = Percentile(ms, 0.5);
  m.p99 = Percentile(ms, 0.99);
  m.server_cpu_ms = cpu.server * 1000 / plans;
  m.pg_cpu_ms = cpu.descendants * 1000 / plans;
  return m;
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  bool sizes_given = false;
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
    } else if (arg == "--sizes") {
      options.sizes.clear();
      std::stringstream in(value());
      for (std::string s; std::getline(in, s, ',');) options.sizes.push_back(std::stoll(s));
      sizes_given = true;
    } else if (arg == "--keep") {
      options.keep = true;
    } else if (arg == "--files-per-commit") {
      options.files_per_commit = std::stoll(value());
    } else {
      Die("unknown argument " + arg);
    }
  }
  if (options.quick && !sizes_given) options.sizes = {1000, 20000};

  BenchServer server = BenchServer::Start(
      "scan_bench", options.hoglake,
      {{"HOGLAKE_EXPIRY_INTERVAL_MS", "0"}, {"HOGLAKE_HYDRATOR_INTERVAL_MS", "0"}});
  auto client = MakeClient(server.url);
  auto send = [&](const std::string& method, const std::string& path, const std::string& body,
                  int expect) {
    httplib::Result r =
        method == "POST" ? client->Post(path, body, "application/json") : client->Get(path);
    if (!r || r->status != expect)
      Die(method + " " + path + " → " +
          (r ? std::to_string(r->status) + " " + r->body.substr(0, 300)
             : httplib::to_string(r.error())));
    return r->body;
  };

  const std::string catalog = "sb" + std::to_string(getpid());
  const std::string c = "/v1/catalogs/" + catalog;
  const std::string data_path = "s3://scan-bench/data";
  send("POST", "/v1/catalogs", R"({"name":")" + catalog + R"(","data_path":")" + data_path + "\"}",
       201);
  send("POST", c + "/namespaces", R"({"name":"ns"})", 201);
  std::string columns = "[";
  for (int k = 0; k < kColumns; ++k) {
    const char* type = k < kLongs ? "long" : k < kLongs + kDoubles ? "double" : "string";
    if (k > 0) columns += ',';
    columns += R"({"name":"c)" + std::to_string(k + 1) + R"(","type":")" + type + "\"}";
  }
  columns += ']';

  Pg pg(server.Conninfo());
  const std::string catalog_id =
      pg.Scalar("SELECT catalog_id FROM hog_catalog WHERE name = $1", {catalog});
  Checker check;

  for (const int64_t n : options.sizes) {
    const std::string s_table = "s" + std::to_string(n), p_table = "p" + std::to_string(n);
    for (const std::string& t : {s_table, p_table}) {
      send("POST", c + "/namespaces/ns/tables",
           R"({"name":")" + t + R"(","columns":)" + columns + "}", 201);
    }
    // Field ids must be 1..30 in column order for the stats we send.
    {
      rapidjson::Document doc;
      const std::string body = send("GET", c + "/namespaces/ns/tables/" + s_table, "", 200);
      doc.Parse(body.c_str());
      const auto& cols = doc["columns"].GetArray();
      for (rapidjson::SizeType k = 0; k < cols.Size(); ++k) {
        if (cols[k]["field_id"].GetInt() != static_cast<int>(k) + 1)
          Die("unexpected field ids in " + s_table);
      }
    }
    // Seed: both tables in one commit per chunk.
    const auto t0 = Clock::now();
    const std::string s_prefix = data_path + "/" + s_table, p_prefix = data_path + "/" + p_table;
    for (int64_t first = 0; first < n; first += options.files_per_commit) {
      const int64_t last = std::min(n, first + options.files_per_commit);
      std::string s_files, p_files;
      for (int64_t i = first; i < last; ++i) {
        if (i > first) {
          s_files += ',';
          p_files += ',';
        }
        s_files += FileJson(s_prefix + "/f" + std::to_string(i) + ".parquet", i, true);
        p_files += FileJson(p_prefix + "/f" + std::to_string(i) + ".parquet", i, false);
      }
      send("POST", c + "/commit",
           R"({"appends":[{"namespace":"ns","table":")" + s_table + R"(","files":[)" + s_files +
               R"(]},{"namespace":"ns","table":")" + p_table + R"(","files":[)" + p_files + "]}]}",
           200);
    }
    const double seed_s = Seconds(t0);
    const std::string scenario = "scan_" + std::to_string(n);
    Emit(scenario, "seed_files_per_second", static_cast<double>(2 * n) / seed_s, "files/s");
    PQclear(pg.Exec("ANALYZE"));

    const std::string s_id = pg.Scalar(
        "SELECT table_id FROM hog_table_version WHERE catalog_id = $1 AND name = $2 AND "
        "end_snapshot IS NULL",
        {catalog_id, s_table});
    const std::string p_id = pg.Scalar(
        "SELECT table_id FROM hog_table_version WHERE catalog_id = $1 AND name = $2 AND "
        "end_snapshot IS NULL",
        {catalog_id, p_table});

    const int plans = n <= 1000 ? 50 : n <= 20000 ? 15 : 5;
    auto reference = [&](const std::string& table_id, bool stats, int64_t expect_rows,
                         const std::string& fields = "") {
      for (int w = 0; w < 2; ++w) ReferencePlan(pg, catalog_id, table_id, stats, fields);
      std::vector<double> ms;
      for (int k = 0; k < plans; ++k) {
        const auto r0 = Clock::now();
        const int64_t rows = ReferencePlan(pg, catalog_id, table_id, stats, fields);
        ms.push_back(Seconds(r0) * 1000);
        if (rows != expect_rows)
          check.Fail("reference read " + std::to_string(rows) + " rows, expected " +
                     std::to_string(expect_rows));
      }
      return Percentile(ms, 0.5);
    };
    auto report = [&](const std::string& name, const Measured& m, double ref_p50) {
      const std::string sc = scenario + "_" + name;
      Emit(sc, "p50", m.p50, "ms",
           ref_p50 > 0 ? std::optional<double>(m.p50 / ref_p50) : std::nullopt);
      Emit(sc, "p99", m.p99, "ms");
      Emit(sc, "response_bytes", m.bytes, "bytes");
      Emit(sc, "server_cpu_per_plan", m.server_cpu_ms, "ms");
      Emit(sc, "postgres_cpu_per_plan", m.pg_cpu_ms, "ms");
      if (ref_p50 > 0) Emit(sc, "reference_libpq_p50", ref_p50, "ms");
    };
    const std::string t = c + "/namespaces/ns/tables/";
    const bool capped = n * kColumns > 1000000;
    // Above the cap the plans that ask for stats narrow them to 10 columns
    // (the cap counts every file of the plan, pending ones too).
    std::string fields = "1";
    for (int k = 1; k < 10; ++k) fields += "," + std::to_string(k * 3 + 1);  // mixed types
    if (capped) {
      Measured refused =
          TimePlans(*client, t + s_table + "/scan?include=column_stats", 3, server.pid, 422);
      Emit(scenario + "_stats30_refused", "p50", refused.p50, "ms");
      if (refused.status != 422) check.Fail("30-column 100K plan was not refused");
      const double ref = reference(s_id, true, n + n * 10, "{" + fields + "}");
      Measured m =
          TimePlans(*client, t + s_table + "/scan?include=column_stats&stats_fields=" + fields,
                    plans, server.pid, 200);
      report("stats10", m, ref);
      CheckScan(m.last_body, s_table, n, true, 10, s_prefix, check);
    } else {
      const double ref = reference(s_id, true, n + n * kColumns);
      Measured m =
          TimePlans(*client, t + s_table + "/scan?include=column_stats", plans, server.pid, 200);
      report("stats", m, ref);
      CheckScan(m.last_body, s_table, n, true, kColumns, s_prefix, check);
    }
    {
      const double ref = reference(s_id, false, n);
      Measured m = TimePlans(*client, t + s_table + "/scan", plans, server.pid, 200);
      report("plain", m, ref);
      CheckScan(m.last_body, s_table, n, true, 0, s_prefix, check);
    }
    {
      const double ref = reference(p_id, true, n);
      Measured m = TimePlans(
          *client,
          t + p_table + "/scan?include=column_stats" + (capped ? "&stats_fields=" + fields : ""),
          plans, server.pid, 200);
      report("pending", m, ref);
      CheckScan(m.last_body, p_table, n, false, 0, p_prefix, check);
    }
  }

  Emit("invariants", "ok", check.ok ? 1 : 0, "bool");
  if (options.keep) {
    std::cerr << "scan_bench: server left running: pid " << server.pid << ", " << server.url
              << ", psql \"" << server.Conninfo() << "\"\n";
    return check.ok ? 0 : 1;
  }
  server.Stop();
  if (check.ok) std::filesystem::remove_all(server.dir);
  return check.ok ? 0 : 1;
}
