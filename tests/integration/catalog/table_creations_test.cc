// Atomic table creation over HTTP (contract §2.10): prepare variants, status,
// publish (one snapshot holding table + files + receipt), replay, abort,
// durable rejections and upload claims owned by the operation.
#include <cstdio>
#include <set>

#include "invariants.h"
#include "server_fixture.h"

namespace hoglake::testing {
namespace {

using S = ServerEnvironment;

constexpr const char* kColumns =
    R"("columns":[{"name":"id","type":"long","nullable":false},)"
    R"({"name":"ts","type":"timestamp"},)"
    R"({"name":"addr","type":"struct","children":[{"name":"city","type":"string"}]}])";

struct CreationLake {
  std::string catalog;  // "/v1/catalogs/<name>"
  std::string ops;      // catalog + "/table-creations/"
};

CreationLake NewCreationLake() {
  CreationLake lake;
  lake.catalog = "/v1/catalogs/" + NewCatalog();
  lake.ops = lake.catalog + "/table-creations/";
  EXPECT_EQ(S::Call("POST", lake.catalog + "/namespaces", R"({"name":"web"})").status, 201);
  return lake;
}

std::string OpId(int n) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "0c000000-0000-4000-8000-%012d", n);
  return buf;
}

std::string Body(const std::string& name, const std::string& extra = "") {
  return R"({"namespace":"web","name":")" + name + R"(",)" + kColumns + extra + "}";
}

ApiResponse Prepare(const CreationLake& lake, const std::string& op, const std::string& body,
                    const std::string& suffix = "") {
  return S::Call("PUT", lake.ops + op + suffix, body);
}

std::string File(const std::string& path, int64_t records, const std::string& extra = "") {
  return R"({"path":")" + path + R"(","record_count":)" + std::to_string(records) +
         R"(,"file_size_bytes":1000,"footer_size":100)" + extra + "}";
}

ApiResponse Publish(const CreationLake& lake, const std::string& op, const std::string& files,
                    const std::string& suffix = "/commit") {
  return S::Call("POST", lake.ops + op + suffix, R"({"files":[)" + files + "]}");
}

int64_t Head(const CreationLake& lake) {
  return S::Call("GET", lake.catalog).json["head_snapshot_id"].GetInt64();
}

std::string State(const ApiResponse& r) {
  EXPECT_EQ(r.status, 200) << r.body;
  return r.json.IsObject() && r.json.HasMember("state") ? r.json["state"].GetString() : "";
}

std::string Reason(const ApiResponse& r) {
  return r.json.IsObject() && r.json.HasMember("reason") ? r.json["reason"].GetString() : "";
}

TEST(TableCreationTest, PreparePlainReturnsPromisedShape) {
  CreationLake lake = NewCreationLake();
  const int64_t head = Head(lake);
  ApiResponse r = Prepare(lake, OpId(1), Body("events"));
  ASSERT_EQ(r.status, 200) << r.body;
  const auto& op = r.json;
  EXPECT_STREQ(op["operation_id"].GetString(), OpId(1).c_str());
  EXPECT_EQ(std::string(op["table_uuid"].GetString()).size(), 36u);
  EXPECT_STREQ(op["namespace"].GetString(), "web");
  EXPECT_STREQ(op["name"].GetString(), "events");
  EXPECT_STREQ(op["state"].GetString(), "prepared");
  EXPECT_TRUE(op.HasMember("expires_at"));
  EXPECT_FALSE(op.HasMember("snapshot_id"));
  EXPECT_FALSE(op.HasMember("schema_version"));
  EXPECT_FALSE(op.HasMember("reason"));
  const std::string write_path = op["write_path"].GetString();
  const std::string data = "s3://bucket/" + lake.catalog.substr(13) + "/data/";
  EXPECT_EQ(write_path.rfind(data, 0), 0u) << write_path;
  EXPECT_EQ(write_path.back(), '/');
  EXPECT_EQ(write_path.size(), data.size() + 37);
  // Field ids promised depth-first: id 1, ts 2, addr 3 (city 4).
  const auto& cols = op["columns"];
  ASSERT_EQ(cols.Size(), 3u);
  EXPECT_EQ(cols[0]["field_id"].GetInt(), 1);
  EXPECT_FALSE(cols[0]["nullable"].GetBool());
  EXPECT_EQ(cols[1]["field_id"].GetInt(), 2);
  EXPECT_EQ(cols[2]["field_id"].GetInt(), 3);
  EXPECT_EQ(cols[2]["children"][0]["field_id"].GetInt(), 4);

  // Nothing is visible and nothing is reserved before publish.
  EXPECT_EQ(Head(lake), head);
  EXPECT_EQ(S::Call("GET", lake.catalog + "/namespaces/web/tables/events").status, 404);
  ApiResponse status = S::Call("GET", lake.ops + OpId(1));
  ASSERT_EQ(status.status, 200) << status.body;
  EXPECT_EQ(status.body, r.body);
}

