// Root endpoints and catalogs, over HTTP against a real server (contract
// §2.1–§2.3).
#include <set>

#include "server_fixture.h"

namespace hoglake::testing {
namespace {

using S = ServerEnvironment;

TEST(RootTest, LivezHealthzMetricsInfo) {
  ApiResponse live = S::Call("GET", "/livez");
  EXPECT_EQ(live.status, 200);
  EXPECT_EQ(live.body, "ok");
  ApiResponse health = S::Call("GET", "/healthz");
  EXPECT_EQ(health.status, 200);
  EXPECT_EQ(health.body, "ok");
  EXPECT_EQ(S::Call("GET", "/healthz/").status, 404);  // no trailing-slash normalization
  ApiResponse metrics = S::Call("GET", "/metrics");
  EXPECT_EQ(metrics.status, 200);
  EXPECT_NE(metrics.body.find(
                "hoglake_http_requests_total{route=\"/livez\",method=\"GET\",status=\"200\"}"),
            std::string::npos)
      << metrics.body;
  ApiResponse info = S::Call("GET", "/v1/info");
  ASSERT_EQ(info.status, 200);
  EXPECT_STREQ(info.json["version"].GetString(), HOGLAKE_VERSION);
  EXPECT_FALSE(info.json.HasMember("name"));  // blank instance name is omitted
}

TEST(RootTest, UnknownRouteIs404AndWrongMethodIs405) {
  ApiResponse r = S::Call("GET", "/v1/nothing-here");
  EXPECT_EQ(r.status, 404);
  EXPECT_EQ(r.error(), "not_found");
  EXPECT_EQ(S::Call("DELETE", "/v1/catalogs").status, 405);
}

TEST(RootTest, UnimplementedRoutesAnswer501) {
  ApiResponse r = S::Call("GET", "/v1/catalogs/anything/publications");
  EXPECT_EQ(r.status, 501);
  EXPECT_EQ(r.error(), "not_implemented");
}

TEST(CatalogTest, CreateGetList) {
  ApiResponse created = S::Call("POST", "/v1/catalogs",
                                R"({"name":"events-1","data_path":"s3://lake-bucket/events-1"})");
  ASSERT_EQ(created.status, 201) << created.body;
  EXPECT_STREQ(created.json["name"].GetString(), "events-1");
  EXPECT_STREQ(created.json["data_path"].GetString(), "s3://lake-bucket/events-1");
  EXPECT_EQ(created.json["head_snapshot_id"].GetInt64(), 0);
  EXPECT_EQ(created.json["schema_version"].GetInt64(), 0);
  ASSERT_TRUE(created.json["capabilities"].IsArray());
  std::set<std::string> capabilities;
  for (const auto& c : created.json["capabilities"].GetArray()) capabilities.insert(c.GetString());
  // Only what is implemented: receipts, truncate/guarded drops, guarded alter,
  // atomic table creation.
  EXPECT_EQ(capabilities,
            (std::set<std::string>{
                "idempotent-append-v1", "guarded-table-lifecycle-v1", "guarded-schema-evolution-v1",
                "atomic-table-creation-v1", "atomic-partitioned-table-creation-v1",
                "atomic-sorted-table-creation-v1", "atomic-table-replacement-v1"}));
  EXPECT_FALSE(created.json.HasMember("earliest_snapshot_time"));  // null → omitted

  ApiResponse got = S::Call("GET", "/v1/catalogs/events-1");
  ASSERT_EQ(got.status, 200);
  EXPECT_EQ(got.body, created.body);

  ApiResponse list = S::Call("GET", "/v1/catalogs");
  ASSERT_EQ(list.status, 200);
  bool found = false;
  for (const auto& c : list.json.GetArray())
    found |= std::string(c["name"].GetString()) == "events-1";
  EXPECT_TRUE(found) << list.body;

  ApiResponse missing = S::Call("GET", "/v1/catalogs/no-such-catalog");
  EXPECT_EQ(missing.status, 404);
  EXPECT_EQ(missing.error(), "not_found");
}

TEST(CatalogTest, DuplicateNameIs409) {
  const std::string name = NewCatalog();
  ApiResponse r = S::Call("POST", "/v1/catalogs",
                          R"({"name":")" + name + R"(","data_path":"s3://other/)" + name + R"("})");
  EXPECT_EQ(r.status, 409);
  EXPECT_EQ(r.error(), "already_exists");
}

TEST(CatalogTest, InvalidNamesAndPathsAre422) {
  const char* bodies[] = {
      R"({"name":"Upper","data_path":"s3://b1/x"})",
      R"({"name":"-lead","data_path":"s3://b1/x"})",
      R"({"name":"okname1","data_path":""})",
      R"({"name":"okname2","data_path":"gs://bucket/x"})",
      R"({"name":"okname3","data_path":"s3:///nobucket"})",
      R"({"name":"okname4","data_path":"s3://b1/a/../b"})",
      R"({"name":"okname5","data_path":"s3://b1/a b"})",
      R"({"name":"okname6","data_path":"file://relative/path"})",
  };
  for (const char* body : bodies) {
    ApiResponse r = S::Call("POST", "/v1/catalogs", body);
    EXPECT_EQ(r.status, 422) << body << " → " << r.body;
    EXPECT_EQ(r.error(), "validation") << body;
  }
  std::string long_path = "s3://b1/" + std::string(600, 'x');
  EXPECT_EQ(
      S::Call("POST", "/v1/catalogs", R"({"name":"okname7","data_path":")" + long_path + "\"}")
          .status,
      422);
}

TEST(CatalogTest, OverlappingDataPathsAre422InBothDirections) {
  ASSERT_EQ(
      S::Call("POST", "/v1/catalogs", R"({"name":"outer","data_path":"s3://shared/outer"})").status,
      201);
  ApiResponse inner =
      S::Call("POST", "/v1/catalogs", R"({"name":"inner","data_path":"s3://shared/outer/inner"})");
  EXPECT_EQ(inner.status, 422) << inner.body;
  ApiResponse parent =
      S::Call("POST", "/v1/catalogs", R"({"name":"parent","data_path":"s3://shared"})");
  EXPECT_EQ(parent.status, 422) << parent.body;
  // A sibling sharing only a string prefix, not a path prefix, is fine.
  EXPECT_EQ(S::Call("POST", "/v1/catalogs", R"({"name":"outer2","data_path":"s3://shared/outer2"})")
                .status,
            201);
  // file:// data paths are our extension.
  EXPECT_EQ(
      S::Call("POST", "/v1/catalogs", R"({"name":"local","data_path":"file:///srv/lake/local/"})")
          .status,
      201);
}

TEST(CatalogTest, MalformedBodiesAre400AndWriteNothing) {
  struct Case {
    const char* body;
    const char* content_type;
  } cases[] = {
      {R"({"name":"bad1","data_path":"s3://b2/x","extra":true})", "application/json"},
      {R"({"name":"bad2"})", "application/json"},
      {R"({"name":7,"data_path":"s3://b2/x"})", "application/json"},
      {"null", "application/json"},
      {"[1,2]", "application/json"},
      {R"({"name":"bad3","data_path":"s3://b2/x")", "application/json"},
      {R"({"name":"bad4","data_path":"s3://b2/x"} trailing)", "application/json"},
      {"name=bad5&data_path=s3://b2/x", "application/x-www-form-urlencoded"},
      {"", "application/json"},
  };
  for (const Case& c : cases) {
    ApiResponse r = S::Call("POST", "/v1/catalogs", c.body, c.content_type);
    EXPECT_EQ(r.status, 400) << c.body << " → " << r.body;
    EXPECT_EQ(r.error(), "bad_request") << c.body;
  }
  for (const char* name : {"bad1", "bad2", "bad3", "bad4", "bad5"}) {
    EXPECT_EQ(S::Call("GET", std::string("/v1/catalogs/") + name).status, 404) << name;
  }
}

}  // namespace
}  // namespace hoglake::testing
