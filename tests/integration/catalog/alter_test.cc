// Table evolution over HTTP: POST …/alter and POST …/truncate (contract
// §2.5, §3.2; server digest §8).
#include "server_fixture.h"

namespace hoglake::testing {
namespace {

using S = ServerEnvironment;

struct Lake {
  std::string name;
  std::string catalog;  // "/v1/catalogs/<name>"
  std::string ns;       // ".../namespaces/web"
  std::string table;    // ".../tables/events"
  std::string uuid;
};

// id=1 long, n=2 int, score=3 float, addr=4 struct{city=5, zip=6}, tags=7 list{element=8},
// ts=9 timestamp.
Lake NewLake() {
  Lake lake;
  lake.name = NewCatalog();
  lake.catalog = "/v1/catalogs/" + lake.name;
  lake.ns = lake.catalog + "/namespaces/web";
  lake.table = lake.ns + "/tables/events";
  EXPECT_EQ(S::Call("POST", lake.catalog + "/namespaces", R"({"name":"web"})").status, 201);
  ApiResponse created = S::Call(
      "POST", lake.ns + "/tables",
      R"({"name":"events","columns":[{"name":"id","type":"long","nullable":false},)"
      R"({"name":"n","type":"int"},{"name":"score","type":"float"},)"
      R"({"name":"addr","type":"struct","children":[{"name":"city","type":"string"},{"name":"zip","type":"int"}]},)"
      R"({"name":"tags","type":"list","children":[{"name":"element","type":"string"}]},)"
      R"({"name":"ts","type":"timestamp"}]})");
  EXPECT_EQ(created.status, 201) << created.body;
  lake.uuid = created.json["table_uuid"].GetString();
  return lake;
}

ApiResponse Alter(const Lake& lake, const std::string& ops, const std::string& query = "") {
  return S::Call("POST", lake.table + "/alter" + query, R"({"ops":[)" + ops + "]}");
}

int64_t Head(const Lake& lake) {
  return S::Call("GET", lake.catalog).json["head_snapshot_id"].GetInt64();
}

int64_t SchemaVersion(const Lake& lake) {
  return S::Call("GET", lake.catalog).json["schema_version"].GetInt64();
}

std::string File(const Lake& lake, const std::string& name, int64_t rows,
                 const std::string& extra = "") {
  return R"({"path":"s3://bucket/)" + lake.name + "/data/" + name + R"(.parquet","record_count":)" +
         std::to_string(rows) + R"(,"file_size_bytes":4096,"footer_size":512)" + extra + "}";
}

ApiResponse Append(const Lake& lake, const std::string& files, const std::string& extra = "") {
  return S::Call(
      "POST", lake.catalog + "/commit",
      R"({"appends":[{"namespace":"web","table":"events","files":[)" + files + "]}]" + extra + "}");
}

// The changes of one snapshot, as "kind,kind,".
std::string ChangesAt(const Lake& lake, int64_t snapshot) {
  ApiResponse page = S::Call(
      "GET", lake.catalog + "/snapshots?after=" + std::to_string(snapshot - 1) + "&limit=1");
  std::string out;
  for (const auto& c : page.json["snapshots"][0]["changes"].GetArray()) {
    out += std::string(c["kind"].GetString()) + ",";
  }
  return out;
}

const rapidjson::Value& Column(const rapidjson::Value& table, size_t i) {
  return table["columns"][static_cast<rapidjson::SizeType>(i)];
}

TEST(AlterTest, AddColumnsAtTopLevelAndInsideStructs) {
  Lake lake = NewLake();
  const int64_t version = SchemaVersion(lake);
  ApiResponse r = Alter(
      lake,
      R"({"op":"add_column","column":{"name":"country","type":"string"},"parent":"addr"},)"
      R"({"op":"add_column","column":{"name":"m","type":"map","children":[)"
      R"({"name":"key","type":"string","nullable":false},{"name":"value","type":"long"}]}},)"
      R"({"op":"add_column_with_metadata","column":{"name":"note","type":"string","comment":"free text"}})");
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.json["snapshot_id"].GetInt64(), 3);
  EXPECT_EQ(r.json["read_snapshot_id"].GetInt64(), 3);
  EXPECT_STREQ(r.json["table_uuid"].GetString(), lake.uuid.c_str());
  EXPECT_EQ(r.json["record_count"].GetInt64(), 0);
  ASSERT_EQ(r.json["columns"].Size(), 8u);
  const auto& country = Column(r.json, 3)["children"][2];
  EXPECT_STREQ(country["name"].GetString(), "country");
  EXPECT_EQ(country["field_id"].GetInt(), 10);
  EXPECT_EQ(country["ordinal"].GetInt(), 2);
  EXPECT_EQ(Column(r.json, 6)["field_id"].GetInt(), 11);
  EXPECT_EQ(Column(r.json, 6)["ordinal"].GetInt(), 6);
  EXPECT_EQ(Column(r.json, 6)["children"][1]["field_id"].GetInt(), 13);
  EXPECT_EQ(Column(r.json, 7)["field_id"].GetInt(), 14);
  EXPECT_STREQ(Column(r.json, 7)["comment"].GetString(), "free text");
  EXPECT_EQ(SchemaVersion(lake), version + 1);
  EXPECT_EQ(ChangesAt(lake, 3), "table_altered,");