TEST(TableCreationTest, PrepareVariantsAcceptTheirOwnFields) {
  CreationLake lake = NewCreationLake();
  ApiResponse partitioned = Prepare(
      lake, OpId(1), Body("p", R"(,"partition_fields":[{"source_field_id":2,"transform":"day"}])"),
      "/partitioned");
  EXPECT_EQ(State(partitioned), "prepared");
  ApiResponse sorted = Prepare(
      lake, OpId(2),
      Body(
          "s",
          R"(,"partition_fields":[{"source_field_id":1,"transform":"bucket","transform_param":8}],)"
          R"("sort_fields":[{"source_field_id":2,"direction":"desc","null_order":"nulls_last"}])"),
      "/sorted");
  EXPECT_EQ(State(sorted), "prepared");
  ApiResponse metadata = Prepare(
      lake, OpId(3),
      R"({"namespace":"web","name":"m","columns":[{"name":"id","type":"long","comment":"key"}],)"
      R"("comment":"events table","properties":{"owner":"web-team"}})",
      "/metadata");
  EXPECT_EQ(State(metadata), "prepared");
  EXPECT_STREQ(metadata.json["columns"][0]["comment"].GetString(), "key");
}

TEST(TableCreationTest, FieldsOnTheWrongEndpointAre422) {
  CreationLake lake = NewCreationLake();
  const std::string partition = R"(,"partition_fields":[{"source_field_id":2,"transform":"day"}])";
  const std::string sort =
      R"(,"sort_fields":[{"source_field_id":1,"direction":"asc","null_order":"nulls_first"}])";
  struct Case {
    std::string suffix, body;
  };
  const std::vector<Case> cases = {
      {"", Body("t", partition)},
      {"", Body("t", sort)},
      {"", Body("t", R"(,"comment":"c")")},
      {"", Body("t", R"(,"properties":{"a":"b"})")},
      {"",
       R"({"namespace":"web","name":"t","columns":[{"name":"id","type":"long","comment":"c"}]})"},
      {"/partitioned", Body("t", partition + sort)},
      {"/partitioned", Body("t", partition + R"(,"comment":"c")")},
      {"/partitioned", Body("t")},
      {"/sorted", Body("t", partition)},
      {"/metadata", Body("t", partition)},
      {"/metadata", Body("t", sort)},
  };
  for (const Case& c : cases) {
    ApiResponse r = Prepare(lake, OpId(1), c.body, c.suffix);
    EXPECT_EQ(r.status, 422) << c.suffix << " " << c.body << " -> " << r.body;
    EXPECT_EQ(r.error(), "validation");
  }
  EXPECT_NE(Prepare(lake, OpId(1), Body("t", partition)).body.find("dedicated preparation"),
            std::string::npos);
  EXPECT_EQ(S::Call("GET", lake.ops + OpId(1)).status, 404);  // nothing was written
}

