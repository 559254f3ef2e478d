// CatalogService::AlterTable and TruncateTable (contract §2.5; server digest
// §8). An alter loads the table at head into an AlterState, applies every op
// in memory (alter_ops.h), then writes the difference in one CommitScope:
// changed versioned rows are ended at the new snapshot BEFORE their
// replacements are inserted (the live-ordinal and live-name unique indexes
// are immediate), so a row created and changed within the same request is
// written once.
#include <map>

#include "catalog/catalog_service.h"
#include "catalog/commit/data_file_writes.h"
#include "catalog/ddl/alter_ops.h"
#include "catalog/ddl/alter_store.h"
#include "catalog/ddl/table_store.h"

namespace hoglake::catalog {
namespace {

std::string Qualified(const TableRef& t) { return StrCat(t.namespace_name, ".", t.table); }

// The table live at head, under the scope's lock, with its incarnation checked.
struct LiveTable {
  int64_t namespace_id = 0;
  int64_t table_id = 0;
  std::string table_uuid;
  int32_t next_field_id = 1;
};

Result<LiveTable> ResolveLive(CommitScope& scope, const TableRef& ref,
                              const std::optional<std::string>& expected_table_uuid) {
  pg::PgConnection& conn = scope.conn();
  const int64_t head = scope.head().head_snapshot_id;
  LiveTable t;
  HOGLAKE_ASSIGN_OR_RETURN(t.namespace_id, NamespaceIdAt(conn, scope.catalog_id(), ref.catalog,
                                                         ref.namespace_name, head));
  HOGLAKE_ASSIGN_OR_RETURN(std::optional<int64_t> id,
                           TableIdAt(conn, scope.catalog_id(), t.namespace_id, ref.table, head));
  if (!id) return NotFound("table '", Qualified(ref), "' not found");
  t.table_id = *id;
  HOGLAKE_ASSIGN_OR_RETURN(
      pg::PgResult r,
      conn.Exec("SELECT table_uuid, next_field_id FROM hog_table WHERE catalog_id = $1 "
                "AND table_id = $2",
                {std::to_string(scope.catalog_id()), std::to_string(t.table_id)}));
  t.table_uuid = r.GetString(0, 0);
  t.next_field_id = static_cast<int32_t>(r.GetInt64(0, 1));
  if (expected_table_uuid && *expected_table_uuid != t.table_uuid) {
    return MakeError(ErrorCode::kCommitConflict, "table '", Qualified(ref), "' is incarnation ",
                     t.table_uuid, ", not the expected ", *expected_table_uuid);
  }
  return t;
}

// read_snapshot: within [0, head] (422), not below the floor (410), and no
// DDL on the table after it (409 ddl_since_read_snapshot).
Status CheckReadSnapshot(CommitScope& scope, const TableRef& ref, int64_t table_id, int64_t read) {
  const CatalogHead& head = scope.head();
  if (read > head.head_snapshot_id) {
    return Validation("read_snapshot ", read, " is beyond head ", head.head_snapshot_id);
  }
  if (read < head.earliest_snapshot_id) {
    return BelowFloorError(head, StrCat("read_snapshot ", read));
  }
  HOGLAKE_ASSIGN_OR_RETURN(
      pg::PgResult hits,
      scope.conn().Exec(
          "SELECT 1 FROM hog_snapshot_change WHERE catalog_id = $1 AND object_id = $2 "
          "AND kind IN ('table_dropped', 'table_altered') AND snapshot_id > $3 "
          "LIMIT 1",
          {std::to_string(scope.catalog_id()), std::to_string(table_id), std::to_string(read)}));
  if (hits.rows() == 0) return Status::Ok();
  Error e = MakeError(ErrorCode::kDdlSinceReadSnapshot, "DDL on ", Qualified(ref),
                      " since read_snapshot ", read);
  e.detail.tables = {Qualified(ref)};
  e.detail.read_snapshot = read;
  e.detail.re_prepare = true;
  return e;
}

bool NeedsIdlessCheck(const std::vector<AlterOp>& ops) {
  for (const AlterOp& op : ops) {
    if (op.kind == AlterOpKind::kAddColumn || op.kind == AlterOpKind::kAddColumnWithMetadata ||
        op.kind == AlterOpKind::kRenameColumn) {
      return true;
    }
  }
  return false;
}

}  // namespace

Result<TableInfo> CatalogService::AlterTable(const TableRef& ref, AlterTableRequest request) {
  if (request.ops.empty()) return BadRequest("ops must name at least one op");
  if (request.read_snapshot && *request.read_snapshot < 0) {
    return Validation("read_snapshot ", *request.read_snapshot, " is negative");
  }
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgPool::Lease conn, pool_->Acquire());
  HOGLAKE_ASSIGN_OR_RETURN(CommitScope scope,
                           CommitScope::Begin(*conn, ref.catalog, options_.commit_lock_timeout_ms,
                                              options_.commit_lock_observer));
  const int64_t catalog_id = scope.catalog_id();
  const int64_t head = scope.head().head_snapshot_id;
  const int64_t snapshot = scope.snapshot_id();
  HOGLAKE_ASSIGN_OR_RETURN(LiveTable live, ResolveLive(scope, ref, request.expected_table_uuid));
  if (request.read_snapshot) {
    HOGLAKE_RETURN_IF_ERROR(CheckReadSnapshot(scope, ref, live.table_id, *request.read_snapshot));
  }
  HOGLAKE_ASSIGN_OR_RETURN(TableInfo before, LoadTable(*conn, catalog_id, live.table_id,
                                                       ref.namespace_name, head, false));
  AlterState state = AlterStateOf(before, live.next_field_id);
  HOGLAKE_RETURN_IF_ERROR(
      LoadAlterExtras(*conn, catalog_id, live.table_id, NeedsIdlessCheck(request.ops), &state));
  AlterEnvironment env;
  env.namespace_name = std::string(ref.namespace_name);
  env.table_name_taken = [&](std::string_view name) -> Result<bool> {
    HOGLAKE_ASSIGN_OR_RETURN(std::optional<int64_t> other,
                             TableIdAt(*conn, catalog_id, live.namespace_id, name, head));
    return other.has_value() && *other != live.table_id;
  };
  HOGLAKE_RETURN_IF_ERROR(ApplyAlterOps(state, request.ops, env));