  // Reads at head and time travel before the alter.
  ApiResponse now = S::Call("GET", lake.table);
  EXPECT_EQ(now.json["columns"].Size(), 8u);
  EXPECT_FALSE(now.json.HasMember("snapshot_id"));
  EXPECT_EQ(S::Call("GET", lake.table + "?snapshot=2").json["columns"].Size(), 6u);

  // Field ids are never reused: dropping and re-adding allocates anew.
  ApiResponse again = Alter(lake, R"({"op":"drop_column","name":"note"},)"
                                  R"({"op":"add_column","column":{"name":"note","type":"int"}})");
  ASSERT_EQ(again.status, 200) << again.body;
  EXPECT_EQ(Column(again.json, 7)["field_id"].GetInt(), 15);
  EXPECT_EQ(Column(again.json, 7)["ordinal"].GetInt(), 7);
}

TEST(AlterTest, DropRenamePromoteAndComments) {
  Lake lake = NewLake();
  ApiResponse r =
      Alter(lake, R"({"op":"drop_column","name":"addr.city"},)"
                  R"({"op":"rename_column","from":"addr.zip","to":"postcode"},)"
                  R"({"op":"promote_column","name":"addr.postcode","to":"long"},)"
                  R"({"op":"promote_column","name":"score","to":"double"},)"
                  R"({"op":"set_column_comment","name":"addr.postcode","comment":"five digits"},)"
                  R"({"op":"set_table_comment","comment":"all the events"},)"
                  R"({"op":"drop_column","name":"tags"})");
  ASSERT_EQ(r.status, 200) << r.body;
  ASSERT_EQ(r.json["columns"].Size(), 5u);
  const auto& addr = Column(r.json, 3);
  ASSERT_EQ(addr["children"].Size(), 1u);
  EXPECT_STREQ(addr["children"][0]["name"].GetString(), "postcode");
  EXPECT_EQ(addr["children"][0]["field_id"].GetInt(), 6);
  EXPECT_STREQ(addr["children"][0]["type"].GetString(), "long");
  EXPECT_STREQ(addr["children"][0]["comment"].GetString(), "five digits");
  EXPECT_STREQ(Column(r.json, 2)["type"].GetString(), "double");
  EXPECT_STREQ(r.json["comment"].GetString(), "all the events");
  EXPECT_STREQ(Column(r.json, 4)["name"].GetString(), "ts");
  EXPECT_EQ(Column(r.json, 4)["ordinal"].GetInt(), 5);  // ordinals keep their gaps

  ApiResponse cleared = Alter(lake, R"({"op":"set_table_comment","comment":null},)"
                                    R"({"op":"set_column_comment","name":"addr.postcode"})");
  ASSERT_EQ(cleared.status, 200) << cleared.body;
  EXPECT_FALSE(cleared.json.HasMember("comment"));
  EXPECT_FALSE(Column(cleared.json, 3)["children"][0].HasMember("comment"));
  // History keeps the old shape.
  ApiResponse before = S::Call("GET", lake.table + "?snapshot=2");
  EXPECT_STREQ(Column(before.json, 3)["children"][1]["name"].GetString(), "zip");
  EXPECT_STREQ(Column(before.json, 3)["children"][1]["type"].GetString(), "int");
}

TEST(AlterTest, RenameTableKeepsItsIdentity) {
  Lake lake = NewLake();
  ASSERT_EQ(S::Call("POST", lake.ns + "/tables",
                    R"({"name":"other","columns":[{"name":"a","type":"int"}]})")
                .status,
            201);
  ApiResponse clash = Alter(lake, R"({"op":"rename_table","new_name":"other"})");
  EXPECT_EQ(clash.status, 409) << clash.body;
  EXPECT_EQ(clash.error(), "already_exists");
  ApiResponse r = Alter(lake, R"({"op":"rename_table","new_name":"clicks"})",
                        "?expected_table_uuid=" + lake.uuid);
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_STREQ(r.json["name"].GetString(), "clicks");
  EXPECT_STREQ(r.json["table_uuid"].GetString(), lake.uuid.c_str());
  EXPECT_EQ(S::Call("GET", lake.table).status, 404);
  ApiResponse renamed = S::Call("GET", lake.ns + "/tables/clicks");
  ASSERT_EQ(renamed.status, 200);
  EXPECT_STREQ(renamed.json["table_uuid"].GetString(), lake.uuid.c_str());
  EXPECT_EQ(S::Call("GET", lake.table + "?snapshot=3").status, 200);  // the old name, in history
  // The old name is free again.
  EXPECT_EQ(S::Call("POST", lake.ns + "/tables",
                    R"({"name":"events","columns":[{"name":"a","type":"int"}]})")
                .status,
            201);
}

TEST(AlterTest, PartitionSpecAndSortOrder) {
  Lake lake = NewLake();
  ApiResponse r = Alter(
      lake,
      R"({"op":"set_partition_spec","fields":[{"source_field_id":9,"transform":"day"},)"
      R"({"source_field_id":1,"transform":"bucket","transform_param":16}]},)"
      R"({"op":"set_sort_order","sort_fields":[{"source_field_id":6,"direction":"desc","null_order":"nulls_last"}]})");
  ASSERT_EQ(r.status, 200) << r.body;
  const auto& spec = r.json["partition_spec"];
  EXPECT_EQ(spec["spec_id"].GetInt64(), 1);
  ASSERT_EQ(spec["fields"].Size(), 2u);
  EXPECT_STREQ(spec["fields"][0]["transform"].GetString(), "day");
  EXPECT_FALSE(spec["fields"][0].HasMember("transform_param"));
  EXPECT_EQ(spec["fields"][1]["transform_param"].GetInt(), 16);
  EXPECT_EQ(r.json["sort_spec"]["sort_id"].GetInt64(), 1);
  EXPECT_STREQ(r.json["sort_spec"]["fields"][0]["direction"].GetString(), "desc");

  // Appends to a partitioned table need partition values.
  EXPECT_EQ(Append(lake, File(lake, "p", 5)).status, 422);
  ApiResponse ok = Append(lake, File(lake, "p", 5, R"(,"partition_values":["19000","3"])"));
  ASSERT_EQ(ok.status, 200) << ok.body;

  ApiResponse replaced = Alter(
      lake,
      R"({"op":"set_partition_spec","fields":[{"source_field_id":5,"transform":"identity"}]})");
  ASSERT_EQ(replaced.status, 200) << replaced.body;
  EXPECT_EQ(replaced.json["partition_spec"]["spec_id"].GetInt64(), 2);
  EXPECT_EQ(replaced.json["sort_spec"]["sort_id"].GetInt64(), 1);

  ApiResponse cleared = Alter(lake, R"({"op":"set_partition_spec","fields":[]},)"
                                    R"({"op":"set_sort_order","sort_fields":[]})");
  ASSERT_EQ(cleared.status, 200) << cleared.body;
  EXPECT_FALSE(cleared.json.HasMember("partition_spec"));
  EXPECT_FALSE(cleared.json.HasMember("sort_spec"));
  ApiResponse again = Alter(
      lake,
      R"({"op":"set_partition_spec","fields":[{"source_field_id":1,"transform":"identity"}]})");
  EXPECT_EQ(again.json["partition_spec"]["spec_id"].GetInt64(), 3);
  // History shows each spec at its snapshot.
  EXPECT_EQ(S::Call("GET", lake.table + "?snapshot=3").json["partition_spec"]["spec_id"].GetInt64(),
            1);
  EXPECT_FALSE(S::Call("GET", lake.table + "?snapshot=2").json.HasMember("partition_spec"));
}

TEST(AlterTest, SetPropertiesReplacesTheMap) {
  Lake lake = NewLake();
  ApiResponse r =
      Alter(lake, R"({"op":"set_properties","properties":{"owner":"data","tier":"gold"}})");
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_STREQ(r.json["properties"]["owner"].GetString(), "data");
  EXPECT_EQ(r.json["properties"].MemberCount(), 2u);
  ApiResponse replaced = Alter(lake, R"({"op":"set_properties","properties":{"tier":"silver"}})");
  EXPECT_EQ(replaced.json["properties"].MemberCount(), 1u);
  EXPECT_STREQ(replaced.json["properties"]["tier"].GetString(), "silver");
  ApiResponse cleared = Alter(lake, R"({"op":"set_properties","properties":{}})");
  EXPECT_EQ(cleared.json["properties"].MemberCount(), 0u);
  EXPECT_EQ(Alter(lake, R"({"op":"set_properties","properties":{"hoglake.x":"1"}})").status, 422);
  EXPECT_EQ(
      Alter(lake, R"({"op":"set_properties","properties":{"write.format.default":"orc"}})").status,
      422);
}

TEST(AlterTest, LaterOpsSeeEarlierOnesInOneSnapshot) {
  Lake lake = NewLake();
  const int64_t head = Head(lake);
  ApiResponse r = Alter(
      lake,
      R"({"op":"add_column","column":{"name":"extra","type":"int8"}},)"
      R"({"op":"rename_column","from":"extra","to":"bonus"},)"
      R"({"op":"promote_column","name":"bonus","to":"int16"},)"
      R"({"op":"promote_column","name":"bonus","to":"long"},)"
      R"({"op":"set_sort_order","sort_fields":[{"source_field_id":10,"direction":"asc","null_order":"nulls_first"}]})");
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(Head(lake), head + 1);
  EXPECT_EQ(r.json["snapshot_id"].GetInt64(), head + 1);
  EXPECT_STREQ(Column(r.json, 6)["name"].GetString(), "bonus");
  EXPECT_STREQ(Column(r.json, 6)["type"].GetString(), "long");
  EXPECT_EQ(r.json["sort_spec"]["fields"][0]["source_field_id"].GetInt(), 10);
  EXPECT_EQ(ChangesAt(lake, head + 1), "table_altered,");
  // An op that depends on a later one fails: order matters.
  ApiResponse wrong = Alter(lake, R"({"op":"drop_column","name":"gone"},)"
                                  R"({"op":"add_column","column":{"name":"gone","type":"int"}})");
  EXPECT_EQ(wrong.status, 422) << wrong.body;
}

TEST(AlterTest, ParseErrorsAre400) {
  Lake lake = NewLake();
  const int64_t head = Head(lake);
  for (const std::string& body : {
           std::string(R"({"ops":[]})"),
           std::string(R"({})"),
           std::string(R"({"ops":[null]})"),
           std::string(R"({"ops":[{"op":"explode"}]})"),
           std::string(R"({"ops":[{"name":"id"}]})"),
           std::string(R"({"ops":[{"op":"drop_column"}]})"),
           std::string(R"({"ops":[{"op":"rename_column","from":"id"}]})"),
           std::string(R"({"ops":[{"op":"promote_column","name":"n"}]})"),
           std::string(R"({"ops":[{"op":"rename_table"}]})"),
           std::string(R"({"ops":[{"op":"add_column"}]})"),
           std::string(R"({"ops":[{"op":"set_partition_spec"}]})"),
           std::string(R"({"ops":[{"op":"set_sort_order","fields":[]}]})"),
           std::string(R"({"ops":[{"op":"set_properties"}]})"),
           std::string(R"({"ops":[{"op":"drop_column","name":"n","extra":1}]})"),
           std::string(R"({"ops":[{"op":"drop_column","name":"n"}],"extra":true})"),
           std::string(R"({"ops":[{"op":"drop_column","name":7}]})"),
           std::string(R"({"ops":[{"op":"set_properties","properties":{"a":1}}]})"),
           std::string(R"({"ops":[{"op":"set_partition_spec","fields":[{"source_field_id":1}]}]})"),
           // A parse error in a later op wins over a semantic error in an earlier one.
           std::string(R"({"ops":[{"op":"add_column","column":{"name":"x","type":"bogus"}},)"
                       R"({"op":"nope"}]})"),
       }) {
    ApiResponse r = S::Call("POST", lake.table + "/alter", body);
    EXPECT_EQ(r.status, 400) << body << " -> " << r.body;
    EXPECT_EQ(r.error(), "bad_request") << body;
  }
  const std::string drop = R"({"ops":[{"op":"drop_column","name":"n"}]})";
  EXPECT_EQ(S::Call("POST", lake.table + "/alter?expected_table_uuid=nope", drop).status, 400);
  EXPECT_EQ(S::Call("POST", lake.table + "/alter?read_snapshot=abc", drop).status, 400);
  EXPECT_EQ(S::Call("POST", lake.table + "/alter?read_snapshot=99999999999999999999", drop).status,
            400);
  EXPECT_EQ(Head(lake), head);
}

TEST(AlterTest, SemanticErrorsAre422AndWriteNothing) {
  Lake lake = NewLake();
  const int64_t head = Head(lake);
  ApiResponse before = S::Call("GET", lake.table);
  for (
      const std::string& ops : {
          std::string(R"({"op":"drop_column","name":"nope"})"),
          std::string(R"({"op":"drop_column","name":"addr.nope"})"),
          std::string(R"({"op":"drop_column","name":"tags.element"})"),
          std::string(R"({"op":"drop_column","name":"n.x"})"),
          std::string(R"({"op":"promote_column","name":"id","to":"int"})"),
          std::string(R"({"op":"promote_column","name":"addr","to":"long"})"),
          std::string(R"({"op":"promote_column","name":"n","to":"int128"})"),
          std::string(R"({"op":"rename_column","from":"n","to":"score"})"),
          std::string(R"({"op":"rename_column","from":"n","to":"1bad"})"),
          std::string(R"({"op":"add_column","column":{"name":"n","type":"int"}})"),
          std::string(R"({"op":"add_column","column":{"name":"x","type":"bogus"}})"),
          std::string(R"({"op":"add_column","column":{"name":"x","type":"int"},"parent":"tags"})"),
          std::string(R"({"op":"rename_table","new_name":"bad name"})"),
          std::string(
              R"({"op":"set_partition_spec","fields":[{"source_field_id":99,"transform":"identity"}]})"),
          std::string(
              R"({"op":"set_partition_spec","fields":[{"source_field_id":8,"transform":"identity"}]})"),
          std::string(
              R"({"op":"set_partition_spec","fields":[{"source_field_id":1,"transform":"bucket"}]})"),
          std::string(
              R"({"op":"set_partition_spec","fields":[{"source_field_id":3,"transform":"bucket","transform_param":2}]})"),
          std::string(
              R"({"op":"set_partition_spec","fields":[{"source_field_id":1,"transform":"month"}]})"),
          std::string(
              R"({"op":"set_partition_spec","fields":[{"source_field_id":1,"transform":"weird"}]})"),
          std::string(
              R"({"op":"set_sort_order","sort_fields":[{"source_field_id":1,"direction":"up","null_order":"nulls_first"}]})"),
          std::string(
              R"({"op":"set_sort_order","sort_fields":[{"source_field_id":4,"direction":"asc","null_order":"nulls_first"}]})"),
          std::string(R"({"op":"set_table_comment","comment":")" + std::string(16385, 'x') + "\"}"),
      }) {
    ApiResponse r = Alter(lake, ops);
    EXPECT_EQ(r.status, 422) << ops << " -> " << r.body;
    EXPECT_EQ(r.error(), "validation") << ops;
  }
  // A failing op after successful ones refuses the whole request.
  ApiResponse partial = Alter(lake, R"({"op":"add_column","column":{"name":"x","type":"int"}},)"
                                    R"({"op":"rename_table","new_name":"renamed"},)"
                                    R"({"op":"drop_column","name":"nope"})");
  EXPECT_EQ(partial.status, 422);
  EXPECT_NE(partial.body.find("ops[2]"), std::string::npos) << partial.body;
  EXPECT_EQ(Head(lake), head);
  EXPECT_EQ(S::Call("GET", lake.table).body, before.body);
  // Dropping the last column.
  ASSERT_EQ(S::Call("POST", lake.ns + "/tables",
                    R"({"name":"one","columns":[{"name":"a","type":"int"}]})")
                .status,
            201);
  EXPECT_EQ(
      S::Call("POST", lake.ns + "/tables/one/alter", R"({"ops":[{"op":"drop_column","name":"a"}]})")
          .status,
      422);
  // Partition and sort sources cannot be dropped.
  ASSERT_EQ(
      Alter(
          lake,
          R"({"op":"set_partition_spec","fields":[{"source_field_id":6,"transform":"identity"}]})")
          .status,
      200);
  EXPECT_EQ(Alter(lake, R"({"op":"drop_column","name":"addr"})").status, 422);
  EXPECT_EQ(Alter(lake, R"({"op":"drop_column","name":"addr.zip"})").status, 422);
}

