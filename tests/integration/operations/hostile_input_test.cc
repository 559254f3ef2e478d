// Hostile request bodies and names: JSON nested deep enough to exhaust a
// recursive parser's stack, NUL characters and bytes that are not UTF-8 in
// names and text, the same file registered twice, sizes that sum past int64,
// out-of-range decimal scales. Each is refused with a 4xx naming what was
// wrong, the server keeps serving, and nothing is written.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "server_fixture.h"

namespace hoglake::testing {
namespace {

using S = ServerEnvironment;

std::string Nested(int depth, const std::string& inner = "1") {
  return std::string(static_cast<size_t>(depth), '[') + inner +
         std::string(static_cast<size_t>(depth), ']');
}

void ExpectServing() { EXPECT_EQ(S::Call("GET", "/livez").status, 200); }

TEST(HostileInputTest, DeeplyNestedJsonIsRefusedNotACrash) {
  // 200,000 levels: a recursive parser overflows its stack on this.
  ApiResponse r = S::Call("POST", "/v1/debug/decode-bound",
                          R"({"type":"long","value":)" + Nested(200000) + "}");
  EXPECT_EQ(r.status, 400) << r.body.substr(0, 300);
  EXPECT_NE(r.body.find("nested deeper than"), std::string::npos) << r.body.substr(0, 300);
  ExpectServing();
  // Objects as well as arrays, and in every route that reads a body.
  std::string objects;
  for (int i = 0; i < 100000; ++i) objects += R"({"a":)";
  objects += "1" + std::string(100000, '}');
  EXPECT_EQ(S::Call("POST", "/v1/catalogs", objects).status, 400);
  ExpectServing();
  // Brackets inside strings do not count.
  r = S::Call("POST", "/v1/debug/decode-bound",
              R"({"type":"long","value":")" + std::string(1000, '[') + R"("})");
  EXPECT_EQ(r.body.find("nested deeper"), std::string::npos) << r.body.substr(0, 300);
}

TEST(HostileInputTest, OversizedShreddingDeclarationsAreRefused) {
  const TableLake lake = NewTableLake("ns", "anchor");
  ASSERT_FALSE(lake.uuid.empty());
  auto create = [&](const std::string& name, const std::string& shredding) {
    return S::Call("POST", lake.catalog + "/namespaces/ns/tables",
                   R"({"name":")" + name +
                       R"(","columns":[{"name":"v","type":"variant","type_params":{"shredding":)" +
                       shredding + "}}]}");
  };
  std::string deep;
  for (int i = 0; i < 100000; ++i) deep += R"({"type":"array","element":)";
  deep += R"({"type":"int64"})" + std::string(100000, '}');
  EXPECT_EQ(create("deep", deep).status, 400);
  ExpectServing();
  std::string thousand = R"({"type":"int64"})";
  for (int i = 0; i < 1000; ++i) thousand = R"({"type":"array","element":)" + thousand + "}";
  EXPECT_EQ(create("thousand", thousand).status, 400);
  std::string twenty = R"({"type":"int64"})";
  for (int i = 0; i < 20; ++i) twenty = R"({"type":"array","element":)" + twenty + "}";
  ApiResponse r = create("twenty", twenty);
  EXPECT_EQ(r.status, 422) << r.body;
  EXPECT_NE(r.body.find("shredding"), std::string::npos) << r.body;
  for (const char* name : {"deep", "thousand", "twenty"}) {
    EXPECT_EQ(S::Call("GET", lake.catalog + "/namespaces/ns/tables/" + name).status, 404) << name;
  }
  // A modest declaration is still accepted.
  EXPECT_EQ(create("modest", R"({"type":"object","fields":[{"name":"a","type":"int64"}]})").status, 201);
}

TEST(HostileInputTest, NulInAPathSegmentNeverAddressesAShorterName) {
  const TableLake lake = NewTableLake("ns", "victim");
  ASSERT_FALSE(lake.uuid.empty());
  ApiResponse r = S::Call("DELETE", lake.catalog + "/namespaces/ns/tables/victim%00zzz");
  EXPECT_EQ(r.status, 400) << r.body;
  EXPECT_NE(r.body.find("NUL"), std::string::npos) << r.body;
  EXPECT_EQ(S::Call("GET", lake.catalog + "/namespaces/ns/tables/victim").status, 200);
  // Bytes that are not UTF-8, percent-encoded, in a name or a query value.
  EXPECT_EQ(S::Call("GET", lake.catalog + "/namespaces/ns/tables/vic%FFtim").status, 400);
  EXPECT_EQ(S::Call("GET", lake.catalog + "/namespaces/ns/tables/victim?snapshot=%00").status, 400);
}

TEST(HostileInputTest, NulInJsonTextIsRefusedNamingTheField) {
  const TableLake lake = NewTableLake("ns", "t");
  ASSERT_FALSE(lake.uuid.empty());
  const std::string file = R"({"path":")" + lake.data + R"(f1.parquet","record_count":1,)"
                           R"("file_size_bytes":100})";
  // A commit naming table "t\u0000junk" must not land in t.
  ApiResponse r = S::Call("POST", lake.catalog + "/commit",
                          R"({"appends":[{"namespace":"ns","table":"t\u0000junk","files":[)" +
                              file + "]}]}");
  EXPECT_EQ(r.status, 400) << r.body;
  EXPECT_NE(r.body.find("appends[0].table"), std::string::npos) << r.body;
  // NUL in the author, the message, a partition value, a path.
  for (const std::string& body :
       {R"({"author":"a\u0000b","appends":[{"namespace":"ns","table":"t","files":[)" + file +
            "]}]}",
        R"({"message":"m\u0000","appends":[{"namespace":"ns","table":"t","files":[)" + file +
            "]}]}",
        R"({"appends":[{"namespace":"ns","table":"t","files":[{"path":")" + lake.data +
            R"(f\u0000.parquet","record_count":1,"file_size_bytes":100}]}]})",
        R"({"appends":[{"namespace":"ns","table":"t","files":[{"path":")" + lake.data +
            R"(f2.parquet","record_count":1,"file_size_bytes":100,"partition_values":["x\u0000"]}]}]})"}) {
    ApiResponse refused = S::Call("POST", lake.catalog + "/commit", body);
    EXPECT_EQ(refused.status, 400) << body << "\n" << refused.body;
    EXPECT_NE(refused.body.find("NUL"), std::string::npos) << refused.body;
  }
  // A raw 0xFF byte in the author is malformed JSON text, not a 500.
  r = S::Call("POST", lake.catalog + "/commit",
              "{\"author\":\"a\xFF\",\"appends\":[{\"namespace\":\"ns\",\"table\":\"t\",\"files\":[" +
                  file + "]}]}");
  EXPECT_EQ(r.status, 400) << r.body;
  EXPECT_NE(r.body.find("author is not valid UTF-8"), std::string::npos) << r.body;
  // A view whose SQL holds a NUL is refused, not stored cut short.
  r = S::Call("POST", lake.catalog + "/namespaces/ns/views",
              R"({"name":"v","sql":"select \u0000 1"})");
  EXPECT_EQ(r.status, 400) << r.body;
  EXPECT_EQ(S::Call("GET", lake.catalog + "/namespaces/ns/views/v").status, 404);
  // Nothing above committed: the table has no files.
  ApiResponse files = S::Call("GET", lake.catalog + "/namespaces/ns/tables/t/files");
  ASSERT_EQ(files.status, 200) << files.body;
  EXPECT_EQ(files.body.find("parquet"), std::string::npos) << files.body;
}

