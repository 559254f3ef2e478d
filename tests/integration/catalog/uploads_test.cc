// Upload claims over HTTP (contract §2.11) and the commit-time claim rule
// (§4.2 step 12): only the claiming operation may publish a claimed path.
#include <cstdio>

#include "server_fixture.h"

namespace hoglake::testing {
namespace {

using S = ServerEnvironment;

constexpr const char* kOwnerA = "0a000000-0000-4000-8000-00000000000a";
constexpr const char* kOwnerB = "0b000000-0000-4000-8000-00000000000b";

struct UploadLake {
  std::string name;
  std::string catalog;  // "/v1/catalogs/<name>"
  std::string prefix;   // "s3://bucket/<name>/data/web/events"
};

UploadLake NewUploadLake() {
  TableLake lake = NewTableLake("web", "events");
  return {lake.name, lake.catalog, lake.data + "data/web/events"};
}

std::string UploadId(int n) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "00000000-0000-4000-8000-%012d", n);
  return buf;
}

ApiResponse Claim(const UploadLake& lake, const std::string& id, const std::string& owner,
                  const std::string& extra = R"("file_kind":"data")") {
  return S::Call(
      "PUT", lake.catalog + "/uploads/" + id,
      R"({"owner":")" + owner + R"(","prefix":")" + lake.prefix + R"(/",)" + extra + "}");
}

std::string Commit(const std::string& path, const std::string& key_field) {
  return "{" + key_field + R"("appends":[{"namespace":"web","table":"events","files":[{"path":")" +
         path + R"(","record_count":10,"file_size_bytes":100}]}]})";
}

// Commit with the group guarded by the table's incarnation.
std::string GuardedCommit(const std::string& path, const std::string& key_field,
                          const std::string& table_uuid) {
  return "{" + key_field + R"("appends":[{"namespace":"web","table":"events",)" +
         R"("expected_table_uuid":")" + table_uuid + R"(","files":[{"path":")" + path +
         R"(","record_count":10,"file_size_bytes":100}]}]})";
}

std::string Key(const std::string& key) { return R"("idempotency_key":")" + key + "\","; }

int64_t Head(const UploadLake& lake) {
  return S::Call("GET", lake.catalog).json["head_snapshot_id"].GetInt64();
}

int64_t QueuedRemovals(const UploadLake& lake) {
  ApiResponse status = S::Call("GET", lake.catalog + "/maintenance/status");
  EXPECT_EQ(status.status, 200) << status.body;
  for (const auto& t : status.json["tasks"].GetArray()) {
    if (std::string(t["task"].GetString()) == "cleanup") {
      return t["backlog"]["queued_removals"].GetInt64();
    }
  }
  ADD_FAILURE() << "no cleanup task in " << status.body;
  return -1;
}

int64_t Count(const ApiResponse& r, const char* key) {
  EXPECT_EQ(r.status, 200) << r.body;
  return r.json.IsObject() && r.json.HasMember(key) ? r.json[key].GetInt64() : -1;
}

