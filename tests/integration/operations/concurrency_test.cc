// Many writers at once (issue: "8 clients appending to 4 tables of one
// catalog"): appends never conflict with appends, every commit lands exactly
// once, snapshot ids stay dense and row ids tile each table.
#include <atomic>
#include <thread>

#include "invariants.h"
#include "server_fixture.h"

namespace hoglake::testing {
namespace {

using S = ServerEnvironment;

TEST(ConcurrencyTest, EightWritersFourTablesNoConflicts) {
  const std::string name = NewCatalog();
  const std::string c = "/v1/catalogs/" + name;
  ASSERT_EQ(S::Call("POST", c + "/namespaces", R"({"name":"ns"})").status, 201);
  for (int t = 0; t < 4; ++t) {
    ASSERT_EQ(S::Call("POST", c + "/namespaces/ns/tables",
                      R"({"name":"t)" + std::to_string(t) +
                          R"(","columns":[{"name":"id","type":"long"}]})")
                  .status,
              201);
  }
  const int64_t head_before = S::Call("GET", c).json["head_snapshot_id"].GetInt64();
  constexpr int kWriters = 8;
  constexpr int kCommitsEach = 25;
  std::atomic<int> failures{0};
  std::vector<std::thread> writers;
  for (int w = 0; w < kWriters; ++w) {
    writers.emplace_back([&, w] {
      for (int i = 0; i < kCommitsEach; ++i) {
        const std::string table = "t" + std::to_string((w + i) % 4);
        std::string files;
        for (int f = 0; f < 3; ++f) {
          if (f) files += ",";
          files += R"({"path":"s3://bucket/)" + name + "/w" + std::to_string(w) + "-" +
                   std::to_string(i) + "-" + std::to_string(f) + R"(.parquet","record_count":)" +
                   std::to_string(10 + w + f) + R"(,"file_size_bytes":100})";
        }
        ApiResponse r = S::Call("POST", c + "/commit",
                                R"({"appends":[{"namespace":"ns","table":")" + table +
                                    R"(","files":[)" + files + "]}]}");
        if (r.status != 200) {
          ++failures;
          ADD_FAILURE() << r.status << " " << r.body;
        }
      }
    });
  }
  for (auto& t : writers) t.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(S::Call("GET", c).json["head_snapshot_id"].GetInt64(),
            head_before + kWriters * kCommitsEach);
  ExpectCatalogInvariants(name, {"ns.t0", "ns.t1", "ns.t2", "ns.t3"});
  int64_t files = 0;
  for (int t = 0; t < 4; ++t) {
    files += S::Call("GET", c + "/namespaces/ns/tables/t" + std::to_string(t))
                 .json["file_count"]
                 .GetInt64();
  }
  EXPECT_EQ(files, kWriters * kCommitsEach * 3);
}

}  // namespace
}  // namespace hoglake::testing