TEST(HostileInputTest, AFileIsRegisteredOnce) {
  const TableLake lake = NewTableLake("ns", "t");
  ASSERT_FALSE(lake.uuid.empty());
  const std::string f = R"({"path":")" + lake.data + R"(once.parquet","record_count":5,)"
                        R"("file_size_bytes":100})";
  auto commit = [&](const std::string& files) {
    return S::Call("POST", lake.catalog + "/commit",
                   R"({"appends":[{"namespace":"ns","table":"t","files":[)" + files + "]}]}");
  };
  // Twice in one commit: 422, nothing registered.
  ApiResponse r = commit(f + "," + f);
  EXPECT_EQ(r.status, 422) << r.body;
  EXPECT_NE(r.body.find("twice"), std::string::npos) << r.body;
  // Once: fine. Again in a later commit: 409, still one file.
  ASSERT_EQ(commit(f).status, 200);
  r = commit(f);
  EXPECT_EQ(r.status, 409) << r.body;
  EXPECT_EQ(r.error(), "already_exists") << r.body;
  // Concurrent commits of one fresh path: exactly one lands.
  const std::string g = R"({"path":")" + lake.data + R"(race.parquet","record_count":5,)"
                        R"("file_size_bytes":100})";
  std::vector<int> statuses(8);
  std::vector<std::thread> writers;
  for (size_t i = 0; i < statuses.size(); ++i) {
    writers.emplace_back([&, i] { statuses[i] = commit(g).status; });
  }
  for (std::thread& w : writers) w.join();
  int landed = 0;
  for (int status : statuses) {
    EXPECT_TRUE(status == 200 || status == 409) << status;
    landed += status == 200;
  }
  EXPECT_EQ(landed, 1);
  ApiResponse table = S::Call("GET", lake.catalog + "/namespaces/ns/tables/t");
  ASSERT_EQ(table.status, 200);
  EXPECT_EQ(table.json["record_count"].GetInt64(), 10) << table.body;
  EXPECT_EQ(table.json["file_count"].GetInt64(), 2) << table.body;
  // A dropped table's file may be registered again by the next incarnation.
  ASSERT_EQ(S::Call("DELETE", lake.catalog + "/namespaces/ns/tables/t").status, 200);
  ASSERT_EQ(S::Call("POST", lake.catalog + "/namespaces/ns/tables",
                    R"({"name":"t","columns":[{"name":"id","type":"long"}]})")
                .status,
            201);
  EXPECT_EQ(commit(f).status, 200);
}

