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

namespace hoglake::testing {
namespace {

// GET …/snapshots/resolve (pyhoglake's Catalog.resolve_snapshot): the
// snapshot a read at an instant sees.
TEST(SnapshotResolveTest, AnInstantResolvesAsTimeTravelReadsDo) {
  const TableLake lake = NewTableLake("ns", "t");
  ASSERT_FALSE(lake.uuid.empty());
  using S = ServerEnvironment;
  ApiResponse log = S::Call("GET", lake.catalog + "/snapshots");
  ASSERT_EQ(log.status, 200);
  const auto& snaps = log.json["snapshots"];
  ASSERT_GE(snaps.Size(), 2u);
  const auto& last = snaps[snaps.Size() - 1];
  const std::string time = last["snapshot_time"].GetString();
  ApiResponse at = S::Call("GET", lake.catalog + "/snapshots/resolve?at_timestamp=" + time);
  ASSERT_EQ(at.status, 200) << at.body;
  EXPECT_EQ(at.json["snapshot_id"].GetInt64(), last["snapshot_id"].GetInt64());
  EXPECT_EQ(std::string(at.json["snapshot_time"].GetString()), time);
  ApiResponse future =
      S::Call("GET", lake.catalog + "/snapshots/resolve?at_timestamp=2100-01-01T00:00:00Z");
  ASSERT_EQ(future.status, 200) << future.body;
  EXPECT_EQ(future.json["snapshot_id"].GetInt64(), last["snapshot_id"].GetInt64());
  EXPECT_EQ(S::Call("GET", lake.catalog + "/snapshots/resolve?at_timestamp=2000-01-01T00:00:00Z")
                .status,
            410);
  EXPECT_EQ(S::Call("GET", lake.catalog + "/snapshots/resolve").status, 400);
  EXPECT_EQ(S::Call("GET", lake.catalog + "/snapshots/resolve?at_timestamp=yesterday").status, 400);
  EXPECT_EQ(S::Call("GET", "/v1/catalogs/nope/snapshots/resolve?at_timestamp=" + time).status, 404);
}

}  // namespace
}  // namespace hoglake::testing
