// tpch_runner: runs the TPC-H queries through sql::Session over the eight
// TPC-H tables, each one Parquet file written by tpchgen-cli and registered
// in a MemoryLake as catalog "lake", namespace "public".
//
//   tpch_runner --data DIR [--queries DIR] [--query q01[,q05,...]]
//               [--explain-analyze] [--threads N] [--warmup N] [--repeat N]
//               [--no-rows] [--memory-limit-mb N]
//
// DIR holds region.parquet, nation.parquet, …, lineitem.parquet. --queries
// defaults to tests/tpch/queries (qNN.sql); --query picks some of them
// (default: all, in name order). Each query prints one JSON line on stdout:
//
//   {"query":"q01","row_count":4,"seconds":0.0123,"first_seconds":0.0150,
//    "runs":1,"columns":[{"name":"l_returnflag","type":"text"},…],
//    "rows":[["A","F",…],…]}
//
// column types are PostgreSQL's names (PgTypeName); values are PostgreSQL's
// text forms (ValueToString), NULL is null. "first_seconds" is the wall time
// of the query's first run in this process; "seconds" the best of --repeat
// runs (default 1) after --warmup runs (default 0) — with neither, the two
// are the same run. A failed query prints {"query":…,"error":"ERROR <sqlstate>:
// <message>","sqlstate":…,"message":…} and the next one runs (an exception,
// such as std::bad_alloc, prints {"query":…,"error":"exception: …"}). With
// --explain-analyze each line has "plan" (EXPLAIN ANALYZE's lines) instead
// of "columns" and "rows". --no-rows leaves out "rows" (timing runs).
// --memory-limit-mb caps the process's address space (RLIMIT_AS), so a plan
// whose intermediate results explode fails (std::bad_alloc) instead of
// taking the machine's memory.
// Exits 1 when a query failed, 2 on a usage or set-up error.
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/json_writer.h"
#include "memory_lake.h"
#include "sql/types/value.h"

namespace {

namespace fs = std::filesystem;
using hoglake::JsonWriter;
using hoglake::sql::QueryResult;
using hoglake::sql::Session;
using hoglake::sql::testing::MemoryLake;

constexpr const char* kTables[] = {"region", "nation",   "supplier", "customer",
                                   "part",   "partsupp", "orders",   "lineitem"};

struct Options {
  std::string data_dir;
  std::string queries_dir = HOGLAKE_TPCH_QUERIES_DIR;
  std::vector<std::string> queries;
  bool explain_analyze = false;
  bool rows = true;
  int threads = 0;
  int warmup = 0;
  int repeat = 1;
  int memory_limit_mb = 0;  // 0: no limit
};

[[noreturn]] void Usage(const std::string& message) {
  std::cerr << "tpch_runner: " << message << "\n"
            << "usage: tpch_runner --data DIR [--queries DIR] [--query q01[,q02...]]\n"
            << "                   [--explain-analyze] [--threads N] [--warmup N] [--repeat N]\n"
            << "                   [--no-rows] [--memory-limit-mb N]\n";
  std::exit(2);
}

int ParseCount(const std::string& flag, const std::string& text, int minimum) {
  try {
    size_t used = 0;
    int value = std::stoi(text, &used);
    if (used == text.size() && value >= minimum) return value;
  } catch (const std::exception&) {
  }
  Usage(flag + " needs an integer >= " + std::to_string(minimum) + ", got \"" + text + "\"");
}

Options ParseArgs(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) Usage(arg + " needs a value");
      return argv[++i];
    };
    if (arg == "--data") {
      o.data_dir = value();
    } else if (arg == "--queries") {
      o.queries_dir = value();
    } else if (arg == "--query") {
      std::stringstream list(value());
      std::string name;
      while (std::getline(list, name, ',')) {
        if (!name.empty()) o.queries.push_back(name);
      }
    } else if (arg == "--explain-analyze") {
      o.explain_analyze = true;
    } else if (arg == "--no-rows") {
      o.rows = false;
    } else if (arg == "--threads") {
      o.threads = ParseCount(arg, value(), 0);
    } else if (arg == "--warmup") {
      o.warmup = ParseCount(arg, value(), 0);
    } else if (arg == "--repeat") {
      o.repeat = ParseCount(arg, value(), 1);
    } else if (arg == "--memory-limit-mb") {
      o.memory_limit_mb = ParseCount(arg, value(), 0);
    } else {
      Usage("unknown argument \"" + arg + "\"");
    }
  }
  if (o.data_dir.empty()) Usage("--data is required");
  return o;
}

// The query names to run: the given ones, or every qNN.sql in the folder.
std::vector<std::string> QueryNames(const Options& o) {
  if (!o.queries.empty()) return o.queries;
  std::vector<std::string> names;
  for (const fs::directory_entry& entry : fs::directory_iterator(o.queries_dir)) {
    if (entry.path().extension() == ".sql") names.push_back(entry.path().stem().string());
  }
  std::sort(names.begin(), names.end());
  if (names.empty()) Usage("no .sql files in " + o.queries_dir);
  return names;
}