TEST(UploadsTest, ClaimGeneratesPathAndIsIdempotent) {
  UploadLake lake = NewUploadLake();
  const std::string id = UploadId(1);
  ApiResponse first = Claim(lake, id, kOwnerA);
  ASSERT_EQ(first.status, 200) << first.body;
  EXPECT_STREQ(first.json["upload_id"].GetString(), id.c_str());
  EXPECT_STREQ(first.json["owner"].GetString(), kOwnerA);
  EXPECT_EQ(std::string(first.json["prefix"].GetString()), lake.prefix);
  EXPECT_EQ(std::string(first.json["path"].GetString()),
            lake.prefix + "/trino-upload/" + id + ".parquet");
  EXPECT_STREQ(first.json["file_kind"].GetString(), "data");
  EXPECT_FALSE(first.json.HasMember("file_format"));
  EXPECT_STREQ(first.json["state"].GetString(), "active");
  EXPECT_TRUE(first.json["expires_at"].IsString());

  ApiResponse again = Claim(lake, id, kOwnerA);
  ASSERT_EQ(again.status, 200) << again.body;
  EXPECT_STREQ(again.json["path"].GetString(), first.json["path"].GetString());
  ApiResponse other_owner = Claim(lake, id, kOwnerB);
  EXPECT_EQ(other_owner.status, 409) << other_owner.body;
  EXPECT_EQ(other_owner.error(), "commit_conflict");
  EXPECT_EQ(Claim(lake, id, kOwnerA, R"("file_kind":"delete")").status, 409);

  ApiResponse packed = Claim(lake, UploadId(2), kOwnerA,
                             R"("file_kind":"data","file_format":"clickhouse-mergetree-packed")");
  ASSERT_EQ(packed.status, 200) << packed.body;
  EXPECT_EQ(std::string(packed.json["path"].GetString()),
            lake.prefix + "/trino-upload/" + UploadId(2) + ".packed");
  EXPECT_STREQ(packed.json["file_format"].GetString(), "clickhouse-mergetree-packed");
  ApiResponse puffin = Claim(lake, UploadId(3), kOwnerA, R"("file_kind":"delete")");
  ASSERT_EQ(puffin.status, 200) << puffin.body;
  EXPECT_EQ(std::string(puffin.json["path"].GetString()),
            lake.prefix + "/trino-upload/" + UploadId(3) + ".puffin");

  EXPECT_EQ(Claim(lake, UploadId(4), kOwnerA, R"("file_kind":"position")").status, 422);
  EXPECT_EQ(
      Claim(lake, UploadId(4), kOwnerA, R"("file_kind":"delete","file_format":"parquet")").status,
      422);
  EXPECT_EQ(Claim(lake, UploadId(4), kOwnerA, R"("file_kind":"data","file_format":"orc")").status,
            422);
  EXPECT_EQ(S::Call("PUT", lake.catalog + "/uploads/" + UploadId(4),
                    R"({"owner":")" + std::string(kOwnerA) +
                        R"(","prefix":"s3://elsewhere/x","file_kind":"data"})")
                .status,
            422);
  EXPECT_EQ(S::Call("PUT", lake.catalog + "/uploads/" + UploadId(4),
                    R"({"owner":")" + std::string(kOwnerA) + R"(","prefix":")" + lake.prefix +
                        R"(/../x","file_kind":"data"})")
                .status,
            422);
  EXPECT_EQ(Claim(lake, "not-a-uuid", kOwnerA).status, 400);
  EXPECT_EQ(Claim(lake, UploadId(4), "nobody").status, 400);
  EXPECT_EQ(S::Call("PUT", "/v1/catalogs/no_such_catalog/uploads/" + UploadId(4),
                    R"({"owner":")" + std::string(kOwnerA) +
                        R"(","prefix":"s3://bucket/x","file_kind":"data"})")
                .status,
            404);
}

