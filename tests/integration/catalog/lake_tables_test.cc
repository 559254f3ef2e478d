// LakeTablesOver (catalog/lake_tables.h) on a CatalogService of this process
// over the test server's database (the catalogs written through the server):
// a table resolved at head or at an older snapshot; its live files pinned to
// the resolved snapshot while commits land after it, with their statistics;
// names listed sorted; kNotFound naming what is missing.
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "catalog/catalog_service.h"
#include "catalog/lake_tables.h"
#include "pg/pg_pool.h"
#include "pg_session.h"
#include "server_fixture.h"

namespace hoglake::testing {
namespace {

using catalog::DataFileInfo;
using catalog::LakeTables;
using catalog::ResolvedTable;
using catalog::SnapshotSelector;
using S = ServerEnvironment;

SnapshotSelector AtSnapshot(int64_t id) {
  SnapshotSelector at;
  at.snapshot = id;
  return at;
}

// One file of 10 rows whose "id" (field 1, long) spans [1, 10]: the bounds
// are Iceberg's single-value bytes (8 bytes, little-endian) in base64.
std::string FileJson(const std::string& path) {
  return R"({"path":")" + path +
         R"(","record_count":10,"file_size_bytes":100,"column_stats":[)"
         R"({"field_id":1,"value_count":10,"null_count":0,)"
         R"("lower_bound":"AQAAAAAAAAA=","upper_bound":"CgAAAAAAAAA="}]})";
}

// Appends one file to ns.<table>; returns the new snapshot's id (-1 on failure).
int64_t AppendFile(const TableLake& lake, const std::string& table, const std::string& name) {
  const ApiResponse r =
      S::Call("POST", lake.catalog + "/commit",
              R"({"appends":[{"namespace":"ns","table":")" + table + R"(","files":[)" +
                  FileJson(lake.data + name + ".parquet") + "]}]}");
  EXPECT_EQ(r.status, 200) << r.body;
  return r.status == 200 ? r.json["snapshot_id"].GetInt64() : -1;
}

std::vector<std::string> PathsOf(const std::vector<DataFileInfo>& files) {
  std::vector<std::string> paths;
  for (const DataFileInfo& f : files) paths.push_back(f.path);
  return paths;
}

class LakeTablesTest : public ::testing::Test {
 protected:
  pg::PgPool pool_{TestPgConninfo("hoglake"), 2};
  catalog::CatalogService service_{&pool_, catalog::CatalogServiceOptions{}};
  std::unique_ptr<LakeTables> tables_ = catalog::LakeTablesOver(service_);
};

TEST_F(LakeTablesTest, ResolvesAtHeadAndAtAnOlderSnapshot) {
  const TableLake lake = NewTableLake("ns", "t");
  ASSERT_FALSE(lake.uuid.empty());
  const int64_t first = AppendFile(lake, "t", "a");
  const int64_t second = AppendFile(lake, "t", "b");
  ASSERT_GT(second, first);

  Result<ResolvedTable> head = tables_->Resolve(lake.name, "ns", "t", SnapshotSelector{});
  ASSERT_TRUE(head.ok()) << head.error().ToString();
  EXPECT_EQ(head->catalog, lake.name);
  EXPECT_EQ(head->namespace_name, "ns");
  EXPECT_EQ(head->name, "t");
  EXPECT_EQ(head->snapshot_id, second);
  EXPECT_EQ(head->info.table_uuid, lake.uuid);
  ASSERT_EQ(head->info.columns.size(), 1u);
  EXPECT_EQ(head->info.columns[0].name, "id");
  EXPECT_EQ(head->info.columns[0].field_id, 1);

  Result<ResolvedTable> old = tables_->Resolve(lake.name, "ns", "t", AtSnapshot(first));
  ASSERT_TRUE(old.ok()) << old.error().ToString();
  EXPECT_EQ(old->snapshot_id, first);
  EXPECT_EQ(old->info.table_uuid, lake.uuid);

  Result<std::vector<DataFileInfo>> head_files = tables_->LiveFiles(*head);
  ASSERT_TRUE(head_files.ok()) << head_files.error().ToString();
  EXPECT_EQ(PathsOf(*head_files),
            (std::vector<std::string>{lake.data + "a.parquet", lake.data + "b.parquet"}));
  Result<std::vector<DataFileInfo>> old_files = tables_->LiveFiles(*old);
  ASSERT_TRUE(old_files.ok()) << old_files.error().ToString();
  EXPECT_EQ(PathsOf(*old_files), std::vector<std::string>{lake.data + "a.parquet"});

  // Before the table existed it is not found.
  Result<ResolvedTable> before = tables_->Resolve(lake.name, "ns", "t", AtSnapshot(0));
  ASSERT_FALSE(before.ok());
  EXPECT_EQ(before.error().code, ErrorCode::kNotFound);
}

TEST_F(LakeTablesTest, LiveFilesStayAtTheResolvedSnapshotWithTheirStats) {
  const TableLake lake = NewTableLake("ns", "t");
  AppendFile(lake, "t", "a");
  Result<ResolvedTable> resolved = tables_->Resolve(lake.name, "ns", "t", SnapshotSelector{});
  ASSERT_TRUE(resolved.ok()) << resolved.error().ToString();
  // A commit lands between Resolve and LiveFiles.
  const int64_t later = AppendFile(lake, "t", "b");
  ASSERT_GT(later, resolved->snapshot_id);

  Result<std::vector<DataFileInfo>> files = tables_->LiveFiles(*resolved);
  ASSERT_TRUE(files.ok()) << files.error().ToString();
  ASSERT_EQ(files->size(), 1u);
  const DataFileInfo& file = (*files)[0];
  EXPECT_EQ(file.path, lake.data + "a.parquet");
  EXPECT_EQ(file.record_count, 10);
  EXPECT_EQ(file.stats_state, catalog::StatsState::kProvided);
  ASSERT_TRUE(file.column_stats.has_value());
  ASSERT_EQ(file.column_stats->size(), 1u);
  const catalog::ColumnStatRow& stats = (*file.column_stats)[0];
  EXPECT_EQ(stats.field_id, 1);
  EXPECT_EQ(stats.value_count, 10);
  EXPECT_EQ(stats.null_count, 0);
  EXPECT_EQ(stats.lower_bound, std::string("\x01\0\0\0\0\0\0\0", 8));
  EXPECT_EQ(stats.upper_bound, std::string("\x0a\0\0\0\0\0\0\0", 8));

  // Resolved again, the table is at the newer snapshot with both files.
  Result<ResolvedTable> again = tables_->Resolve(lake.name, "ns", "t", SnapshotSelector{});
  ASSERT_TRUE(again.ok()) << again.error().ToString();
  EXPECT_EQ(again->snapshot_id, later);
  Result<std::vector<DataFileInfo>> now = tables_->LiveFiles(*again);
  ASSERT_TRUE(now.ok()) << now.error().ToString();
  EXPECT_EQ(now->size(), 2u);
}

TEST_F(LakeTablesTest, ListsNamesSorted) {
  const TableLake lake = NewTableLake("ns", "t");
  ASSERT_EQ(S::Call("POST", lake.catalog + "/namespaces", R"({"name":"a_first"})").status, 201);
  ASSERT_EQ(S::Call("POST", lake.catalog + "/namespaces/ns/tables",
                    R"({"name":"b","columns":[{"name":"id","type":"long"}]})")
                .status,
            201);

  Result<std::vector<std::string>> catalogs = tables_->ListCatalogNames();
  ASSERT_TRUE(catalogs.ok()) << catalogs.error().ToString();
  EXPECT_TRUE(std::is_sorted(catalogs->begin(), catalogs->end()));
  EXPECT_NE(std::find(catalogs->begin(), catalogs->end(), lake.name), catalogs->end());

  Result<std::vector<std::string>> namespaces = tables_->ListNamespaceNames(lake.name);
  ASSERT_TRUE(namespaces.ok()) << namespaces.error().ToString();
  EXPECT_EQ(*namespaces, (std::vector<std::string>{"a_first", "ns"}));

  Result<std::vector<std::string>> names = tables_->ListTableNames(lake.name, "ns");
  ASSERT_TRUE(names.ok()) << names.error().ToString();
  EXPECT_EQ(*names, (std::vector<std::string>{"b", "t"}));
  Result<std::vector<std::string>> none = tables_->ListTableNames(lake.name, "a_first");
  ASSERT_TRUE(none.ok()) << none.error().ToString();
  EXPECT_TRUE(none->empty());
}

TEST_F(LakeTablesTest, MissingTableNamespaceOrCatalogIsNotFound) {
  const TableLake lake = NewTableLake("ns", "t");
  const auto expect_not_found = [](const auto& result, const std::string& names) {
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().code, ErrorCode::kNotFound) << result.error().ToString();
    EXPECT_NE(result.error().message.find(names), std::string::npos) << result.error().message;
  };
  expect_not_found(tables_->Resolve(lake.name, "ns", "missing", {}), "missing");
  expect_not_found(tables_->Resolve(lake.name, "nowhere", "t", {}), "nowhere");
  expect_not_found(tables_->Resolve("no-such-catalog", "ns", "t", {}), "no-such-catalog");
  expect_not_found(tables_->ListTableNames(lake.name, "nowhere"), "nowhere");
  expect_not_found(tables_->ListNamespaceNames("no-such-catalog"), "no-such-catalog");
  expect_not_found(tables_->ListTableNames("no-such-catalog", "ns"), "no-such-catalog");
}

}  // namespace
}  // namespace hoglake::testing
