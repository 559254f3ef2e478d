// CatalogService::PublishTableCreation (table_creations.h): under the
// catalog commit lock, then the operation row, either a durable answer
// (replay, abort, rejection) or one snapshot holding the new table, its files
// and the committed receipt.
#include <set>

#include "catalog/catalog_service.h"
#include "catalog/commit/data_file_writes.h"
#include "catalog/commit/file_registration.h"
#include "catalog/commit/table_creation_codec.h"
#include "catalog/commit/table_creation_store.h"
#include "catalog/ddl/alter_store.h"
#include "catalog/ddl/table_store.h"

namespace hoglake::catalog {
namespace {

// The request-shape rules of a publish (§2.10), before anything is looked up.
Status CheckPublishedFiles(const std::vector<FileRegistration>& files,
                           const std::string& write_path) {
  if (files.size() > kMaxTableCreationFiles) {
    return Validation("too many files: ", files.size(), " (at most ", kMaxTableCreationFiles,
                      " per table-creation publish)");
  }
  std::set<std::string_view> seen;
  for (size_t i = 0; i < files.size(); ++i) {
    const FileRegistration& f = files[i];
    const std::string where = StrCat("files[", i, "] (", f.path, ")");
    if (!seen.insert(f.path).second) return Validation("duplicate file paths: ", f.path);
    if (!PathUnderDataPath(f.path, write_path)) {
      return Validation(where, ": file outside operation write_path '", write_path, "'");
    }
    if (!f.footer_size) {
      return Validation(where, ": footer_size is required when publishing a table creation");
    }
    HOGLAKE_RETURN_IF_ERROR(ValidateFileShape(f, where));
  }
  return Status::Ok();
}

// Partition values against the new table's spec, and the stats sanitizer.
Status CheckFilesAgainstTable(std::vector<FileRegistration>& files, const AlterState& table) {
  const StatsColumns columns = StatsColumnsOf(table.columns);
  const size_t arity = table.partition_spec ? table.partition_spec->fields.size() : 0;
  for (size_t i = 0; i < files.size(); ++i) {
    FileRegistration& f = files[i];
    const std::string where = StrCat("files[", i, "] (", f.path, ")");
    if (table.partition_spec) {
      if (!f.partition_values) {
        return Validation(where, ": the table is partitioned; partition_values are required");
      }
      if (f.partition_values->size() != arity) {
        return Validation(where, ": partition_values has ", f.partition_values->size(),
                          " entries but the partition spec has ", arity, " fields");
      }
    } else if (f.partition_values) {
      return Validation(where, ": the table is not partitioned; partition_values are not allowed");
    }
    if (f.column_stats)
      HOGLAKE_RETURN_IF_ERROR(SanitizeColumnStats(*f.column_stats, columns, where));
  }
  return Status::Ok();
}

// The live table holding the target name, if any.
struct LiveTarget {
  int64_t table_id = 0;
  std::string table_uuid;
};

Result<std::optional<LiveTarget>> LiveTargetOf(pg::PgConnection& conn, int64_t catalog_id,
                                               int64_t namespace_id, std::string_view name,
                                               int64_t head) {
  HOGLAKE_ASSIGN_OR_RETURN(std::optional<int64_t> id,
                           TableIdAt(conn, catalog_id, namespace_id, name, head));
  if (!id) return std::optional<LiveTarget>();
  HOGLAKE_ASSIGN_OR_RETURN(
      pg::PgResult r, conn.Exec("SELECT table_uuid::text FROM hog_table WHERE catalog_id = $1 AND "
                                "table_id = $2",
                                {std::to_string(catalog_id), std::to_string(*id)}));
  return std::optional<LiveTarget>(LiveTarget{*id, r.GetString(0, 0)});
}

// Why the publish must be refused durably, if it must (reason code).
Result<std::optional<std::string>> RefusalReason(pg::PgConnection& conn, CommitScope& scope,
                                                 std::string_view catalog, const OperationRow& row,
                                                 const TableCreationDefinition& d,
                                                 std::optional<LiveTarget>* target) {
  const int64_t head = scope.head().head_snapshot_id;
  Result<int64_t> namespace_id =
      NamespaceIdAt(conn, scope.catalog_id(), catalog, d.namespace_name, head);
  if (!namespace_id.ok() && namespace_id.error().code != ErrorCode::kNotFound) {
    return namespace_id.error();
  }
  if (!namespace_id.ok() || *namespace_id != row.namespace_id) {
    return std::optional<std::string>("namespace_changed");
  }
  HOGLAKE_ASSIGN_OR_RETURN(*target,
                           LiveTargetOf(conn, scope.catalog_id(), row.namespace_id, d.name, head));
  if (!d.replacement) {
    if (*target) return std::optional<std::string>("target_exists");
    return std::optional<std::string>();
  }
  const std::optional<std::string> live_uuid =
      *target ? std::optional<std::string>((*target)->table_uuid) : std::nullopt;
  if (live_uuid != d.replacement->expected_table_uuid) {
    return std::optional<std::string>("target_changed");
  }
  if (*target) {
    HOGLAKE_ASSIGN_OR_RETURN(
        pg::PgResult ddl,
        conn.Exec("SELECT 1 FROM hog_snapshot_change WHERE catalog_id = $1 AND object_id = $2 "
                  "AND kind IN ('table_dropped', 'table_altered') AND snapshot_id > $3 LIMIT 1",
                  {std::to_string(scope.catalog_id()), std::to_string((*target)->table_id),
                   std::to_string(d.replacement->read_snapshot)}));
    if (ddl.rows() > 0) return std::optional<std::string>("target_changed");
  }
  return std::optional<std::string>();
}

// Ends the replaced incarnation at `snapshot`, as a drop does.
Status DropReplaced(pg::PgConnection& conn, int64_t catalog_id, int64_t table_id,
                    int64_t snapshot) {
  const std::vector<pg::PgParam> key = {std::to_string(catalog_id), std::to_string(table_id),
                                        std::to_string(snapshot)};
  for (const char* table :
       {"hog_table_version", "hog_column", "hog_partition_spec", "hog_sort_spec"}) {
    HOGLAKE_RETURN_IF_ERROR(conn.Exec(StrCat("UPDATE ", table,
                                             " SET end_snapshot = $3 WHERE catalog_id = $1 "
                                             "AND table_id = $2 AND end_snapshot IS NULL"),
                                      key));
  }
  return conn
      .Exec("UPDATE hog_table SET dropped_snapshot = $3 WHERE catalog_id = $1 AND table_id = $2",
            key)
      .status();
}

}  // namespace

Result<TableCreation> CatalogService::PublishTableCreation(std::string_view catalog,
                                                           std::string_view operation,
                                                           std::vector<FileRegistration> files,
                                                           TableCreationPublish endpoint) {
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgPool::Lease conn, pool_->Acquire());
  HOGLAKE_ASSIGN_OR_RETURN(CatalogInfo info, GetCatalogOn(*conn, catalog));
  HOGLAKE_ASSIGN_OR_RETURN(
      CommitScope scope,
      CommitScope::BeginForId(*conn, info.catalog_id, catalog, options_.commit_lock_timeout_ms,
                              options_.commit_lock_observer));
  const int64_t catalog_id = scope.catalog_id();
  HOGLAKE_ASSIGN_OR_RETURN(std::optional<OperationRow> row,
                           LockOperation(*conn, catalog_id, operation));
  if (!row) return OperationNotFound(operation);
  const std::string files_json = FilesJson(files);
  if (row->state == "committed" || row->state == "rejected") {
    HOGLAKE_ASSIGN_OR_RETURN(bool same,
                             StoredJsonEquals(*conn, catalog_id, operation, "files", files_json));
    if (!same) {
      return MakeError(ErrorCode::kCommitConflict, "table-creation operation ", operation,
                       " was already published (", row->state, ") with a different file list");
    }
    return TableCreationOf(*row);
  }
  if (row->state == "aborted") {
    HOGLAKE_ASSIGN_OR_RETURN(TableCreation out, TableCreationOf(*row));
    HOGLAKE_RETURN_IF_ERROR(scope.CommitWithoutSnapshot());  // keeps a lazy expiry
    return out;
  }
  HOGLAKE_RETURN_IF_ERROR(CheckPublishedFiles(files, row->write_path));
  HOGLAKE_ASSIGN_OR_RETURN(TableCreationDefinition definition,
                           ParseDefinitionJson(row->definition_json));
  auto refuse = [&](std::string reason) -> Result<TableCreation> {
    HOGLAKE_RETURN_IF_ERROR(
        SetOperationState(*conn, catalog_id, operation, "rejected", reason, files_json));
    HOGLAKE_RETURN_IF_ERROR(scope.CommitWithoutSnapshot());
    row->state = "rejected";
    row->reason = std::move(reason);
    return TableCreationOf(*row);
  };
  Result<AlterState> built = BuildTableState(definition);
  if (!built.ok()) return refuse("definition_invalid");
  AlterState& table = *built;
  HOGLAKE_RETURN_IF_ERROR(CheckFilesAgainstTable(files, table));
  std::optional<LiveTarget> target;
  HOGLAKE_ASSIGN_OR_RETURN(std::optional<std::string> reason,
                           RefusalReason(*conn, scope, catalog, *row, definition, &target));
  if (reason) return refuse(*reason);
  std::vector<PublishedPath> published;
  for (const FileRegistration& f : files) {
    published.push_back({f.path, "data", f.file_format.value_or("parquet")});
  }
  HOGLAKE_RETURN_IF_ERROR(RegisterUploadClaims(*conn, catalog_id, std::string(operation), published,
                                               endpoint == TableCreationPublish::kUploads));
  HOGLAKE_RETURN_IF_ERROR(RefuseQueuedPaths(*conn, catalog_id, published));

