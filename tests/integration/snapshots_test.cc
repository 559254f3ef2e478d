// GET …/snapshots paging (contract §2.8, §1.8).
#include "server_fixture.h"

namespace hoglake::testing {
namespace {

using S = ServerEnvironment;

std::string Ids(const ApiResponse& r) {
  std::string out;
  for (const auto& s : r.json["snapshots"].GetArray()) {
    out += std::to_string(s["snapshot_id"].GetInt64()) + ",";
  }
  return out;
}

TEST(SnapshotTest, PagesForwardAndBackward) {
  const std::string c = "/v1/catalogs/" + NewCatalog();
  for (const char* name : {"a", "b", "c", "d"}) {
    ASSERT_EQ(S::Call("POST", c + "/namespaces", std::string(R"({"name":")") + name + "\"}").status,
              201);
  }
  ASSERT_EQ(S::Call("DELETE", c + "/namespaces/b").status, 200);

  ApiResponse all = S::Call("GET", c + "/snapshots");
  ASSERT_EQ(all.status, 200) << all.body;
  EXPECT_EQ(Ids(all), "1,2,3,4,5,");  // after defaults to 0, exclusive
  EXPECT_FALSE(all.json["has_more"].GetBool());
  const auto& first = all.json["snapshots"][0];
  EXPECT_EQ(first["schema_version"].GetInt64(), 1);
  EXPECT_TRUE(std::string(first["snapshot_time"].GetString()).ends_with("Z"));
  EXPECT_FALSE(first.HasMember("author"));
  ASSERT_EQ(first["changes"].Size(), 1u);
  EXPECT_STREQ(first["changes"][0]["kind"].GetString(), "namespace_created");
  EXPECT_EQ(first["changes"][0]["object_id"].GetInt64(), 1);
  EXPECT_STREQ(all.json["snapshots"][4]["changes"][0]["kind"].GetString(), "namespace_dropped");

  ApiResponse page = S::Call("GET", c + "/snapshots?after=1&limit=2");
  EXPECT_EQ(Ids(page), "2,3,");
  EXPECT_TRUE(page.json["has_more"].GetBool());
  EXPECT_EQ(Ids(S::Call("GET", c + "/snapshots?before=4&limit=10")), "3,2,1,0,");
  EXPECT_EQ(Ids(S::Call("GET", c + "/snapshots?before=4&limit=2")), "3,2,");
  EXPECT_EQ(S::Call("GET", c + "/snapshots?after=2&before=4").status, 422);
  EXPECT_EQ(S::Call("GET", c + "/snapshots?limit=0").status, 422);
  EXPECT_EQ(S::Call("GET", c + "/snapshots?limit=ten").status, 400);
  EXPECT_EQ(S::Call("GET", "/v1/catalogs/nope/snapshots").status, 404);
}

}  // namespace
}  // namespace hoglake::testing