TEST(AlterTest, NotFoundAndIncarnationGuard) {
  Lake lake = NewLake();
  const std::string drop = R"({"op":"drop_column","name":"n"})";
  EXPECT_EQ(S::Call("POST", lake.ns + "/tables/nope/alter", R"({"ops":[)" + drop + "]}").status,
            404);
  EXPECT_EQ(S::Call("POST", lake.catalog + "/namespaces/nope/tables/events/alter",
                    R"({"ops":[)" + drop + "]}")
                .status,
            404);
  ApiResponse mismatch =
      Alter(lake, drop, "?expected_table_uuid=00000000-0000-4000-8000-000000000000");
  EXPECT_EQ(mismatch.status, 409) << mismatch.body;
  EXPECT_EQ(mismatch.error(), "commit_conflict");
  EXPECT_EQ(Alter(lake, drop, "?expected_table_uuid=" + lake.uuid).status, 200);
}

TEST(AlterTest, ReadSnapshotWindowAndDdlConflicts) {
  Lake lake = NewLake();
  const int64_t created = Head(lake);
  const std::string add = R"({"op":"add_column","column":{"name":"a1","type":"int"}})";
  EXPECT_EQ(Alter(lake, add, "?read_snapshot=-1").status, 422);
  EXPECT_EQ(Alter(lake, add, "?read_snapshot=" + std::to_string(created + 1)).status, 422);
  // Appends and DDL on other tables do not conflict.
  ASSERT_EQ(Append(lake, File(lake, "a", 10, R"(,"column_stats":[])")).status, 200);
  ASSERT_EQ(S::Call("POST", lake.ns + "/tables",
                    R"({"name":"other","columns":[{"name":"a","type":"int"}]})")
                .status,
            201);
  ApiResponse ok = Alter(lake, add, "?read_snapshot=" + std::to_string(created));
  ASSERT_EQ(ok.status, 200) << ok.body;
  // Now the table has DDL after `created`.
  ApiResponse stale = Alter(lake, R"({"op":"drop_column","name":"n"})",
                            "?read_snapshot=" + std::to_string(created));
  EXPECT_EQ(stale.status, 409) << stale.body;
  EXPECT_EQ(stale.error(), "ddl_since_read_snapshot");
  ASSERT_TRUE(stale.json.HasMember("tables"));
  EXPECT_STREQ(stale.json["tables"][0].GetString(), "web.events");
  EXPECT_EQ(stale.json["read_snapshot"].GetInt64(), created);
  EXPECT_STREQ(stale.json["retry"].GetString(), "re-prepare");
}

