// CatalogService: namespaces. Not snapshot-versioned by name, but each row
// records the snapshots that created and dropped it, so pinned listings see
// the namespaces that were live then.
#include "catalog/catalog_service.h"
#include "catalog/model/identifiers.h"

namespace hoglake::catalog {

Result<std::vector<NamespaceInfo>> CatalogService::ListNamespaces(std::string_view catalog,
                                                                  const SnapshotSelector& at) {
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgPool::Lease conn, pool_->Acquire());
  HOGLAKE_ASSIGN_OR_RETURN(CatalogHead head, ReadCatalogHead(*conn, catalog));
  HOGLAKE_ASSIGN_OR_RETURN(int64_t snapshot, ResolveSnapshot(*conn, head, at));
  HOGLAKE_ASSIGN_OR_RETURN(
      pg::PgResult r,
      conn->Exec(
          "SELECT name, namespace_id FROM hog_namespace WHERE catalog_id = $1 "
          "AND created_snapshot <= $2 AND (dropped_snapshot IS NULL OR $2 < dropped_snapshot) "
          "ORDER BY name",
          {std::to_string(head.catalog_id), std::to_string(snapshot)}));
  std::vector<NamespaceInfo> out;
  for (int i = 0; i < r.rows(); ++i) out.push_back({r.GetString(i, 0), r.GetInt64(i, 1)});
  return out;
}

Result<NamespaceInfo> CatalogService::CreateNamespace(std::string_view catalog,
                                                      std::string_view name) {
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgPool::Lease conn, pool_->Acquire());
  HOGLAKE_ASSIGN_OR_RETURN(CommitScope scope,
                           CommitScope::Begin(*conn, catalog, options_.commit_lock_timeout_ms,
                                              options_.commit_lock_observer));
  HOGLAKE_RETURN_IF_ERROR(ValidateIdentifier("namespace", name));
  HOGLAKE_ASSIGN_OR_RETURN(
      pg::PgResult existing,
      conn->Exec("SELECT 1 FROM hog_namespace WHERE catalog_id = $1 AND name = $2 "
                 "AND dropped_snapshot IS NULL",
                 {std::to_string(scope.catalog_id()), std::string(name)}));
  if (existing.rows() > 0) return AlreadyExists("namespace '", name, "' already exists");
  HOGLAKE_ASSIGN_OR_RETURN(int64_t id, scope.AllocateIds("next_namespace_id", 1));
  HOGLAKE_RETURN_IF_ERROR(
      conn->Exec("INSERT INTO hog_namespace (catalog_id, namespace_id, name, created_snapshot) "
                 "VALUES ($1, $2, $3, $4)",
                 {std::to_string(scope.catalog_id()), std::to_string(id), std::string(name),
                  std::to_string(scope.snapshot_id())}));
  scope.AddChange(ChangeKind::kNamespaceCreated, id);
  HOGLAKE_RETURN_IF_ERROR(scope.Finish(/*ddl=*/true));
  return NamespaceInfo{std::string(name), id};
}

Result<NamespaceInfo> CatalogService::GetNamespace(std::string_view catalog,
                                                   std::string_view name) {
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgPool::Lease conn, pool_->Acquire());
  HOGLAKE_ASSIGN_OR_RETURN(CatalogHead head, ReadCatalogHead(*conn, catalog));
  HOGLAKE_ASSIGN_OR_RETURN(
      pg::PgResult r, conn->Exec("SELECT namespace_id FROM hog_namespace WHERE catalog_id = $1 "
                                 "AND name = $2 AND dropped_snapshot IS NULL",
                                 {std::to_string(head.catalog_id), std::string(name)}));
  if (r.rows() == 0) return NotFound("namespace '", name, "' not found in catalog '", catalog, "'");
  return NamespaceInfo{std::string(name), r.GetInt64(0, 0)};
}

Result<CommitResult> CatalogService::DropNamespace(std::string_view catalog, std::string_view name,
                                                   std::optional<int64_t> expected_namespace_id) {
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgPool::Lease conn, pool_->Acquire());
  HOGLAKE_ASSIGN_OR_RETURN(CommitScope scope,
                           CommitScope::Begin(*conn, catalog, options_.commit_lock_timeout_ms,
                                              options_.commit_lock_observer));
  const std::string catalog_id = std::to_string(scope.catalog_id());
  HOGLAKE_ASSIGN_OR_RETURN(
      pg::PgResult r, conn->Exec("SELECT namespace_id FROM hog_namespace WHERE catalog_id = $1 "
                                 "AND name = $2 AND dropped_snapshot IS NULL",
                                 {catalog_id, std::string(name)}));
  if (r.rows() == 0) return NotFound("namespace '", name, "' not found in catalog '", catalog, "'");
  const int64_t id = r.GetInt64(0, 0);
  if (expected_namespace_id && *expected_namespace_id != id) {
    return MakeError(ErrorCode::kCommitConflict, "namespace '", name, "' has id ", id,
                     ", not the expected ", *expected_namespace_id,
                     " (it was dropped and recreated)");
  }
  HOGLAKE_ASSIGN_OR_RETURN(
      pg::PgResult tables,
      conn->Exec("SELECT (SELECT count(*) FROM hog_table_version WHERE catalog_id = $1 "
                 "AND namespace_id = $2 AND end_snapshot IS NULL), "
                 "(SELECT count(*) FROM hog_view WHERE catalog_id = $1 AND namespace_id = $2 "
                 "AND end_snapshot IS NULL)",
                 {catalog_id, std::to_string(id)}));
  if (tables.GetInt64(0, 0) > 0 || tables.GetInt64(0, 1) > 0) {
    return MakeError(ErrorCode::kNamespaceNotEmpty, "namespace '", name, "' holds ",
                     tables.GetInt64(0, 0), " live tables and ", tables.GetInt64(0, 1),
                     " live views; drop them first");
  }
  HOGLAKE_RETURN_IF_ERROR(conn->Exec(
      "UPDATE hog_namespace SET dropped_snapshot = $3 WHERE catalog_id = $1 AND namespace_id = $2",
      {catalog_id, std::to_string(id), std::to_string(scope.snapshot_id())}));
  scope.AddChange(ChangeKind::kNamespaceDropped, id);
  return scope.Finish(/*ddl=*/true);
}

}  // namespace hoglake::catalog
