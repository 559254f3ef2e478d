// The SDK's wrappers against a scripted server: the exact method, URL and
// body each call sends (pyhoglake-writer §1, §14), client-side refusals made
// before any request, the Table handle's DDL pin, and pagination.
#include "client/client.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "fake_server.h"
#include "storage/object_store.h"

namespace hoglake::client {
namespace {

using iceberg::ColumnType;
using testing::FakeServer;

constexpr const char* kCatalogJson =
    R"({"name":"c1","data_path":"file:///tmp/lake-c1","head_snapshot_id":3,"schema_version":1,"capabilities":[]})";
constexpr const char* kUuid = "0b8e5a3c-1111-4222-8333-944455556666";

std::string TableJson(const std::string& name = "events", const std::string& extra = "") {
  return R"({"name":")" + name + R"(","namespace":"ns1","table_uuid":")" + kUuid +
         R"(","columns":[{"name":"id","type":"long","nullable":false,"field_id":1,"ordinal":0}],"read_snapshot_id":5,"properties":{})" +
         extra + "}";
}

std::string SnapshotJson(int64_t id) {
  return R"({"snapshot_id":)" + std::to_string(id) +
         R"(,"snapshot_time":"2026-09-05T12:00:00Z","schema_version":1,"changes":[]})";
}

std::string PageJson(std::vector<int64_t> ids, bool has_more) {
  std::string out = R"({"snapshots":[)";
  for (size_t i = 0; i < ids.size(); ++i) out += (i ? "," : "") + SnapshotJson(ids[i]);
  return out + R"(],"has_more":)" + (has_more ? "true" : "false") + "}";
}

ColumnDef Col(std::string name, iceberg::TypeSpec type, bool nullable = true,
              std::vector<ColumnDef> children = {}) {
  ColumnDef c;
  c.name = std::move(name);
  c.type = type;
  c.nullable = nullable;
  c.children = std::move(children);
  return c;
}

ClientOptions Fast() {
  ClientOptions options;
  options.retry_base_delay_ms = 1;
  return options;
}

class ClientTest : public ::testing::Test {
 protected:
  Catalog OpenCatalog() {
    server_.Queue(200, kCatalogJson);
    Result<Catalog> catalog = client_.GetCatalog("c1");
    EXPECT_TRUE(catalog.ok()) << catalog.error().ToString();
    server_.Clear();
    return std::move(catalog).value();
  }
  Table OpenTable(const std::string& extra = "") {
    Catalog catalog = OpenCatalog();
    server_.Queue(200, TableJson("events", extra));
    Result<Table> table = catalog.GetTable("ns1", "events");
    EXPECT_TRUE(table.ok()) << table.error().ToString();
    server_.Clear();
    return std::move(table).value();
  }

  FakeServer server_;
  HoglakeClient client_{server_.base_url(), {}, Fast()};
};

