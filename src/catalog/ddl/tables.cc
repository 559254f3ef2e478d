// CatalogService: table DDL (create, drop) and table reads (get, list).
#include "catalog/catalog_service.h"
#include "catalog/ddl/table_store.h"
#include "catalog/model/identifiers.h"
#include "common/uuid.h"

namespace hoglake::catalog {
namespace {

std::string QualifiedName(const TableRef& t) { return StrCat(t.namespace_name, ".", t.table); }

}  // namespace

Result<TableInfo> CatalogService::CreateTable(std::string_view catalog,
                                              std::string_view namespace_name,
                                              CreateTableRequest request) {
  // Everything the request alone decides is checked before taking the lock.
  HOGLAKE_RETURN_IF_ERROR(ValidateIdentifier("table", request.name));
  HOGLAKE_RETURN_IF_ERROR(ValidateColumns(request.columns));
  HOGLAKE_RETURN_IF_ERROR(ValidateProperties(request.properties));
  if (request.comment) HOGLAKE_RETURN_IF_ERROR(ValidateComment("table comment", *request.comment));
  std::erase_if(request.properties, [](const auto& kv) {
    return kv.first == "write.format.default";  // parquet is the default; not stored
  });
  HOGLAKE_ASSIGN_OR_RETURN(const int32_t next_field_id, AssignFieldIds(request.columns, 1));

  HOGLAKE_ASSIGN_OR_RETURN(pg::PgPool::Lease conn, pool_->Acquire());
  HOGLAKE_ASSIGN_OR_RETURN(CommitScope scope,
                           CommitScope::Begin(*conn, catalog, options_.commit_lock_timeout_ms,
                                              options_.commit_lock_observer));
  const int64_t head = scope.head().head_snapshot_id;
  const int64_t snapshot = scope.snapshot_id();
  const std::string catalog_id = std::to_string(scope.catalog_id());
  HOGLAKE_ASSIGN_OR_RETURN(int64_t namespace_id,
                           NamespaceIdAt(*conn, scope.catalog_id(), catalog, namespace_name, head));
  HOGLAKE_ASSIGN_OR_RETURN(std::optional<int64_t> existing,
                           TableIdAt(*conn, scope.catalog_id(), namespace_id, request.name, head));
  if (existing) {
    return AlreadyExists("table '", namespace_name, ".", request.name, "' already exists");
  }
  HOGLAKE_ASSIGN_OR_RETURN(int64_t table_id, scope.AllocateIds("next_table_id", 1));
  const std::string table = std::to_string(table_id);
  HOGLAKE_RETURN_IF_ERROR(conn->Exec(
      "INSERT INTO hog_table (catalog_id, table_id, table_uuid, created_snapshot, next_field_id) "
      "VALUES ($1, $2, $3, $4, $5)",
      {catalog_id, table, NewUuid(), std::to_string(snapshot), std::to_string(next_field_id)}));
  HOGLAKE_RETURN_IF_ERROR(conn->Exec(
      "INSERT INTO hog_table_version (catalog_id, table_id, begin_snapshot, namespace_id, name, "
      "comment, properties) VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb)",
      {catalog_id, table, std::to_string(snapshot), std::to_string(namespace_id), request.name,
       request.comment, PropertiesJson(request.properties)}));
  HOGLAKE_RETURN_IF_ERROR(
      InsertColumns(*conn, scope.catalog_id(), table_id, snapshot, request.columns));
  HOGLAKE_RETURN_IF_ERROR(conn->Exec(
      "INSERT INTO hog_table_stats (catalog_id, table_id) VALUES ($1, $2)", {catalog_id, table}));
  scope.AddChange(ChangeKind::kTableCreated, table_id);
  const int64_t catalog_key = scope.catalog_id();
  HOGLAKE_RETURN_IF_ERROR(scope.Finish(/*ddl=*/true));
  HOGLAKE_ASSIGN_OR_RETURN(TableInfo info,
                           LoadTable(*conn, catalog_key, table_id, namespace_name, snapshot, true));
  info.snapshot_id = snapshot;
  return info;
}

Result<TableInfo> CatalogService::GetTable(const TableRef& ref, const SnapshotSelector& at,
                                           bool with_totals) {
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgPool::Lease conn, pool_->Acquire());
  HOGLAKE_ASSIGN_OR_RETURN(CatalogHead head, ReadCatalogHead(*conn, ref.catalog));
  HOGLAKE_ASSIGN_OR_RETURN(int64_t snapshot, ResolveSnapshot(*conn, head, at));
  // One repeatable-read transaction: every row below comes from one state.
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgTransaction txn, pg::PgTransaction::Begin(*conn));
  HOGLAKE_RETURN_IF_ERROR(conn->Exec("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY"));
  HOGLAKE_ASSIGN_OR_RETURN(int64_t namespace_id, NamespaceIdAt(*conn, head.catalog_id, ref.catalog,
                                                               ref.namespace_name, snapshot));
  HOGLAKE_ASSIGN_OR_RETURN(std::optional<int64_t> table_id,
                           TableIdAt(*conn, head.catalog_id, namespace_id, ref.table, snapshot));
  if (!table_id) {
    return NotFound("table '", QualifiedName(ref), "' not found at snapshot ", snapshot);
  }
  HOGLAKE_ASSIGN_OR_RETURN(TableInfo info, LoadTable(*conn, head.catalog_id, *table_id,
                                                     ref.namespace_name, snapshot, with_totals));
  HOGLAKE_RETURN_IF_ERROR(txn.Commit());
  return info;
}