std::string ReadFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// Every value of the result in PostgreSQL's text form (nullopt = NULL).
std::vector<std::vector<std::optional<std::string>>> ResultRows(const QueryResult& result) {
  std::vector<std::vector<std::optional<std::string>>> rows;
  for (const hoglake::columnar::RecordBatch& batch : result.batches) {
    for (int64_t r = 0; r < batch.num_rows; ++r) {
      std::vector<std::optional<std::string>> row;
      for (size_t c = 0; c < result.columns.size(); ++c) {
        hoglake::sql::Value v = hoglake::sql::ValueAt(*batch.columns[c], r, result.columns[c].type);
        if (v.is_null) {
          row.emplace_back(std::nullopt);
        } else {
          row.emplace_back(hoglake::sql::ValueToString(v));
        }
      }
      rows.push_back(std::move(row));
    }
  }
  return rows;
}

// Runs one query as the options say and prints its line; false when it failed.
bool RunQuery(Session& session, const Options& o, const std::string& name) {
  std::string sql = ReadFile(fs::path(o.queries_dir) / (name + ".sql"));
  if (o.explain_analyze) sql = "EXPLAIN ANALYZE " + sql;
  JsonWriter w;
  w.BeginObject();
  w.Field("query", name);

  double first = 0;
  double best = 0;
  int timed = 0;
  hoglake::Result<QueryResult> result = QueryResult{};
  for (int run = 0; run < o.warmup + o.repeat; ++run) {
    result = QueryResult{};  // the previous run's batches are freed before timing
    auto start = std::chrono::steady_clock::now();
    result = session.Execute(sql);
    double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!result.ok()) break;
    if (run == 0) first = seconds;
    if (run >= o.warmup) {
      best = timed == 0 ? seconds : std::min(best, seconds);
      ++timed;
    }
  }
  if (!result.ok()) {
    const hoglake::Error& e = result.error();
    w.Field("error", "ERROR " + e.detail.sqlstate + ": " + e.message);
    w.Field("sqlstate", e.detail.sqlstate);
    w.Field("message", e.message);
    w.EndObject();
    std::cout << w.Take() << std::endl;
    return false;
  }

  std::vector<std::vector<std::optional<std::string>>> rows = ResultRows(*result);
  w.Field("row_count", static_cast<int64_t>(rows.size()));
  char number[64];
  std::snprintf(number, sizeof number, "%.6f", best);
  w.Key("seconds");
  w.Raw(number);
  std::snprintf(number, sizeof number, "%.6f", first);
  w.Key("first_seconds");
  w.Raw(number);
  w.Field("runs", static_cast<int64_t>(timed));
  w.Field("threads", static_cast<int64_t>(o.threads));
  if (o.explain_analyze) {
    w.Key("plan");
    w.BeginArray();
    for (const auto& row : rows) {
      if (!row.empty() && row[0]) w.String(*row[0]);
    }
    w.EndArray();
  } else {
    w.Key("columns");
    w.BeginArray();
    for (const hoglake::sql::ResultColumn& column : result->columns) {
      w.BeginObject();
      w.Field("name", column.name);
      w.Field("type", hoglake::sql::PgTypeName(column.type));
      w.EndObject();
    }
    w.EndArray();
    if (o.rows) {
      w.Key("rows");
      w.BeginArray();
      for (const auto& row : rows) {
        w.BeginArray();
        for (const std::optional<std::string>& value : row) {
          if (value) {
            w.String(*value);
          } else {
            w.Null();
          }
        }
        w.EndArray();
      }
      w.EndArray();
    }
  }
  w.EndObject();
  std::cout << w.Take() << std::endl;
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  Options o = ParseArgs(argc, argv);
  std::vector<std::string> names = QueryNames(o);
  if (o.memory_limit_mb > 0) {
    rlimit limit{};
    limit.rlim_cur = limit.rlim_max = static_cast<rlim_t>(o.memory_limit_mb) << 20;
    if (setrlimit(RLIMIT_AS, &limit) != 0) Usage("cannot set the memory limit");
  }
  MemoryLake lake;
  try {
    for (const char* table : kTables) {
      fs::path file = fs::path(o.data_dir) / (std::string(table) + ".parquet");
      if (!fs::exists(file)) Usage("missing " + file.string());
      lake.RegisterParquetTable(table, file.string());
    }
  } catch (const std::exception& e) {
    std::cerr << "tpch_runner: " << e.what() << "\n";
    return 2;
  }
  hoglake::sql::SessionOptions options = lake.MakeSessionOptions();
  options.threads = o.threads;
  Session session(options);
  bool all_ok = true;
  for (const std::string& name : names) {
    try {
      all_ok = RunQuery(session, o, name) && all_ok;
    } catch (const std::exception& e) {  // std::bad_alloc past --memory-limit-mb
      JsonWriter w;
      w.BeginObject();
      w.Field("query", name);
      w.Field("error", std::string("exception: ") + e.what());
      w.EndObject();
      std::cout << w.Take() << std::endl;
      all_ok = false;
    }
  }
  return all_ok ? 0 : 1;
}