TEST_F(ClientTest, Catalogs) {
  server_.Queue(201, kCatalogJson);
  Result<Catalog> created = client_.CreateCatalog("c1", "file:///tmp/lake-c1");
  ASSERT_TRUE(created.ok()) << created.error().ToString();
  EXPECT_EQ(created->name(), "c1");
  EXPECT_EQ(created->data_path(), "file:///tmp/lake-c1");
  EXPECT_EQ(created->info().head_snapshot_id, 3);
  EXPECT_EQ(server_.last().line(), "POST /v1/catalogs");
  EXPECT_EQ(server_.last().body, R"({"name":"c1","data_path":"file:///tmp/lake-c1"})");

  server_.Queue(200, kCatalogJson);
  ASSERT_TRUE(client_.GetCatalog("c 1/x").ok());
  EXPECT_EQ(server_.last().line(), "GET /v1/catalogs/c%201%2Fx");

  server_.Queue(200, std::string("[") + kCatalogJson + "]");
  Result<std::vector<CatalogInfo>> list = client_.ListCatalogs();
  ASSERT_TRUE(list.ok());
  EXPECT_EQ(list->size(), 1u);
  EXPECT_EQ(server_.last().line(), "GET /v1/catalogs");

  server_.Queue(404, R"({"error":"not_found","detail":"catalog 'zz' not found"})");
  Result<Catalog> missing = client_.GetCatalog("zz");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(ErrorKindOf(missing.error()), ErrorKind::kNotFound);

  Catalog catalog = std::move(created).value();
  server_.Queue(
      200,
      R"({"name":"c1","data_path":"file:///tmp/lake-c1","head_snapshot_id":9,"schema_version":4})");
  Result<CatalogInfo> refreshed = catalog.Refresh();
  ASSERT_TRUE(refreshed.ok());
  EXPECT_EQ(catalog.info().head_snapshot_id, 9);
  EXPECT_EQ(server_.last().line(), "GET /v1/catalogs/c1");
}

TEST_F(ClientTest, Namespaces) {
  Catalog catalog = OpenCatalog();
  server_.Queue(201, R"({"name":"ns1","namespace_id":1})");
  Result<Namespace> ns = catalog.CreateNamespace("ns1");
  ASSERT_TRUE(ns.ok()) << ns.error().ToString();
  EXPECT_EQ(ns->name(), "ns1");
  EXPECT_EQ(server_.last().line(), "POST /v1/catalogs/c1/namespaces");
  EXPECT_EQ(server_.last().body, R"({"name":"ns1"})");

  server_.Queue(200, R"([{"name":"a","namespace_id":1},{"name":"ns1","namespace_id":2}])");
  Result<std::vector<std::string>> names = catalog.ListNamespaces(TimeTravel{3, std::nullopt});
  ASSERT_TRUE(names.ok());
  EXPECT_EQ(*names, (std::vector<std::string>{"a", "ns1"}));
  EXPECT_EQ(server_.last().line(), "GET /v1/catalogs/c1/namespaces?snapshot=3");

  server_.Queue(200, "[]");
  ASSERT_TRUE(catalog.ListNamespaces(TimeTravel{std::nullopt, "2026-09-04T12:00:00"}).ok());
  EXPECT_EQ(server_.last().line(),
            "GET /v1/catalogs/c1/namespaces?at_timestamp=2026-09-04T12%3A00%3A00");

  server_.Clear();
  Result<std::vector<std::string>> both =
      catalog.ListNamespaces(TimeTravel{3, "2026-09-04T12:00:00Z"});
  ASSERT_FALSE(both.ok());
  EXPECT_EQ(both.error().code, ErrorCode::kValidation);
  EXPECT_TRUE(server_.requests().empty());

  server_.Queue(200, R"([{"name":"a"},{"name":"ns1"}])");
  ASSERT_TRUE(catalog.GetNamespace("ns1").ok());
  server_.Queue(200, R"([{"name":"a"}])");
  Result<Namespace> absent = catalog.GetNamespace("ns1");
  ASSERT_FALSE(absent.ok());
  EXPECT_EQ(absent.error().code, ErrorCode::kNotFound);
  EXPECT_EQ(server_.lines(), (std::vector<std::string>{"GET /v1/catalogs/c1/namespaces",
                                                       "GET /v1/catalogs/c1/namespaces"}));

  server_.Queue(200, R"({"snapshot_id":8,"schema_version":3})");
  Result<CommitResult> dropped = catalog.NamespaceHandle("ns1").Drop();
  ASSERT_TRUE(dropped.ok());
  EXPECT_EQ(dropped->snapshot_id, 8);
  EXPECT_EQ(server_.last().line(), "DELETE /v1/catalogs/c1/namespaces/ns1");
}

TEST_F(ClientTest, CreateTableSendsThePinnedNestedBodyAndPinsTheDdlSnapshot) {
  Catalog catalog = OpenCatalog();
  Namespace ns = catalog.NamespaceHandle("ns1");
  std::vector<ColumnDef> columns = {
      Col("id", ColumnType::kLong, false),
      Col("tags", ColumnType::kList, true, {Col("item", ColumnType::kString)}),
      Col("addr", ColumnType::kStruct, true,
          {Col("city", ColumnType::kString), Col("zip", ColumnType::kInt)}),
      Col("props", ColumnType::kMap, true,
          {Col("k", ColumnType::kString), Col("v", ColumnType::kLong)}),
  };
  server_.Queue(201, TableJson("nested", R"(,"snapshot_id":7)"));
  Result<Table> table = ns.CreateTable("nested", columns);
  ASSERT_TRUE(table.ok()) << table.error().ToString();
  EXPECT_EQ(server_.last().line(), "POST /v1/catalogs/c1/namespaces/ns1/tables");
  EXPECT_EQ(
      server_.last().body,
      R"({"name":"nested","columns":[{"name":"id","type":"long","nullable":false},{"name":"tags","type":"list","nullable":true,"children":[{"name":"element","type":"string","nullable":true}]},{"name":"addr","type":"struct","nullable":true,"children":[{"name":"city","type":"string","nullable":true},{"name":"zip","type":"int","nullable":true}]},{"name":"props","type":"map","nullable":true,"children":[{"name":"key","type":"string","nullable":false},{"name":"value","type":"long","nullable":true}]}]})");
  EXPECT_EQ(table->ddl_snapshot(), 7);
  EXPECT_EQ(table->qualified_name(), "ns1.nested");
  EXPECT_EQ(table->catalog_name(), "c1");

  server_.Queue(200, "[]");
  ASSERT_TRUE(table->Files().ok());
  EXPECT_EQ(server_.last().line(),
            "GET /v1/catalogs/c1/namespaces/ns1/tables/nested/files?snapshot=7");
  server_.Queue(200, "[]");
  ASSERT_TRUE(table->ScanPlan().ok());
  EXPECT_EQ(server_.last().line(),
            "GET /v1/catalogs/c1/namespaces/ns1/tables/nested/scan?snapshot=7");
  server_.Queue(200, "[]");
  ASSERT_TRUE(table->Files(TimeTravel{2, std::nullopt}).ok());
  EXPECT_EQ(server_.last().line(),
            "GET /v1/catalogs/c1/namespaces/ns1/tables/nested/files?snapshot=2");
  server_.Queue(200, "[]");
  ASSERT_TRUE(table->ScanPlan(TimeTravel{std::nullopt, "2026-09-05T00:00:00Z"}).ok());
  EXPECT_EQ(
      server_.last().line(),
      "GET "
      "/v1/catalogs/c1/namespaces/ns1/tables/nested/scan?at_timestamp=2026-09-05T00%3A00%3A00Z");

  // A head Info() is adopted; the pin stays.
  server_.Queue(200,
                TableJson("nested", R"(,"record_count":10,"file_count":1,"file_size_bytes":99)"));
  ASSERT_TRUE(table->Info().ok());
  EXPECT_EQ(table->info().record_count, 10);
  EXPECT_EQ(table->ddl_snapshot(), 7);

  server_.Queue(200, R"({"snapshot_id":11,"schema_version":5})");
  Result<CommitResult> dropped = table->Drop();
  ASSERT_TRUE(dropped.ok());
  EXPECT_EQ(server_.last().line(), "DELETE /v1/catalogs/c1/namespaces/ns1/tables/nested");
  EXPECT_EQ(table->ddl_snapshot(), std::nullopt);
  server_.Queue(200, "[]");
  ASSERT_TRUE(table->Files().ok());
  EXPECT_EQ(server_.last().line(), "GET /v1/catalogs/c1/namespaces/ns1/tables/nested/files");
}

TEST_F(ClientTest, CreateTableWithProperties) {
  Namespace ns = OpenCatalog().NamespaceHandle("ns1");
  server_.Queue(201, TableJson("t", R"(,"snapshot_id":4)"));
  ASSERT_TRUE(ns.CreateTable("t", {Col("a", iceberg::TypeSpec::Decimal(9, 2))},
                             {{"owner", "team-a"}, {"write.format.default", "parquet"}})
                  .ok());
  EXPECT_EQ(
      server_.last().body,
      R"({"name":"t","columns":[{"name":"a","type":"decimal","nullable":true,"type_params":{"precision":9,"scale":2}}],"properties":{"owner":"team-a","write.format.default":"parquet"}})");
}

TEST_F(ClientTest, ReservedColumnNamesFailBeforeAnyRequest) {
  Namespace ns = OpenCatalog().NamespaceHandle("ns1");
  Result<Table> table = ns.CreateTable(
      "t", {Col("id", ColumnType::kLong),
            Col("s", ColumnType::kStruct, true, {Col("_hog_row_id", ColumnType::kLong)})});
  ASSERT_FALSE(table.ok());
  EXPECT_EQ(ErrorKindOf(table.error()), ErrorKind::kValidation);
  EXPECT_NE(table.error().message.find("['s._hog_row_id'] use the reserved prefix '_hog'"),
            std::string::npos)
      << table.error().message;
  EXPECT_TRUE(server_.requests().empty());
}

TEST_F(ClientTest, TableReads) {
  Table table = OpenTable(R"(,"record_count":3)");
  EXPECT_EQ(table.ddl_snapshot(), std::nullopt);  // a read is not a DDL receipt

  server_.Queue(200, TableJson("events", R"(,"record_count":1)"));
  ASSERT_TRUE(table.Info(TimeTravel{2, std::nullopt}).ok());
  EXPECT_EQ(server_.last().line(), "GET /v1/catalogs/c1/namespaces/ns1/tables/events?snapshot=2");
  EXPECT_EQ(table.info().record_count, 3);  // travel reads are not adopted

  server_.Queue(200, TableJson());
  Result<TableInfo> identity = table.Info({}, /*totals=*/false);
  ASSERT_TRUE(identity.ok());
  EXPECT_EQ(server_.last().line(), "GET /v1/catalogs/c1/namespaces/ns1/tables/events?totals=false");
  EXPECT_EQ(table.info().record_count, std::nullopt);

  server_.Clear();
  EXPECT_EQ(table.Info(TimeTravel{1, "2026-01-01T00:00:00Z"}).error().code, ErrorCode::kValidation);
  EXPECT_EQ(table.Files(TimeTravel{1, "x"}).error().code, ErrorCode::kValidation);
  EXPECT_EQ(table.ScanPlan(TimeTravel{1, "x"}).error().code, ErrorCode::kValidation);
  EXPECT_EQ(table.GetFileStats(1, TimeTravel{1, "x"}).error().code, ErrorCode::kValidation);
  EXPECT_TRUE(server_.requests().empty());

  server_.Queue(200, "[]");
  Table::FilesQuery query;
  query.sort = "size";
  query.order = "desc";
  query.limit = 10;
  query.offset = 20;
  ASSERT_TRUE(table.Files({}, query).ok());
  EXPECT_EQ(server_.last().line(),
            "GET /v1/catalogs/c1/namespaces/ns1/tables/events/files?sort=size&order=desc&limit=10&"
            "offset=20");

  server_.Queue(
      200,
      R"({"data_file_id":9,"stats_state":"pending","columns":[],"no_stats_reason":"deferred"})");
  Result<FileStats> stats = table.GetFileStats(9, TimeTravel{3, std::nullopt});
  ASSERT_TRUE(stats.ok()) << stats.error().ToString();
  EXPECT_EQ(stats->no_stats_reason, "deferred");
  EXPECT_EQ(server_.last().line(),
            "GET /v1/catalogs/c1/namespaces/ns1/tables/events/files/9/stats?snapshot=3");

  const std::string plan = std::string(R"({"table_uuid":")") + kUuid +
                           R"(","from_snapshot":2,"to_snapshot":5,"files":[],"delete_files":[]})";
  server_.Queue(200, plan);
  server_.Queue(200, plan);
  ASSERT_TRUE(table.Changes(2).ok());
  EXPECT_EQ(server_.last().line(),
            "GET /v1/catalogs/c1/namespaces/ns1/tables/events/changes?from_snapshot=2");
  Result<ChangesPlan> changes = table.Changes(2, 5);
  ASSERT_TRUE(changes.ok());
  EXPECT_EQ(changes->to_snapshot, 5);
  EXPECT_EQ(
      server_.last().line(),
      "GET /v1/catalogs/c1/namespaces/ns1/tables/events/changes?from_snapshot=2&to_snapshot=5");

  server_.Queue(409, R"({"error":"reconciliation_required","detail":"truncated"})");
  EXPECT_EQ(ErrorKindOf(table.Changes(0).error()), ErrorKind::kReconciliationRequired);
  server_.Queue(410, R"({"error":"expired","detail":"below floor"})");
  EXPECT_EQ(ErrorKindOf(table.Changes(0).error()), ErrorKind::kExpired);
}

