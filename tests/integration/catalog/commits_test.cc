// Footer-shipping commits and read planning over HTTP (contract §4, §2.6).
#include "server_fixture.h"

namespace hoglake::testing {
namespace {

using S = ServerEnvironment;

struct Lake {
  std::string catalog;  // "/v1/catalogs/<name>"
  std::string name;
  std::string ns;  // ".../namespaces/web"
};

Lake NewLake() {
  Lake lake;
  lake.name = NewCatalog();
  lake.catalog = "/v1/catalogs/" + lake.name;
  lake.ns = lake.catalog + "/namespaces/web";
  EXPECT_EQ(S::Call("POST", lake.catalog + "/namespaces", R"({"name":"web"})").status, 201);
  EXPECT_EQ(
      S::Call("POST", lake.ns + "/tables",
              R"({"name":"events","columns":[{"name":"id","type":"long","nullable":false},)"
              R"({"name":"score","type":"double"},{"name":"event","type":"string"},)"
              R"({"name":"amount","type":"decimal","type_params":{"precision":20,"scale":2}},)"
              R"({"name":"tags","type":"list","children":[{"name":"element","type":"string"}]}]})")
          .status,
      201);
  return lake;
}

std::string File(const Lake& lake, const std::string& name, int64_t rows,
                 const std::string& extra = "") {
  return R"({"path":"s3://bucket/)" + lake.name + "/data/web/events/" + name +
         R"(.parquet","record_count":)" + std::to_string(rows) +
         R"(,"file_size_bytes":4096,"footer_size":512)" + extra + "}";
}

std::string Append(const Lake& lake, const std::string& files, const std::string& extra = "") {
  (void)lake;
  return R"({"appends":[{"namespace":"web","table":"events","files":[)" + files + "]" + extra +
         "}]}";
}

// Bounds are base64 of Iceberg single values: long 1 = AQAAAAAAAAA=, long 100 = ZAAAAAAAAAA=,
// double -0.0 = AAAAAAAAAIA=, double 2.5 = AAAAAAAABEA=, string "a" = YQ==, "z" = eg==,
// decimal 12.34 (unscaled 1234 = 0x04d2) = BNI=.
constexpr const char* kStats =
    R"(,"column_stats":[{"field_id":1,"value_count":100,"null_count":0,"lower_bound":"AQAAAAAAAAA=","upper_bound":"ZAAAAAAAAAA="},)"
    R"({"field_id":2,"value_count":100,"null_count":3,"nan_count":1,"lower_bound":"AAAAAAAAAAA=","upper_bound":"AAAAAAAABEA="},)"
    R"({"field_id":3,"value_count":100,"null_count":0,"lower_bound":"YQ==","upper_bound":"eg=="},)"
    R"({"field_id":4,"value_count":100,"null_count":0,"lower_bound":"BNI=","upper_bound":"BNI="}])";

TEST(CommitTest, AppendAllocatesRowIdsAndShowsInScanFilesAndStats) {
  Lake lake = NewLake();
  ApiResponse c1 =
      S::Call("POST", lake.catalog + "/commit",
              R"({"author":"alice","message":"first",)" +
                  Append(lake, File(lake, "a", 100, kStats) + "," + File(lake, "b", 50)).substr(1));
  ASSERT_EQ(c1.status, 200) << c1.body;
  EXPECT_EQ(c1.json["snapshot_id"].GetInt64(), 3);
  EXPECT_EQ(c1.json["schema_version"].GetInt64(), 2);  // data commits do not bump it
  ApiResponse c2 = S::Call("POST", lake.catalog + "/commit", Append(lake, File(lake, "c", 7)));
  ASSERT_EQ(c2.status, 200) << c2.body;
  EXPECT_EQ(c2.json["snapshot_id"].GetInt64(), 4);

  ApiResponse scan = S::Call("GET", lake.ns + "/tables/events/scan");
  ASSERT_EQ(scan.status, 200) << scan.body;
  ASSERT_EQ(scan.json.Size(), 3u);
  const auto& a = scan.json[0]["data_file"];
  EXPECT_EQ(a["row_id_start"].GetInt64(), 0);
  EXPECT_STREQ(a["stats_state"].GetString(), "provided");
  EXPECT_EQ(a["footer_size"].GetInt64(), 512);
  EXPECT_EQ(a["begin_snapshot"].GetInt64(), 3);
  EXPECT_FALSE(a["explicit_row_ids"].GetBool());
  EXPECT_FALSE(a.HasMember("column_stats"));
  EXPECT_FALSE(a.HasMember("partition_values"));
  EXPECT_EQ(scan.json[1]["data_file"]["row_id_start"].GetInt64(),
            100);  // contiguous, request order
  EXPECT_STREQ(scan.json[1]["data_file"]["stats_state"].GetString(), "pending");
  EXPECT_EQ(scan.json[2]["data_file"]["row_id_start"].GetInt64(), 150);

  // Time travel: at snapshot 3 only the first two files exist.
  EXPECT_EQ(S::Call("GET", lake.ns + "/tables/events/scan?snapshot=3").json.Size(), 2u);
  EXPECT_EQ(S::Call("GET", lake.ns + "/tables/events/scan?snapshot=2").json.Size(), 0u);
  ApiResponse table = S::Call("GET", lake.ns + "/tables/events");
  EXPECT_EQ(table.json["record_count"].GetInt64(), 157);
  EXPECT_EQ(table.json["file_count"].GetInt64(), 3);

  ApiResponse with_stats = S::Call("GET", lake.ns + "/tables/events/scan?include=column_stats");
  ASSERT_EQ(with_stats.status, 200) << with_stats.body;
  const auto& stats = with_stats.json[0]["data_file"]["column_stats"];
  ASSERT_EQ(stats.Size(), 4u);
  EXPECT_EQ(stats[0]["lower_bound"].GetInt64(), 1);
  EXPECT_EQ(stats[0]["upper_bound"].GetInt64(), 100);
  EXPECT_EQ(stats[1]["nan_count"].GetInt64(), 1);
  EXPECT_EQ(std::string(with_stats.body).find("\"lower_bound\":-0.0") != std::string::npos, true)
      << "a +0.0 lower bound is stored canonically as -0.0: " << with_stats.body;
  EXPECT_STREQ(stats[2]["lower_bound"].GetString(), "a");
  EXPECT_NE(with_stats.body.find("\"lower_bound\":12.34"), std::string::npos)
      << "exact decimal token";
  EXPECT_FALSE(with_stats.json[1]["data_file"].HasMember("column_stats"));  // pending files omit it
  ApiResponse narrowed =
      S::Call("GET", lake.ns + "/tables/events/scan?include=column_stats&stats_fields=3,1");
  EXPECT_EQ(narrowed.json[0]["data_file"]["column_stats"].Size(), 2u);

  ApiResponse files =
      S::Call("GET", lake.ns + "/tables/events/files?sort=record_count&order=desc&limit=2");
  ASSERT_EQ(files.status, 200) << files.body;
  ASSERT_EQ(files.json.Size(), 2u);
  EXPECT_EQ(files.json[0]["record_count"].GetInt64(), 100);
  EXPECT_EQ(files.json[0]["ordering_bounds"]["lower_bound"].GetInt64(), 0);
  EXPECT_EQ(files.json[0]["ordering_bounds"]["upper_bound"].GetInt64(), 99);
  EXPECT_EQ(S::Call("GET", lake.ns + "/tables/events/files?offset=2").json.Size(), 1u);

  const int64_t file_id = a["data_file_id"].GetInt64();
  ApiResponse file_stats =
      S::Call("GET", lake.ns + "/tables/events/files/" + std::to_string(file_id) + "/stats");
  ASSERT_EQ(file_stats.status, 200) << file_stats.body;
  EXPECT_STREQ(file_stats.json["columns"][3]["name"].GetString(), "amount");
  EXPECT_STREQ(file_stats.json["columns"][3]["type"].GetString(), "decimal");
  EXPECT_EQ(file_stats.json["columns"][3]["type_params"]["scale"].GetInt(), 2);
  EXPECT_FALSE(file_stats.json.HasMember("no_stats_reason"));
  ApiResponse pending = S::Call(
      "GET", lake.ns + "/tables/events/files/" +
                 std::to_string(scan.json[1]["data_file"]["data_file_id"].GetInt64()) + "/stats");
  EXPECT_STREQ(pending.json["stats_state"].GetString(), "pending");
  EXPECT_TRUE(pending.json.HasMember("no_stats_reason"));
  EXPECT_EQ(S::Call("GET", lake.ns + "/tables/events/files/99999/stats").status, 404);
  EXPECT_EQ(S::Call("GET", lake.ns + "/tables/events/files/x/stats").status, 400);

  ApiResponse snapshots = S::Call("GET", lake.catalog + "/snapshots?after=2");
  EXPECT_STREQ(snapshots.json["snapshots"][0]["author"].GetString(), "alice");
  EXPECT_STREQ(snapshots.json["snapshots"][0]["changes"][0]["kind"].GetString(),
               "table_inserted_into");
}

// A plan reuses its statistics rows from file to file: a file with fewer
// entries, or without bounds or nan_count, shows exactly its own.
TEST(CommitTest, ScanStatsAreEachFilesOwn) {
  Lake lake = NewLake();
  const std::string full = R"(,"column_stats":[{"field_id":1,"value_count":5,"null_count":0,)"
                           R"("lower_bound":"AQAAAAAAAAA=","upper_bound":"ZAAAAAAAAAA="},)"
                           R"({"field_id":2,"value_count":5,"null_count":0,"nan_count":1,)"
                           R"("lower_bound":"AAAAAAAAAIA=","upper_bound":"AAAAAAAABEA="}])";
  const std::string sparse = R"(,"column_stats":[{"field_id":2,"value_count":3,"null_count":3}])";
  ASSERT_EQ(S::Call("POST", lake.catalog + "/commit",
                    Append(lake, File(lake, "a", 5, full) + "," + File(lake, "b", 3, sparse) + "," +
                                     File(lake, "c", 5, full)))
                .status,
            200);
  ApiResponse scan = S::Call("GET", lake.ns + "/tables/events/scan?include=column_stats");
  ASSERT_EQ(scan.status, 200) << scan.body;
  ASSERT_EQ(scan.json.Size(), 3u);
  for (int i : {0, 2}) {
    const auto& stats = scan.json[i]["data_file"]["column_stats"];
    ASSERT_EQ(stats.Size(), 2u) << scan.body;
    EXPECT_EQ(stats[0]["upper_bound"].GetInt64(), 100);
    EXPECT_EQ(stats[1]["nan_count"].GetInt64(), 1);
    EXPECT_EQ(stats[1]["upper_bound"].GetDouble(), 2.5);
  }
  const auto& sparse_stats = scan.json[1]["data_file"]["column_stats"];
  ASSERT_EQ(sparse_stats.Size(), 1u) << scan.body;
  EXPECT_EQ(sparse_stats[0]["field_id"].GetInt64(), 2);
  EXPECT_EQ(sparse_stats[0]["null_count"].GetInt64(), 3);
  EXPECT_FALSE(sparse_stats[0].HasMember("nan_count")) << scan.body;
  EXPECT_TRUE(sparse_stats[0]["lower_bound"].IsNull()) << scan.body;
  EXPECT_TRUE(sparse_stats[0]["upper_bound"].IsNull()) << scan.body;
}

TEST(CommitTest, StatsAreSanitizedOrRefused) {
  Lake lake = NewLake();
  // Repaired: null_count > value_count, nan_count on a non-float, inverted bounds, NaN bound.
  const std::string repaired =
      R"(,"column_stats":[{"field_id":1,"value_count":5,"null_count":9,"nan_count":2,"lower_bound":"ZAAAAAAAAAA=","upper_bound":"AQAAAAAAAAA="},)"
      R"({"field_id":2,"value_count":5,"null_count":0,"lower_bound":"AAAAAAAA+H8=","upper_bound":"AAAAAAAABEA="}])";
  ASSERT_EQ(
      S::Call("POST", lake.catalog + "/commit", Append(lake, File(lake, "r", 5, repaired))).status,
      200);
  ApiResponse scan = S::Call("GET", lake.ns + "/tables/events/scan?include=column_stats");
  const auto& stats = scan.json[0]["data_file"]["column_stats"];
  EXPECT_EQ(stats[0]["null_count"].GetInt64(), 5);
  EXPECT_FALSE(stats[0].HasMember("nan_count"));
  EXPECT_TRUE(stats[0]["lower_bound"].IsNull());  // all-null column: bounds dropped
  EXPECT_TRUE(stats[1]["lower_bound"].IsNull());  // NaN is never a bound
  EXPECT_EQ(stats[1]["upper_bound"].GetDouble(), 2.5);

  const char* refused[] = {
      R"(,"column_stats":[{"field_id":99,"value_count":1,"null_count":0}])",
      R"(,"column_stats":[{"field_id":5,"value_count":1,"null_count":0}])",  // the list container
      R"(,"column_stats":[{"field_id":1,"value_count":1,"null_count":0},{"field_id":1,"value_count":1,"null_count":0}])",
      R"(,"column_stats":[{"field_id":1,"value_count":-1,"null_count":0}])",
  };
  for (const char* stats_json : refused) {
    ApiResponse r =
        S::Call("POST", lake.catalog + "/commit", Append(lake, File(lake, "x", 1, stats_json)));
    EXPECT_EQ(r.status, 422) << stats_json << " → " << r.body;
  }
  ApiResponse bad_base64 = S::Call(
      "POST", lake.catalog + "/commit",
      Append(
          lake,
          File(
              lake, "x", 1,
              R"(,"column_stats":[{"field_id":1,"value_count":1,"null_count":0,"lower_bound":"!!"}])")));
  EXPECT_EQ(bad_base64.status, 400) << bad_base64.body;
  EXPECT_EQ(S::Call("GET", lake.catalog).json["head_snapshot_id"].GetInt64(),
            3);  // nothing else written
}

TEST(CommitTest, RefusalsFollowTheContract) {
  Lake lake = NewLake();
  auto commit = [&](const std::string& body) {
    return S::Call("POST", lake.catalog + "/commit", body);
  };
  EXPECT_EQ(commit(R"({"appends":[]})").status, 422);  // empty
  EXPECT_EQ(commit(R"({})").status, 422);
  EXPECT_EQ(commit(Append(lake, "")).status, 422);  // group without files
  ApiResponse outside = commit(
      R"({"appends":[{"namespace":"web","table":"events","files":[{"path":"s3://elsewhere/x.parquet","record_count":1,"file_size_bytes":10}]}]})");
  EXPECT_EQ(outside.status, 422);
  EXPECT_NE(outside.body.find("outside the catalog data_path"), std::string::npos);
  EXPECT_EQ(commit(Append(lake, File(lake, "../escape", 1))).status, 422);
  EXPECT_EQ(commit(Append(lake, File(lake, "neg", -1))).status, 422);
  ApiResponse footer = commit(
      Append(lake, R"({"path":"s3://bucket/)" + lake.name +
                       R"(/f.parquet","record_count":1,"file_size_bytes":10,"footer_size":3})"));
  EXPECT_EQ(footer.status, 422) << footer.body;
  ApiResponse unknown = commit(R"({"appends":[{"namespace":"web","table":"nope","files":[)" +
                               File(lake, "u", 1) + "]}]}");
  EXPECT_EQ(unknown.status, 422);
  EXPECT_NE(unknown.body.find("unknown table web.nope"), std::string::npos) << unknown.body;
  EXPECT_EQ(commit(Append(lake, File(lake, "pv", 1, R"(,"partition_values":["x"])"))).status, 422);
  EXPECT_EQ(commit(Append(lake, File(lake, "so", 1, R"(,"split_offsets":[4,4])"))).status, 422);
  EXPECT_EQ(commit(R"({"read_snapshot":-1,)" + Append(lake, File(lake, "rs", 1)).substr(1)).status,
            422);
  EXPECT_EQ(commit(R"({"read_snapshot":99,)" + Append(lake, File(lake, "rs", 1)).substr(1)).status,
            422);
  // Shape errors are 400.
  EXPECT_EQ(commit(Append(lake, R"({"path":"s3://bucket/x","record_count":1})")).status, 400);
  EXPECT_EQ(commit(Append(lake, File(lake, "e", 1, R"(,"extra":1)"))).status, 400);
  EXPECT_EQ(commit(R"({"appends":[null]})").status, 400);
  EXPECT_EQ(
      commit(R"({"idempotency_key":"not-a-uuid",)" + Append(lake, File(lake, "k", 1)).substr(1))
          .status,
      400);
  EXPECT_EQ(
      S::Call("POST", lake.catalog + "/commit/prepared", Append(lake, File(lake, "p", 1))).status,
      422);
  EXPECT_EQ(S::Call("POST", "/v1/catalogs/nope/commit", Append(lake, File(lake, "n", 1))).status,
            404);
  EXPECT_EQ(S::Call("GET", lake.catalog).json["head_snapshot_id"].GetInt64(), 2);
}

TEST(CommitTest, IncarnationGuardAndDdlSinceReadSnapshot) {
  Lake lake = NewLake();
  const std::string uuid =
      S::Call("GET", lake.ns + "/tables/events").json["table_uuid"].GetString();
  ASSERT_EQ(S::Call("POST", lake.catalog + "/commit",
                    Append(lake, File(lake, "g", 1), R"(,"expected_table_uuid":")" + uuid + "\""))
                .status,
            200);
  ApiResponse recreated =
      S::Call("POST", lake.catalog + "/commit",
              Append(lake, File(lake, "h", 1),
                     R"(,"expected_table_uuid":"00000000-0000-4000-8000-000000000001")"));
  EXPECT_EQ(recreated.status, 409);
  EXPECT_EQ(recreated.error(), "table_recreated");
  EXPECT_STREQ(recreated.json["tables"][0].GetString(), "web.events");
  EXPECT_STREQ(recreated.json["retry"].GetString(), "re-prepare");

  const int64_t read = S::Call("GET", lake.catalog).json["head_snapshot_id"].GetInt64();
  ASSERT_EQ(S::Call("DELETE", lake.ns + "/tables/events").status, 200);
  ApiResponse dropped = S::Call("POST", lake.catalog + "/commit", Append(lake, File(lake, "i", 1)));
  EXPECT_EQ(dropped.status, 409) << dropped.body;
  EXPECT_EQ(dropped.error(), "table_dropped");
  // Recreate: an append pinned before the drop sees DDL only through its
  // expected_table_uuid; the new incarnation is another table.
  ASSERT_EQ(S::Call("POST", lake.ns + "/tables",
                    R"({"name":"events","columns":[{"name":"id","type":"long"}]})")
                .status,
            201);
  ApiResponse pinned = S::Call(
      "POST", lake.catalog + "/commit",
      R"({"read_snapshot":)" + std::to_string(read) + "," +
          Append(lake, File(lake, "j", 1), R"(,"expected_table_uuid":")" + uuid + "\"").substr(1));
  EXPECT_EQ(pinned.status, 409);
  EXPECT_EQ(pinned.error(), "table_recreated");
}

TEST(CommitTest, IdempotencyKeysReplayAndRefuseReuse) {
  Lake lake = NewLake();
  const std::string key = "7f9c3e09-677c-4bbd-a479-3f349cb785e7";
  const std::string body =
      R"({"idempotency_key":")" + key + "\"," +
      Append(lake, File(lake, "k1", 10) + "," + File(lake, "k2", 20)).substr(1);
  ApiResponse first = S::Call("POST", lake.catalog + "/commit/prepared", body);
  ASSERT_EQ(first.status, 200) << first.body;
  ApiResponse replay = S::Call("POST", lake.catalog + "/commit/prepared", body);
  ASSERT_EQ(replay.status, 200);
  EXPECT_EQ(replay.body, first.body);
  // Reordered files are the same request.
  const std::string reordered =
      R"({"idempotency_key":")" + key + "\"," +
      Append(lake, File(lake, "k2", 20) + "," + File(lake, "k1", 10)).substr(1);
  EXPECT_EQ(S::Call("POST", lake.catalog + "/commit", reordered).body, first.body);
  const std::string different =
      R"({"idempotency_key":")" + key + "\"," + Append(lake, File(lake, "k3", 1)).substr(1);
  ApiResponse reuse = S::Call("POST", lake.catalog + "/commit", different);
  EXPECT_EQ(reuse.status, 422) << reuse.body;
  EXPECT_EQ(S::Call("GET", lake.ns + "/tables/events/scan").json.Size(), 2u);  // written once
  ApiResponse receipt = S::Call("GET", lake.catalog + "/commit/receipts/" + key);
  ASSERT_EQ(receipt.status, 200);
  EXPECT_EQ(receipt.json["snapshot_id"].GetInt64(), first.json["snapshot_id"].GetInt64());
  EXPECT_EQ(
      S::Call("GET", lake.catalog + "/commit/receipts/00000000-0000-4000-8000-000000000009").status,
      404);
  EXPECT_EQ(S::Call("GET", lake.catalog + "/commit/receipts/nope").status, 400);
}

TEST(CommitTest, ScanParameterErrors) {
  Lake lake = NewLake();
  const std::string scan = lake.ns + "/tables/events/scan";
  EXPECT_EQ(S::Call("GET", scan + "?include=bogus").status, 422);
  EXPECT_EQ(S::Call("GET", scan + "?include=column_stats,").status, 400);
  EXPECT_EQ(S::Call("GET", scan + "?stats_fields=1").status, 422);
  EXPECT_EQ(S::Call("GET", scan + "?include=column_stats&stats_fields=a").status, 400);
  const std::string files = lake.ns + "/tables/events/files";
  EXPECT_EQ(S::Call("GET", files + "?sort=bogus").status, 400);
  EXPECT_EQ(S::Call("GET", files + "?order=up").status, 400);
  EXPECT_EQ(S::Call("GET", files + "?limit=0").status, 400);
  EXPECT_EQ(S::Call("GET", files + "?offset=-1").status, 400);
  EXPECT_EQ(S::Call("GET", files + "?partition=x").status, 400);
  EXPECT_EQ(S::Call("GET", lake.ns + "/tables/missing/scan").status, 404);
}

}  // namespace
}  // namespace hoglake::testing
