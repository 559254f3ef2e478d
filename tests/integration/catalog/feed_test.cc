// Changefeed, consumer offsets and options over HTTP (contract §2.6, §2.12,
// §2.13).
#include "server_fixture.h"

namespace hoglake::testing {
namespace {

using S = ServerEnvironment;

struct Fixture {
  std::string name, c, t, uuid;
};

Fixture NewFixture() {
  Fixture f;
  f.name = NewCatalog();
  f.c = "/v1/catalogs/" + f.name;
  f.t = f.c + "/namespaces/ns/tables/t";
  EXPECT_EQ(S::Call("POST", f.c + "/namespaces", R"({"name":"ns"})").status, 201);
  ApiResponse t = S::Call("POST", f.c + "/namespaces/ns/tables",
                          R"({"name":"t","columns":[{"name":"id","type":"long"}]})");
  EXPECT_EQ(t.status, 201);
  f.uuid = t.json["table_uuid"].GetString();
  return f;
}

int64_t Append(const Fixture& f, const std::string& file, int rows) {
  ApiResponse r = S::Call(
      "POST", f.c + "/commit",
      R"({"appends":[{"namespace":"ns","table":"t","files":[{"path":"s3://bucket/)" + f.name + "/" +
          file + R"(","record_count":)" + std::to_string(rows) + R"(,"file_size_bytes":9}]}]})");
  EXPECT_EQ(r.status, 200) << r.body;
  return r.json["snapshot_id"].GetInt64();
}

TEST(FeedTest, ChangesWindowsIncludeRetiredFilesAndStopAtTruncate) {
  Fixture f = NewFixture();  // snapshots 1 (ns), 2 (table)
  const int64_t s3 = Append(f, "a", 5);
  const int64_t s4 = Append(f, "b", 6);
  ApiResponse all = S::Call("GET", f.t + "/changes?from_snapshot=2");
  ASSERT_EQ(all.status, 200) << all.body;
  EXPECT_EQ(std::string(all.json["table_uuid"].GetString()), f.uuid);
  EXPECT_EQ(all.json["to_snapshot"].GetInt64(), s4);
  ASSERT_EQ(all.json["files"].Size(), 2u);
  EXPECT_EQ(all.json["files"][1]["row_id_start"].GetInt64(), 5);
  EXPECT_EQ(all.json["delete_files"].Size(), 0u);
  EXPECT_EQ(
      S::Call("GET", f.t + "/changes?from_snapshot=" + std::to_string(s3)).json["files"].Size(),
      1u);
  EXPECT_EQ(S::Call("GET", f.t + "/changes?from_snapshot=2&to_snapshot=" + std::to_string(s3))
                .json["files"]
                .Size(),
            1u);
  EXPECT_EQ(S::Call("GET", f.t + "/changes").status, 400);
  EXPECT_EQ(S::Call("GET", f.t + "/changes?from_snapshot=x").status, 400);
  EXPECT_EQ(S::Call("GET", f.t + "/changes?from_snapshot=-1").status, 422);
  EXPECT_EQ(S::Call("GET", f.t + "/changes?from_snapshot=4&to_snapshot=3").status, 422);
  EXPECT_EQ(S::Call("GET", f.t + "/changes?from_snapshot=0&to_snapshot=99").status, 422);

  ASSERT_EQ(S::Call("POST", f.t + "/truncate?expected_table_uuid=" + f.uuid).status, 200);
  const int64_t s6 = Append(f, "c", 1);
  ApiResponse crossing = S::Call("GET", f.t + "/changes?from_snapshot=" + std::to_string(s4));
  EXPECT_EQ(crossing.status, 409) << crossing.body;
  EXPECT_EQ(crossing.error(), "reconciliation_required");
  // Before the truncate the feed still lists the files it retired.
  EXPECT_EQ(S::Call("GET", f.t + "/changes?from_snapshot=2&to_snapshot=" + std::to_string(s4))
                .json["files"]
                .Size(),
            2u);
  EXPECT_EQ(
      S::Call("GET", f.t + "/changes?from_snapshot=" + std::to_string(s6 - 1)).json["files"].Size(),
      1u);
}