TEST_F(ClientTest, EncodesEveryPathSegment) {
  Catalog catalog = OpenCatalog();
  server_.Queue(404, R"({"error":"not_found"})");
  Result<Table> table = catalog.GetTable("n s", "t/1?x");
  ASSERT_FALSE(table.ok());
  EXPECT_EQ(table.error().code, ErrorCode::kNotFound);
  EXPECT_EQ(server_.last().line(), "GET /v1/catalogs/c1/namespaces/n%20s/tables/t%2F1%3Fx");
}

TEST_F(ClientTest, AlterSendsOpsAndAdoptsTheReceipt) {
  Table table = OpenTable();
  server_.Clear();
  EXPECT_EQ(table.Alter({}).error().code, ErrorCode::kValidation);
  EXPECT_TRUE(server_.requests().empty());

  server_.Queue(200, TableJson("events2", R"(,"snapshot_id":9)"));
  Result<TableInfo> altered =
      table.Alter({AddColumn(Col("score", ColumnType::kDouble)), RenameTable("events2")});
  ASSERT_TRUE(altered.ok()) << altered.error().ToString();
  EXPECT_EQ(server_.last().line(), "POST /v1/catalogs/c1/namespaces/ns1/tables/events/alter");
  EXPECT_EQ(
      server_.last().body,
      R"({"ops":[{"op":"add_column","column":{"name":"score","type":"double","nullable":true}},{"op":"rename_table","new_name":"events2"}]})");
  EXPECT_EQ(table.name(), "events2");
  EXPECT_EQ(table.ddl_snapshot(), 9);
  server_.Queue(200, "[]");
  ASSERT_TRUE(table.Files().ok());
  EXPECT_EQ(server_.last().line(),
            "GET /v1/catalogs/c1/namespaces/ns1/tables/events2/files?snapshot=9");

  server_.Queue(409, R"({"error":"commit_conflict","detail":"concurrent ddl"})");
  Result<TableInfo> conflict = table.Alter({DropColumn("score")});
  ASSERT_FALSE(conflict.ok());
  EXPECT_TRUE(Retryable(conflict.error()));
  EXPECT_EQ(table.ddl_snapshot(), 9);        // a refusal changes nothing
  EXPECT_EQ(server_.requests().size(), 3u);  // alter is not replayed
}

