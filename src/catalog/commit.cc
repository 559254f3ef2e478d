// CatalogService::Commit: footer-shipping appends (contract §4.2). The order
// of checks decides which error a client sees, and follows the contract:
// endpoint requirements, catalog, data paths (unkeyed), lock, receipt
// (keyed), group merge, request shape, table resolution, read_snapshot
// window, file validation, upload claims (uploads.h), then the writes — one
// snapshot per request. Everything from the lock on runs in a group-commit
// batch (commit_batcher.h): concurrent commits to one catalog share one
// transaction, each in its own savepoint, acknowledged after its COMMIT.
#include <algorithm>
#include <functional>
#include <map>
#include <optional>

#include "catalog/catalog_service.h"
#include "catalog/commit_fingerprint.h"
#include "catalog/data_file_writes.h"
#include "catalog/file_registration.h"
#include "catalog/table_store.h"
#include "catalog/uploads.h"
#include "common/encoding.h"

namespace hoglake::catalog {
namespace {

struct ResolvedTable {
  TableAppend* group = nullptr;
  int64_t table_id = 0;
  std::string table_uuid;
  StatsColumns columns;
  std::optional<int64_t> spec_id;
  int64_t spec_arity = 0;
};

std::string Qualified(const TableAppend& g) { return g.namespace_name + "." + g.table; }

std::string TablesJson(const std::vector<std::string>& names) {
  std::string out = "\"tables\":[";
  for (size_t i = 0; i < names.size(); ++i) {
    if (i) out += ',';
    out += '"' + names[i] + '"';  // identifiers hold no characters needing escapes
  }
  return out + "]";
}

// Merges groups naming the same table (files concatenated in order).
Result<std::vector<TableAppend>> MergeGroups(std::vector<TableAppend> groups) {
  std::vector<TableAppend> merged;
  std::map<std::pair<std::string, std::string>, size_t> index;
  for (TableAppend& g : groups) {
    auto key = std::make_pair(g.namespace_name, g.table);
    auto it = index.find(key);
    if (it == index.end()) {
      index[key] = merged.size();
      merged.push_back(std::move(g));
      continue;
    }
    TableAppend& into = merged[it->second];
    if (g.expected_table_uuid) {
      if (into.expected_table_uuid && *into.expected_table_uuid != *g.expected_table_uuid) {
        return Validation("appends to ", Qualified(g),
                          " name different expected_table_uuid values");
      }
      into.expected_table_uuid = g.expected_table_uuid;
    }
    for (auto& f : g.files) into.files.push_back(std::move(f));
  }
  return merged;
}

// The live table, its live partition spec (id and arity), its live columns
// (one row per column; one row with NULL column fields when it has none) and
// whether it saw DDL after the read snapshot ($4; false without one).
constexpr const char* kResolveQuery =
    "SELECT v.table_id, t.table_uuid, sp.spec_id, sp.arity, c.field_id, c.col_type, "
    "coalesce((c.type_params->>'precision')::int, 0), "
    "coalesce((c.type_params->>'scale')::int, 0), "
    "$4::bigint IS NOT NULL AND EXISTS (SELECT 1 FROM hog_snapshot_change x "
    "WHERE x.catalog_id = v.catalog_id AND x.object_id = v.table_id AND x.snapshot_id > $4 "
    "AND x.kind IN ('table_dropped', 'table_altered')) "
    "FROM hog_namespace n "
    "JOIN hog_table_version v ON v.catalog_id = n.catalog_id AND v.namespace_id = "
    "n.namespace_id "
    "JOIN hog_table t ON t.catalog_id = v.catalog_id AND t.table_id = v.table_id "
    "LEFT JOIN LATERAL (SELECT s.spec_id, (SELECT count(*) FROM hog_partition_field f "
    "WHERE f.catalog_id = s.catalog_id AND f.table_id = s.table_id AND f.spec_id = "
    "s.spec_id) AS arity FROM hog_partition_spec s WHERE s.catalog_id = v.catalog_id "
    "AND s.table_id = v.table_id AND s.end_snapshot IS NULL LIMIT 1) sp ON true "
    "LEFT JOIN hog_column c ON c.catalog_id = v.catalog_id AND c.table_id = v.table_id "
    "AND c.end_snapshot IS NULL "
    "WHERE n.catalog_id = $1 AND n.name = $2 AND n.dropped_snapshot IS NULL "
    "AND v.name = $3 AND v.end_snapshot IS NULL";

PgStatement ResolveStatement(const std::string& catalog_id, const TableAppend& g,
                             const std::optional<int64_t>& read_snapshot) {
  return {
      kResolveQuery,
      {catalog_id, g.namespace_name, g.table,
       read_snapshot ? std::optional<std::string>(std::to_string(*read_snapshot)) : std::nullopt}};
}

// Reads kResolveQuery's rows for `g`; when there are none, one more round
// trip tells a dropped table from an unknown one.
Result<ResolvedTable> Resolve(PgConnection& conn, const std::string& catalog, TableAppend& g,
                              const PgResult& r, bool* ddl_since_read) {
  ResolvedTable out;
  out.group = &g;
  if (r.rows() == 0) {
    HOGLAKE_ASSIGN_OR_RETURN(
        PgResult dropped,
        conn.ExecPrepared(
            "SELECT max(t.dropped_snapshot) FROM hog_namespace n "
            "JOIN hog_table_version v ON v.catalog_id = n.catalog_id AND v.namespace_id = "
            "n.namespace_id "
            "JOIN hog_table t ON t.catalog_id = v.catalog_id AND t.table_id = v.table_id "
            "WHERE n.catalog_id = $1 AND n.name = $2 AND v.name = $3 AND t.dropped_snapshot "
            "= v.end_snapshot",
            {catalog, g.namespace_name, g.table}));
    if (!dropped.IsNull(0, 0)) {
      return MakeError(ErrorCode::kTableDropped, "table ", Qualified(g),
                       " was dropped at snapshot ", dropped.GetInt64(0, 0));
    }
    return Validation("unknown table ", Qualified(g));
  }
  out.table_id = r.GetInt64(0, 0);
  out.table_uuid = r.GetString(0, 1);
  if (g.expected_table_uuid && *g.expected_table_uuid != out.table_uuid) {
    Error e = MakeError(ErrorCode::kTableRecreated, "table ", Qualified(g),
                        " was recreated: expected incarnation ", *g.expected_table_uuid,
                        ", live is ", out.table_uuid);
    e.wire_extra = TablesJson({Qualified(g)}) + ",\"retry\":\"re-prepare\"";
    return e;
  }
  for (int i = 0; i < r.rows(); ++i) {
    if (r.GetInt64(i, 0) != out.table_id) continue;  // one live version per name
    if (r.IsNull(i, 4)) continue;                    // a table without live columns
    HOGLAKE_ASSIGN_OR_RETURN(iceberg::ColumnType type, iceberg::ParseColumnType(r.GetText(i, 5)));
    iceberg::TypeSpec spec(type);
    spec.precision = static_cast<int32_t>(r.GetInt64(i, 6));
    spec.scale = static_cast<int32_t>(r.GetInt64(i, 7));
    out.columns[r.GetInt64(i, 4)] = StatsColumn{spec, !iceberg::IsContainer(type)};
  }
  if (!r.IsNull(0, 2)) {
    out.spec_id = r.GetInt64(0, 2);
    out.spec_arity = r.GetInt64(0, 3);
  }
  *ddl_since_read = r.GetBool(0, 8);
  return out;
}

Status ValidateFiles(ResolvedTable& t) {
  TableAppend& g = *t.group;
  if (g.files.empty()) return Validation("append to ", Qualified(g), " has no files");
  for (size_t i = 0; i < g.files.size(); ++i) {
    FileRegistration& f = g.files[i];
    const std::string where = StrCat("append to ", Qualified(g), " file ", i, " (", f.path, ")");
    HOGLAKE_RETURN_IF_ERROR(ValidateFileShape(f, where));
    if (t.spec_id) {
      if (!f.partition_values) {
        return Validation(where, ": the table is partitioned; partition_values are required");
      }
      if (static_cast<int64_t>(f.partition_values->size()) != t.spec_arity) {
        return Validation(where, ": partition_values has ", f.partition_values->size(),
                          " entries but the partition spec has ", t.spec_arity, " fields");
      }
    } else if (f.partition_values) {
      return Validation(where, ": the table is not partitioned; partition_values are not allowed");
    }
    if (f.column_stats)
      HOGLAKE_RETURN_IF_ERROR(SanitizeColumnStats(*f.column_stats, t.columns, where));
  }
  return Status::Ok();
}

// The checks of a commit request that need no reads, in contract order
// after the receipt: data paths (keyed requests; unkeyed ones were checked
// before the lock), group merge, request shape.
Status CheckRequest(CommitRequest& request, const std::function<Status()>& check_paths) {
  if (request.idempotency_key) HOGLAKE_RETURN_IF_ERROR(check_paths());
  HOGLAKE_ASSIGN_OR_RETURN(request.appends, MergeGroups(std::move(request.appends)));
  if (request.appends.empty() && request.deletes.empty()) {
    return Validation("commit has no appends or deletes");
  }
  if (request.read_snapshot && *request.read_snapshot < 0) {
    return Validation("read_snapshot ", *request.read_snapshot, " is negative");
  }
  if (!request.deletes.empty()) {
    if (!request.read_snapshot) return Validation("a commit with deletes requires read_snapshot");
    return NotImplemented("deletion vectors are not yet implemented by this server");
  }
  return Status::Ok();
}

// Everything a commit does once the catalog's commit lock is held: receipt,
// request shape, resolution, validation, claims, and the writes of one
// snapshot, staged in `scope` (the caller commits). Runs inside a group-commit
// batch (commit_batcher.h): the scope's head already includes the snapshots
// staged by earlier requests of the batch, exactly as if they had committed.
// Two round trips on the common path: every read (receipt, tables, claims and
// removal queue) in one pipeline, every write (files, receipt, snapshot) in
// another; the checks run between them, in the contract's order.
Result<CommitResult> CommitLocked(CommitScope& scope, CommitRequest& request,
                                  CommitEndpoint endpoint,
                                  const std::function<Status()>& check_paths) {
  const int64_t head = scope.head().head_snapshot_id;
  const std::string catalog_id = std::to_string(scope.catalog_id());
  std::string fingerprint;
  if (request.idempotency_key) fingerprint = CommitFingerprint(request);
  const Status request_ok = CheckRequest(request, check_paths);

  // ---- reads: one round trip ----
  std::vector<PgStatement> reads;
  if (request.idempotency_key) {
    reads.push_back(
        {"SELECT encode(fingerprint, 'hex'), snapshot_id, schema_version FROM "
         "hog_commit_receipt WHERE catalog_id = $1 AND idempotency_key = $2",
         {catalog_id, *request.idempotency_key}});
  }
  std::vector<PublishedPath> published;
  if (request_ok.ok()) {
    for (const TableAppend& g : request.appends) {
      reads.push_back(ResolveStatement(catalog_id, g, request.read_snapshot));
      for (const FileRegistration& f : g.files) {
        published.push_back({f.path, "data", f.file_format.value_or("parquet")});
      }
    }
  }
  // Upload claims (§4.2 step 12): claimed paths must belong to this operation.
  const PathGuard guard(scope.catalog_id(), request.idempotency_key, std::move(published),
                        endpoint == CommitEndpoint::kUploads);
  if (!guard.empty()) reads.push_back(guard.statement());
  if (reads.empty()) return request_ok.error();  // refused without a read
  HOGLAKE_ASSIGN_OR_RETURN(std::vector<PgResult> read, scope.Pipeline(reads));
  size_t next = 0;
  if (request.idempotency_key) {
    const PgResult& receipt = read[next++];
    if (receipt.rows() > 0) {
      if (receipt.GetText(0, 0) != HexEncode(fingerprint)) {
        return Validation("idempotency_key ", *request.idempotency_key,
                          " reused with a different request");
      }
      return CommitResult{receipt.GetInt64(0, 1), receipt.GetInt64(0, 2)};
    }
  }
  HOGLAKE_RETURN_IF_ERROR(request_ok);
  std::vector<ResolvedTable> tables;
  std::vector<std::string> ddl_since_read;
  for (TableAppend& g : request.appends) {
    bool ddl = false;
    HOGLAKE_ASSIGN_OR_RETURN(ResolvedTable t,
                             Resolve(scope.conn(), catalog_id, g, read[next++], &ddl));
    if (ddl) ddl_since_read.push_back(Qualified(g));
    tables.push_back(std::move(t));
  }
  if (request.read_snapshot) {
    const int64_t read_at = *request.read_snapshot;
    if (read_at > head) return Validation("read_snapshot ", read_at, " is beyond head ", head);
    if (read_at < scope.head().earliest_snapshot_id) {
      return BelowFloorError(scope.head(), StrCat("read_snapshot ", read_at));
    }
    if (!ddl_since_read.empty()) {
      std::vector<std::string>& names = ddl_since_read;
      std::sort(names.begin(), names.end());
      Error e = MakeError(ErrorCode::kDdlSinceReadSnapshot, "DDL on ", names[0],
                          names.size() > 1 ? " and others" : "", " since read_snapshot ", read_at);
      e.wire_extra = TablesJson(names) + ",\"read_snapshot\":" + std::to_string(read_at) +
                     ",\"retry\":\"re-prepare\"";
      return e;
    }
  }
  for (ResolvedTable& t : tables) HOGLAKE_RETURN_IF_ERROR(ValidateFiles(t));
  if (!guard.empty()) HOGLAKE_RETURN_IF_ERROR(guard.Finish(scope.conn(), read[next++]));

  // ---- writes: one round trip ----
  const int64_t snapshot = scope.snapshot_id();
  std::vector<FileBatch> batches;
  for (const ResolvedTable& t : tables) {
    batches.push_back({t.table_id, Qualified(*t.group), t.spec_id, &t.group->files});
    scope.AddChange(ChangeKind::kTableInsertedInto, t.table_id);
  }
  // File ids come from the catalog's allocator, inside the insert statement.
  HOGLAKE_ASSIGN_OR_RETURN(DataFileInsert insert, DataFileInsert::Plan(scope.catalog_id(), snapshot,
                                                                       std::nullopt, batches));
  std::vector<PgStatement> writes;
  if (!insert.empty()) writes.push_back(insert.statement());
  if (request.idempotency_key) {
    writes.push_back(
        {"INSERT INTO hog_commit_receipt (catalog_id, idempotency_key, fingerprint, "
         "snapshot_id, schema_version) VALUES ($1, $2, decode($3, 'hex'), $4, $5)",
         {catalog_id, *request.idempotency_key, HexEncode(fingerprint), std::to_string(snapshot),
          std::to_string(scope.head().schema_version)}});
  }
  std::vector<PgResult> written;
  HOGLAKE_ASSIGN_OR_RETURN(
      CommitResult result,
      scope.Stage(/*ddl=*/false, CommitMetadata{request.author, request.message}, writes,
                  &written));
  // A refusal here is rolled back by the caller with everything above.
  if (!insert.empty()) HOGLAKE_RETURN_IF_ERROR(insert.Check(written[0]));
  return result;
}

}  // namespace

Result<CommitResult> CatalogService::Commit(std::string_view catalog, CommitRequest request,
                                            CommitEndpoint endpoint) {
  if (endpoint == CommitEndpoint::kPrepared && !request.idempotency_key) {
    return Validation("/commit/prepared requires an idempotency_key");
  }
  if (endpoint == CommitEndpoint::kUploads &&
      (!request.idempotency_key || !request.read_snapshot)) {
    return Validation("/commit/uploads requires an idempotency_key and a read_snapshot");
  }
  if (endpoint == CommitEndpoint::kUploads) {
    // Every group guarded: a publication of claimed uploads must name the
    // incarnation it was written for.
    for (const TableAppend& g : request.appends) {
      if (!g.expected_table_uuid) {
        return Validation("/commit/uploads requires expected_table_uuid on every table group; ",
                          g.namespace_name, ".", g.table, " has none");
      }
    }
    for (const TableDeleteGroup& g : request.deletes) {
      if (!g.expected_table_uuid) {
        return Validation("/commit/uploads requires expected_table_uuid on every table group; ",
                          g.namespace_name, ".", g.table, " has none");
      }
    }
  }
  CatalogInfo info;
  {
    HOGLAKE_ASSIGN_OR_RETURN(PgPool::Lease conn, pool_->Acquire());
    HOGLAKE_ASSIGN_OR_RETURN(info, GetCatalogOn(*conn, catalog));
  }
  std::string data_path = info.data_path;
  if (!data_path.ends_with('/')) data_path += '/';
  const std::function<Status()> check_paths = [&]() -> Status {
    std::vector<std::string> outside;
    for (const auto& g : request.appends) {
      for (const auto& f : g.files) {
        if (!PathUnderDataPath(f.path, data_path)) outside.push_back(f.path);
      }
    }
    if (outside.empty()) return Status::Ok();
    std::string list;
    for (size_t i = 0; i < outside.size() && i < 5; ++i) list += (i ? ", " : "") + outside[i];
    return Validation("path(s) outside the catalog data_path '", data_path, "': ", list);
  };
  if (!request.idempotency_key) HOGLAKE_RETURN_IF_ERROR(check_paths());

  // Group commit: the lock and everything after it run in a batch led by
  // whichever request of this catalog got there first (commit_batcher.h).
  CommitBatcher::Request queued;
  queued.body = [&](CommitScope& scope) {
    return CommitLocked(scope, request, endpoint, check_paths);
  };
  for (const TableAppend& g : request.appends) {
    queued.weight += static_cast<int64_t>(g.files.size());
  }
  const auto runner = [&](const CommitBatcher::Drain& drain) {
    const auto fail_all = [&](const Error& error) {
      for (CommitBatcher::Request* r : drain()) r->result = error;
    };
    Result<PgPool::Lease> conn = pool_->Acquire();
    if (!conn.ok()) return fail_all(conn.error());
    Result<CommitScope> scope =
        CommitScope::BeginForId(**conn, info.catalog_id, catalog, options_.commit_lock_timeout_ms,
                                options_.commit_lock_observer);
    if (!scope.ok()) return fail_all(scope.error());
    const std::vector<CommitBatcher::Request*> batch = drain();
    if (batch.size() == 1) {
      // Alone: no savepoint, exactly the single-commit transaction.
      Result<CommitResult> result = batch[0]->body(*scope);
      if (result.ok()) {
        Status committed = scope->CommitStaged();
        if (!committed.ok()) result = committed.error();
      }
      batch[0]->result = std::move(result);
      return;
    }
    // Each request inside its own savepoint: a refused one is rolled back
    // alone and keeps its own error.
    std::optional<Error> broken;
    for (CommitBatcher::Request* r : batch) {
      if (broken) break;
      scope->MarkSavepoint();
      Result<CommitResult> result = r->body(*scope);
      if (!result.ok()) {
        Status rolled_back = scope->RollbackToSavepoint();
        if (!rolled_back.ok()) broken = rolled_back.error();
      }
      r->result = std::move(result);
    }
    if (!broken) {
      Status committed = scope->CommitStaged();
      if (!committed.ok()) broken = committed.error();
    }
    // Nothing of the batch committed (or it is unknown whether it did): every
    // request fails; keyed ones find their receipt if they retry.
    if (broken) {
      for (CommitBatcher::Request* r : batch) r->result = *broken;
    }
  };
  return commit_batcher_->Submit(info.catalog_id, queued, runner);
}

Result<CommitReceipt> CatalogService::GetReceipt(std::string_view catalog,
                                                 std::string_view operation) {
  HOGLAKE_ASSIGN_OR_RETURN(PgPool::Lease conn, pool_->Acquire());
  HOGLAKE_ASSIGN_OR_RETURN(CatalogHead head, ReadCatalogHead(*conn, catalog));
  HOGLAKE_ASSIGN_OR_RETURN(
      PgResult r, conn->ExecPrepared("SELECT snapshot_id, schema_version FROM hog_commit_receipt "
                                     "WHERE catalog_id = $1 AND idempotency_key = $2",
                                     {std::to_string(head.catalog_id), std::string(operation)}));
  if (r.rows() == 0) return NotFound("no receipt for operation ", operation);
  return CommitReceipt{std::string(operation), r.GetInt64(0, 0), r.GetInt64(0, 1)};
}

}  // namespace hoglake::catalog
