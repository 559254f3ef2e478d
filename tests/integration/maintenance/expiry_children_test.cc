// Expiry's file-row purge removes each purged file's column stats and
// partition values with it (V11 dropped the cascading foreign keys), and
// leaves those of retained files alone; a purge of many pages, split into
// shards, purges each file once.
#include <thread>

#include "invariants.h"
#include "pg_session.h"
#include "server_fixture.h"

namespace hoglake::testing {
namespace {

using S = ServerEnvironment;

TEST(ExpiryTest, PurgeRemovesStatsAndPartitionValuesWithTheirFiles) {
  const std::string name = NewCatalog();
  const std::string c = "/v1/catalogs/" + name;
  const std::string t = c + "/namespaces/ns/tables/t";
  ASSERT_EQ(S::Call("POST", c + "/namespaces", R"({"name":"ns"})").status, 201);
  ApiResponse table = S::Call("POST", c + "/namespaces/ns/tables",
                              R"({"name":"t","columns":[{"name":"id","type":"long"},)"
                              R"({"name":"region","type":"string"}]})");
  ASSERT_EQ(table.status, 201) << table.body;
  const std::string uuid = table.json["table_uuid"].GetString();
  ApiResponse spec = S::Call("POST", t + "/alter",
                             R"({"ops":[{"op":"set_partition_spec","fields":[)"
                             R"({"source_field_id":2,"transform":"identity"}]}]})");
  ASSERT_EQ(spec.status, 200) << spec.body;
  auto append = [&](const std::string& file, const std::string& region) {
    ApiResponse r = S::Call(
        "POST", c + "/commit",
        R"({"appends":[{"namespace":"ns","table":"t","files":[{"path":"s3://bucket/)" + name + "/" +
            file + R"(.parquet","record_count":10,"file_size_bytes":100,"partition_values":[")" +
            region +
            R"("],"column_stats":[{"field_id":1,"value_count":10,"null_count":0},)"
            R"({"field_id":2,"value_count":10,"null_count":1}]}]}]})");
    ASSERT_EQ(r.status, 200) << r.body;
  };
  for (int i = 0; i < 3; ++i) append("old" + std::to_string(i), "eu");
  ASSERT_EQ(S::Call("POST", t + "/truncate?expected_table_uuid=" + uuid).status, 200);
  append("kept", "us");

  PgSession pg(TestPgConninfo("hoglake"));
  ASSERT_TRUE(pg.ok());
  const std::string id =
      std::to_string(pg.Int("SELECT catalog_id FROM hog_catalog WHERE name = '" + name + "'"));
  auto count = [&](const std::string& child) {
    return pg.Int("SELECT count(*) FROM " + child + " WHERE catalog_id = " + id);
  };
  ASSERT_EQ(count("hog_file_stats"), 4);  // one packed stats row per file
  ASSERT_EQ(count("hog_file_partition_value"), 4);

  ASSERT_EQ(S::Call("PATCH", c + "/options", R"({"snapshot_retention_seconds":1})").status, 200);
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  ApiResponse expired = S::Call("POST", c + "/maintenance/expire?batch=100");
  ASSERT_EQ(expired.status, 200) << expired.body;
  EXPECT_EQ(expired.json["data_files_queued"].GetInt64(), 3);

  // Only the live file's children remain, and nothing is orphaned.
  EXPECT_EQ(count("hog_file_stats"), 1);
  EXPECT_EQ(count("hog_file_partition_value"), 1);
  EXPECT_EQ(pg.Int("SELECT count(*) FROM hog_file_partition_value WHERE catalog_id = " + id +
                   " AND value = 'us'"),
            1);
  ExpectNoOrphanFileChildren(pg, name);
  ApiResponse scan = S::Call("GET", t + "/scan?include=column_stats");
  ASSERT_EQ(scan.status, 200) << scan.body;
  ASSERT_EQ(scan.json.Size(), 1u);
}

// More than one page purgeable (> 10,000 file rows): the purge is split into
// shards, each on its own connection and transaction per page. Every file row
// goes exactly once — its path queued once, its stats with it — and the
// retained file is untouched.
TEST(ExpiryTest, ShardedPurgeQueuesEveryFileOnce) {
  const TableLake lake = NewTableLake("ns", "t");
  ASSERT_FALSE(lake.uuid.empty());
  const std::string& name = lake.name;
  const std::string& c = lake.catalog;
  const std::string t = c + "/namespaces/ns/tables/t";
  constexpr int kCommits = 5;
  constexpr int kFilesPerCommit = 5001;  // 25,005 rows: three shards of more than 8,000
  auto append = [&](const std::string& prefix, int files) {
    std::string body = R"({"appends":[{"namespace":"ns","table":"t","files":[)";
    for (int f = 0; f < files; ++f) {
      if (f > 0) body += ',';
      body += R"({"path":")" + lake.data + prefix + std::to_string(f) +
              R"(.parquet","record_count":1,"file_size_bytes":10,"column_stats":[)"
              R"({"field_id":1,"value_count":1,"null_count":0}]})";
    }
    body += "]}]}";
    ApiResponse r = S::Call("POST", c + "/commit", body);
    ASSERT_EQ(r.status, 200) << r.body.substr(0, 500);
  };
  for (int i = 0; i < kCommits; ++i) append("old" + std::to_string(i) + "-", kFilesPerCommit);
  ASSERT_EQ(S::Call("POST", t + "/truncate?expected_table_uuid=" + lake.uuid).status, 200);
  append("kept-", 1);

  PgSession pg(TestPgConninfo("hoglake"));
  ASSERT_TRUE(pg.ok());
  const std::string id =
      std::to_string(pg.Int("SELECT catalog_id FROM hog_catalog WHERE name = '" + name + "'"));
  const int64_t purgeable = int64_t{kCommits} * kFilesPerCommit;
  ASSERT_EQ(pg.Int("SELECT count(*) FROM hog_file_stats WHERE catalog_id = " + id), purgeable + 1);

  ASSERT_EQ(S::Call("PATCH", c + "/options", R"({"snapshot_retention_seconds":1})").status, 200);
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  ApiResponse expired = S::Call("POST", c + "/maintenance/expire?batch=100");
  ASSERT_EQ(expired.status, 200) << expired.body;
  EXPECT_EQ(expired.json["data_files_queued"].GetInt64(), purgeable);
  EXPECT_GE(expired.json["purge_pages"].GetInt64(), 3) << expired.body;  // one per shard at least
  EXPECT_FALSE(expired.json.HasMember("purge_failures")) << expired.body;

  EXPECT_EQ(pg.Int("SELECT count(*) FROM hog_file_removal WHERE catalog_id = " + id +
                   " AND reason = 'snapshot_expiry'"),
            purgeable);
  EXPECT_EQ(pg.Int("SELECT count(DISTINCT path) FROM hog_file_removal WHERE catalog_id = " + id +
                   " AND path LIKE '%/old%'"),
            purgeable);
  EXPECT_EQ(pg.Int("SELECT count(*) FROM hog_data_file WHERE catalog_id = " + id), 1);
  EXPECT_EQ(pg.Int("SELECT count(*) FROM hog_file_stats WHERE catalog_id = " + id), 1);
  ExpectNoOrphanFileChildren(pg, name);
  ApiResponse scan = S::Call("GET", t + "/scan");
  ASSERT_EQ(scan.status, 200) << scan.body;
  ASSERT_EQ(scan.json.Size(), 1u);
}

}  // namespace
}  // namespace hoglake::testing