TEST_F(ClientTest, Views) {
  Namespace ns = OpenCatalog().NamespaceHandle("ns1");
  const std::string view =
      R"({"name":"v1","namespace":"ns1","view_uuid":"11111111-2222-4333-8444-555555555555","dialect":"trino","sql":"SELECT 1"})";
  server_.Queue(201, view);
  Result<View> created = ns.CreateView("v1", "SELECT 1");
  ASSERT_TRUE(created.ok()) << created.error().ToString();
  EXPECT_EQ(server_.last().line(), "POST /v1/catalogs/c1/namespaces/ns1/views");
  EXPECT_EQ(server_.last().body, R"({"name":"v1","sql":"SELECT 1","dialect":"trino"})");
  EXPECT_EQ(created->info().sql, "SELECT 1");

  server_.Queue(200, view);
  ASSERT_TRUE(ns.GetView("v1").ok());
  EXPECT_EQ(server_.last().line(), "GET /v1/catalogs/c1/namespaces/ns1/views/v1");
  server_.Queue(200, "[" + view + "]");
  Result<std::vector<ViewInfo>> views = ns.ListViews();
  ASSERT_TRUE(views.ok());
  EXPECT_EQ(views->size(), 1u);
  EXPECT_EQ(server_.last().line(), "GET /v1/catalogs/c1/namespaces/ns1/views");
  server_.Queue(200, R"({"snapshot_id":4,"schema_version":2})");
  ASSERT_TRUE(created->Drop().ok());
  EXPECT_EQ(server_.last().line(), "DELETE /v1/catalogs/c1/namespaces/ns1/views/v1");
  server_.Queue(200, "[]");
  ASSERT_TRUE(ns.ListTables(TimeTravel{2, std::nullopt}).ok());
  EXPECT_EQ(server_.last().line(), "GET /v1/catalogs/c1/namespaces/ns1/tables?snapshot=2");
}

