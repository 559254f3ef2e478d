// GET …/tables/{table}/partitions/values over HTTP (contract §2.7): distinct
// stored partition values over the live files at a snapshot, most frequent
// first, null as JSON null, 500 per field with `truncated`, time travel (§1.7).
#include <cstdio>

#include "server_fixture.h"

namespace hoglake::testing {
namespace {

using S = ServerEnvironment;

struct PvLake {
  std::string name;
  std::string catalog;  // "/v1/catalogs/<name>"
  std::string table;    // ".../namespaces/web/tables/events"
  std::string uuid;
};

// id=1 long, region=2 string.
PvLake NewPvLake() {
  PvLake lake;
  lake.name = NewCatalog();
  lake.catalog = "/v1/catalogs/" + lake.name;
  lake.table = lake.catalog + "/namespaces/web/tables/events";
  EXPECT_EQ(S::Call("POST", lake.catalog + "/namespaces", R"({"name":"web"})").status, 201);
  ApiResponse created = S::Call("POST", lake.catalog + "/namespaces/web/tables",
                                R"({"name":"events","columns":[{"name":"id","type":"long"},)"
                                R"({"name":"region","type":"string"}]})");
  EXPECT_EQ(created.status, 201) << created.body;
  lake.uuid = created.json["table_uuid"].GetString();
  return lake;
}

int64_t HeadOf(const PvLake& lake) {
  return S::Call("GET", lake.catalog).json["head_snapshot_id"].GetInt64();
}

void SetSpec(const PvLake& lake, const std::string& fields) {
  ApiResponse r = S::Call("POST", lake.table + "/alter",
                          R"({"ops":[{"op":"set_partition_spec","fields":[)" + fields + "]}]}");
  ASSERT_EQ(r.status, 200) << r.body;
}

// One file per entry of `values` (each a JSON array text like `["us","1"]`).
void AppendFiles(const PvLake& lake, const std::vector<std::string>& values) {
  static int counter = 0;
  std::string files;
  for (const std::string& v : values) {
    if (!files.empty()) files += ",";
    files += R"({"path":"s3://bucket/)" + lake.name + "/data/f" + std::to_string(++counter) +
             R"(.parquet","record_count":10,"file_size_bytes":4096,"footer_size":512,)" +
             R"("partition_values":)" + v + "}";
  }
  ApiResponse r =
      S::Call("POST", lake.catalog + "/commit",
              R"({"appends":[{"namespace":"web","table":"events","files":[)" + files + "]}]}");
  ASSERT_EQ(r.status, 200) << r.body;
}

ApiResponse Values(const PvLake& lake, const std::string& query = "") {
  return S::Call("GET", lake.table + "/partitions/values" + query);
}

// A field's values as "a,b,<null>,".
std::string ValuesOf(const ApiResponse& r, rapidjson::SizeType field) {
  std::string out;
  for (const auto& v : r.json["fields"][field]["values"].GetArray()) {
    out += (v.IsNull() ? std::string("<null>") : std::string(v.GetString())) + ",";
  }
  return out;
}

TEST(PartitionValuesTest, MostFrequentFirstWithNullsAndTimeTravel) {
  PvLake lake = NewPvLake();
  const int64_t unpartitioned = HeadOf(lake);
  SetSpec(lake, R"({"source_field_id":2,"transform":"identity"},)"
                R"({"source_field_id":1,"transform":"bucket","transform_param":4})");

  // Unpartitioned at that snapshot: 200, no spec_id, no fields.
  ApiResponse before = Values(lake, "?snapshot=" + std::to_string(unpartitioned));
  ASSERT_EQ(before.status, 200) << before.body;
  EXPECT_FALSE(before.json.HasMember("spec_id"));
  EXPECT_EQ(before.json["fields"].Size(), 0u);

  // Partitioned, no files yet: the spec's fields with no values.
  ApiResponse empty = Values(lake);
  ASSERT_EQ(empty.status, 200) << empty.body;
  EXPECT_EQ(empty.json["spec_id"].GetInt64(), 1);
  ASSERT_EQ(empty.json["fields"].Size(), 2u);
  EXPECT_EQ(empty.json["fields"][0]["source_field_id"].GetInt(), 2);
  EXPECT_STREQ(empty.json["fields"][0]["transform"].GetString(), "identity");
  EXPECT_FALSE(empty.json["fields"][0].HasMember("transform_param"));
  EXPECT_STREQ(empty.json["fields"][1]["transform"].GetString(), "bucket");
  EXPECT_EQ(empty.json["fields"][1]["transform_param"].GetInt(), 4);
  EXPECT_EQ(ValuesOf(empty, 0), "");
  EXPECT_FALSE(empty.json["fields"][0]["truncated"].GetBool());

  AppendFiles(lake, {R"(["us","1"])", R"(["us","2"])", R"(["eu","1"])", R"([null,"3"])"});
  const int64_t first = HeadOf(lake);
  ApiResponse a = Values(lake);
  ASSERT_EQ(a.status, 200) << a.body;
  // Ties by value ascending, the null value last.
  EXPECT_EQ(ValuesOf(a, 0), "us,eu,<null>,");
  EXPECT_EQ(ValuesOf(a, 1), "1,2,3,");

  AppendFiles(lake, {R"([null,"3"])", R"([null,"3"])", R"(["ap","0"])"});
  const int64_t second = HeadOf(lake);
  ApiResponse b = Values(lake);
  ASSERT_EQ(b.status, 200) << b.body;
  EXPECT_EQ(ValuesOf(b, 0), "<null>,us,ap,eu,");
  EXPECT_EQ(ValuesOf(b, 1), "3,1,0,2,");
  EXPECT_TRUE(b.json["fields"][0]["values"][0].IsNull());
  EXPECT_FALSE(b.json["fields"][1]["truncated"].GetBool());

  // Time travel shows the older set.
  EXPECT_EQ(ValuesOf(Values(lake, "?snapshot=" + std::to_string(first)), 0), "us,eu,<null>,");
  EXPECT_EQ(ValuesOf(Values(lake, "?at_timestamp=2999-01-01T00:00:00Z"), 0), "<null>,us,ap,eu,");

  // A new spec: files written under the old one do not count.
  SetSpec(lake, R"({"source_field_id":1,"transform":"identity"})");
  ApiResponse respec = Values(lake);
  ASSERT_EQ(respec.status, 200) << respec.body;
  EXPECT_EQ(respec.json["spec_id"].GetInt64(), 2);
  ASSERT_EQ(respec.json["fields"].Size(), 1u);
  EXPECT_EQ(ValuesOf(respec, 0), "");
  AppendFiles(lake, {R"(["7"])", R"(["8"])", R"(["8"])"});
  const int64_t third = HeadOf(lake);
  EXPECT_EQ(ValuesOf(Values(lake), 0), "8,7,");

  // Files ended by a truncate are excluded; earlier snapshots still see them.
  ApiResponse truncated =
      S::Call("POST", lake.table + "/truncate?expected_table_uuid=" + lake.uuid);
  ASSERT_EQ(truncated.status, 200) << truncated.body;
  ApiResponse after = Values(lake);
  ASSERT_EQ(after.status, 200) << after.body;
  EXPECT_EQ(after.json["spec_id"].GetInt64(), 2);
  EXPECT_EQ(ValuesOf(after, 0), "");
  EXPECT_EQ(ValuesOf(Values(lake, "?snapshot=" + std::to_string(third)), 0), "8,7,");
  ApiResponse old = Values(lake, "?snapshot=" + std::to_string(second));
  EXPECT_EQ(old.json["spec_id"].GetInt64(), 1);
  EXPECT_EQ(ValuesOf(old, 1), "3,1,0,2,");
}

TEST(PartitionValuesTest, CapsAt500DistinctValuesPerField) {
  PvLake lake = NewPvLake();
  SetSpec(lake, R"({"source_field_id":2,"transform":"identity"},)"
                R"({"source_field_id":1,"transform":"bucket","transform_param":2})");
  std::vector<std::string> values;
  for (int i = 0; i <= 500; ++i) {  // 501 distinct regions
    char name[8];
    std::snprintf(name, sizeof(name), "v%03d", i);
    values.push_back(std::string(R"([")") + name + R"(","0"])");
  }
  values.push_back(R"(["v400","1"])");  // the most frequent region
  AppendFiles(lake, values);
  ApiResponse r = Values(lake);
  ASSERT_EQ(r.status, 200) << r.body;
  const auto& region = r.json["fields"][0];
  ASSERT_EQ(region["values"].Size(), 500u);
  EXPECT_TRUE(region["truncated"].GetBool());
  EXPECT_STREQ(region["values"][0].GetString(), "v400");
  EXPECT_STREQ(region["values"][1].GetString(), "v000");
  EXPECT_STREQ(region["values"][499].GetString(), "v499");  // v500 is cut
  EXPECT_EQ(ValuesOf(r, 1), "0,1,");
  EXPECT_FALSE(r.json["fields"][1]["truncated"].GetBool());
}

TEST(PartitionValuesTest, UnknownTablesAndTimeTravelErrors) {
  PvLake lake = NewPvLake();
  EXPECT_EQ(S::Call("GET", lake.catalog + "/namespaces/web/tables/nope/partitions/values").status,
            404);
  EXPECT_EQ(S::Call("GET",
                    "/v1/catalogs/nocatalog/namespaces/web/tables/events/"
                    "partitions/values")
                .status,
            404);
  // Not yet created at snapshot 1 (the namespace's).
  EXPECT_EQ(Values(lake, "?snapshot=1").status, 404);
  EXPECT_EQ(Values(lake, "?snapshot=1&at_timestamp=2030-01-01T00:00:00Z").status, 422);
  EXPECT_EQ(Values(lake, "?snapshot=" + std::to_string(HeadOf(lake) + 1)).status, 422);
  EXPECT_EQ(Values(lake, "?snapshot=-1").status, 422);
  ApiResponse expired = Values(lake, "?at_timestamp=2000-01-01T00:00:00Z");
  EXPECT_EQ(expired.status, 410) << expired.body;
  EXPECT_EQ(Values(lake, "?snapshot=abc").status, 400);
  // Unpartitioned at head: 200 with no fields.
  ApiResponse plain = Values(lake);
  ASSERT_EQ(plain.status, 200) << plain.body;
  EXPECT_FALSE(plain.json.HasMember("spec_id"));
  EXPECT_EQ(plain.json["fields"].Size(), 0u);
}

}  // namespace
}  // namespace hoglake::testing