TEST(TableCreationTest, PrepareErrors) {
  CreationLake lake = NewCreationLake();
  ApiResponse bad_uuid = Prepare(lake, "not-a-uuid", Body("t"));
  EXPECT_EQ(bad_uuid.status, 400) << bad_uuid.body;
  EXPECT_NE(bad_uuid.body.find("invalid operation UUID"), std::string::npos);
  EXPECT_EQ(S::Call("GET", lake.ops + "nope").status, 400);
  EXPECT_EQ(S::Call("POST", lake.ops + "nope/abort").status, 400);
  EXPECT_EQ(S::Call("POST", lake.ops + "nope/commit", R"({"files":[]})").status, 400);

  ApiResponse unknown_field = Prepare(lake, OpId(1), Body("t", R"(,"bogus":1)"));
  EXPECT_EQ(unknown_field.status, 400) << unknown_field.body;
  ApiResponse no_ns =
      Prepare(lake, OpId(1), R"({"namespace":"nope","name":"t",)" + std::string(kColumns) + "}");
  EXPECT_EQ(no_ns.status, 404) << no_ns.body;
  EXPECT_EQ(Prepare(lake, OpId(1), Body("bad name")).status, 422);
  EXPECT_EQ(Prepare(lake, OpId(1), R"({"namespace":"web","name":"t","columns":[]})").status, 422);
  EXPECT_EQ(Prepare(lake, OpId(1),
                    R"({"namespace":"web","name":"t","columns":[{"name":"a","type":"nope"}]})")
                .status,
            422);
  EXPECT_EQ(Prepare(lake, OpId(1),
                    Body("t", R"(,"partition_fields":[{"source_field_id":99,"transform":"day"}])"),
                    "/partitioned")
                .status,
            422);
  EXPECT_EQ(S::Call("GET", lake.ops + OpId(1)).status, 404);
  EXPECT_EQ(S::Call("GET", "/v1/catalogs/nope/table-creations/" + OpId(1)).status, 404);

  // Identical re-prepare returns the stored operation; another definition is 409.
  ApiResponse first = Prepare(lake, OpId(2), Body("t"));
  ASSERT_EQ(first.status, 200) << first.body;
  ApiResponse again = Prepare(lake, OpId(2), Body("t"));
  ASSERT_EQ(again.status, 200) << again.body;
  EXPECT_EQ(again.body, first.body);
  ApiResponse other = Prepare(lake, OpId(2), Body("u"));
  EXPECT_EQ(other.status, 409) << other.body;
  EXPECT_EQ(other.error(), "commit_conflict");
}

TEST(TableCreationTest, ReplacementGuardsAtPrepare) {
  CreationLake lake = NewCreationLake();
  const std::string absent = R"(,"replacement":{"expected_table_uuid":null,"read_snapshot":)" +
                             std::to_string(Head(lake)) + "}";
  EXPECT_EQ(State(Prepare(lake, OpId(1), Body("t", absent))), "prepared");
  const std::string future = R"(,"replacement":{"expected_table_uuid":null,"read_snapshot":999})";
  ApiResponse not_retained = Prepare(lake, OpId(2), Body("t", future));
  EXPECT_EQ(not_retained.status, 409) << not_retained.body;
  const std::string wrong = R"(,"replacement":{"expected_table_uuid":")" + OpId(9) +
                            R"(","read_snapshot":)" + std::to_string(Head(lake)) + "}";
  ApiResponse mismatch = Prepare(lake, OpId(3), Body("t", wrong));
  EXPECT_EQ(mismatch.status, 409) << mismatch.body;
}