TEST(UploadsTest, RenewAbandonAndScheduleCounts) {
  UploadLake lake = NewUploadLake();
  std::vector<std::string> paths;
  for (int i = 1; i <= 3; ++i) {
    ApiResponse r = Claim(lake, UploadId(i), i < 3 ? kOwnerA : kOwnerB);
    ASSERT_EQ(r.status, 200) << r.body;
    paths.push_back(r.json["path"].GetString());
  }
  const std::string renew_a = R"({"owner":")" + std::string(kOwnerA) + R"("})";
  EXPECT_EQ(Count(S::Call("POST", lake.catalog + "/uploads/renew", renew_a), "renewed"), 2);
  // Owner A cannot abandon B's claim; its own is abandoned once.
  const std::string abandon = R"({"owner":")" + std::string(kOwnerA) + R"(","paths":[")" +
                              paths[0] + R"(",")" + paths[2] + R"("]})";
  EXPECT_EQ(Count(S::Call("POST", lake.catalog + "/uploads/abandon", abandon), "abandoned"), 1);
  EXPECT_EQ(Count(S::Call("POST", lake.catalog + "/uploads/abandon", abandon), "abandoned"), 0);
  EXPECT_EQ(Count(S::Call("POST", lake.catalog + "/uploads/renew", renew_a), "renewed"), 1);
  EXPECT_STREQ(Claim(lake, UploadId(1), kOwnerA).json["state"].GetString(), "abandoned");

  std::string many = R"({"owner":")" + std::string(kOwnerA) + R"(","paths":[)";
  for (int i = 0; i <= 10000; ++i) many += std::string(i ? "," : "") + "\"p\"";
  EXPECT_EQ(S::Call("POST", lake.catalog + "/uploads/abandon", many + "]}").status, 422);
  EXPECT_EQ(S::Call("POST", lake.catalog + "/uploads/renew", R"({"owner":"x"})").status, 400);

  EXPECT_EQ(S::Call("POST", lake.catalog + "/uploads/schedule-expired?limit=x").status, 400);
  EXPECT_EQ(S::Call("POST", lake.catalog + "/uploads/schedule-expired?limit=0").status, 422);
  EXPECT_EQ(S::Call("POST", lake.catalog + "/uploads/schedule-expired?limit=10001").status, 422);

  // Only the abandoned claim is due (the others are active and leased).
  EXPECT_EQ(QueuedRemovals(lake), 0);
  EXPECT_EQ(Count(S::Call("POST", lake.catalog + "/uploads/schedule-expired"), "scheduled"), 1);
  EXPECT_EQ(QueuedRemovals(lake), 1);
  EXPECT_EQ(
      Count(S::Call("POST", lake.catalog + "/uploads/schedule-expired?limit=10"), "scheduled"),
      0);  // already queued
  EXPECT_EQ(QueuedRemovals(lake), 1);
}

TEST(UploadsTest, CommitRegistersOnlyTheOwnersActiveClaims) {
  UploadLake lake = NewUploadLake();
  ApiResponse claim = Claim(lake, UploadId(1), kOwnerA);
  ASSERT_EQ(claim.status, 200) << claim.body;
  const std::string path = claim.json["path"].GetString();
  const int64_t head = Head(lake);

  // Another operation, or an unkeyed commit, cannot publish the path.
  ApiResponse foreign = S::Call("POST", lake.catalog + "/commit", Commit(path, Key(kOwnerB)));
  EXPECT_EQ(foreign.status, 409) << foreign.body;
  EXPECT_EQ(foreign.error(), "commit_conflict");
  EXPECT_NE(foreign.body.find("upload is fenced, already registered, or belongs to another "
                              "operation"),
            std::string::npos)
      << foreign.body;
  EXPECT_EQ(S::Call("POST", lake.catalog + "/commit", Commit(path, "")).status, 409);
  EXPECT_EQ(Head(lake), head);
  EXPECT_EQ(S::Call("GET", lake.catalog + "/namespaces/web/tables/events/scan").json.Size(), 0u);
  EXPECT_STREQ(Claim(lake, UploadId(1), kOwnerA).json["state"].GetString(), "active");

  // The owner publishes it; the claim is then registered.
  ApiResponse owned = S::Call("POST", lake.catalog + "/commit", Commit(path, Key(kOwnerA)));
  ASSERT_EQ(owned.status, 200) << owned.body;
  EXPECT_EQ(owned.json["snapshot_id"].GetInt64(), head + 1);
  EXPECT_STREQ(Claim(lake, UploadId(1), kOwnerA).json["state"].GetString(), "registered");
  // A replay of the same keyed commit answers the receipt.
  ApiResponse replay = S::Call("POST", lake.catalog + "/commit", Commit(path, Key(kOwnerA)));
  ASSERT_EQ(replay.status, 200) << replay.body;
  EXPECT_EQ(replay.json["snapshot_id"].GetInt64(), head + 1);
  // A registered claim cannot be published again, nor abandoned or renewed.
  EXPECT_EQ(S::Call("POST", lake.catalog + "/commit", Commit(path, Key(UploadId(77)))).status, 409);
  EXPECT_EQ(
      Count(S::Call("POST", lake.catalog + "/uploads/abandon",
                    R"({"owner":")" + std::string(kOwnerA) + R"(","paths":[")" + path + R"("]})"),
            "abandoned"),
      0);
  EXPECT_EQ(Count(S::Call("POST", lake.catalog + "/uploads/renew",
                          R"({"owner":")" + std::string(kOwnerA) + R"("})"),
                  "renewed"),
            0);
  EXPECT_EQ(Count(S::Call("POST", lake.catalog + "/uploads/schedule-expired"), "scheduled"), 0);
  EXPECT_EQ(S::Call("GET", lake.catalog + "/namespaces/web/tables/events/scan").json.Size(), 1u);

  // Paths without a claim pass unchecked.
  ApiResponse unclaimed = S::Call("POST", lake.catalog + "/commit",
                                  Commit(lake.prefix + "/plain.parquet", Key(kOwnerB)));
  EXPECT_EQ(unclaimed.status, 200) << unclaimed.body;
}

