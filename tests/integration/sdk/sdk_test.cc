// The C++ SDK (src/client) against the real server: every wrapper outside
// the writer path round-trips through `hoglake serve`, and the server's
// refusals come back with the SDK's error kinds.
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "client/client.h"
#include "server_fixture.h"

namespace hoglake::testing {
namespace {

using client::Catalog;
using client::ColumnDef;
using client::ErrorKind;
using client::ErrorKindOf;
using client::HoglakeClient;
using client::Namespace;
using client::Table;
using client::TimeTravel;
using iceberg::ColumnType;

ColumnDef Col(std::string name, iceberg::TypeSpec type, bool nullable = true,
              std::vector<ColumnDef> children = {}) {
  ColumnDef c;
  c.name = std::move(name);
  c.type = type;
  c.nullable = nullable;
  c.children = std::move(children);
  return c;
}

// A fresh catalog over a file:// lake in its own temporary directory.
struct SdkLake {
  std::string name;
  std::string dir;
  std::string data_path;
};

SdkLake NewSdkLake() {
  static std::atomic<int> counter{0};
  char pattern[] = "/tmp/hoglake-sdk-XXXXXX";
  EXPECT_NE(mkdtemp(pattern), nullptr);
  SdkLake lake;
  lake.name = "sdk-" + std::to_string(getpid()) + "-" + std::to_string(++counter);
  lake.dir = pattern;
  lake.data_path = "file://" + lake.dir;
  return lake;
}

HoglakeClient NewClient() {
  client::ClientOptions options;
  options.retry_base_delay_ms = 10;
  return HoglakeClient(ServerEnvironment::base_url(), {}, options);
}

std::vector<int64_t> Drain(client::SnapshotIterator& it) {
  std::vector<int64_t> ids;
  while (true) {
    Result<std::optional<client::Snapshot>> next = it.Next();
    EXPECT_TRUE(next.ok()) << next.error().ToString();
    if (!next.ok() || !*next) break;
    ids.push_back((*next)->snapshot_id);
  }
  return ids;
}

TEST(SdkTest, CatalogsNamespacesTablesAlterViewsDrop) {
  HoglakeClient sdk = NewClient();
  SdkLake lake = NewSdkLake();
  Result<Catalog> created = sdk.CreateCatalog(lake.name, lake.data_path);
  ASSERT_TRUE(created.ok()) << created.error().ToString();
  EXPECT_EQ(created->data_path(), lake.data_path);
  EXPECT_EQ(created->info().head_snapshot_id, 0);
  EXPECT_EQ(ErrorKindOf(sdk.CreateCatalog(lake.name, lake.data_path + "x").error()),
            ErrorKind::kAlreadyExists);
  Result<std::vector<client::CatalogInfo>> catalogs = sdk.ListCatalogs();
  ASSERT_TRUE(catalogs.ok());
  bool listed = false;
  for (const auto& c : *catalogs) listed |= c.name == lake.name;
  EXPECT_TRUE(listed);
  EXPECT_EQ(ErrorKindOf(sdk.GetCatalog("no-such-catalog").error()), ErrorKind::kNotFound);

  Result<Catalog> got = sdk.GetCatalog(lake.name);
  ASSERT_TRUE(got.ok());
  Catalog catalog = std::move(got).value();
  ASSERT_TRUE(catalog.CreateNamespace("web").ok());
  EXPECT_EQ(ErrorKindOf(catalog.CreateNamespace("web").error()), ErrorKind::kAlreadyExists);
  ASSERT_TRUE(catalog.GetNamespace("web").ok());
  EXPECT_EQ(ErrorKindOf(catalog.GetNamespace("nope").error()), ErrorKind::kNotFound);
  Result<std::vector<std::string>> names = catalog.ListNamespaces();
  ASSERT_TRUE(names.ok());
  EXPECT_EQ(*names, std::vector<std::string>{"web"});
  Result<std::vector<std::string>> before = catalog.ListNamespaces(TimeTravel{0, std::nullopt});
  ASSERT_TRUE(before.ok());
  EXPECT_TRUE(before->empty());

  Namespace ns = catalog.NamespaceHandle("web");
  std::vector<ColumnDef> columns = {
      Col("id", ColumnType::kLong, false),
      Col("tags", ColumnType::kList, true, {Col("item", ColumnType::kString)}),
      Col("addr", ColumnType::kStruct, true,
          {Col("city", ColumnType::kString), Col("zip", ColumnType::kInt)}),
      Col("props", ColumnType::kMap, true,
          {Col("k", ColumnType::kString), Col("v", ColumnType::kLong)}),
      Col("price", iceberg::TypeSpec::Decimal(10, 2)),
  };
  Result<Table> table = ns.CreateTable("events", columns, {{"owner", "team-a"}});
  ASSERT_TRUE(table.ok()) << table.error().ToString();
  const client::TableInfo& info = table->info();
  ASSERT_EQ(info.columns.size(), 5u);
  EXPECT_EQ(info.columns[1].children[0].name, "element");
  EXPECT_EQ(info.columns[3].children[0].name, "key");
  EXPECT_FALSE(info.columns[3].children[0].nullable);
  EXPECT_EQ(info.columns[4].type, iceberg::TypeSpec::Decimal(10, 2));
  EXPECT_EQ(info.columns[4].field_id, 10);  // depth-first ids
  EXPECT_EQ(info.properties.at("owner"), "team-a");
  ASSERT_TRUE(table->ddl_snapshot());
  EXPECT_EQ(table->ddl_snapshot(), info.snapshot_id);
  EXPECT_EQ(ErrorKindOf(ns.CreateTable("events", {Col("a", ColumnType::kInt)}).error()),
            ErrorKind::kAlreadyExists);
  Result<Table> reserved = ns.CreateTable(
      "bad", {Col("s", ColumnType::kStruct, true, {Col("_hog_x", ColumnType::kInt)})});
  ASSERT_FALSE(reserved.ok());
  EXPECT_EQ(ErrorKindOf(reserved.error()), ErrorKind::kValidation);
  // The server refuses what the client lets through with the same kind.
  EXPECT_EQ(ErrorKindOf(ns.CreateTable("bad name", {Col("a", ColumnType::kInt)}).error()),
            ErrorKind::kValidation);

  Result<std::vector<client::TableSummary>> tables = ns.ListTables();
  ASSERT_TRUE(tables.ok());
  ASSERT_EQ(tables->size(), 1u);
  EXPECT_EQ((*tables)[0].table_uuid, table->table_uuid());
  EXPECT_EQ((*tables)[0].record_count, 0);

  const int64_t created_at = *table->ddl_snapshot();
  Result<client::TableInfo> altered = table->Alter(
      {client::AddColumn(Col("score", ColumnType::kFloat)),
       client::AddColumn(Col("country", ColumnType::kString), "addr"),
       client::PromoteColumn("score", ColumnType::kDouble), client::SetTableComment("page views"),
       client::SetColumnComment("addr.city", "where"), client::SetProperties({{"owner", "team-b"}}),
       client::SetPartitionSpec({{1, "bucket", 8}}),
       client::SetSortOrder({{1, "desc", "nulls_first"}}), client::RenameTable("page_views")});
  ASSERT_TRUE(altered.ok()) << altered.error().ToString();
  EXPECT_EQ(table->name(), "page_views");
  EXPECT_EQ(table->info().comment, "page views");
  EXPECT_EQ(table->info().properties.at("owner"), "team-b");
  EXPECT_TRUE(table->info().partitioned());
  ASSERT_TRUE(table->info().sort_spec);
  EXPECT_GT(*table->ddl_snapshot(), created_at);
  EXPECT_EQ(table->info().columns[5].type.type, ColumnType::kDouble);
  EXPECT_EQ(table->info().columns[2].children[0].comment, "where");
  EXPECT_EQ(table->info().columns[2].children.size(), 3u);
  Result<client::TableInfo> bad_alter = table->Alter({client::DropColumn("nope")});
  ASSERT_FALSE(bad_alter.ok());
  EXPECT_EQ(ErrorKindOf(bad_alter.error()), ErrorKind::kValidation);

  // Time travel: the old name at the creation snapshot.
  Result<Table> old = ns.GetTable("page_views");
  ASSERT_TRUE(old.ok());
  Result<client::TableInfo> at_create = old->Info(TimeTravel{created_at, std::nullopt});
  EXPECT_EQ(ErrorKindOf(at_create.error()), ErrorKind::kNotFound);  // renamed since
  Result<std::vector<client::TableSummary>> then = ns.ListTables(TimeTravel{created_at, {}});
  ASSERT_TRUE(then.ok());
  ASSERT_EQ(then->size(), 1u);
  EXPECT_EQ((*then)[0].name, "events");

  Result<client::View> view = ns.CreateView("recent", "SELECT * FROM page_views", "trino");
  ASSERT_TRUE(view.ok()) << view.error().ToString();
  EXPECT_EQ(view->info().dialect, "trino");
  Result<client::View> fetched = ns.GetView("recent");
  ASSERT_TRUE(fetched.ok());
  EXPECT_EQ(fetched->info().view_uuid, view->info().view_uuid);
  Result<std::vector<client::ViewInfo>> views = ns.ListViews();
  ASSERT_TRUE(views.ok());
  EXPECT_EQ(views->size(), 1u);
  EXPECT_EQ(ErrorKindOf(ns.CreateView("recent", "SELECT 2").error()), ErrorKind::kAlreadyExists);

  Result<client::CommitResult> not_empty = ns.Drop();
  ASSERT_FALSE(not_empty.ok());
  EXPECT_EQ(not_empty.error().code, ErrorCode::kNamespaceNotEmpty);
  ASSERT_TRUE(view->Drop().ok());
  EXPECT_EQ(ErrorKindOf(ns.GetView("recent").error()), ErrorKind::kNotFound);
  Result<client::CommitResult> dropped = table->Drop();
  ASSERT_TRUE(dropped.ok()) << dropped.error().ToString();
  EXPECT_EQ(table->ddl_snapshot(), std::nullopt);
  EXPECT_EQ(ErrorKindOf(ns.GetTable("page_views").error()), ErrorKind::kNotFound);
  ASSERT_TRUE(ns.Drop().ok());
  Result<std::vector<std::string>> after = catalog.ListNamespaces();
  ASSERT_TRUE(after.ok());
  EXPECT_TRUE(after->empty());
  Result<client::CatalogInfo> refreshed = catalog.Refresh();
  ASSERT_TRUE(refreshed.ok());
  EXPECT_EQ(catalog.info().head_snapshot_id, dropped->snapshot_id + 1);
  if (!::testing::Test::HasFailure()) std::filesystem::remove_all(lake.dir);
}

TEST(SdkTest, SnapshotIteratorPagesBothWays) {
  HoglakeClient sdk = NewClient();
  SdkLake lake = NewSdkLake();
  Result<Catalog> catalog = sdk.CreateCatalog(lake.name, lake.data_path);
  ASSERT_TRUE(catalog.ok()) << catalog.error().ToString();
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(catalog->CreateNamespace("n" + std::to_string(i)).ok());

  Result<client::SnapshotIterator> up = catalog->Snapshots(0, std::nullopt, 2);
  ASSERT_TRUE(up.ok());
  EXPECT_EQ(Drain(*up), (std::vector<int64_t>{1, 2, 3, 4, 5}));
  Result<client::SnapshotIterator> from3 = catalog->Snapshots(3, std::nullopt, 1);
  ASSERT_TRUE(from3.ok());
  EXPECT_EQ(Drain(*from3), (std::vector<int64_t>{4, 5}));
  Result<client::SnapshotIterator> down = catalog->Snapshots(0, 4, 2);
  ASSERT_TRUE(down.ok());
  EXPECT_EQ(Drain(*down), (std::vector<int64_t>{3, 2, 1, 0}));
  EXPECT_EQ(catalog->Snapshots(1, 4).error().code, ErrorCode::kValidation);

  Result<client::SnapshotIterator> all = catalog->Snapshots();
  ASSERT_TRUE(all.ok());
  Result<std::optional<client::Snapshot>> first = all->Next();
  ASSERT_TRUE(first.ok() && *first);
  EXPECT_EQ((*first)->snapshot_id, 1);
  ASSERT_EQ((*first)->changes.size(), 1u);
  EXPECT_EQ((*first)->changes[0].kind, "namespace_created");
  EXPECT_TRUE((*first)->snapshot_time.ends_with("Z"));
  if (!::testing::Test::HasFailure()) std::filesystem::remove_all(lake.dir);
}

TEST(SdkTest, HandBuiltCommitThenReadsOffsetsAndMaintenance) {
  HoglakeClient sdk = NewClient();
  SdkLake lake = NewSdkLake();
  Result<Catalog> made = sdk.CreateCatalog(lake.name, lake.data_path + "/");
  ASSERT_TRUE(made.ok()) << made.error().ToString();
  Catalog catalog = std::move(made).value();
  ASSERT_TRUE(catalog.CreateNamespace("ns").ok());
  Result<Table> created = catalog.NamespaceHandle("ns").CreateTable(
      "t", {Col("id", ColumnType::kLong, false), Col("name", ColumnType::kString)});
  ASSERT_TRUE(created.ok()) << created.error().ToString();
  Table table = std::move(created).value();
  const int64_t ddl = *table.ddl_snapshot();

  // A file that really exists (cleanup checks objects), registered by hand.
  const std::string object = lake.dir + "/data/ns/t/a.parquet";
  std::filesystem::create_directories(lake.dir + "/data/ns/t");
  std::ofstream(object) << "not really parquet";
  const std::string path = "file://" + object;
  // id: long bounds 1..3 (8-byte little-endian); name: "a".."c".
  const std::string commit =
      R"({"author":"sdk-test","message":"hand-built","appends":[{"namespace":"ns","table":"t","expected_table_uuid":")" +
      table.table_uuid() + R"(","files":[{"path":")" + path +
      R"(","record_count":3,"file_size_bytes":18,"column_stats":[)"
      R"({"field_id":1,"value_count":3,"null_count":0,"lower_bound":"AQAAAAAAAAA=","upper_bound":"AwAAAAAAAAA="},)"
      R"({"field_id":2,"value_count":3,"null_count":1,"lower_bound":"YQ==","upper_bound":"Yw=="}]}]}]})";
  Result<client::CommitResult> committed = catalog.Commit(commit);
  ASSERT_TRUE(committed.ok()) << committed.error().ToString();
  const int64_t appended = committed->snapshot_id;
  EXPECT_EQ(appended, ddl + 1);

  // The creating handle reads at its DDL pin: the table as it made it.
  Result<std::vector<client::DataFile>> pinned = table.Files();
  ASSERT_TRUE(pinned.ok()) << pinned.error().ToString();
  EXPECT_TRUE(pinned->empty());
  // A fresh handle reads the head.
  Result<Table> fresh = catalog.GetTable("ns", "t");
  ASSERT_TRUE(fresh.ok());
  Result<std::vector<client::DataFile>> files = fresh->Files();
  ASSERT_TRUE(files.ok()) << files.error().ToString();
  ASSERT_EQ(files->size(), 1u);
  const client::DataFile& file = (*files)[0];
  EXPECT_EQ(file.path, path);
  EXPECT_EQ(file.record_count, 3);
  EXPECT_EQ(file.stats_state, "provided");
  EXPECT_EQ(file.begin_snapshot, appended);
  EXPECT_EQ(file.row_id_start, 0);
  Result<std::vector<client::DataFile>> explicit_head =
      table.Files(TimeTravel{appended, std::nullopt});
  ASSERT_TRUE(explicit_head.ok());
  EXPECT_EQ(explicit_head->size(), 1u);

  Result<std::vector<client::ScanFile>> scan = fresh->ScanPlan();
  ASSERT_TRUE(scan.ok()) << scan.error().ToString();
  ASSERT_EQ(scan->size(), 1u);
  EXPECT_EQ((*scan)[0].data_file.data_file_id, file.data_file_id);
  EXPECT_FALSE((*scan)[0].delete_file);

  Result<client::FileStats> stats = fresh->GetFileStats(file.data_file_id);
  ASSERT_TRUE(stats.ok()) << stats.error().ToString();
  EXPECT_EQ(stats->stats_state, "provided");
  ASSERT_EQ(stats->columns.size(), 2u);
  EXPECT_EQ(stats->columns[0].lower_bound_json, "1");
  EXPECT_EQ(stats->columns[0].upper_bound_json, "3");
  EXPECT_EQ(stats->columns[1].lower_bound_json, R"("a")");
  EXPECT_EQ(stats->columns[1].null_count, 1);
  EXPECT_EQ(ErrorKindOf(fresh->GetFileStats(file.data_file_id, TimeTravel{ddl, {}}).error()),
            ErrorKind::kNotFound);

  Result<client::ChangesPlan> changes = fresh->Changes(ddl);
  ASSERT_TRUE(changes.ok()) << changes.error().ToString();
  EXPECT_EQ(changes->files.size(), 1u);
  EXPECT_EQ(changes->to_snapshot, appended);
  Result<client::ChangesPlan> none = fresh->Changes(ddl, ddl);
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->files.empty());

  Result<client::TableInfo> head = fresh->Info();
  ASSERT_TRUE(head.ok());
  EXPECT_EQ(head->read_snapshot_id, appended);
  Result<client::TableInfo> identity = fresh->Info({}, /*totals=*/false);
  ASSERT_TRUE(identity.ok());
  EXPECT_EQ(identity->record_count, std::nullopt);

  // The snapshot carries author and message.
  Result<client::SnapshotIterator> last = catalog.Snapshots(appended - 1);
  ASSERT_TRUE(last.ok());
  Result<std::optional<client::Snapshot>> snap = last->Next();
  ASSERT_TRUE(snap.ok() && *snap);
  EXPECT_EQ((*snap)->author, "sdk-test");
  EXPECT_EQ((*snap)->message, "hand-built");

  // A keyed commit replays to its receipt; a stale incarnation is re-prepare.
  const std::string keyed =
      R"({"idempotency_key":"6f1c1a52-8a0e-4f57-9d7e-3b6f0f6f0a11","appends":[{"namespace":"ns","table":"t","files":[{"path":")" +
      lake.data_path + R"(/data/ns/t/b.parquet","record_count":1,"file_size_bytes":10}]}]})";
  Result<client::CommitResult> once = catalog.Commit(keyed, /*keyed=*/true);
  ASSERT_TRUE(once.ok()) << once.error().ToString();
  Result<client::CommitResult> twice = catalog.Commit(keyed, /*keyed=*/true);
  ASSERT_TRUE(twice.ok());
  EXPECT_EQ(twice->snapshot_id, once->snapshot_id);
  Result<client::CommitResult> stale = catalog.Commit(
      R"({"appends":[{"namespace":"ns","table":"t","expected_table_uuid":"00000000-0000-4000-8000-000000000000","files":[{"path":")" +
      lake.data_path + R"(/data/ns/t/c.parquet","record_count":1,"file_size_bytes":10}]}]})");
  ASSERT_FALSE(stale.ok());
  EXPECT_EQ(ErrorKindOf(stale.error()), ErrorKind::kIncarnationChanged);
  EXPECT_TRUE(client::RePrepare(stale.error()));
  EXPECT_EQ(client::ErrorTables(stale.error()), std::vector<std::string>{"ns.t"});

  // Offsets.
  const std::string uuid = table.table_uuid();
  Result<std::optional<client::ConsumerOffset>> absent = catalog.Offset("etl", uuid);
  ASSERT_TRUE(absent.ok()) << absent.error().ToString();
  EXPECT_FALSE(absent->has_value());
  Result<client::ConsumerOffset> put = catalog.CommitOffset("etl", uuid, appended);
  ASSERT_TRUE(put.ok()) << put.error().ToString();
  EXPECT_EQ(put->committed_snapshot, appended);
  Result<std::optional<client::ConsumerOffset>> present = catalog.Offset("etl", uuid);
  ASSERT_TRUE(present.ok() && present->has_value());
  EXPECT_EQ((*present)->committed_snapshot, appended);
  Result<std::vector<client::ConsumerOffset>> offsets = catalog.Offsets("etl");
  ASSERT_TRUE(offsets.ok());
  EXPECT_EQ(offsets->size(), 1u);
  EXPECT_EQ(ErrorKindOf(catalog.CommitOffset("etl", uuid, ddl).error()),
            ErrorKind::kOffsetRegression);

  // Options, retention, expiry, cleanup.
  Result<client::CatalogOptions> options = catalog.Options();
  ASSERT_TRUE(options.ok());
  EXPECT_EQ(options->snapshot_retention_seconds, std::nullopt);  // infinite
  // Without the consumer floor the offset above does not hold expiry back.
  Result<client::CatalogOptions> set = catalog.SetRetention(1, false);
  ASSERT_TRUE(set.ok()) << set.error().ToString();
  EXPECT_EQ(set->snapshot_retention_seconds, 1);
  EXPECT_FALSE(set->consumer_floor);
  EXPECT_EQ(ErrorKindOf(catalog.SetRetention(0).error()), ErrorKind::kValidation);
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  ASSERT_TRUE(table.Drop().ok());
  EXPECT_EQ(table.ddl_snapshot(), std::nullopt);
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  Result<client::ExpiryResult> expired = catalog.Expire();
  ASSERT_TRUE(expired.ok()) << expired.error().ToString();
  // The shared server's background loop (every 60 s) may have expired them
  // just before this call; either way the floor is now past the append.
  EXPECT_GT(expired->new_earliest_snapshot_id, appended);
  Result<client::CleanupResult> cleaned = catalog.Cleanup(100);
  ASSERT_TRUE(cleaned.ok()) << cleaned.error().ToString();
  // A drop leaves its files to retirement, so expiry queued nothing to remove.
  EXPECT_EQ(cleaned->removed + cleaned->missing + cleaned->still_referenced,
            expired->data_files_queued);

  // Below the floor: reads are expired, a commit's read snapshot is re-prepare.
  Result<std::vector<std::string>> old_names = catalog.ListNamespaces(TimeTravel{ddl, {}});
  ASSERT_FALSE(old_names.ok());
  EXPECT_EQ(ErrorKindOf(old_names.error()), ErrorKind::kExpired);
  ASSERT_TRUE(catalog.NamespaceHandle("ns").CreateTable("u", {Col("a", ColumnType::kInt)}).ok());
  Result<client::CommitResult> below = catalog.Commit(
      R"({"read_snapshot":)" + std::to_string(ddl) +
      R"(,"appends":[{"namespace":"ns","table":"u","files":[{"path":")" + lake.data_path +
      R"(/data/ns/u/x.parquet","record_count":1,"file_size_bytes":10}]}]})");
  ASSERT_FALSE(below.ok());
  EXPECT_EQ(ErrorKindOf(below.error()), ErrorKind::kReadSnapshotExpired);
  Result<client::CatalogOptions> off = catalog.SetRetention(std::nullopt);
  ASSERT_TRUE(off.ok());
  EXPECT_EQ(off->snapshot_retention_seconds, std::nullopt);
  if (!::testing::Test::HasFailure()) std::filesystem::remove_all(lake.dir);
}

}  // namespace
}  // namespace hoglake::testing