TEST(TableCreationTest, PublishCreatesTableAndFilesInOneSnapshot) {
  CreationLake lake = NewCreationLake();
  ApiResponse prepared = Prepare(lake, OpId(1), Body("events"));
  ASSERT_EQ(prepared.status, 200) << prepared.body;
  const std::string wp = prepared.json["write_path"].GetString();
  const int64_t head = Head(lake);
  const std::string files =
      File(wp + "a.parquet", 10) + "," +
      File(wp + "b.parquet", 5,
           R"(,"column_stats":[{"field_id":1,"value_count":5,"null_count":0}])");
  ApiResponse published = Publish(lake, OpId(1), files);
  ASSERT_EQ(published.status, 200) << published.body;
  EXPECT_STREQ(published.json["state"].GetString(), "committed");
  EXPECT_EQ(published.json["snapshot_id"].GetInt64(), head + 1);
  EXPECT_TRUE(published.json.HasMember("schema_version"));
  EXPECT_FALSE(published.json.HasMember("reason"));
  EXPECT_EQ(Head(lake), head + 1);

  ApiResponse snapshots = S::Call("GET", lake.catalog + "/snapshots?after=" + std::to_string(head));
  ASSERT_EQ(snapshots.status, 200) << snapshots.body;
  ASSERT_EQ(snapshots.json["snapshots"].Size(), 1u);
  std::set<std::string> kinds;
  for (const auto& c : snapshots.json["snapshots"][0]["changes"].GetArray()) {
    kinds.insert(c["kind"].GetString());
  }
  EXPECT_EQ(kinds, (std::set<std::string>{"table_created", "table_inserted_into"}));

  const std::string t = lake.catalog + "/namespaces/web/tables/events";
  ApiResponse table = S::Call("GET", t);
  ASSERT_EQ(table.status, 200) << table.body;
  EXPECT_STREQ(table.json["table_uuid"].GetString(), prepared.json["table_uuid"].GetString());
  EXPECT_EQ(table.json["columns"][2]["children"][0]["field_id"].GetInt(), 4);
  ApiResponse listed = S::Call("GET", t + "/files?sort=path");
  ASSERT_EQ(listed.status, 200) << listed.body;
  ASSERT_EQ(listed.json.Size(), 2u);
  EXPECT_EQ(std::string(listed.json[0]["path"].GetString()), wp + "a.parquet");
  EXPECT_EQ(listed.json[0]["row_id_start"].GetInt64(), 0);
  EXPECT_EQ(listed.json[0]["footer_size"].GetInt64(), 100);
  EXPECT_STREQ(listed.json[0]["stats_state"].GetString(), "pending");
  EXPECT_EQ(listed.json[1]["row_id_start"].GetInt64(), 10);
  EXPECT_STREQ(listed.json[1]["stats_state"].GetString(), "provided");
  EXPECT_EQ(listed.json[1]["begin_snapshot"].GetInt64(), head + 1);
  PgSession pg(TestPgConninfo("hoglake"));
  ExpectLiveTotalsKept(pg, lake.catalog.substr(std::string("/v1/catalogs/").size()));

  // Replay: the same list returns the stored receipt; another list is 409.
  ApiResponse replay = Publish(lake, OpId(1), files);
  ASSERT_EQ(replay.status, 200) << replay.body;
  EXPECT_EQ(replay.body, published.body);
  EXPECT_EQ(Head(lake), head + 1);
  ApiResponse reordered =
      Publish(lake, OpId(1),
              File(wp + "b.parquet", 5,
                   R"(,"column_stats":[{"field_id":1,"value_count":5,"null_count":0}])") +
                  "," + File(wp + "a.parquet", 10));
  EXPECT_EQ(reordered.status, 409) << reordered.body;
  EXPECT_EQ(Publish(lake, OpId(1), "").status, 409);
  // Abort of a committed operation returns it unchanged.
  EXPECT_EQ(State(S::Call("POST", lake.ops + OpId(1) + "/abort")), "committed");
}

TEST(TableCreationTest, PartitionedPublishRegistersPartitionValues) {
  CreationLake lake = NewCreationLake();
  ApiResponse prepared = Prepare(
      lake, OpId(1),
      Body("p",
           R"(,"partition_fields":[{"source_field_id":2,"transform":"day"}],)"
           R"("sort_fields":[{"source_field_id":1,"direction":"asc","null_order":"nulls_first"}])"),
      "/sorted");
  ASSERT_EQ(prepared.status, 200) << prepared.body;
  const std::string wp = prepared.json["write_path"].GetString();
  ApiResponse missing = Publish(lake, OpId(1), File(wp + "a.parquet", 1));
  EXPECT_EQ(missing.status, 422) << missing.body;
  ApiResponse published =
      Publish(lake, OpId(1), File(wp + "a.parquet", 1, R"(,"partition_values":["2026-01-02"])"));
  EXPECT_EQ(State(published), "committed");
  ApiResponse table = S::Call("GET", lake.catalog + "/namespaces/web/tables/p");
  ASSERT_EQ(table.status, 200) << table.body;
  EXPECT_STREQ(table.json["partition_spec"]["fields"][0]["transform"].GetString(), "day");
  EXPECT_STREQ(table.json["sort_spec"]["fields"][0]["direction"].GetString(), "asc");
}