TEST_F(ClientTest, OptionsRetentionExpireCleanup) {
  Catalog catalog = OpenCatalog();
  const std::string options =
      R"({"snapshot_retention_seconds":3600,"consumer_floor":true,"earliest_snapshot_id":2})";
  server_.Queue(200, options);
  Result<CatalogOptions> got = catalog.Options();
  ASSERT_TRUE(got.ok());
  EXPECT_EQ(got->snapshot_retention_seconds, 3600);
  EXPECT_EQ(server_.last().line(), "GET /v1/catalogs/c1/options");

  server_.Queue(200, options);
  ASSERT_TRUE(catalog.SetRetention(3600).ok());
  EXPECT_EQ(server_.last().line(), "PATCH /v1/catalogs/c1/options");
  EXPECT_EQ(server_.last().body, R"({"snapshot_retention_seconds":3600})");
  server_.Queue(200, options);
  ASSERT_TRUE(catalog.SetRetention(std::nullopt, true).ok());
  EXPECT_EQ(server_.last().body, R"({"snapshot_retention_seconds":null,"consumer_floor":true})");

  const std::string expiry =
      R"({"snapshots_expired":1,"data_files_queued":2,"delete_files_queued":0,"new_earliest_snapshot_id":3,"offsets_released":1})";
  server_.Queue(200, expiry);
  server_.Queue(200, expiry);
  ASSERT_TRUE(catalog.Expire().ok());
  EXPECT_EQ(server_.last().line(), "POST /v1/catalogs/c1/maintenance/expire");
  Result<ExpiryResult> expired = catalog.Expire(10);
  ASSERT_TRUE(expired.ok());
  EXPECT_EQ(expired->offsets_released, 1);
  EXPECT_EQ(server_.last().line(), "POST /v1/catalogs/c1/maintenance/expire?batch=10");

  server_.Queue(200, R"({"removed":1,"missing":0,"still_referenced":2})");
  Result<CleanupResult> cleaned = catalog.Cleanup(5);
  ASSERT_TRUE(cleaned.ok());
  EXPECT_EQ(cleaned->still_referenced, 2);
  EXPECT_EQ(server_.last().line(), "POST /v1/catalogs/c1/maintenance/cleanup?batch=5");
}

