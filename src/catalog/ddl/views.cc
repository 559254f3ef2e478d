// CatalogService: views — named SQL text, versioned like tables, one
// snapshot per create/drop (view_created / view_dropped).
#include "catalog/catalog_service.h"
#include "catalog/ddl/table_store.h"
#include "catalog/model/identifiers.h"
#include "common/uuid.h"

namespace hoglake::catalog {
namespace {

constexpr const char* kViewColumns = "v.name, v.view_uuid, v.dialect, v.sql";

ViewInfo ViewFromRow(const pg::PgResult& r, int i, std::string_view namespace_name) {
  return ViewInfo{r.GetString(i, 0), std::string(namespace_name), r.GetString(i, 1),
                  r.GetString(i, 2), r.GetString(i, 3)};
}

bool Blank(std::string_view s) { return s.find_first_not_of(" \t\r\n") == std::string_view::npos; }

}  // namespace

Result<std::vector<ViewInfo>> CatalogService::ListViews(std::string_view catalog,
                                                        std::string_view namespace_name) {
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgPool::Lease conn, pool_->Acquire());
  HOGLAKE_ASSIGN_OR_RETURN(CatalogHead head, ReadCatalogHead(*conn, catalog));
  HOGLAKE_ASSIGN_OR_RETURN(int64_t ns, NamespaceIdAt(*conn, head.catalog_id, catalog,
                                                     namespace_name, head.head_snapshot_id));
  HOGLAKE_ASSIGN_OR_RETURN(
      pg::PgResult r,
      conn->Exec(StrCat("SELECT ", kViewColumns,
                        " FROM hog_view v WHERE v.catalog_id = $1 "
                        "AND v.namespace_id = $2 AND v.end_snapshot IS NULL ORDER BY v.name"),
                 {std::to_string(head.catalog_id), std::to_string(ns)}));
  std::vector<ViewInfo> out;
  for (int i = 0; i < r.rows(); ++i) out.push_back(ViewFromRow(r, i, namespace_name));
  return out;
}

Result<ViewInfo> CatalogService::CreateView(std::string_view catalog,
                                            std::string_view namespace_name, std::string_view name,
                                            std::string_view sql,
                                            std::optional<std::string> dialect) {
  HOGLAKE_RETURN_IF_ERROR(ValidateIdentifier("view", name));
  if (Blank(sql)) return Validation("view sql must not be blank");
  const std::string dialect_name = dialect.value_or("trino");
  if (Blank(dialect_name)) return Validation("view dialect must not be blank");
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgPool::Lease conn, pool_->Acquire());
  HOGLAKE_ASSIGN_OR_RETURN(CommitScope scope,
                           CommitScope::Begin(*conn, catalog, options_.commit_lock_timeout_ms,
                                              options_.commit_lock_observer));
  const std::string catalog_id = std::to_string(scope.catalog_id());
  HOGLAKE_ASSIGN_OR_RETURN(int64_t ns,
                           NamespaceIdAt(*conn, scope.catalog_id(), catalog, namespace_name,
                                         scope.head().head_snapshot_id));
  HOGLAKE_ASSIGN_OR_RETURN(
      pg::PgResult clash,
      conn->Exec("SELECT 1 FROM hog_view WHERE catalog_id = $1 AND namespace_id = $2 "
                 "AND name = $3 AND end_snapshot IS NULL",
                 {catalog_id, std::to_string(ns), std::string(name)}));
  if (clash.rows() > 0)
    return AlreadyExists("view '", namespace_name, ".", name, "' already exists");
  HOGLAKE_ASSIGN_OR_RETURN(int64_t view_id, scope.AllocateIds("next_view_id", 1));
  ViewInfo view{std::string(name), std::string(namespace_name), NewUuid(), dialect_name,
                std::string(sql)};
  HOGLAKE_RETURN_IF_ERROR(
      conn->Exec("INSERT INTO hog_view (catalog_id, view_id, view_uuid, namespace_id, name, "
                 "dialect, sql, begin_snapshot) "
                 "VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
                 {catalog_id, std::to_string(view_id), view.view_uuid, std::to_string(ns),
                  view.name, view.dialect, view.sql, std::to_string(scope.snapshot_id())}));
  scope.AddChange(ChangeKind::kViewCreated, view_id);
  HOGLAKE_RETURN_IF_ERROR(scope.Finish(/*ddl=*/true));
  return view;
}

Result<ViewInfo> CatalogService::GetView(std::string_view catalog, std::string_view namespace_name,
                                         std::string_view name) {
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgPool::Lease conn, pool_->Acquire());
  HOGLAKE_ASSIGN_OR_RETURN(CatalogHead head, ReadCatalogHead(*conn, catalog));
  HOGLAKE_ASSIGN_OR_RETURN(int64_t ns, NamespaceIdAt(*conn, head.catalog_id, catalog,
                                                     namespace_name, head.head_snapshot_id));
  HOGLAKE_ASSIGN_OR_RETURN(
      pg::PgResult r,
      conn->Exec(StrCat("SELECT ", kViewColumns,
                        " FROM hog_view v WHERE v.catalog_id = $1 "
                        "AND v.namespace_id = $2 AND v.name = $3 AND v.end_snapshot IS NULL"),
                 {std::to_string(head.catalog_id), std::to_string(ns), std::string(name)}));
  if (r.rows() == 0) return NotFound("view '", namespace_name, ".", name, "' not found");
  return ViewFromRow(r, 0, namespace_name);
}

Result<CommitResult> CatalogService::DropView(std::string_view catalog,
                                              std::string_view namespace_name,
                                              std::string_view name) {
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgPool::Lease conn, pool_->Acquire());
  HOGLAKE_ASSIGN_OR_RETURN(CommitScope scope,
                           CommitScope::Begin(*conn, catalog, options_.commit_lock_timeout_ms,
                                              options_.commit_lock_observer));
  HOGLAKE_ASSIGN_OR_RETURN(int64_t ns,
                           NamespaceIdAt(*conn, scope.catalog_id(), catalog, namespace_name,
                                         scope.head().head_snapshot_id));
  HOGLAKE_ASSIGN_OR_RETURN(
      pg::PgResult r,
      conn->Exec(
          "UPDATE hog_view SET end_snapshot = $4 WHERE catalog_id = $1 AND namespace_id = $2 "
          "AND name = $3 AND end_snapshot IS NULL RETURNING view_id",
          {std::to_string(scope.catalog_id()), std::to_string(ns), std::string(name),
           std::to_string(scope.snapshot_id())}));
  if (r.rows() == 0) return NotFound("view '", namespace_name, ".", name, "' not found");
  scope.AddChange(ChangeKind::kViewDropped, r.GetInt64(0, 0));
  return scope.Finish(/*ddl=*/true);
}

}  // namespace hoglake::catalog