TEST(TableCreationTest, MetadataPublishKeepsCommentAndProperties) {
  CreationLake lake = NewCreationLake();
  ApiResponse prepared = Prepare(
      lake, OpId(1),
      R"({"namespace":"web","name":"m","columns":[{"name":"id","type":"long","comment":"key"}],)"
      R"("comment":"events table","properties":{"owner":"web-team"}})",
      "/metadata");
  ASSERT_EQ(prepared.status, 200) << prepared.body;
  EXPECT_EQ(State(Publish(lake, OpId(1), "")), "committed");
  ApiResponse table = S::Call("GET", lake.catalog + "/namespaces/web/tables/m");
  ASSERT_EQ(table.status, 200) << table.body;
  EXPECT_STREQ(table.json["comment"].GetString(), "events table");
  EXPECT_STREQ(table.json["properties"]["owner"].GetString(), "web-team");
  EXPECT_STREQ(table.json["columns"][0]["comment"].GetString(), "key");
}

TEST(TableCreationTest, EmptyPublishCreatesEmptyTable) {
  CreationLake lake = NewCreationLake();
  ASSERT_EQ(Prepare(lake, OpId(1), Body("empty")).status, 200);
  const int64_t head = Head(lake);
  ApiResponse published = Publish(lake, OpId(1), "");
  EXPECT_EQ(State(published), "committed");
  EXPECT_EQ(Head(lake), head + 1);
  const std::string t = lake.catalog + "/namespaces/web/tables/empty";
  ApiResponse table = S::Call("GET", t);
  ASSERT_EQ(table.status, 200) << table.body;
  ApiResponse files = S::Call("GET", t + "/files");
  ASSERT_EQ(files.status, 200) << files.body;
  EXPECT_EQ(files.json.Size(), 0u);
}

TEST(TableCreationTest, PublishRulesAre422AndWriteNothing) {
  CreationLake lake = NewCreationLake();
  ApiResponse prepared = Prepare(lake, OpId(1), Body("events"));
  ASSERT_EQ(prepared.status, 200) << prepared.body;
  const std::string wp = prepared.json["write_path"].GetString();
  const int64_t head = Head(lake);
  struct Case {
    std::string files, expect;
  };
  const std::string outside = "s3://bucket/" + lake.catalog.substr(13) + "/data/x.parquet";
  const std::vector<Case> cases = {
      {File(wp + "a.parquet", 1) + "," + File(wp + "a.parquet", 1), "duplicate file paths"},
      {File(outside, 1), "file outside operation write_path"},
      {R"({"path":")" + wp + R"(a.parquet","record_count":1,"file_size_bytes":100})",
       "footer_size"},
      {R"({"path":")" + wp +
           R"(a.parquet","record_count":1,"file_size_bytes":100,"footer_size":95})",
       "invalid footer_size"},
      {File(wp + "a.parquet", 1, R"(,"partition_values":["x"])"), "not partitioned"},
      {File(wp + "a.parquet", 1,
            R"(,"column_stats":[{"field_id":42,"value_count":1,"null_count":0}])"),
       "field_id 42"},
  };
  for (const Case& c : cases) {
    ApiResponse r = Publish(lake, OpId(1), c.files);
    EXPECT_EQ(r.status, 422) << c.files << " -> " << r.body;
    EXPECT_NE(r.body.find(c.expect), std::string::npos) << r.body;
  }
  std::string many;
  for (int i = 0; i <= 10000; ++i) {
    if (i) many += ',';
    many += File(wp + "f" + std::to_string(i) + ".parquet", 1);
  }
  ApiResponse too_many = Publish(lake, OpId(1), many);
  EXPECT_EQ(too_many.status, 422);
  EXPECT_NE(too_many.body.find("too many files"), std::string::npos) << too_many.body;
  EXPECT_EQ(Head(lake), head);
  EXPECT_EQ(State(S::Call("GET", lake.ops + OpId(1))), "prepared");
  ApiResponse unknown = Publish(lake, OpId(2), "");
  EXPECT_EQ(unknown.status, 404) << unknown.body;
}