  const AlterTarget target{catalog_id, live.table_id, live.namespace_id, snapshot};
  HOGLAKE_RETURN_IF_ERROR(WriteAlterDiff(*conn, target, before, live.next_field_id, state));
  scope.AddChange(ChangeKind::kTableAltered, live.table_id);
  HOGLAKE_RETURN_IF_ERROR(scope.Finish(/*ddl=*/true));
  HOGLAKE_ASSIGN_OR_RETURN(TableInfo info, LoadTable(*conn, catalog_id, live.table_id,
                                                     ref.namespace_name, snapshot, true));
  info.snapshot_id = snapshot;
  return info;
}

Result<CommitResult> CatalogService::TruncateTable(const TableRef& ref,
                                                   const std::string& expected_table_uuid) {
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgPool::Lease conn, pool_->Acquire());
  HOGLAKE_ASSIGN_OR_RETURN(CommitScope scope,
                           CommitScope::Begin(*conn, ref.catalog, options_.commit_lock_timeout_ms,
                                              options_.commit_lock_observer));
  HOGLAKE_ASSIGN_OR_RETURN(LiveTable live, ResolveLive(scope, ref, expected_table_uuid));
  HOGLAKE_RETURN_IF_ERROR(EndLiveDataFiles(scope, live.table_id));
  scope.AddChange(ChangeKind::kTableAltered, live.table_id);
  scope.AddChange(ChangeKind::kTableDeletedFrom, live.table_id);
  return scope.Finish(/*ddl=*/true);
}

}  // namespace hoglake::catalog