TEST(HostileInputTest, SizesSummingPastInt64AreValidationErrors) {
  const TableLake lake = NewTableLake("ns", "t");
  ASSERT_FALSE(lake.uuid.empty());
  const std::string big = "9223372036854775000";
  auto file = [&](const std::string& name) {
    return R"({"path":")" + lake.data + name + R"(","record_count":1,"file_size_bytes":)" + big +
           "}";
  };
  ApiResponse r =
      S::Call("POST", lake.catalog + "/commit",
              R"({"appends":[{"namespace":"ns","table":"t","files":[)" + file("a.parquet") + "," +
                  file("b.parquet") + "]}]}");
  EXPECT_EQ(r.status, 422) << r.body;
  // Across commits: the second pushes the table's total past int64.
  ASSERT_EQ(S::Call("POST", lake.catalog + "/commit",
                    R"({"appends":[{"namespace":"ns","table":"t","files":[)" + file("c.parquet") +
                        "]}]}")
                .status,
            200);
  r = S::Call("POST", lake.catalog + "/commit",
              R"({"appends":[{"namespace":"ns","table":"t","files":[)" + file("d.parquet") +
                  "]}]}");
  EXPECT_EQ(r.status, 422) << r.body;
  // The client is told what went wrong, not our SQL.
  EXPECT_NE(r.body.find("past 2^63 - 1"), std::string::npos) << r.body;
  EXPECT_EQ(r.body.find("PostgreSQL"), std::string::npos) << r.body;
  EXPECT_EQ(r.body.find("hog_"), std::string::npos) << r.body;
  ExpectServing();
}

