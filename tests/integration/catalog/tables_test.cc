// Tables over HTTP: create, get, list, drop (contract §2.5, §3.1).
#include "server_fixture.h"

namespace hoglake::testing {
namespace {

using S = ServerEnvironment;

// pyhoglake's pinned create body for a nested table (pyhoglake-writer §2.3).
constexpr const char* kNestedTable =
    R"({"name":"nested","columns":[{"name":"id","type":"long","nullable":false},)"
    R"({"name":"tags","type":"list","nullable":true,"children":[{"name":"element","type":"string","nullable":true}]},)"
    R"({"name":"addr","type":"struct","nullable":true,"children":[{"name":"city","type":"string","nullable":true},{"name":"zip","type":"int","nullable":true}]},)"
    R"({"name":"props","type":"map","nullable":true,"children":[{"name":"key","type":"string","nullable":false},{"name":"value","type":"long","nullable":true}]}]})";

std::string NewNamespace(const std::string& ns = "web") {
  const std::string c = "/v1/catalogs/" + NewCatalog();
  EXPECT_EQ(S::Call("POST", c + "/namespaces", R"({"name":")" + ns + "\"}").status, 201);
  return c + "/namespaces/" + ns;
}

TEST(TableTest, CreateNestedTableAssignsFieldIdsDepthFirst) {
  const std::string n = NewNamespace();
  ApiResponse created = S::Call("POST", n + "/tables", kNestedTable);
  ASSERT_EQ(created.status, 201) << created.body;
  const auto& t = created.json;
  EXPECT_STREQ(t["name"].GetString(), "nested");
  EXPECT_STREQ(t["namespace"].GetString(), "web");
  EXPECT_EQ(std::string(t["table_uuid"].GetString()).size(), 36u);
  EXPECT_EQ(t["snapshot_id"].GetInt64(), 2);
  EXPECT_EQ(t["read_snapshot_id"].GetInt64(), 2);
  EXPECT_EQ(t["record_count"].GetInt64(), 0);
  EXPECT_EQ(t["file_count"].GetInt64(), 0);
  EXPECT_TRUE(t["properties"].IsObject());
  EXPECT_FALSE(t.HasMember("partition_spec"));
  const auto& cols = t["columns"];
  ASSERT_EQ(cols.Size(), 4u);
  // id=1, tags=2 (element 3), addr=4 (city 5, zip 6), props=7 (key 8, value 9)
  EXPECT_EQ(cols[0]["field_id"].GetInt(), 1);
  EXPECT_FALSE(cols[0]["nullable"].GetBool());
  EXPECT_FALSE(cols[0].HasMember("children"));
  EXPECT_EQ(cols[1]["field_id"].GetInt(), 2);
  EXPECT_EQ(cols[1]["children"][0]["field_id"].GetInt(), 3);
  EXPECT_STREQ(cols[1]["children"][0]["name"].GetString(), "element");
  EXPECT_EQ(cols[2]["field_id"].GetInt(), 4);
  EXPECT_EQ(cols[2]["children"][1]["field_id"].GetInt(), 6);
  EXPECT_EQ(cols[2]["children"][1]["ordinal"].GetInt(), 1);
  EXPECT_EQ(cols[3]["children"][0]["field_id"].GetInt(), 8);
  EXPECT_FALSE(cols[3]["children"][0]["nullable"].GetBool());
  EXPECT_EQ(cols[3]["field_id"].GetInt(), 7);
  EXPECT_EQ(cols[3]["ordinal"].GetInt(), 3);

  ApiResponse got = S::Call("GET", n + "/tables/nested");
  ASSERT_EQ(got.status, 200) << got.body;
  EXPECT_FALSE(got.json.HasMember("snapshot_id"));  // never on reads
  EXPECT_EQ(got.json["read_snapshot_id"].GetInt64(), 2);
  EXPECT_EQ(std::string(got.json["table_uuid"].GetString()), t["table_uuid"].GetString());
  ApiResponse identity = S::Call("GET", n + "/tables/nested?totals=false");
  EXPECT_FALSE(identity.json.HasMember("record_count"));
}

TEST(TableTest, TypesAndParamsRoundTrip) {
  const std::string n = NewNamespace();
  ApiResponse created = S::Call(
      "POST", n + "/tables",
      R"({"name":"typed","comment":"all scalars","properties":{"owner":"growth","retention.days":"30"},"columns":[)"
      R"({"name":"b","type":"BOOLEAN"},{"name":"i8","type":"int8"},{"name":"u64","type":"uint64"},)"
      R"({"name":"d","type":"decimal","type_params":{"precision":38,"scale":10},"comment":"money"},)"
      R"({"name":"ts","type":"timestamptz"},{"name":"tns","type":"timestamp_ns"},{"name":"u","type":"uuid"},)"
      R"({"name":"j","type":"json"},{"name":"v","type":"variant"},{"name":"bin","type":"binary"}]})");
  ASSERT_EQ(created.status, 201) << created.body;
  const auto& cols = created.json["columns"];
  EXPECT_STREQ(cols[0]["type"].GetString(), "boolean");  // canonical spelling
  EXPECT_EQ(cols[3]["type_params"]["precision"].GetInt(), 38);
  EXPECT_EQ(cols[3]["type_params"]["scale"].GetInt(), 10);
  EXPECT_STREQ(cols[3]["comment"].GetString(), "money");
  EXPECT_FALSE(cols[4].HasMember("type_params"));
  EXPECT_STREQ(created.json["comment"].GetString(), "all scalars");
  EXPECT_STREQ(created.json["properties"]["retention.days"].GetString(), "30");
  ApiResponse got = S::Call("GET", n + "/tables/typed");
  ASSERT_EQ(got.status, 200);
  EXPECT_EQ(got.json["columns"][3]["type_params"]["scale"].GetInt(), 10);
  EXPECT_STREQ(got.json["properties"]["owner"].GetString(), "growth");
}

TEST(TableTest, ListDropAndTimeTravel) {
  const std::string n = NewNamespace();
  ApiResponse first = S::Call("POST", n + "/tables",
                              R"({"name":"events","columns":[{"name":"id","type":"long"}]})");
  ASSERT_EQ(first.status, 201);
  ASSERT_EQ(
      S::Call("POST", n + "/tables", R"({"name":"users","columns":[{"name":"id","type":"long"}]})")
          .status,
      201);
  ApiResponse list = S::Call("GET", n + "/tables");
  ASSERT_EQ(list.status, 200) << list.body;
  ASSERT_EQ(list.json.Size(), 2u);
  EXPECT_STREQ(list.json[0]["name"].GetString(), "events");
  EXPECT_EQ(list.json[0]["record_count"].GetInt64(), 0);
  EXPECT_EQ(list.json[0]["snapshot_count"].GetInt64(), 1);

  const std::string uuid = first.json["table_uuid"].GetString();
  ApiResponse wrong = S::Call(
      "DELETE", n + "/tables/events?expected_table_uuid=00000000-0000-4000-8000-000000000000");
  EXPECT_EQ(wrong.status, 409) << wrong.body;
  EXPECT_EQ(S::Call("DELETE", n + "/tables/events?expected_table_uuid=not-a-uuid").status, 400);
  ApiResponse dropped = S::Call("DELETE", n + "/tables/events?expected_table_uuid=" + uuid);
  ASSERT_EQ(dropped.status, 200) << dropped.body;
  EXPECT_EQ(dropped.json["snapshot_id"].GetInt64(), 4);
  EXPECT_EQ(S::Call("GET", n + "/tables/events").status, 404);
  EXPECT_EQ(S::Call("DELETE", n + "/tables/events").status, 404);
  // Pinned reads still see it.
  ApiResponse pinned = S::Call("GET", n + "/tables/events?snapshot=3");
  ASSERT_EQ(pinned.status, 200) << pinned.body;
  EXPECT_EQ(pinned.json["read_snapshot_id"].GetInt64(), 3);
  EXPECT_EQ(S::Call("GET", n + "/tables?snapshot=3").json.Size(), 2u);
  EXPECT_EQ(S::Call("GET", n + "/tables").json.Size(), 1u);
  EXPECT_EQ(S::Call("GET", n + "/tables/events?snapshot=1").status, 404);  // before it existed
  // Recreating makes a new incarnation.
  ApiResponse again = S::Call("POST", n + "/tables",
                              R"({"name":"events","columns":[{"name":"id","type":"long"}]})");
  ASSERT_EQ(again.status, 201);
  EXPECT_NE(std::string(again.json["table_uuid"].GetString()), uuid);
}

TEST(TableTest, NamespaceWithTablesCannotBeDropped) {
  const std::string n = NewNamespace("busy");
  ASSERT_EQ(S::Call("POST", n + "/tables", R"({"name":"t","columns":[{"name":"a","type":"int"}]})")
                .status,
            201);
  ApiResponse r = S::Call("DELETE", n);
  EXPECT_EQ(r.status, 409);
  EXPECT_EQ(r.error(), "namespace_not_empty");
  ASSERT_EQ(S::Call("DELETE", n + "/tables/t").status, 200);
  EXPECT_EQ(S::Call("DELETE", n).status, 200);
}

TEST(TableTest, InvalidDefinitionsAre422AndWriteNothing) {
  const std::string n = NewNamespace();
  const std::string head_before = S::Call("GET", n.substr(0, n.find("/namespaces"))).body;
  const char* bad[] = {
      R"({"name":"t","columns":[]})",
      R"({"name":"t","columns":[{"name":"a","type":"nope"}]})",
      R"({"name":"t","columns":[{"name":"a","type":"int128"}]})",
      R"({"name":"t","columns":[{"name":"a","type":"interval"}]})",
      R"({"name":"t","columns":[{"name":"a","type":"UUID_T"}]})",
      R"({"name":"t","columns":[{"name":"a","type":"decimal"}]})",
      R"({"name":"t","columns":[{"name":"a","type":"decimal","type_params":{"precision":39,"scale":0}}]})",
      R"({"name":"t","columns":[{"name":"a","type":"int","type_params":{"precision":3}}]})",
      R"({"name":"t","columns":[{"name":"a","type":"list","children":[{"name":"item","type":"int"}]}]})",
      R"({"name":"t","columns":[{"name":"a","type":"map","children":[{"name":"key","type":"int"},{"name":"value","type":"int"}]}]})",
      R"({"name":"t","columns":[{"name":"a","type":"struct","children":[]}]})",
      R"({"name":"t","columns":[{"name":"a","type":"int","children":[{"name":"b","type":"int"}]}]})",
      R"({"name":"t","columns":[{"name":"_hog_row_id","type":"long"}]})",
      R"({"name":"t","columns":[{"name":"s","type":"struct","children":[{"name":"_hogx","type":"int"}]}]})",
      R"({"name":"t","columns":[{"name":"a","type":"int"},{"name":"a","type":"long"}]})",
      R"({"name":"bad.name","columns":[{"name":"a","type":"int"}]})",
      R"({"name":"t","columns":[{"name":"a","type":"int"}],"properties":{"hoglake.x":"1"}})",
      R"({"name":"t","columns":[{"name":"a","type":"int"}],"properties":{"format":"1"}})",
      R"({"name":"t","columns":[{"name":"a","type":"int"}],"properties":{"write.format.default":"clickhouse-mergetree-packed"}})",
  };
  for (const char* body : bad) {
    ApiResponse r = S::Call("POST", n + "/tables", body);
    EXPECT_EQ(r.status, 422) << body << " → " << r.body;
    EXPECT_EQ(r.error(), "validation") << body;
  }
  // Nesting: 9 levels of struct is one too many.
  std::string deep = R"({"name":"leaf","type":"int"})";
  for (int i = 0; i < 8; ++i)
    deep = R"({"name":"s)" + std::to_string(i) + R"(","type":"struct","children":[)" + deep + "]}";
  ApiResponse too_deep =
      S::Call("POST", n + "/tables", R"({"name":"deep","columns":[)" + deep + "]}");
  EXPECT_EQ(too_deep.status, 422) << too_deep.body;
  EXPECT_EQ(S::Call("GET", n.substr(0, n.find("/namespaces"))).body, head_before);
}

TEST(TableTest, MalformedRequestsAre400AndConflictsAre409) {
  const std::string n = NewNamespace();
  const char* malformed[] = {
      R"({"columns":[{"name":"a","type":"int"}]})",
      R"({"name":"t","columns":[null]})",
      R"({"name":"t","columns":[{"name":"a","type":"int","extra":1}]})",
      R"({"name":"t","columns":[{"name":"a"}]})",
      R"({"name":"t","columns":[{"name":"a","type":"int","nullable":"yes"}]})",
      R"({"name":"t","columns":{"name":"a"}})",
      R"({"name":"t","columns":[{"name":"a","type":"int"}],"properties":{"k":1}})",
  };
  for (const char* body : malformed) {
    ApiResponse r = S::Call("POST", n + "/tables", body);
    EXPECT_EQ(r.status, 400) << body << " → " << r.body;
  }
  ASSERT_EQ(S::Call("POST", n + "/tables", R"({"name":"t","columns":[{"name":"a","type":"int"}]})")
                .status,
            201);
  ApiResponse dup =
      S::Call("POST", n + "/tables", R"({"name":"t","columns":[{"name":"a","type":"int"}]})");
  EXPECT_EQ(dup.status, 409);
  EXPECT_EQ(dup.error(), "already_exists");
  ApiResponse no_ns =
      S::Call("POST", n + "x/tables", R"({"name":"t","columns":[{"name":"a","type":"int"}]})");
  EXPECT_EQ(no_ns.status, 404);
}

}  // namespace
}  // namespace hoglake::testing