TEST_F(ClientTest, Offsets) {
  Catalog catalog = OpenCatalog();
  const std::string odd_uuid = std::string(kUuid) + "?x=1";
  const std::string offset = std::string(R"({"consumer_id":"etl/1","table_uuid":")") + kUuid +
                             R"(","committed_snapshot":5,"updated_at":"2026-09-05T12:00:00Z"})";
  server_.Queue(200, offset);
  Result<ConsumerOffset> committed = catalog.CommitOffset("etl/1", odd_uuid, 5);
  ASSERT_TRUE(committed.ok()) << committed.error().ToString();
  EXPECT_EQ(committed->committed_snapshot, 5);
  EXPECT_EQ(server_.last().line(),
            std::string("PUT /v1/catalogs/c1/consumers/etl%2F1/offsets/") + kUuid + "%3Fx%3D1");
  EXPECT_EQ(server_.last().body, R"({"snapshot_id":5})");

  server_.Queue(409, R"({"error":"offset_regression","detail":"5 < 7"})");
  EXPECT_EQ(ErrorKindOf(catalog.CommitOffset("etl", kUuid, 5).error()),
            ErrorKind::kOffsetRegression);

  server_.Queue(200, "[" + offset + "]");
  Result<std::vector<ConsumerOffset>> all = catalog.Offsets("etl");
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all->size(), 1u);
  EXPECT_EQ(server_.last().line(), "GET /v1/catalogs/c1/consumers/etl/offsets");

  server_.Queue(200, offset);
  Result<std::optional<ConsumerOffset>> one = catalog.Offset("etl", kUuid);
  ASSERT_TRUE(one.ok());
  ASSERT_TRUE(one->has_value());
  EXPECT_EQ((*one)->committed_snapshot, 5);
  EXPECT_EQ(server_.last().line(),
            std::string("GET /v1/catalogs/c1/consumers/etl/offsets/") + kUuid);

  server_.Queue(404, R"({"error":"not_found","detail":"no offset"})");
  Result<std::optional<ConsumerOffset>> none = catalog.Offset("etl", kUuid);
  ASSERT_TRUE(none.ok()) << none.error().ToString();
  EXPECT_FALSE(none->has_value());

  server_.Queue(422, R"({"error":"validation","detail":"bad"})");
  EXPECT_FALSE(catalog.Offset("etl", kUuid).ok());
}