Result<std::vector<TableSummary>> CatalogService::ListTables(std::string_view catalog,
                                                             std::string_view namespace_name,
                                                             const SnapshotSelector& at) {
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgPool::Lease conn, pool_->Acquire());
  HOGLAKE_ASSIGN_OR_RETURN(CatalogHead head, ReadCatalogHead(*conn, catalog));
  HOGLAKE_ASSIGN_OR_RETURN(int64_t snapshot, ResolveSnapshot(*conn, head, at));
  HOGLAKE_ASSIGN_OR_RETURN(int64_t namespace_id, NamespaceIdAt(*conn, head.catalog_id, catalog,
                                                               namespace_name, snapshot));
  HOGLAKE_ASSIGN_OR_RETURN(
      pg::PgResult r,
      conn->Exec("SELECT v.name, t.table_uuid, v.comment, f.records, f.files, f.bytes, "
                 " (SELECT count(DISTINCT c.snapshot_id) FROM hog_snapshot_change c "
                 "  WHERE c.catalog_id = v.catalog_id AND c.object_id = v.table_id "
                 "  AND c.kind LIKE 'table\\_%' AND c.snapshot_id >= $4) "
                 "FROM hog_table_version v JOIN hog_table t USING (catalog_id, table_id) "
                 "CROSS JOIN LATERAL (SELECT coalesce(sum(d.record_count), 0) AS records, count(*) "
                 "AS files, "
                 "  coalesce(sum(d.file_size_bytes), 0) AS bytes FROM hog_data_file d "
                 "  WHERE d.catalog_id = v.catalog_id AND d.table_id = v.table_id AND "
                 "d.begin_snapshot <= $3 "
                 "  AND (d.end_snapshot IS NULL OR $3 < d.end_snapshot)) f "
                 "WHERE v.catalog_id = $1 AND v.namespace_id = $2 AND v.begin_snapshot <= $3 "
                 "AND (v.end_snapshot IS NULL OR $3 < v.end_snapshot) ORDER BY v.name",
                 {std::to_string(head.catalog_id), std::to_string(namespace_id),
                  std::to_string(snapshot), std::to_string(head.earliest_snapshot_id)}));
  std::vector<TableSummary> out;
  for (int i = 0; i < r.rows(); ++i) {
    TableSummary s;
    s.name = r.GetString(i, 0);
    s.table_uuid = r.GetString(i, 1);
    s.comment = r.GetOptionalString(i, 2);
    s.totals = TableTotals{r.GetInt64(i, 3), r.GetInt64(i, 4), r.GetInt64(i, 5)};
    s.snapshot_count = r.GetInt64(i, 6);
    out.push_back(std::move(s));
  }
  return out;
}

Result<CommitResult> CatalogService::DropTable(const TableRef& ref,
                                               std::optional<std::string> expected_table_uuid) {
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgPool::Lease conn, pool_->Acquire());
  HOGLAKE_ASSIGN_OR_RETURN(CommitScope scope,
                           CommitScope::Begin(*conn, ref.catalog, options_.commit_lock_timeout_ms,
                                              options_.commit_lock_observer));
  const int64_t head = scope.head().head_snapshot_id;
  HOGLAKE_ASSIGN_OR_RETURN(
      int64_t namespace_id,
      NamespaceIdAt(*conn, scope.catalog_id(), ref.catalog, ref.namespace_name, head));
  HOGLAKE_ASSIGN_OR_RETURN(std::optional<int64_t> table_id,
                           TableIdAt(*conn, scope.catalog_id(), namespace_id, ref.table, head));
  if (!table_id) return NotFound("table '", QualifiedName(ref), "' not found");
  const std::vector<pg::PgParam> key = {std::to_string(scope.catalog_id()),
                                        std::to_string(*table_id),
                                        std::to_string(scope.snapshot_id())};
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgResult uuid,
                           conn->Exec("SELECT table_uuid FROM hog_table WHERE catalog_id = $1 AND "
                                      "table_id = $2 AND $3::bigint IS NOT NULL",
                                      key));
  if (expected_table_uuid && *expected_table_uuid != uuid.GetString(0, 0)) {
    return MakeError(ErrorCode::kCommitConflict, "table '", QualifiedName(ref), "' is incarnation ",
                     uuid.GetString(0, 0), ", not the expected ", *expected_table_uuid);
  }
  for (const char* table :
       {"hog_table_version", "hog_column", "hog_partition_spec", "hog_sort_spec"}) {
    HOGLAKE_RETURN_IF_ERROR(conn->Exec(StrCat("UPDATE ", table,
                                              " SET end_snapshot = $3 WHERE catalog_id = $1 "
                                              "AND table_id = $2 AND end_snapshot IS NULL"),
                                       key));
  }
  HOGLAKE_RETURN_IF_ERROR(conn->Exec(
      "UPDATE hog_table SET dropped_snapshot = $3 WHERE catalog_id = $1 AND table_id = $2", key));
  scope.AddChange(ChangeKind::kTableDropped, *table_id);
  return scope.Finish(/*ddl=*/true);
}

}  // namespace hoglake::catalog