// Two tables whose totals are each near 2^63 - 1: the instance totals (and
// the catalog's gauges) are capped at 2^63 - 1, never wrapped or lost.
TEST(HostileInputTest, InstanceTotalsPastInt64AreCappedNotLost) {
  const std::string dir = MakeServerDir("hoglake-totals");
  ASSERT_FALSE(dir.empty());
  ServerProcess server;
  server.Start(dir, {}, {{"HOGLAKE_METRICS_SAMPLE_INTERVAL_MS", "100"}});
  ASSERT_TRUE(server.running());
  const std::string url = server.base_url();
  ASSERT_EQ(
      CallServer(url, "POST", "/v1/catalogs", R"({"name":"big","data_path":"s3://b/big/"})").status,
      201);
  ASSERT_EQ(CallServer(url, "POST", "/v1/catalogs/big/namespaces", R"({"name":"ns"})").status, 201);
  for (const char* table : {"t1", "t2"}) {
    ASSERT_EQ(CallServer(url, "POST", "/v1/catalogs/big/namespaces/ns/tables",
                         std::string(R"({"name":")") + table +
                             R"(","columns":[{"name":"v","type":"long"}]})")
                  .status,
              201);
    const ApiResponse commit =
        CallServer(url, "POST", "/v1/catalogs/big/commit",
                   std::string(R"({"appends":[{"namespace":"ns","table":")") + table +
                       R"(","files":[{"path":"s3://b/big/)" + table +
                       R"(.parquet","record_count":1,"file_size_bytes":9223372036854775000}]}]})");
    ASSERT_EQ(commit.status, 200) << commit.body;
  }
  int64_t total = -1;
  for (int i = 0; i < 100 && total <= 0; ++i) {
    const ApiResponse info = CallServer(url, "GET", "/v1/info");
    if (info.json.IsObject() && info.json.HasMember("total_size_bytes")) {
      total = info.json["total_size_bytes"].GetInt64();
      if (total > 0) break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  EXPECT_EQ(total, INT64_MAX);
  const std::string metrics = CallServer(url, "GET", "/metrics").body;
  // Printed with six digits: ~9.22337e+18, not 0.
  EXPECT_GT(MetricSample(metrics, "hoglake_live_bytes{catalog=\"big\"}"), 9.2e18) << metrics;
  server.Stop();
  if (!::testing::Test::HasFailure()) std::filesystem::remove_all(dir);
}

TEST(HostileInputTest, DecodeBoundRefusesImpossibleDecimalScales) {
  for (const char* params : {R"({"scale":1000000})", R"({"scale":-5})", R"({"precision":39})",
                             R"({"precision":0})", R"({"precision":5,"scale":6})"}) {
    ApiResponse r = S::Call("POST", "/v1/debug/decode-bound",
                            std::string(R"({"type":"decimal","value":"BNI=","type_params":)") +
                                params + "}");
    EXPECT_EQ(r.status, 422) << params << ": " << r.body;
  }
  ApiResponse ok = S::Call("POST", "/v1/debug/decode-bound",
                           R"({"type":"decimal","value":"BNI=","type_params":{"scale":2}})");
  EXPECT_EQ(ok.status, 200) << ok.body;
}

// kB of the server's peak resident memory (VmHWM).
int64_t PeakRssKb(int pid) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  for (std::string line; std::getline(status, line);) {
    if (line.starts_with("VmHWM:")) return std::stoll(line.substr(6));
  }
  return -1;
}

// A 58 MB body of 29 million small numbers cost ~980 MB to parse (17× its
// text). Its values are counted first and it is refused unparsed: the
// server's peak stays within twice the body limit plus a constant.
TEST(HostileInputTest, AJsonBodyOfTooManyValuesIsRefusedBeforeItIsParsed) {
  const std::string dir = MakeServerDir("hoglake-bigjson");
  ASSERT_FALSE(dir.empty());
  ServerProcess server;
  server.Start(dir);
  const int64_t before = PeakRssKb(server.pid());
  std::string body = R"({"type":"long","value":[)";
  body.reserve(60u << 20);
  for (int i = 0; i < 29'000'000; ++i) body += i ? ",1" : "1";
  body += "]}";
  ApiResponse r = CallServer(server.base_url(), "POST", "/v1/debug/decode-bound", body);
  EXPECT_EQ(r.status, 400) << r.body.substr(0, 300);
  EXPECT_NE(r.body.find("too many JSON values"), std::string::npos) << r.body.substr(0, 300);
  const int64_t peak = PeakRssKb(server.pid());
  constexpr int64_t kBodyLimitKb = 64 << 10;
  EXPECT_LE(peak, before + 2 * kBodyLimitKb + (64 << 10)) << "peak " << peak << " kB";
  EXPECT_EQ(CallServer(server.base_url(), "GET", "/livez").status, 200);
  server.Stop();
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace hoglake::testing