TEST(TableCreationTest, AbortFencesPublish) {
  CreationLake lake = NewCreationLake();
  ApiResponse prepared = Prepare(lake, OpId(1), Body("events"));
  ASSERT_EQ(prepared.status, 200);
  const std::string wp = prepared.json["write_path"].GetString();
  ApiResponse aborted = S::Call("POST", lake.ops + OpId(1) + "/abort");
  EXPECT_EQ(State(aborted), "aborted");
  EXPECT_EQ(Reason(aborted), "client_abort");
  const int64_t head = Head(lake);
  ApiResponse publish = Publish(lake, OpId(1), File(wp + "a.parquet", 1));
  EXPECT_EQ(State(publish), "aborted");
  EXPECT_EQ(Reason(publish), "client_abort");
  EXPECT_EQ(Head(lake), head);
  EXPECT_EQ(S::Call("GET", lake.catalog + "/namespaces/web/tables/events").status, 404);
  EXPECT_EQ(State(S::Call("POST", lake.ops + OpId(1) + "/abort")), "aborted");
  EXPECT_EQ(S::Call("POST", lake.ops + OpId(2) + "/abort").status, 404);
}

TEST(TableCreationTest, TargetExistsIsADurableRejection) {
  CreationLake lake = NewCreationLake();
  ApiResponse prepared = Prepare(lake, OpId(1), Body("events"));
  ASSERT_EQ(prepared.status, 200);
  const std::string wp = prepared.json["write_path"].GetString();
  // The name is not reserved: a plain create takes it meanwhile.
  ASSERT_EQ(S::Call("POST", lake.catalog + "/namespaces/web/tables",
                    R"({"name":"events","columns":[{"name":"x","type":"int"}]})")
                .status,
            201);
  const int64_t head = Head(lake);
  const std::string files = File(wp + "a.parquet", 1);
  ApiResponse rejected = Publish(lake, OpId(1), files);
  EXPECT_EQ(State(rejected), "rejected");
  EXPECT_EQ(Reason(rejected), "target_exists");
  EXPECT_FALSE(rejected.json.HasMember("snapshot_id"));
  EXPECT_EQ(Head(lake), head);
  EXPECT_EQ(State(S::Call("GET", lake.ops + OpId(1))), "rejected");
  ApiResponse replay = Publish(lake, OpId(1), files);
  EXPECT_EQ(replay.body, rejected.body);
  EXPECT_EQ(Publish(lake, OpId(1), "").status, 409);
}

TEST(TableCreationTest, NamespaceChangedIsADurableRejection) {
  CreationLake lake = NewCreationLake();
  ASSERT_EQ(Prepare(lake, OpId(1), Body("events")).status, 200);
  ASSERT_EQ(S::Call("DELETE", lake.catalog + "/namespaces/web").status, 200);
  ASSERT_EQ(S::Call("POST", lake.catalog + "/namespaces", R"({"name":"web"})").status, 201);
  ApiResponse rejected = Publish(lake, OpId(1), "");
  EXPECT_EQ(State(rejected), "rejected");
  EXPECT_EQ(Reason(rejected), "namespace_changed");
}