TEST(AlterTest, CommitWithReadSnapshotBeforeAnAlterConflicts) {
  Lake lake = NewLake();
  const int64_t read = Head(lake);
  ASSERT_EQ(Alter(lake, R"({"op":"set_table_comment","comment":"x"})").status, 200);
  ApiResponse r =
      Append(lake, File(lake, "late", 3), R"(,"read_snapshot":)" + std::to_string(read));
  EXPECT_EQ(r.status, 409) << r.body;
  EXPECT_EQ(r.error(), "ddl_since_read_snapshot");
  EXPECT_STREQ(r.json["tables"][0].GetString(), "web.events");
  EXPECT_EQ(r.json["read_snapshot"].GetInt64(), read);
  EXPECT_STREQ(r.json["retry"].GetString(), "re-prepare");
  EXPECT_EQ(
      Append(lake, File(lake, "late", 3), R"(,"read_snapshot":)" + std::to_string(read + 1)).status,
      200);
}

TEST(AlterTest, IdlessOrPendingFilesBlockAddAndRename) {
  Lake lake = NewLake();
  ASSERT_EQ(Append(lake, File(lake, "pending", 10)).status, 200);  // no stats: pending
  ApiResponse rename = Alter(lake, R"({"op":"rename_column","from":"n","to":"m"})");
  EXPECT_EQ(rename.status, 409) << rename.body;
  EXPECT_EQ(rename.error(), "idless_files_present");
  ApiResponse add = Alter(lake, R"({"op":"add_column","column":{"name":"x","type":"int"}})");
  EXPECT_EQ(add.status, 409) << add.body;
  EXPECT_EQ(add.error(), "idless_files_present");
  // Other ops are unaffected.
  EXPECT_EQ(Alter(lake, R"({"op":"drop_column","name":"n"})").status, 200);
  EXPECT_EQ(Alter(lake, R"({"op":"promote_column","name":"score","to":"double"})").status, 200);
}