TEST(UploadsTest, AbandonedClaimCannotBeRegisteredAndIsQueued) {
  UploadLake lake = NewUploadLake();
  ApiResponse claim = Claim(lake, UploadId(1), kOwnerA);
  ASSERT_EQ(claim.status, 200) << claim.body;
  const std::string path = claim.json["path"].GetString();
  ASSERT_EQ(
      Count(S::Call("POST", lake.catalog + "/uploads/abandon",
                    R"({"owner":")" + std::string(kOwnerA) + R"(","paths":[")" + path + R"("]})"),
            "abandoned"),
      1);
  const int64_t head = Head(lake);
  ApiResponse fenced = S::Call("POST", lake.catalog + "/commit", Commit(path, Key(kOwnerA)));
  EXPECT_EQ(fenced.status, 409) << fenced.body;
  EXPECT_EQ(fenced.error(), "commit_conflict");
  EXPECT_EQ(Head(lake), head);
  EXPECT_EQ(Count(S::Call("POST", lake.catalog + "/uploads/schedule-expired"), "scheduled"), 1);
  EXPECT_EQ(QueuedRemovals(lake), 1);
  // A queued path stays unpublishable.
  EXPECT_EQ(S::Call("POST", lake.catalog + "/commit", Commit(path, Key(kOwnerA))).status, 409);
  EXPECT_EQ(Head(lake), head);
}

TEST(UploadsTest, CommitUploadsRequiresKeyReadSnapshotAndClaims) {
  UploadLake lake = NewUploadLake();
  ApiResponse claim = Claim(lake, UploadId(1), kOwnerA);
  ASSERT_EQ(claim.status, 200) << claim.body;
  const std::string path = claim.json["path"].GetString();
  const int64_t head = Head(lake);
  const std::string read = R"("read_snapshot":)" + std::to_string(head) + ",";
  const std::string url = lake.catalog + "/commit/uploads";
  const std::string uuid =
      S::Call("GET", lake.catalog + "/namespaces/web/tables/events").json["table_uuid"].GetString();
  EXPECT_EQ(S::Call("POST", url, GuardedCommit(path, Key(kOwnerA), uuid)).status, 422);
  EXPECT_EQ(S::Call("POST", url, GuardedCommit(path, read, uuid)).status, 422);
  // Every group must be guarded.
  ApiResponse unguarded = S::Call("POST", url, Commit(path, Key(kOwnerA) + read));
  EXPECT_EQ(unguarded.status, 422) << unguarded.body;
  EXPECT_NE(unguarded.body.find("web.events has none"), std::string::npos) << unguarded.body;
  ApiResponse unclaimed = S::Call(
      "POST", url, GuardedCommit(lake.prefix + "/plain.parquet", Key(kOwnerA) + read, uuid));
  EXPECT_EQ(unclaimed.status, 422) << unclaimed.body;
  EXPECT_EQ(S::Call("POST", url, GuardedCommit(path, Key(kOwnerB) + read, uuid)).status, 409);
  EXPECT_EQ(Head(lake), head);
  ApiResponse ok = S::Call("POST", url, GuardedCommit(path, Key(kOwnerA) + read, uuid));
  ASSERT_EQ(ok.status, 200) << ok.body;
  EXPECT_EQ(ok.json["snapshot_id"].GetInt64(), head + 1);
  EXPECT_STREQ(Claim(lake, UploadId(1), kOwnerA).json["state"].GetString(), "registered");
}

}  // namespace
}  // namespace hoglake::testing