TEST(FeedTest, ConsumerOffsetsAreMonotone) {
  Fixture f = NewFixture();
  Append(f, "a", 1);
  const std::string offset = f.c + "/consumers/etl-1/offsets/" + f.uuid;
  EXPECT_EQ(S::Call("GET", offset).status, 404);
  EXPECT_EQ(S::Call("GET", f.c + "/consumers/etl-1/offsets").json.Size(), 0u);
  ApiResponse put = S::Call("PUT", offset, R"({"snapshot_id":2})");
  ASSERT_EQ(put.status, 200) << put.body;
  EXPECT_EQ(put.json["committed_snapshot"].GetInt64(), 2);
  EXPECT_STREQ(put.json["consumer_id"].GetString(), "etl-1");
  EXPECT_EQ(S::Call("PUT", offset, R"({"snapshot_id":2})").status, 200);  // equal is fine
  EXPECT_EQ(S::Call("PUT", offset, R"({"snapshot_id":3})").status, 200);
  ApiResponse back = S::Call("PUT", offset, R"({"snapshot_id":1})");
  EXPECT_EQ(back.status, 409);
  EXPECT_EQ(back.error(), "offset_regression");
  EXPECT_EQ(S::Call("PUT", offset, R"({"snapshot_id":99})").status, 422);
  EXPECT_EQ(S::Call("PUT", offset, R"({"snapshot":1})").status, 400);
  EXPECT_EQ(S::Call("PUT", f.c + "/consumers/etl-1/offsets/00000000-0000-4000-8000-000000000000",
                    R"({"snapshot_id":1})")
                .status,
            422);
  EXPECT_EQ(S::Call("PUT", f.c + "/consumers/etl-1/offsets/nope", R"({"snapshot_id":1})").status,
            400);
  EXPECT_EQ(S::Call("GET", offset).json["committed_snapshot"].GetInt64(), 3);

  // Offsets survive a drop; the listing flags it.
  ASSERT_EQ(S::Call("DELETE", f.t).status, 200);
  ApiResponse consumers = S::Call("GET", f.c + "/consumers");
  ASSERT_EQ(consumers.status, 200) << consumers.body;
  const auto& entry = consumers.json["consumers"][0];
  EXPECT_STREQ(entry["consumer_id"].GetString(), "etl-1");
  EXPECT_STREQ(entry["offsets"][0]["namespace"].GetString(), "ns");
  EXPECT_STREQ(entry["offsets"][0]["table_name"].GetString(), "t");
  EXPECT_TRUE(entry["offsets"][0]["table_dropped"].GetBool());
}

TEST(FeedTest, Options) {
  Fixture f = NewFixture();
  ApiResponse defaults = S::Call("GET", f.c + "/options");
  ASSERT_EQ(defaults.status, 200);
  EXPECT_FALSE(defaults.json.HasMember("snapshot_retention_seconds"));
  EXPECT_TRUE(defaults.json["consumer_floor"].GetBool());
  EXPECT_EQ(defaults.json["earliest_snapshot_id"].GetInt64(), 0);
  ApiResponse set = S::Call("PATCH", f.c + "/options", R"({"snapshot_retention_seconds":3600})");
  ASSERT_EQ(set.status, 200) << set.body;
  EXPECT_EQ(set.json["snapshot_retention_seconds"].GetInt64(), 3600);
  EXPECT_TRUE(set.json["consumer_floor"].GetBool());
  ApiResponse floor = S::Call("PATCH", f.c + "/options", R"({"consumer_floor":false})");
  EXPECT_EQ(floor.json["snapshot_retention_seconds"].GetInt64(), 3600);  // unchanged
  EXPECT_FALSE(floor.json["consumer_floor"].GetBool());
  ApiResponse disabled =
      S::Call("PATCH", f.c + "/options", R"({"snapshot_retention_seconds":null})");
  EXPECT_FALSE(disabled.json.HasMember("snapshot_retention_seconds"));
  EXPECT_EQ(S::Call("PATCH", f.c + "/options", R"({"snapshot_retention_seconds":0})").status, 422);
  EXPECT_EQ(S::Call("PATCH", f.c + "/options", R"({"snapshot_retention_seconds":"1"})").status,
            400);
  EXPECT_EQ(S::Call("PATCH", f.c + "/options", R"({"consumer_floor":null})").status, 400);
  EXPECT_EQ(S::Call("PATCH", f.c + "/options", R"({"other":1})").status, 400);
  EXPECT_EQ(S::Call("GET", "/v1/catalogs/nope/options").status, 404);
}

}  // namespace
}  // namespace hoglake::testing