TEST(AlterTest, PromotionReencodesStoredBounds) {
  Lake lake = NewLake();
  // n (int): 7..300; score (float): 1.5..2.5; addr.zip (int): -5..7.
  const std::string stats =
      R"(,"column_stats":[{"field_id":2,"value_count":10,"null_count":0,"lower_bound":"BwAAAA==","upper_bound":"LAEAAA=="},)"
      R"({"field_id":3,"value_count":10,"null_count":0,"lower_bound":"AADAPw==","upper_bound":"AAAgQA=="},)"
      R"({"field_id":6,"value_count":10,"null_count":0,"lower_bound":"+////w==","upper_bound":"BwAAAA=="}])";
  ASSERT_EQ(Append(lake, File(lake, "a", 10, stats) + "," + File(lake, "b", 10, stats)).status,
            200);
  ApiResponse r = Alter(lake, R"({"op":"promote_column","name":"n","to":"long"},)"
                              R"({"op":"promote_column","name":"score","to":"double"},)"
                              R"({"op":"promote_column","name":"addr.zip","to":"long"})");
  ASSERT_EQ(r.status, 200) << r.body;
  ApiResponse scan = S::Call("GET", lake.table + "/scan?include=column_stats");
  ASSERT_EQ(scan.status, 200) << scan.body;
  ASSERT_EQ(scan.json.Size(), 2u);
  for (const auto& entry : scan.json.GetArray()) {
    const auto& cs = entry["data_file"]["column_stats"];
    ASSERT_EQ(cs.Size(), 3u) << scan.body;
    EXPECT_EQ(cs[0]["field_id"].GetInt(), 2);
    ASSERT_TRUE(cs[0]["lower_bound"].IsInt64()) << scan.body;
    EXPECT_EQ(cs[0]["lower_bound"].GetInt64(), 7);
    EXPECT_EQ(cs[0]["upper_bound"].GetInt64(), 300);
    ASSERT_TRUE(cs[1]["lower_bound"].IsNumber()) << scan.body;
    EXPECT_DOUBLE_EQ(cs[1]["lower_bound"].GetDouble(), 1.5);
    EXPECT_DOUBLE_EQ(cs[1]["upper_bound"].GetDouble(), 2.5);
    ASSERT_TRUE(cs[2]["lower_bound"].IsInt64()) << scan.body;
    EXPECT_EQ(cs[2]["lower_bound"].GetInt64(), -5);
    EXPECT_EQ(cs[2]["upper_bound"].GetInt64(), 7);
  }
  const int64_t file_id = scan.json[0]["data_file"]["data_file_id"].GetInt64();
  ApiResponse file_stats =
      S::Call("GET", lake.table + "/files/" + std::to_string(file_id) + "/stats");
  ASSERT_EQ(file_stats.status, 200) << file_stats.body;
  EXPECT_NE(file_stats.body.find("300"), std::string::npos) << file_stats.body;
  // New files are registered against the promoted (8-byte) types.
  ASSERT_EQ(
      Append(
          lake,
          File(
              lake, "c", 1,
              R"(,"column_stats":[{"field_id":2,"value_count":1,"null_count":0,"lower_bound":"AQAAAAAAAAA=","upper_bound":"AQAAAAAAAAA="}])"))
          .status,
      200);
}