  // ---- writes: one snapshot ----
  const int64_t snapshot = scope.snapshot_id();
  if (target) {
    HOGLAKE_RETURN_IF_ERROR(DropReplaced(*conn, catalog_id, target->table_id, snapshot));
    scope.AddChange(ChangeKind::kTableDropped, target->table_id);
  }
  HOGLAKE_ASSIGN_OR_RETURN(int64_t table_id, scope.AllocateIds("next_table_id", 1));
  const std::string table_key = std::to_string(table_id);
  HOGLAKE_RETURN_IF_ERROR(conn->Exec(
      "INSERT INTO hog_table (catalog_id, table_id, table_uuid, created_snapshot, "
      "next_field_id, replaced_table_id) VALUES ($1, $2, $3, $4, 1, $5::bigint)",
      {std::to_string(catalog_id), table_key, row->table_uuid, std::to_string(snapshot),
       target ? std::optional<std::string>(std::to_string(target->table_id)) : std::nullopt}));
  // Written as a diff against an empty table: version row, columns, partition
  // spec, sort order and the field-id allocator.
  const AlterTarget where{catalog_id, table_id, row->namespace_id, snapshot};
  HOGLAKE_RETURN_IF_ERROR(WriteAlterDiff(*conn, where, TableInfo{}, 1, table));
  HOGLAKE_RETURN_IF_ERROR(
      conn->Exec("INSERT INTO hog_table_stats (catalog_id, table_id) VALUES ($1, $2)",
                 {std::to_string(catalog_id), table_key}));
  scope.AddChange(ChangeKind::kTableCreated, table_id);
  if (!files.empty()) {
    const std::optional<int64_t> spec_id =
        table.partition_spec ? std::optional<int64_t>(table.partition_spec->spec_id) : std::nullopt;
    const std::string qualified = definition.namespace_name + "." + definition.name;
    // A new table: its row ids start at 0.
    HOGLAKE_RETURN_IF_ERROR(
        InsertDataFiles(scope, {FileBatch{table_id, qualified, spec_id, &files, 0}}));
    scope.AddChange(ChangeKind::kTableInsertedInto, table_id);
  }
  const int64_t schema_version = scope.head().schema_version + 1;
  HOGLAKE_RETURN_IF_ERROR(SetOperationState(*conn, catalog_id, operation, "committed", std::nullopt,
                                            files_json, snapshot, schema_version));
  HOGLAKE_ASSIGN_OR_RETURN(CommitResult committed, scope.Finish(/*ddl=*/true));
  row->state = "committed";
  row->snapshot_id = committed.snapshot_id;
  row->schema_version = committed.schema_version;
  return TableCreationOf(*row);
}

}  // namespace hoglake::catalog