TEST_F(ClientTest, CommitErrorsAndRetries) {
  Catalog catalog = OpenCatalog();
  const std::string body = R"({"appends":[{"namespace":"ns1","table":"events","files":[]}]})";
  server_.Queue(200, R"({"snapshot_id":6,"schema_version":1})");
  Result<CommitResult> ok = catalog.Commit(body);
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(ok->snapshot_id, 6);
  EXPECT_EQ(server_.last().line(), "POST /v1/catalogs/c1/commit");
  EXPECT_EQ(server_.last().body, body);

  server_.Queue(
      409,
      R"({"error":"table_recreated","detail":"recreated","tables":["ns1.events"],"retry":"re-prepare"})");
  Result<CommitResult> recreated = catalog.Commit(body);
  ASSERT_FALSE(recreated.ok());
  EXPECT_EQ(ErrorKindOf(recreated.error()), ErrorKind::kIncarnationChanged);
  EXPECT_EQ(ErrorTables(recreated.error()), std::vector<std::string>{"ns1.events"});

  server_.Queue(410, R"({"error":"expired","detail":"read_snapshot below floor"})");
  EXPECT_EQ(ErrorKindOf(catalog.Commit(body).error()), ErrorKind::kReadSnapshotExpired);

  server_.Clear();
  server_.Queue(503, "");
  server_.Queue(200, R"({"snapshot_id":7})");
  EXPECT_FALSE(catalog.Commit(body).ok());  // unkeyed: not replayed
  EXPECT_EQ(server_.requests().size(), 1u);

  server_.Clear();
  server_.Queue(503, "");
  server_.Queue(200, R"({"snapshot_id":7})");
  EXPECT_TRUE(catalog.Commit(body, /*keyed=*/true).ok());  // keyed: replay returns the receipt
  EXPECT_EQ(server_.requests().size(), 2u);
}