TEST(AlterTest, DecimalPrecisionPromotesAndKeepsItsBounds) {
  Lake lake = NewLake();
  const std::string table = lake.ns + "/tables/prices";
  ApiResponse created = S::Call(
      "POST", lake.ns + "/tables",
      R"({"name":"prices","columns":[{"name":"amount","type":"decimal","type_params":{"precision":12,"scale":2}}]})");
  ASSERT_EQ(created.status, 201) << created.body;
  // A file whose amounts run 12.34 … 12.34 (unscaled 1234, "BNI=").
  ASSERT_EQ(
      S::Call(
          "POST", lake.catalog + "/commit",
          R"({"appends":[{"namespace":"web","table":"prices","files":[{"path":"s3://bucket/)" +
              lake.name +
              R"(/data/p.parquet","record_count":3,"file_size_bytes":4096,"footer_size":512,)"
              R"("column_stats":[{"field_id":1,"value_count":3,"null_count":0,"lower_bound":"BNI=","upper_bound":"BNI="}]}]}]})")
          .status,
      200);
  auto alter = [&](const std::string& to) {
    return S::Call("POST", table + "/alter",
                   R"({"ops":[{"op":"promote_column","name":"amount","to":")" + to + R"("}]})");
  };
  // Narrowing, the same precision, another scale, past 38, a bare type:
  // 422 saying why, and nothing written.
  const int64_t head = Head(lake);
  for (const char* to :
       {"decimal(10,2)", "decimal(12,2)", "decimal(20,3)", "decimal(39,2)", "decimal", "long"}) {
    ApiResponse refused = alter(to);
    EXPECT_EQ(refused.status, 422) << to << ": " << refused.body;
  }
  EXPECT_NE(alter("decimal(20,3)").body.find("scale cannot change"), std::string::npos);
  EXPECT_EQ(Head(lake), head);
  // Widening: one snapshot; the column reads decimal(20,2) from then on,
  // and the stored bounds (unscaled, the same at any precision) stand.
  ApiResponse widened = alter("decimal(20,2)");
  ASSERT_EQ(widened.status, 200) << widened.body;
  EXPECT_EQ(Head(lake), head + 1);
  EXPECT_STREQ(Column(widened.json, 0)["type"].GetString(), "decimal");
  EXPECT_EQ(Column(widened.json, 0)["type_params"]["precision"].GetInt(), 20);
  EXPECT_EQ(Column(widened.json, 0)["type_params"]["scale"].GetInt(), 2);
  ApiResponse again = S::Call("GET", table);
  ASSERT_EQ(again.status, 200) << again.body;
  EXPECT_EQ(Column(again.json, 0)["type_params"]["precision"].GetInt(), 20);
  ApiResponse scan = S::Call("GET", table + "/scan?include=column_stats");
  ASSERT_EQ(scan.status, 200) << scan.body;
  EXPECT_NE(scan.body.find("\"lower_bound\":12.34"), std::string::npos) << scan.body;
  EXPECT_NE(scan.body.find("\"upper_bound\":12.34"), std::string::npos) << scan.body;
  // Up to 38 digits, past the 18 an 8-byte decimal holds.
  EXPECT_EQ(alter("decimal(38,2)").status, 200);
  EXPECT_EQ(alter("decimal(20,2)").status, 422);
}

