// CatalogService::ReplaceTableData (table_replace.h): the path rules before
// the lock, then under it the table's resolution and the file rules as a
// commit runs them (write_target.h), the path guard (uploads.h), and the
// writes: the live files ended, the new ones inserted, one snapshot.
#include <climits>

#include "catalog/catalog_service.h"
#include "catalog/commit/data_file_writes.h"
#include "catalog/commit/file_registration.h"
#include "catalog/commit/uploads.h"
#include "catalog/commit/write_target.h"
#include "common/uuid.h"

namespace hoglake::catalog {

Result<CommitResult> CatalogService::ReplaceTableData(const TableRef& ref,
                                                      std::vector<FileRegistration> files,
                                                      const ReplaceOptions& options) {
  const std::string qualified = StrCat(ref.namespace_name, ".", ref.table);
  std::optional<std::string> expected_uuid;
  if (options.expected_table_uuid) {
    Result<UuidBytes> parsed = ParseUuid(*options.expected_table_uuid);
    if (!parsed.ok()) {
      return Validation("expected_table_uuid '", *options.expected_table_uuid, "' is not a uuid");
    }
    expected_uuid = FormatUuid(*parsed);
  }
  HOGLAKE_ASSIGN_OR_RETURN(const CatalogIdentity identity, IdentifyCatalog(ref.catalog));
  std::string data_path = identity.data_path;
  if (!data_path.ends_with('/')) data_path += '/';
  std::vector<std::string_view> paths;
  for (const FileRegistration& f : files) paths.push_back(f.path);
  HOGLAKE_RETURN_IF_ERROR(CheckDataPaths(paths, data_path, "replace"));

  HOGLAKE_ASSIGN_OR_RETURN(pg::PgPool::Lease conn, pool_->Acquire());
  HOGLAKE_ASSIGN_OR_RETURN(
      CommitScope scope,
      CommitScope::BeginForId(*conn, identity.catalog_id, ref.catalog,
                              options_.commit_lock_timeout_ms, options_.commit_lock_observer));
  const std::string catalog_id = std::to_string(identity.catalog_id);
  const pg::PgStatement resolve =
      WriteTargetStatement(catalog_id, ref.namespace_name, ref.table, std::nullopt);
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgResult rows, conn->ExecPrepared(resolve.sql, resolve.params));
  HOGLAKE_ASSIGN_OR_RETURN(
      std::optional<WriteTarget> target,
      ReadWriteTarget(*conn, catalog_id, ref.namespace_name, ref.table, expected_uuid, rows));
  if (!target) return NotFound("table '", qualified, "' not found");
  HOGLAKE_RETURN_IF_ERROR(ValidateRegistrations(files, *target, StrCat("replace of ", qualified)));
  int64_t next_row = target->next_row_id;
  for (const FileRegistration& f : files) {
    if (next_row > INT64_MAX - f.record_count) {
      return Validation("row ids of ", qualified, " would overflow");
    }
    next_row += f.record_count;
  }
  std::vector<PublishedPath> published;
  for (const FileRegistration& f : files) {
    published.push_back({f.path, "data", f.file_format.value_or("parquet")});
  }
  // Before the old files are ended: a path live in this table is refused too.
  HOGLAKE_RETURN_IF_ERROR(RegisterAndGuardPaths(*conn, identity.catalog_id, std::nullopt, published,
                                                /*require_claims=*/false));

  // ---- writes: one snapshot ----
  HOGLAKE_RETURN_IF_ERROR(EndLiveDataFiles(scope, target->table_id));
  scope.AddChange(ChangeKind::kTableAltered, target->table_id);
  scope.AddChange(ChangeKind::kTableDeletedFrom, target->table_id);
  if (!files.empty()) {
    HOGLAKE_RETURN_IF_ERROR(InsertDataFiles(
        scope,
        {FileBatch{target->table_id, qualified, target->spec_id, &files, target->next_row_id}}));
    scope.AddChange(ChangeKind::kTableInsertedInto, target->table_id);
  }
  HOGLAKE_ASSIGN_OR_RETURN(
      CommitResult committed,
      scope.Finish(/*ddl=*/true, CommitMetadata{options.author, options.message}));
  // The catalog's cached commit state (commit_state_cache.h) no longer holds;
  // forgetting it spares the next batch a failed one-round-trip attempt.
  KeepCommitState(identity.catalog_id, std::nullopt);
  return committed;
}

}  // namespace hoglake::catalog
