// Durability: kill -9 the server (and its PostgreSQL) while commits are in
// flight, restart on the same data directory, and every commit that was
// acknowledged with 200 is there exactly once; the invariants still hold.
#include <signal.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <set>
#include <thread>

#include "server_fixture.h"

namespace hoglake::testing {
namespace {

std::set<std::string> LivePaths(const std::string& url, const std::string& table) {
  std::set<std::string> paths;
  ApiResponse scan = CallServer(url, "GET", table + "/scan");
  EXPECT_EQ(scan.status, 200) << scan.body;
  if (scan.status != 200) return paths;
  int64_t next = 0;
  for (const auto& f : scan.json.GetArray()) {
    const auto& file = f["data_file"];
    EXPECT_TRUE(paths.insert(file["path"].GetString()).second)
        << "registered twice: " << file["path"].GetString();
    EXPECT_EQ(file["row_id_start"].GetInt64(), next) << "row ids must tile";
    next = file["row_id_start"].GetInt64() + file["record_count"].GetInt64();
  }
  return paths;
}

TEST(CrashTest, AcknowledgedCommitsSurviveKillNine) {
  char pattern[] = "/tmp/hoglake-crash-XXXXXX";
  ASSERT_NE(mkdtemp(pattern), nullptr);
  const std::string dir = pattern;
  ServerProcess server;
  server.Start(dir);
  ASSERT_TRUE(server.running());
  const std::string c = "/v1/catalogs/crash";
  const std::string table = c + "/namespaces/ns/tables/t";
  ASSERT_EQ(CallServer(server.base_url(), "POST", "/v1/catalogs",
                       R"({"name":"crash","data_path":"s3://b/crash"})")
                .status,
            201);
  ASSERT_EQ(CallServer(server.base_url(), "POST", c + "/namespaces", R"({"name":"ns"})").status,
            201);
  ASSERT_EQ(CallServer(server.base_url(), "POST", c + "/namespaces/ns/tables",
                       R"({"name":"t","columns":[{"name":"id","type":"long"}]})")
                .status,
            201);

  std::mutex mutex;
  std::set<std::string> acknowledged;
  std::atomic<bool> stop{false};
  std::atomic<int> sent{0};
  std::vector<std::thread> writers;
  const std::string url = server.base_url();
  for (int w = 0; w < 4; ++w) {
    writers.emplace_back([&, w] {
      for (int i = 0; !stop; ++i) {
        const std::string path =
            "s3://b/crash/w" + std::to_string(w) + "-" + std::to_string(i) + ".parquet";
        ApiResponse r =
            CallServer(url, "POST", c + "/commit",
                       R"({"appends":[{"namespace":"ns","table":"t","files":[{"path":")" + path +
                           R"(","record_count":7,"file_size_bytes":70}]}]})");
        ++sent;
        if (r.status == 200) {
          std::lock_guard lock(mutex);
          acknowledged.insert(path);
        } else if (r.status == -1) {
          return;  // the server is gone
        }
      }
    });
  }
  while (sent < 60) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  // Kill the server, then its PostgreSQL before it can shut down cleanly.
  std::ifstream pid_file(dir + "/pg/postmaster.pid");
  pid_t postgres = 0;
  pid_file >> postgres;
  server.Kill9();
  if (postgres > 0) kill(postgres, SIGKILL);
  stop = true;
  for (auto& t : writers) t.join();
  ASSERT_GT(acknowledged.size(), 0u);

  server.Start(dir);
  ASSERT_TRUE(server.running()) << server.Log();
  const std::set<std::string> live = LivePaths(server.base_url(), table);
  for (const std::string& path : acknowledged) EXPECT_TRUE(live.contains(path)) << "lost: " << path;
  ApiResponse catalog = CallServer(server.base_url(), "GET", c);
  // Dense snapshots: 0 = catalog, 1 = namespace, 2 = table, then one per surviving commit.
  EXPECT_EQ(catalog.json["head_snapshot_id"].GetInt64(), 2 + static_cast<int64_t>(live.size()));
  // The restarted server takes new commits.
  EXPECT_EQ(
      CallServer(
          server.base_url(), "POST", c + "/commit",
          R"({"appends":[{"namespace":"ns","table":"t","files":[{"path":"s3://b/crash/after.parquet","record_count":1,"file_size_bytes":1}]}]})")
          .status,
      200);
  server.Stop();
  if (!::testing::Test::HasFailure()) std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace hoglake::testing
