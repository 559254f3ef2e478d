// Views and the bound decoder over HTTP (contract §2.15, §2.2).
#include "server_fixture.h"

namespace hoglake::testing {
namespace {

using S = ServerEnvironment;

TEST(ViewTest, CreateListGetDrop) {
  const std::string c = "/v1/catalogs/" + NewCatalog();
  ASSERT_EQ(S::Call("POST", c + "/namespaces", R"({"name":"ns"})").status, 201);
  const std::string v = c + "/namespaces/ns/views";
  ApiResponse created = S::Call("POST", v, R"({"name":"daily","sql":"SELECT 1"})");
  ASSERT_EQ(created.status, 201) << created.body;
  EXPECT_STREQ(created.json["dialect"].GetString(), "trino");
  EXPECT_STREQ(created.json["namespace"].GetString(), "ns");
  EXPECT_EQ(std::string(created.json["view_uuid"].GetString()).size(), 36u);
  EXPECT_EQ(S::Call("POST", v, R"({"name":"daily","sql":"SELECT 2"})").status, 409);
  EXPECT_EQ(S::Call("POST", v, R"({"name":"bad.name","sql":"SELECT 2"})").status, 422);
  EXPECT_EQ(S::Call("POST", v, R"({"name":"blank","sql":"  "})").status, 422);
  EXPECT_EQ(S::Call("POST", v, R"({"name":"x"})").status, 400);
  ASSERT_EQ(S::Call("POST", v, R"({"name":"weekly","sql":"SELECT 7","dialect":"postgres"})").status,
            201);
  ApiResponse list = S::Call("GET", v);
  ASSERT_EQ(list.json.Size(), 2u);
  EXPECT_STREQ(list.json[1]["dialect"].GetString(), "postgres");
  EXPECT_STREQ(S::Call("GET", v + "/daily").json["sql"].GetString(), "SELECT 1");
  EXPECT_EQ(S::Call("DELETE", c + "/namespaces/ns").status, 409);  // views keep it busy
  ApiResponse dropped = S::Call("DELETE", v + "/daily");
  ASSERT_EQ(dropped.status, 200) << dropped.body;
  EXPECT_EQ(S::Call("GET", v + "/daily").status, 404);
  ApiResponse again = S::Call("POST", v, R"({"name":"daily","sql":"SELECT 1"})");
  EXPECT_NE(std::string(again.json["view_uuid"].GetString()),
            created.json["view_uuid"].GetString());
  ApiResponse snapshots = S::Call("GET", c + "/snapshots");
  EXPECT_STREQ(snapshots.json["snapshots"][1]["changes"][0]["kind"].GetString(), "view_created");
  EXPECT_STREQ(snapshots.json["snapshots"][3]["changes"][0]["kind"].GetString(), "view_dropped");
}

TEST(DecodeBoundTest, DecodesOrRefuses) {
  auto decode = [](const std::string& body) {
    return S::Call("POST", "/v1/debug/decode-bound", body);
  };
  ApiResponse l = decode(R"({"type":"LONG","value":"ZAAAAAAAAAA="})");
  ASSERT_EQ(l.status, 200) << l.body;
  EXPECT_EQ(l.body, R"({"type":"long","value":100})");
  EXPECT_EQ(decode(R"({"type":"decimal","value":"BNI=","type_params":{"scale":2}})").body,
            R"({"type":"decimal","value":12.34})");
  EXPECT_EQ(decode(R"({"type":"string","value":"aMOp"})").body,
            R"({"type":"string","value":"hé"})");
  EXPECT_EQ(decode(R"({"type":"double","value":"AAAAAAAAAIA="})").body,
            R"({"type":"double","value":-0.0})");
  EXPECT_EQ(decode(R"({"type":"long","value":"AQ=="})").status, 422);            // wrong width
  EXPECT_EQ(decode(R"({"type":"double","value":"AAAAAAAA+H8="})").status, 422);  // NaN
  EXPECT_EQ(decode(R"({"type":"nope","value":"AQ=="})").status, 422);
  EXPECT_EQ(decode(R"({"type":"struct","value":"AQ=="})").status, 422);
  EXPECT_EQ(decode(R"({"type":"long","value":"%%%"})").status, 422);
  EXPECT_EQ(decode(R"({"type":"long"})").status, 400);
  EXPECT_EQ(decode("null").status, 400);
}

}  // namespace
}  // namespace hoglake::testing