TEST(TruncateTest, EndsLiveFilesAndKeepsIdentity) {
  Lake lake = NewLake();
  ASSERT_EQ(Alter(lake, R"({"op":"set_properties","properties":{"owner":"me"}})").status, 200);
  ASSERT_EQ(Append(lake, File(lake, "a", 100, R"(,"column_stats":[])") + "," + File(lake, "b", 50))
                .status,
            200);
  const int64_t before = Head(lake);
  const int64_t version = SchemaVersion(lake);
  ApiResponse r = S::Call("POST", lake.table + "/truncate?expected_table_uuid=" + lake.uuid);
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.json["snapshot_id"].GetInt64(), before + 1);
  EXPECT_EQ(r.json["schema_version"].GetInt64(), version + 1);
  EXPECT_EQ(ChangesAt(lake, before + 1), "table_altered,table_deleted_from,");
  EXPECT_EQ(S::Call("GET", lake.table + "/scan").json.Size(), 0u);
  EXPECT_EQ(S::Call("GET", lake.table + "/scan?snapshot=" + std::to_string(before)).json.Size(),
            2u);
  ApiResponse table = S::Call("GET", lake.table);
  EXPECT_STREQ(table.json["table_uuid"].GetString(), lake.uuid.c_str());
  EXPECT_EQ(table.json["record_count"].GetInt64(), 0);
  EXPECT_EQ(table.json["file_count"].GetInt64(), 0);
  EXPECT_EQ(table.json["columns"].Size(), 6u);
  EXPECT_STREQ(table.json["properties"]["owner"].GetString(), "me");
  ApiResponse listed = S::Call("GET", lake.ns + "/tables");
  EXPECT_EQ(listed.json[0]["record_count"].GetInt64(), 0);
  // Row ids are never reused: the next append continues after 150.
  ASSERT_EQ(Append(lake, File(lake, "c", 5)).status, 200);
  ApiResponse scan = S::Call("GET", lake.table + "/scan");
  ASSERT_EQ(scan.json.Size(), 1u);
  EXPECT_EQ(scan.json[0]["data_file"]["row_id_start"].GetInt64(), 150);
  // A commit that read before the truncate conflicts.
  ApiResponse stale =
      Append(lake, File(lake, "d", 1), R"(,"read_snapshot":)" + std::to_string(before));
  EXPECT_EQ(stale.status, 409) << stale.body;
  EXPECT_EQ(stale.error(), "ddl_since_read_snapshot");
}

