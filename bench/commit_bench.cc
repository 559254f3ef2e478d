// commit_bench: single-writer commit latency through the real HTTP contract,
// in an empty catalog and in one preseeded with many snapshots (the cost of a
// commit must not grow with the catalog).
//
//   commit_bench [--quick] [--hoglake PATH] [--url URL] [--preseed N] [--commits N]
//
// Without --url it starts `hoglake serve` (embedded PostgreSQL) on a temporary
// data directory and stops it at the end. Prints one JSON line per
// measurement: {"scenario","metric","value","unit"[,"ratio"]}. After the load
// it checks the catalog invariants (dense snapshot ids, row ids tiling each
// table) and exits non-zero if one is broken.
#include <httplib.h>
#include <rapidjson/document.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "bench_report.h"
#include "bench_server.h"

namespace {

using Clock = std::chrono::steady_clock;

struct Options {
  bool quick = false;
  std::string hoglake = "build/src/cli/hoglake";
  std::string url;
  int preseed = 10000;
  int commits = 400;
};

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
  rapidjson::Document Get(const std::string& path) {
    auto r = client_.Get(path.c_str());
    if (!r || r->status != 200) Die("GET " + path + " failed");
    rapidjson::Document doc;
    doc.Parse(r->body.c_str());
    return doc;
  }

 private:
  httplib::Client client_;
};

std::string FilesJson(const std::string& catalog, int64_t seq, int files) {
  std::string out;
  for (int f = 0; f < files; ++f) {
    if (f) out += ",";
    out +=
        R"({"path":"s3://bench/)" + catalog + "/f" + std::to_string(seq) + "-" + std::to_string(f) +
        R"(.parquet","record_count":1000,"file_size_bytes":65536,"footer_size":1024,"column_stats":[)"
        R"({"field_id":1,"value_count":1000,"null_count":0,"lower_bound":"AQAAAAAAAAA=","upper_bound":"6AMAAAAAAAA="}]})";
  }
  return out;
}

std::string CommitBody(const std::string& catalog, int64_t seq, int files) {
  return R"({"appends":[{"namespace":"ns","table":"events","files":[)" +
         FilesJson(catalog, seq, files) + "]}]}";
}

void CreateCatalog(Api& api, const std::string& name) {
  api.Post("/v1/catalogs", R"({"name":")" + name + R"(","data_path":"s3://bench/)" + name + "\"}",
           201);
  api.Post("/v1/catalogs/" + name + "/namespaces", R"({"name":"ns"})", 201);
  api.Post("/v1/catalogs/" + name + "/namespaces/ns/tables",
           R"({"name":"events","columns":[{"name":"id","type":"long"}]})", 201);
}

// Dense snapshot ids and tiling row ids; returns false (and says why) if broken.
bool CheckInvariants(Api& api, const std::string& catalog) {
  const std::string c = "/v1/catalogs/" + catalog;
  const int64_t head = api.Get(c)["head_snapshot_id"].GetInt64();
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
              << "\n";
    return false;
  }
  auto scan = api.Get(c + "/namespaces/ns/tables/events/scan");
  int64_t row = 0;
  for (const auto& f : scan.GetArray()) {
    if (f["data_file"]["row_id_start"].GetInt64() != row) {
      std::cerr << "invariant broken: row ids do not tile in " << catalog << "\n";
      return false;
    }
    row += f["data_file"]["record_count"].GetInt64();
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) Die(arg + " needs a value");
      return argv[++i];
    };
    if (arg == "--quick") {
      options.quick = true;
      options.preseed = 2000;
      options.commits = 200;
    } else if (arg == "--hoglake") {
      options.hoglake = value();
    } else if (arg == "--url") {
      options.url = value();
    } else if (arg == "--preseed") {
      options.preseed = std::stoi(value());
    } else if (arg == "--commits") {
      options.commits = std::stoi(value());
    } else {
      Die("unknown argument " + arg);
    }
  }

  BenchServer server;
  if (options.url.empty()) {
    server = BenchServer::Start("commit_bench", options.hoglake);
    options.url = server.url;
  }
  Api api(options.url);
  const std::string suffix = std::to_string(getpid());
  const std::string empty = "empty-" + suffix;
  const std::string seeded = "seeded-" + suffix;
  CreateCatalog(api, empty);
  CreateCatalog(api, seeded);

  const auto seed_start = Clock::now();
  for (int i = 0; i < options.preseed; ++i)
    api.Post("/v1/catalogs/" + seeded + "/commit", CommitBody(seeded, i, 1));
  const double seed_seconds = Seconds(seed_start);
  Emit("preseed", "commits_per_second", options.preseed / seed_seconds, "commits/s");

  int64_t seq = 1000000;
  bool ok = true;
  for (int files : {1, 10, 100}) {
    const int n = files == 100 ? std::max(20, options.commits / 4) : options.commits;
    std::vector<double> lat[2];
    const std::string names[2] = {empty, seeded};
    // Interleave the two catalogs so machine noise hits both alike.
    for (int i = 0; i < n; ++i) {
      for (int k = 0; k < 2; ++k) {
        const auto start = Clock::now();
        api.Post("/v1/catalogs/" + names[k] + "/commit", CommitBody(names[k], seq++, files));
        lat[k].push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
      }
    }
    const std::string scenario = "commit_tail_" + std::to_string(files) + "_files";
    const double p50_empty = Percentile(lat[0], 0.5), p50_seeded = Percentile(lat[1], 0.5);
    Emit(scenario, "p50_empty", p50_empty, "ms");
    Emit(scenario, "p99_empty", Percentile(lat[0], 0.99), "ms");
    Emit(scenario, "p50_preseeded", p50_seeded, "ms", p50_seeded / p50_empty);
    Emit(scenario, "p99_preseeded", Percentile(lat[1], 0.99), "ms");
    double total = 0;
    for (double l : lat[0]) total += l;
    Emit(scenario, "commits_per_second_empty", 1000.0 * static_cast<double>(n) / total,
         "commits/s");
  }
  ok = CheckInvariants(api, empty) && CheckInvariants(api, seeded);
  Emit("invariants", "ok", ok ? 1 : 0, "bool");

  if (server.pid > 0) {
    server.Stop();
    std::filesystem::remove_all(server.dir);
  }
  return ok ? 0 : 1;
}
