// The one-round-trip commit path (src/catalog/commit/commit_state_cache.h,
// RunCachedCommitBatch in commit_batch.h): a catalog's batches write on the
// state its last batch left, after checking in the same transaction that
// nothing else moved the catalog. Whenever something did — DDL, a table
// dropped and recreated, another server committing, a path queued for
// removal — the batch must read instead and answer exactly what reading
// answers: no stale table, column, allocator or guard is ever written on.
#include <sys/types.h>
#include <unistd.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "invariants.h"
#include "pg_session.h"
#include "server_fixture.h"

namespace hoglake::testing {
namespace {

using S = ServerEnvironment;

int64_t BatchesBy(const std::string& base_url, const std::string& path) {
  const double v = MetricSample(CallServer(base_url, "GET", "/metrics").body,
                                "hoglake_commit_batches_total{path=\"" + path + "\"}");
  return v < 0 ? 0 : static_cast<int64_t>(v);
}

std::string FilesJson(const std::string& prefix, int count, const std::string& extra = "") {
  std::string files;
  for (int f = 0; f < count; ++f) {
    if (f) files += ",";
    files += R"({"path":")" + prefix + "-" + std::to_string(f) +
             R"(.parquet","record_count":10,"file_size_bytes":100)" + extra + "}";
  }
  return files;
}

std::string Append(const std::string& table, const std::string& files) {
  return R"({"appends":[{"namespace":"ns","table":")" + table + R"(","files":[)" + files + "]}]}";
}

std::string CatalogIdOf(const std::string& name) {
  return "(SELECT catalog_id FROM hog_catalog WHERE name = '" + name + "')";
}

// A catalog with table ns.t and one commit to it, so its next batch has a
// state to write on.
TableLake LakeWithOneCommit() {
  TableLake lake = NewTableLake("ns", "t");
  ApiResponse r =
      S::Call("POST", lake.catalog + "/commit", Append("t", FilesJson(lake.data + "a", 2)));
  EXPECT_EQ(r.status, 200) << r.body;
  return lake;
}

// A second server process on the shared server's database (no background
// expiry), serving the same catalogs.
void StartSecondServer(ServerProcess& other) {
  char server_dir[] = "/tmp/hoglake-cache-XXXXXX";
  ASSERT_NE(mkdtemp(server_dir), nullptr);
  other.Start(server_dir, {"--database-url", TestDatabaseUrl("hoglake")},
              {{"HOGLAKE_EXPIRY_INTERVAL_MS", "0"}});
  ASSERT_TRUE(other.running());
}

// The beneath-the-API invariants of a catalog after the commits of a test.
void ExpectBookkeeping(const std::string& catalog) {
  PgSession pg(TestPgConninfo("hoglake"));
  ASSERT_TRUE(pg.ok());
  ExpectRowIdRangesDisjoint(pg, catalog);
  ExpectLiveTotalsKept(pg, catalog);
  ExpectNoOrphanFileChildren(pg, catalog);
}

TEST(CommitStateCacheTest, SuccessiveCommitsWriteWithoutReading) {
  const TableLake lake = NewTableLake("ns", "t");
  const int64_t cached_before = BatchesBy(S::base_url(), "cached");
  int64_t head = S::Call("GET", lake.catalog).json["head_snapshot_id"].GetInt64();
  for (int i = 0; i < 6; ++i) {
    ApiResponse r = S::Call("POST", lake.catalog + "/commit",
                            Append("t", FilesJson(lake.data + "f" + std::to_string(i), 3)));
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(r.json["snapshot_id"].GetInt64(), ++head);
  }
  // The first commit reads (nothing is known of the catalog's tables yet);
  // the next ones write on what the one before left.
  EXPECT_GE(BatchesBy(S::base_url(), "cached") - cached_before, 5);
  ExpectCatalogInvariants(lake.name, {"ns.t"});
  ExpectBookkeeping(lake.name);
}