TEST_F(ClientTest, SnapshotsPageAscending) {
  Catalog catalog = OpenCatalog();
  server_.Queue(200, PageJson({1, 2}, true));
  server_.Queue(200, PageJson({3}, false));
  Result<SnapshotIterator> it = catalog.Snapshots(0, std::nullopt, 2);
  ASSERT_TRUE(it.ok());
  EXPECT_TRUE(server_.requests().empty());  // lazy
  std::vector<int64_t> ids;
  while (true) {
    Result<std::optional<Snapshot>> next = it->Next();
    ASSERT_TRUE(next.ok()) << next.error().ToString();
    if (!*next) break;
    ids.push_back((*next)->snapshot_id);
  }
  EXPECT_EQ(ids, (std::vector<int64_t>{1, 2, 3}));
  EXPECT_EQ(server_.lines(), (std::vector<std::string>{
                                 "GET /v1/catalogs/c1/snapshots?after=0&limit=2",
                                 "GET /v1/catalogs/c1/snapshots?after=2&limit=2",
                             }));
  Result<std::optional<Snapshot>> after_end = it->Next();
  ASSERT_TRUE(after_end.ok());
  EXPECT_FALSE(after_end->has_value());
  EXPECT_EQ(server_.requests().size(), 2u);
}

TEST_F(ClientTest, SnapshotsPageDescending) {
  Catalog catalog = OpenCatalog();
  server_.Queue(200, PageJson({5, 4}, true));
  server_.Queue(200, PageJson({3}, false));
  Result<SnapshotIterator> it = catalog.Snapshots(0, 6, 2);
  ASSERT_TRUE(it.ok());
  std::vector<int64_t> ids;
  for (Result<std::optional<Snapshot>> next = it->Next(); next.ok() && *next; next = it->Next()) {
    ids.push_back((*next)->snapshot_id);
  }
  EXPECT_EQ(ids, (std::vector<int64_t>{5, 4, 3}));
  EXPECT_EQ(server_.lines(), (std::vector<std::string>{
                                 "GET /v1/catalogs/c1/snapshots?before=6&limit=2",
                                 "GET /v1/catalogs/c1/snapshots?before=4&limit=2",
                             }));
}

TEST_F(ClientTest, SnapshotsStopOnAnEmptyPageAndRefuseBadArguments) {
  Catalog catalog = OpenCatalog();
  server_.Queue(200, PageJson({}, true));
  Result<SnapshotIterator> it = catalog.Snapshots(7);
  ASSERT_TRUE(it.ok());
  Result<std::optional<Snapshot>> next = it->Next();
  ASSERT_TRUE(next.ok());
  EXPECT_FALSE(next->has_value());
  EXPECT_EQ(server_.lines(),
            std::vector<std::string>{"GET /v1/catalogs/c1/snapshots?after=7&limit=1000"});
  ASSERT_TRUE(it->Next().ok());
  EXPECT_EQ(server_.requests().size(), 1u);

  server_.Clear();
  Result<SnapshotIterator> both = catalog.Snapshots(3, 6);
  ASSERT_FALSE(both.ok());
  EXPECT_EQ(both.error().code, ErrorCode::kValidation);
  EXPECT_FALSE(catalog.Snapshots(0, std::nullopt, 0).ok());
  EXPECT_TRUE(server_.requests().empty());
}

TEST_F(ClientTest, StoreForCachesOneStorePerRoot) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("hoglake-client-test-" + std::to_string(getpid()));
  const std::string root = "file://" + dir.string();
  Result<ObjectStore*> a = client_.context()->StoreFor(root + "/");
  ASSERT_TRUE(a.ok()) << a.error().ToString();
  Result<ObjectStore*> b = client_.context()->StoreFor(root);
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(*a, *b);
  ASSERT_TRUE((*a)->Put(root + "/data/x.bin", "hello").ok());
  EXPECT_EQ(*(*b)->Get(root + "/data/x.bin"), "hello");
  EXPECT_FALSE(client_.context()->StoreFor("ftp://nowhere/").ok());
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace hoglake::client