TEST(TableCreationTest, ReplacementSwapsIncarnationsInOneSnapshot) {
  CreationLake lake = NewCreationLake();
  const std::string tables = lake.catalog + "/namespaces/web/tables";
  ApiResponse old_table =
      S::Call("POST", tables, R"({"name":"events","columns":[{"name":"x","type":"int"}]})");
  ASSERT_EQ(old_table.status, 201);
  const std::string old_uuid = old_table.json["table_uuid"].GetString();
  const std::string replacement = R"(,"replacement":{"expected_table_uuid":")" + old_uuid +
                                  R"(","read_snapshot":)" + std::to_string(Head(lake)) + "}";
  ApiResponse prepared = Prepare(lake, OpId(1), Body("events", replacement));
  ASSERT_EQ(prepared.status, 200) << prepared.body;
  const int64_t head = Head(lake);
  ApiResponse published = Publish(lake, OpId(1), "");
  EXPECT_EQ(State(published), "committed");
  EXPECT_EQ(Head(lake), head + 1);
  ApiResponse now = S::Call("GET", tables + "/events");
  ASSERT_EQ(now.status, 200);
  EXPECT_STREQ(now.json["table_uuid"].GetString(), prepared.json["table_uuid"].GetString());
  ApiResponse before = S::Call("GET", tables + "/events?snapshot=" + std::to_string(head));
  ASSERT_EQ(before.status, 200);
  EXPECT_EQ(std::string(before.json["table_uuid"].GetString()), old_uuid);

  // A replacement whose target changed since its read snapshot is refused.
  const std::string stale = R"(,"replacement":{"expected_table_uuid":")" +
                            std::string(prepared.json["table_uuid"].GetString()) +
                            R"(","read_snapshot":)" + std::to_string(Head(lake)) + "}";
  ASSERT_EQ(Prepare(lake, OpId(2), Body("events", stale)).status, 200);
  ASSERT_EQ(S::Call("POST", tables + "/events/alter",
                    R"({"ops":[{"op":"set_table_comment","comment":"changed"}]})")
                .status,
            200);
  ApiResponse changed = Publish(lake, OpId(2), "");
  EXPECT_EQ(State(changed), "rejected");
  EXPECT_EQ(Reason(changed), "target_changed");
}

TEST(TableCreationTest, PublishUploadsRequiresClaimsOwnedByTheOperation) {
  CreationLake lake = NewCreationLake();
  ApiResponse prepared = Prepare(lake, OpId(1), Body("events"));
  ASSERT_EQ(prepared.status, 200);
  std::string wp = prepared.json["write_path"].GetString();
  const std::string prefix = wp.substr(0, wp.size() - 1);
  auto claim = [&](const std::string& upload, const std::string& owner) {
    ApiResponse r =
        S::Call("PUT", lake.catalog + "/uploads/" + upload,
                R"({"owner":")" + owner + R"(","prefix":")" + prefix + R"(","file_kind":"data"})");
    EXPECT_EQ(r.status, 200) << r.body;
    return std::string(r.json["path"].GetString());
  };
  const std::string foreign = claim("0d000000-0000-4000-8000-000000000001", OpId(99));
  ApiResponse refused = Publish(lake, OpId(1), File(foreign, 1), "/commit/uploads");
  EXPECT_EQ(refused.status, 409) << refused.body;
  EXPECT_EQ(State(S::Call("GET", lake.ops + OpId(1))), "prepared");
  ApiResponse unclaimed = Publish(lake, OpId(1), File(wp + "x.parquet", 1), "/commit/uploads");
  EXPECT_EQ(unclaimed.status, 422) << unclaimed.body;

  const std::string own = claim("0d000000-0000-4000-8000-000000000002", OpId(1));
  ApiResponse published = Publish(lake, OpId(1), File(own, 3), "/commit/uploads");
  EXPECT_EQ(State(published), "committed");
  // The claim is now registered: its owner can no longer abandon it.
  ApiResponse abandon = S::Call("POST", lake.catalog + "/uploads/abandon",
                                R"({"owner":")" + OpId(1) + R"(","paths":[")" + own + R"("]})");
  ASSERT_EQ(abandon.status, 200) << abandon.body;
  EXPECT_EQ(abandon.json["abandoned"].GetInt64(), 0);
  ApiResponse again =
      S::Call("PUT", lake.catalog + "/uploads/0d000000-0000-4000-8000-000000000002",
              R"({"owner":")" + OpId(1) + R"(","prefix":")" + prefix + R"(","file_kind":"data"})");
  ASSERT_EQ(again.status, 200) << again.body;
  EXPECT_STREQ(again.json["state"].GetString(), "registered");
}

}  // namespace
}  // namespace hoglake::testing