TEST(CommitStateCacheTest, DdlBetweenCommitsIsSeen) {
  const TableLake lake = NewTableLake("ns", "t");
  const std::string t = lake.catalog + "/namespaces/ns/tables/t";
  // With statistics: a column may not be added while files wait for theirs.
  const std::string stats_id =
      R"(,"column_stats":[{"field_id":1,"value_count":10,"null_count":0}])";
  for (const char* prefix : {"a", "b"}) {
    ApiResponse r = S::Call("POST", lake.catalog + "/commit",
                            Append("t", FilesJson(lake.data + prefix, 2, stats_id)));
    ASSERT_EQ(r.status, 200) << r.body;
  }
  const int64_t fallbacks_before = BatchesBy(S::base_url(), "fallback");

  // A column added since. The next commit would be valid on either column
  // list: written on the stale state, it is abandoned at the head check.
  ApiResponse altered = S::Call(
      "POST", t + "/alter", R"({"ops":[{"op":"add_column","column":{"name":"v","type":"long"}}]})");
  ASSERT_EQ(altered.status, 200) << altered.body;
  ApiResponse plain =
      S::Call("POST", lake.catalog + "/commit", Append("t", FilesJson(lake.data + "c", 1)));
  EXPECT_EQ(plain.status, 200) << plain.body;
  EXPECT_EQ(BatchesBy(S::base_url(), "fallback") - fallbacks_before, 1);
  // Statistics for the new column are accepted (a stale column list would
  // refuse field 2), and a field the table lacks still is not.
  const std::string stats_v = R"(,"column_stats":[{"field_id":2,"value_count":10,"null_count":0}])";
  ApiResponse with_new_column = S::Call("POST", lake.catalog + "/commit",
                                        Append("t", FilesJson(lake.data + "d", 2, stats_v)));
  EXPECT_EQ(with_new_column.status, 200) << with_new_column.body;
  const std::string stats_unknown =
      R"(,"column_stats":[{"field_id":9,"value_count":10,"null_count":0}])";
  ApiResponse unknown_field = S::Call("POST", lake.catalog + "/commit",
                                      Append("t", FilesJson(lake.data + "e", 1, stats_unknown)));
  EXPECT_GE(unknown_field.status, 400) << unknown_field.body;
  EXPECT_LT(unknown_field.status, 500) << unknown_field.body;

  // Dropped and recreated under the same name: the next commit lands in the
  // new table, not in the one the state remembered.
  ASSERT_EQ(S::Call("DELETE", t).status, 200);
  ASSERT_EQ(S::Call("POST", lake.catalog + "/namespaces/ns/tables",
                    R"({"name":"t","columns":[{"name":"id","type":"long"}]})")
                .status,
            201);
  ApiResponse into_new =
      S::Call("POST", lake.catalog + "/commit", Append("t", FilesJson(lake.data + "f", 3)));
  ASSERT_EQ(into_new.status, 200) << into_new.body;
  PgSession pg(TestPgConninfo("hoglake"));
  ASSERT_TRUE(pg.ok());
  const std::string id = CatalogIdOf(lake.name);
  EXPECT_EQ(pg.Int("SELECT count(*) FROM hog_data_file f WHERE f.catalog_id = " + id +
                   " AND f.end_snapshot IS NULL AND f.table_id = (SELECT v.table_id FROM "
                   "hog_table_version v WHERE v.catalog_id = f.catalog_id AND v.name = 't' "
                   "AND v.end_snapshot IS NULL)"),
            3);
  ExpectCatalogInvariants(lake.name, {"ns.t"});
  ExpectBookkeeping(lake.name);
}

TEST(CommitStateCacheTest, AnotherServerCommittingIsSeen) {
  const TableLake lake = NewTableLake("ns", "t");
  ServerProcess other;
  ASSERT_NO_FATAL_FAILURE(StartSecondServer(other));
  const int64_t fallbacks_before = BatchesBy(S::base_url(), "fallback");
  int64_t head = S::Call("GET", lake.catalog).json["head_snapshot_id"].GetInt64();
  // Two commits on one server (so it has a state to write on), then two on
  // the other, and so on: each server's state is stale at every switch.
  for (int i = 0; i < 12; ++i) {
    const bool here = (i / 2) % 2 == 0;
    const std::string files = FilesJson(lake.data + "g" + std::to_string(i), 2);
    ApiResponse r =
        here ? S::Call("POST", lake.catalog + "/commit", Append("t", files))
             : CallServer(other.base_url(), "POST", lake.catalog + "/commit", Append("t", files));
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(r.json["snapshot_id"].GetInt64(), ++head);
  }
  other.Stop();
  EXPECT_GE(BatchesBy(S::base_url(), "fallback") - fallbacks_before, 1);
  ExpectCatalogInvariants(lake.name, {"ns.t"});
  ExpectBookkeeping(lake.name);
}

