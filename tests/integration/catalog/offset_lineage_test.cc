// Consumer offsets across an atomic replacement (server digest §4.4, §5.1):
// a consumer that commits on the new incarnation at or past its creation
// releases its offset on the replaced one (release-on-reconcile), and
// expiry's forward walk releases offsets on dropped incarnations whose
// consumer holds one on a descendant — never one the consumer still needs.
#include <algorithm>
#include <string>
#include <vector>

#include "pg_session.h"
#include "server_fixture.h"

namespace hoglake::testing {
namespace {

using S = ServerEnvironment;

struct Lineage {
  std::string catalog;  // "/v1/catalogs/<name>"
  std::string old_uuid, new_uuid;
  int64_t new_created = 0;  // snapshot creating the new incarnation
};

// web.events created, then replaced atomically by a table creation.
Lineage ReplacedTable() {
  Lineage l;
  l.catalog = "/v1/catalogs/" + NewCatalog();
  EXPECT_EQ(S::Call("POST", l.catalog + "/namespaces", R"({"name":"web"})").status, 201);
  ApiResponse old_table = S::Call("POST", l.catalog + "/namespaces/web/tables",
                                  R"({"name":"events","columns":[{"name":"x","type":"int"}]})");
  EXPECT_EQ(old_table.status, 201) << old_table.body;
  l.old_uuid = old_table.json["table_uuid"].GetString();
  const int64_t head = S::Call("GET", l.catalog).json["head_snapshot_id"].GetInt64();
  const std::string op = l.catalog + "/table-creations/0d000000-0000-4000-8000-000000000001";
  ApiResponse prepared =
      S::Call("PUT", op,
              R"({"namespace":"web","name":"events","columns":[{"name":"x","type":"long"}],)"
              R"("replacement":{"expected_table_uuid":")" +
                  l.old_uuid + R"(","read_snapshot":)" + std::to_string(head) + "}}");
  EXPECT_EQ(prepared.status, 200) << prepared.body;
  ApiResponse published = S::Call("POST", op + "/commit", R"({"files":[]})");
  EXPECT_EQ(published.status, 200) << published.body;
  l.new_uuid = published.json["table_uuid"].GetString();
  l.new_created = published.json["snapshot_id"].GetInt64();
  return l;
}

std::string Offsets(const Lineage& l, const std::string& consumer) {
  ApiResponse r = S::Call("GET", l.catalog + "/consumers/" + consumer + "/offsets");
  EXPECT_EQ(r.status, 200) << r.body;
  std::vector<std::string> parts;  // "new@N" / "old@N", sorted
  for (const auto& o : r.json.GetArray()) {
    const std::string uuid = o["table_uuid"].GetString();
    parts.push_back(std::string(uuid == l.new_uuid ? "new" : "old") + "@" +
                    std::to_string(o["committed_snapshot"].GetInt64()));
  }
  std::sort(parts.begin(), parts.end());
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : ",") + p;
  return out;
}

TEST(OffsetLineageTest, CommittingOnTheNewIncarnationReleasesTheOldOffset) {
  const Lineage l = ReplacedTable();
  const std::string put = l.catalog + "/consumers/etl/offsets/";
  ASSERT_EQ(S::Call("PUT", put + l.old_uuid, R"({"snapshot_id":2})").status, 200);
  // Below the new incarnation's creation: nothing is released yet.
  ASSERT_EQ(S::Call("PUT", put + l.new_uuid,
                    R"({"snapshot_id":)" + std::to_string(l.new_created - 1) + "}")
                .status,
            200);
  EXPECT_EQ(Offsets(l, "etl"), "new@" + std::to_string(l.new_created - 1) + ",old@2");
  ASSERT_EQ(
      S::Call("PUT", put + l.new_uuid, R"({"snapshot_id":)" + std::to_string(l.new_created) + "}")
          .status,
      200);
  EXPECT_EQ(Offsets(l, "etl"), "new@" + std::to_string(l.new_created));
  // Another consumer's offset on the old incarnation is its own business.
  ASSERT_EQ(
      S::Call("PUT", l.catalog + "/consumers/other/offsets/" + l.old_uuid, R"({"snapshot_id":2})")
          .status,
      200);
  EXPECT_EQ(Offsets(l, "other"), "old@2");
}

TEST(OffsetLineageTest, ExpiryReleasesOffsetsOnDroppedAncestors) {
  const Lineage l = ReplacedTable();
  // Offsets written beneath the API, as an older server (no reconcile) left them.
  PgSession pg(TestPgConninfo("hoglake"));
  ASSERT_TRUE(pg.ok());
  const std::string name = l.catalog.substr(std::string("/v1/catalogs/").size());
  const std::string id =
      std::to_string(pg.Int("SELECT catalog_id FROM hog_catalog WHERE name = '" + name + "'"));
  auto insert = [&](const std::string& consumer, const std::string& uuid, int64_t snapshot) {
    pg.Exec(
        "INSERT INTO hog_consumer_offset (catalog_id, consumer_id, table_uuid, "
        "committed_snapshot) VALUES (" +
        id + ", '" + consumer + "', '" + uuid + "', " + std::to_string(snapshot) + ")");
  };
  insert("moved", l.old_uuid, 2);  // and past the new incarnation's creation:
  insert("moved", l.new_uuid, l.new_created);
  insert("lagging", l.old_uuid, 2);  // on the new one, but below its creation
  insert("lagging", l.new_uuid, l.new_created - 1);
  insert("stuck", l.old_uuid, 2);  // never moved on
  // No retention set: the release runs all the same.
  ApiResponse expired = S::Call("POST", l.catalog + "/maintenance/expire");
  ASSERT_EQ(expired.status, 200) << expired.body;
  EXPECT_EQ(Offsets(l, "moved"), "new@" + std::to_string(l.new_created));
  EXPECT_EQ(Offsets(l, "lagging"), "new@" + std::to_string(l.new_created - 1) + ",old@2");
  EXPECT_EQ(Offsets(l, "stuck"), "old@2");
}

}  // namespace
}  // namespace hoglake::testing