TEST(TruncateTest, RequiresTheMatchingUuid) {
  Lake lake = NewLake();
  ASSERT_EQ(Append(lake, File(lake, "a", 10)).status, 200);
  const int64_t head = Head(lake);
  EXPECT_EQ(S::Call("POST", lake.table + "/truncate").status, 400);
  EXPECT_EQ(S::Call("POST", lake.table + "/truncate?expected_table_uuid=zzz").status, 400);
  ApiResponse mismatch = S::Call(
      "POST", lake.table + "/truncate?expected_table_uuid=00000000-0000-4000-8000-000000000000");
  EXPECT_EQ(mismatch.status, 409) << mismatch.body;
  EXPECT_EQ(mismatch.error(), "commit_conflict");
  EXPECT_EQ(
      S::Call("POST", lake.ns + "/tables/nope/truncate?expected_table_uuid=" + lake.uuid).status,
      404);
  EXPECT_EQ(Head(lake), head);
  EXPECT_EQ(S::Call("GET", lake.table + "/scan").json.Size(), 1u);
  // Truncating an empty table still makes one snapshot.
  ASSERT_EQ(S::Call("POST", lake.table + "/truncate?expected_table_uuid=" + lake.uuid).status, 200);
  ASSERT_EQ(S::Call("POST", lake.table + "/truncate?expected_table_uuid=" + lake.uuid).status, 200);
  EXPECT_EQ(Head(lake), head + 2);
}

}  // namespace
}  // namespace hoglake::testing