// Both servers at once, four writers each, with a column renamed halfway: the
// batches of each server keep finding their state stale, and every commit
// still lands exactly once with dense snapshot ids and tiled row ids.
TEST(CommitStateCacheTest, TwoServersCommittingConcurrentlyStayConsistent) {
  const TableLake lake = NewTableLake("ns", "t");
  ServerProcess other;
  ASSERT_NO_FATAL_FAILURE(StartSecondServer(other));
  const int64_t head_before = S::Call("GET", lake.catalog).json["head_snapshot_id"].GetInt64();
  constexpr int kWritersEach = 4;
  constexpr int kCommitsEach = 25;
  std::atomic<int> failed{0};
  std::vector<std::thread> writers;
  for (int w = 0; w < 2 * kWritersEach; ++w) {
    writers.emplace_back([&, w] {
      const std::string url = w < kWritersEach ? S::base_url() : other.base_url();
      for (int i = 0; i < kCommitsEach; ++i) {
        const std::string files =
            FilesJson(lake.data + "w" + std::to_string(w) + "-" + std::to_string(i), 2,
                      R"(,"column_stats":[{"field_id":1,"value_count":10,"null_count":0}])");
        ApiResponse r = CallServer(url, "POST", lake.catalog + "/commit", Append("t", files));
        if (r.status != 200) {
          ++failed;
          ADD_FAILURE() << r.status << " " << r.body;
        }
        if (w == 0 && i == kCommitsEach / 2) {
          ApiResponse altered =
              CallServer(url, "POST", lake.catalog + "/namespaces/ns/tables/t/alter",
                         R"({"ops":[{"op":"rename_column","from":"id","to":"ident"}]})");
          if (altered.status != 200) ADD_FAILURE() << altered.status << " " << altered.body;
        }
      }
    });
  }
  for (std::thread& t : writers) t.join();
  other.Stop();
  EXPECT_EQ(failed.load(), 0);
  // Every commit and the DDL took one snapshot each, densely.
  EXPECT_EQ(S::Call("GET", lake.catalog).json["head_snapshot_id"].GetInt64(),
            head_before + 2 * kWritersEach * kCommitsEach + 1);
  PgSession pg(TestPgConninfo("hoglake"));
  ASSERT_TRUE(pg.ok());
  EXPECT_EQ(
      pg.Int("SELECT count(*) FROM hog_data_file WHERE catalog_id = " + CatalogIdOf(lake.name)),
      2 * 2 * kWritersEach * kCommitsEach);
  ExpectCatalogInvariants(lake.name, {"ns.t"});
  ExpectBookkeeping(lake.name);
}

// A head change that no write of a stale batch would collide with (the file
// allocator moved ahead, as if ids had been handed out elsewhere): only the
// head check sees it, and the batch must allocate after the moved value —
// a stale allocator written back would move it backwards.
TEST(CommitStateCacheTest, AnAllocatorMovedBeneathIsSeen) {
  const TableLake lake = LakeWithOneCommit();
  PgSession pg(TestPgConninfo("hoglake"));
  ASSERT_TRUE(pg.ok());
  const std::string id = CatalogIdOf(lake.name);
  pg.Exec("UPDATE hog_catalog SET next_file_id = next_file_id + 1000 WHERE catalog_id = " + id);
  const int64_t moved = pg.Int("SELECT next_file_id FROM hog_catalog WHERE catalog_id = " + id);
  ApiResponse r =
      S::Call("POST", lake.catalog + "/commit", Append("t", FilesJson(lake.data + "b", 3)));
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(pg.Int("SELECT next_file_id FROM hog_catalog WHERE catalog_id = " + id), moved + 3);
  EXPECT_EQ(pg.Int("SELECT min(data_file_id) FROM hog_data_file WHERE catalog_id = " + id +
                   " AND path LIKE '%/b-%'"),
            moved);
  ExpectBookkeeping(lake.name);
}

TEST(CommitStateCacheTest, PathsQueuedForRemovalAreRefusedAsWhenReading) {
  const TableLake lake = LakeWithOneCommit();
  const std::string queued = lake.data + "queued";
  {
    PgSession pg(TestPgConninfo("hoglake"));
    ASSERT_TRUE(pg.ok());
    pg.Exec("INSERT INTO hog_file_removal (catalog_id, path, file_kind, reason) SELECT " +
            CatalogIdOf(lake.name) + ", '" + queued + "-0.parquet', 'data', 'snapshot_expiry'");
  }
  const int64_t head = S::Call("GET", lake.catalog).json["head_snapshot_id"].GetInt64();
  ApiResponse refused =
      S::Call("POST", lake.catalog + "/commit", Append("t", FilesJson(queued, 1)));
  EXPECT_EQ(refused.status, 409) << refused.body;
  EXPECT_NE(refused.body.find("scheduled for deletion"), std::string::npos) << refused.body;
  EXPECT_EQ(S::Call("GET", lake.catalog).json["head_snapshot_id"].GetInt64(), head);
  // The catalog goes on committing.
  ApiResponse next =
      S::Call("POST", lake.catalog + "/commit", Append("t", FilesJson(lake.data + "b", 2)));
  EXPECT_EQ(next.status, 200) << next.body;
  ExpectBookkeeping(lake.name);
}

}  // namespace
}  // namespace hoglake::testing
