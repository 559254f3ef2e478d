// The query API's managed databases over HTTP against the test server:
// managed connections (POST/DELETE /v1/connections) and databases
// (/v1/databases), their listing as "managed" connections, the database a
// query selects with database_id / X-Database-Id, table drops, and the
// error statuses and bodies.
#include <string>

#include <httplib.h>
#include <rapidjson/document.h>

#include "server_fixture.h"

namespace hoglake::testing {
namespace {

std::string HotdataCode(const ApiResponse& r) {
  if (!r.json.IsObject() || !r.json.HasMember("error") || !r.json["error"].IsObject()) return "";
  return r.json["error"]["code"].GetString();
}

int g_serial = 0;
std::string UniqueName(const std::string& stem) {
  return stem + std::to_string(::getpid()) + "x" + std::to_string(++g_serial);
}

// The listed connection with `id`: its (name, source_type), or ("", "").
std::pair<std::string, std::string> Listed(const std::string& id) {
  ApiResponse list = ServerEnvironment::Call("GET", "/v1/connections");
  EXPECT_EQ(list.status, 200) << list.body;
  for (const auto& c : list.json["connections"].GetArray()) {
    if (std::string(c["id"].GetString()) == id) {
      return {c["name"].GetString(), c["source_type"].GetString()};
    }
  }
  return {"", ""};
}

ApiResponse CreateConnection(const std::string& name, const std::string& schemas_json) {
  return ServerEnvironment::Call("POST", "/v1/connections",
                                 "{\"name\":\"" + name +
                                     "\",\"source_type\":\"managed\",\"config\":{\"schemas\":" +
                                     schemas_json + "},\"skip_discovery\":true}");
}

TEST(ManagedApiTest, ManagedConnectionIsCreatedListedAndDeleted) {
  const std::string name = UniqueName("mconn");
  ApiResponse created =
      CreateConnection(name, "[{\"name\":\"public\",\"tables\":[{\"name\":\"events\"}]}]");
  ASSERT_EQ(created.status, 201) << created.body;
  EXPECT_EQ(std::string(created.json["id"].GetString()), name);
  EXPECT_EQ(std::string(created.json["name"].GetString()), name);
  EXPECT_EQ(std::string(created.json["source_type"].GetString()), "managed");
  EXPECT_EQ(created.json["tables_discovered"].GetInt64(), 0);
  EXPECT_EQ(std::string(created.json["discovery_status"].GetString()), "skipped");
  EXPECT_EQ(Listed(name), std::make_pair(name, std::string("managed")));
  // The declared schema is a namespace of the new catalog.
  ApiResponse ns = ServerEnvironment::Call("GET", "/v1/catalogs/" + name + "/namespaces");
  ASSERT_EQ(ns.status, 200) << ns.body;
  EXPECT_NE(ns.body.find("\"public\""), std::string::npos) << ns.body;

  ApiResponse again = CreateConnection(name, "[]");
  EXPECT_EQ(again.status, 409) << again.body;
  EXPECT_EQ(HotdataCode(again), "CONFLICT");

  ApiResponse deleted = ServerEnvironment::Call("DELETE", "/v1/connections/" + name);
  EXPECT_EQ(deleted.status, 204) << deleted.body;
  EXPECT_EQ(Listed(name).second, "") << "a deleted connection is not listed";
  EXPECT_EQ(ServerEnvironment::Call("DELETE", "/v1/connections/" + name).status, 404);
  // Created again under the same name: its catalog comes back.
  ApiResponse revived = CreateConnection(name, "[{\"name\":\"public\"}]");
  EXPECT_EQ(revived.status, 201) << revived.body;
  EXPECT_EQ(Listed(name).second, "managed");
}

TEST(ManagedApiTest, ConnectionCreationRefusals) {
  ApiResponse bad_name = CreateConnection("Not A Catalog", "[]");
  EXPECT_EQ(bad_name.status, 400) << bad_name.body;
  EXPECT_EQ(HotdataCode(bad_name), "BAD_REQUEST");
  // Federated sources other than PostgreSQL (federated_connections_test.cc).
  ApiResponse snowflake = ServerEnvironment::Call(
      "POST", "/v1/connections",
      "{\"name\":\"sf1\",\"source_type\":\"snowflake\",\"config\":{\"account\":\"x\"}}");
  EXPECT_EQ(snowflake.status, 501) << snowflake.body;
  EXPECT_NE(snowflake.body.find("snowflake"), std::string::npos);
  ApiResponse missing = ServerEnvironment::Call("POST", "/v1/connections", "{\"name\":\"x\"}");
  EXPECT_EQ(missing.status, 400) << missing.body;
  ApiResponse unknown = ServerEnvironment::Call("DELETE", "/v1/connections/no_such_conn");
  EXPECT_EQ(unknown.status, 404) << unknown.body;
  // A plain hoglake catalog is not deleted through the query API.
  const std::string plain = NewCatalog();
  ApiResponse not_managed = ServerEnvironment::Call("DELETE", "/v1/connections/" + plain);
  EXPECT_EQ(not_managed.status, 400) << not_managed.body;
  ApiResponse table =
      ServerEnvironment::Call("DELETE", "/v1/connections/" + plain + "/schemas/ns/tables/t");
  EXPECT_EQ(table.status, 400) << table.body;
}

TEST(ManagedApiTest, DatabasesAreCreatedDescribedListedAndDeleted) {
  ApiResponse created = ServerEnvironment::Call(
      "POST", "/v1/databases",
      "{\"name\":\"scratch\",\"schemas\":[{\"name\":\"main\",\"tables\":[{\"name\":\"t\"}]}]}");
  ASSERT_EQ(created.status, 201) << created.body;
  const std::string id = created.json["id"].GetString();
  EXPECT_EQ(id.size(), 28u) << id;
  EXPECT_EQ(id.substr(0, 2), "db");
  EXPECT_EQ(std::string(created.json["name"].GetString()), "scratch");
  EXPECT_EQ(std::string(created.json["default_catalog"].GetString()), "default");
  EXPECT_EQ(std::string(created.json["default_connection_id"].GetString()), id);
  EXPECT_EQ(std::string(created.json["default_schema"].GetString()), "main");

  ApiResponse one = ServerEnvironment::Call("GET", "/v1/databases/" + id);
  ASSERT_EQ(one.status, 200) << one.body;
  EXPECT_TRUE(one.json["attachments"].IsArray());
  EXPECT_EQ(one.json["attachments"].Size(), 0u);
  EXPECT_TRUE(one.json.HasMember("created_at"));
  EXPECT_EQ(Listed(id).second, "managed");

  // One declared schema becomes the default; main is declared anyway.
  ApiResponse other =
      ServerEnvironment::Call("POST", "/v1/databases", "{\"schemas\":[{\"name\":\"Sales\"}]}");
  ASSERT_EQ(other.status, 201) << other.body;
  const std::string other_id = other.json["id"].GetString();
  EXPECT_EQ(std::string(other.json["default_schema"].GetString()), "sales");
  ApiResponse ns = ServerEnvironment::Call("GET", "/v1/catalogs/" + other_id + "/namespaces");
  EXPECT_NE(ns.body.find("\"main\""), std::string::npos) << ns.body;

  // Newest first, one per page.
  ApiResponse page = ServerEnvironment::Call("GET", "/v1/databases?limit=1");
  ASSERT_EQ(page.status, 200) << page.body;
  ASSERT_EQ(page.json["databases"].Size(), 1u);
  EXPECT_EQ(std::string(page.json["databases"][0]["id"].GetString()), other_id);
  ASSERT_TRUE(page.json["has_more"].GetBool());
  ApiResponse next = ServerEnvironment::Call(
      "GET", "/v1/databases?limit=1&cursor=" + std::string(page.json["next_cursor"].GetString()));
  ASSERT_EQ(next.status, 200) << next.body;
  EXPECT_EQ(std::string(next.json["databases"][0]["id"].GetString()), id);
  EXPECT_EQ(ServerEnvironment::Call("GET", "/v1/databases?cursor=%25%25").status, 400);

  EXPECT_EQ(ServerEnvironment::Call("DELETE", "/v1/databases/" + id).status, 204);
  ApiResponse gone = ServerEnvironment::Call("GET", "/v1/databases/" + id);
  EXPECT_EQ(gone.status, 404);
  EXPECT_EQ(HotdataCode(gone), "NOT_FOUND");
  EXPECT_EQ(ServerEnvironment::Call("DELETE", "/v1/databases/" + id).status, 404);
  EXPECT_EQ(Listed(id).second, "");
  EXPECT_EQ(ServerEnvironment::Call("DELETE", "/v1/connections/" + other_id).status, 204);
}

TEST(ManagedApiTest, QueriesSelectADatabase) {
  ApiResponse created = ServerEnvironment::Call("POST", "/v1/databases", "{}");
  ASSERT_EQ(created.status, 201) << created.body;
  const std::string id = created.json["id"].GetString();
  // A table in the database's catalog, written through the catalog API.
  ApiResponse table =
      ServerEnvironment::Call("POST", "/v1/catalogs/" + id + "/namespaces/main/tables",
                              R"({"name":"t","columns":[{"name":"x","type":"long"}]})");
  ASSERT_EQ(table.status, 201) << table.body;

  const std::string sql = R"(SELECT count(*) AS n FROM \"default\".main.t)";
  ApiResponse by_body = ServerEnvironment::Call(
      "POST", "/v1/query", "{\"sql\":\"" + sql + "\",\"database_id\":\"" + id + "\"}");
  ASSERT_EQ(by_body.status, 200) << by_body.body;
  EXPECT_EQ(by_body.json["rows"][0][0].GetInt64(), 0);
  ApiResponse unqualified = ServerEnvironment::Call(
      "POST", "/v1/query", "{\"sql\":\"SELECT x FROM t\",\"database_id\":\"" + id + "\"}");
  EXPECT_EQ(unqualified.status, 200) << unqualified.body;

  httplib::Client client(ServerEnvironment::base_url());
  httplib::Headers with_db{{"X-Database-Id", id}};
  auto by_header =
      client.Post("/v1/query", with_db, "{\"sql\":\"" + sql + "\"}", "application/json");
  ASSERT_TRUE(by_header);
  EXPECT_EQ(by_header->status, 200) << by_header->body;
  httplib::Headers unknown{{"X-Database-Id", "dbnosuchdatabase"}};
  auto missing = client.Post("/v1/query", unknown, "{\"sql\":\"SELECT 1\"}", "application/json");
  ASSERT_TRUE(missing);
  EXPECT_EQ(missing->status, 404) << missing->body;
  httplib::Headers empty{{"X-Database-Id", ""}};
  auto ignored = client.Post("/v1/query", empty, "{\"sql\":\"SELECT 1\"}", "application/json");
  ASSERT_TRUE(ignored);
  EXPECT_EQ(ignored->status, 200) << ignored->body;

  // Dropping a managed table: 204, then 404.
  EXPECT_EQ(
      ServerEnvironment::Call("DELETE", "/v1/connections/" + id + "/schemas/main/tables/t").status,
      204);
  EXPECT_EQ(
      ServerEnvironment::Call("DELETE", "/v1/connections/" + id + "/schemas/main/tables/t").status,
      404);
}

}  // namespace
}  // namespace hoglake::testing
