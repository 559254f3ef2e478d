// Namespaces over HTTP (contract §2.4), with snapshots and time travel
// (§1.7).
#include <thread>

#include "server_fixture.h"

namespace hoglake::testing {
namespace {

using S = ServerEnvironment;

std::string Names(const ApiResponse& r) {
  std::string out;
  for (const auto& ns : r.json.GetArray()) out += std::string(ns["name"].GetString()) + ",";
  return out;
}

TEST(NamespaceTest, CreateGetListDropWithDenseSnapshots) {
  const std::string c = "/v1/catalogs/" + NewCatalog();
  ApiResponse web = S::Call("POST", c + "/namespaces", R"({"name":"web"})");
  ASSERT_EQ(web.status, 201) << web.body;
  EXPECT_STREQ(web.json["name"].GetString(), "web");
  EXPECT_EQ(web.json["namespace_id"].GetInt64(), 1);
  ApiResponse app = S::Call("POST", c + "/namespaces", R"({"name":"app_2"})");
  ASSERT_EQ(app.status, 201);
  EXPECT_EQ(app.json["namespace_id"].GetInt64(), 2);

  ApiResponse catalog = S::Call("GET", c);
  EXPECT_EQ(catalog.json["head_snapshot_id"].GetInt64(), 2);
  EXPECT_EQ(catalog.json["schema_version"].GetInt64(), 2);

  ApiResponse got = S::Call("GET", c + "/namespaces/web");
  ASSERT_EQ(got.status, 200);
  EXPECT_EQ(got.body, web.body);
  EXPECT_EQ(Names(S::Call("GET", c + "/namespaces")), "app_2,web,");

  ApiResponse dropped = S::Call("DELETE", c + "/namespaces/web");
  ASSERT_EQ(dropped.status, 200) << dropped.body;
  EXPECT_EQ(dropped.json["snapshot_id"].GetInt64(), 3);
  EXPECT_EQ(dropped.json["schema_version"].GetInt64(), 3);
  EXPECT_EQ(S::Call("GET", c + "/namespaces/web").status, 404);
  EXPECT_EQ(Names(S::Call("GET", c + "/namespaces")), "app_2,");

  // Pinned listings see what was live then.
  EXPECT_EQ(Names(S::Call("GET", c + "/namespaces?snapshot=0")), "");
  EXPECT_EQ(Names(S::Call("GET", c + "/namespaces?snapshot=1")), "web,");
  EXPECT_EQ(Names(S::Call("GET", c + "/namespaces?snapshot=2")), "app_2,web,");

  // The name can be reused; the new incarnation has a new id.
  ApiResponse again = S::Call("POST", c + "/namespaces", R"({"name":"web"})");
  ASSERT_EQ(again.status, 201);
  EXPECT_EQ(again.json["namespace_id"].GetInt64(), 3);
}

TEST(NamespaceTest, Errors) {
  const std::string c = "/v1/catalogs/" + NewCatalog();
  ASSERT_EQ(S::Call("POST", c + "/namespaces", R"({"name":"ns"})").status, 201);
  ApiResponse dup = S::Call("POST", c + "/namespaces", R"({"name":"ns"})");
  EXPECT_EQ(dup.status, 409);
  EXPECT_EQ(dup.error(), "already_exists");
  for (const char* bad : {R"({"name":"has.dot"})", R"({"name":"9lives"})", R"({"name":""})"}) {
    ApiResponse r = S::Call("POST", c + "/namespaces", bad);
    EXPECT_EQ(r.status, 422) << bad << r.body;
  }
  std::string long_name(129, 'n');
  ApiResponse too_long = S::Call("POST", c + "/namespaces", R"({"name":")" + long_name + "\"}");
  EXPECT_EQ(too_long.status, 422);
  EXPECT_NE(too_long.body.find("..."), std::string::npos) << "long names are shortened";
  EXPECT_EQ(S::Call("POST", c + "/namespaces", R"({"name":"x","nope":1})").status, 400);
  EXPECT_EQ(S::Call("POST", "/v1/catalogs/missing-catalog/namespaces", R"({"name":"x"})").status,
            404);
  EXPECT_EQ(S::Call("GET", "/v1/catalogs/missing-catalog/namespaces").status, 404);
  EXPECT_EQ(S::Call("DELETE", c + "/namespaces/absent").status, 404);
  // A refused request wrote no snapshot: head is still 1.
  EXPECT_EQ(S::Call("GET", c).json["head_snapshot_id"].GetInt64(), 1);
}

TEST(NamespaceTest, DropWithExpectedId) {
  const std::string c = "/v1/catalogs/" + NewCatalog();
  ApiResponse ns = S::Call("POST", c + "/namespaces", R"({"name":"guarded"})");
  ASSERT_EQ(ns.status, 201);
  const int64_t id = ns.json["namespace_id"].GetInt64();
  ApiResponse wrong = S::Call(
      "DELETE", c + "/namespaces/guarded?expected_namespace_id=" + std::to_string(id + 100));
  EXPECT_EQ(wrong.status, 409) << wrong.body;
  EXPECT_EQ(wrong.error(), "commit_conflict");
  EXPECT_EQ(S::Call("DELETE", c + "/namespaces/guarded?expected_namespace_id=abc").status, 400);
  EXPECT_EQ(S::Call("DELETE", c + "/namespaces/guarded?expected_namespace_id=" + std::to_string(id))
                .status,
            200);
}

TEST(NamespaceTest, TimeTravelParameters) {
  const std::string c = "/v1/catalogs/" + NewCatalog();
  ASSERT_EQ(S::Call("POST", c + "/namespaces", R"({"name":"early"})").status, 201);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  ApiResponse snapshot1 = S::Call("GET", c);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  ASSERT_EQ(S::Call("POST", c + "/namespaces", R"({"name":"late"})").status, 201);

  EXPECT_EQ(S::Call("GET", c + "/namespaces?snapshot=3").error(), "validation");  // beyond head
  EXPECT_EQ(S::Call("GET", c + "/namespaces?snapshot=-1").error(), "validation");
  EXPECT_EQ(S::Call("GET", c + "/namespaces?snapshot=x").status, 400);
  EXPECT_EQ(S::Call("GET", c + "/namespaces?snapshot=1&at_timestamp=2030-01-01T00:00:00Z").status,
            422);
  EXPECT_EQ(S::Call("GET", c + "/namespaces?at_timestamp=2030-01-01T00:00:00").status, 400);
  // An instant after head resolves to head; one before the catalog existed is
  // before the earliest retained snapshot.
  EXPECT_EQ(Names(S::Call("GET", c + "/namespaces?at_timestamp=2999-01-01T00:00:00Z")),
            "early,late,");
  ApiResponse before = S::Call("GET", c + "/namespaces?at_timestamp=2000-01-01T00:00:00Z");
  EXPECT_EQ(before.status, 410) << before.body;
  EXPECT_EQ(before.error(), "expired");
}

TEST(NamespaceTest, PercentEncodedNamesDecodeWithinTheirSegment) {
  const std::string c = "/v1/catalogs/" + NewCatalog();
  ASSERT_EQ(S::Call("POST", c + "/namespaces", R"({"name":"web-2"})").status, 201);
  EXPECT_EQ(S::Call("GET", c + "/namespaces/web%2D2").status, 200);
  ApiResponse slash = S::Call("GET", c + "/namespaces/a%2Fb");
  EXPECT_EQ(slash.status, 404) << slash.body;
  EXPECT_EQ(slash.error(), "not_found");
}

}  // namespace
}  // namespace hoglake::testing
