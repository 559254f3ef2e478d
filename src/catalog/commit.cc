// CatalogService::Commit: footer-shipping appends (contract §4.2). The order
// of checks decides which error a client sees, and follows the contract:
// endpoint requirements, catalog, data paths (unkeyed), lock, receipt
// (keyed), group merge, request shape, table resolution, read_snapshot
// window, file validation, upload claims (uploads.h), then the writes — one
// snapshot, one transaction.
#include <algorithm>
#include <map>

#include "catalog/catalog_service.h"
#include "catalog/commit_fingerprint.h"
#include "catalog/data_file_writes.h"
#include "catalog/file_registration.h"
#include "catalog/table_store.h"
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

Result<ResolvedTable> Resolve(PgConnection& conn, int64_t catalog_id, int64_t head,
                              TableAppend& g) {
  const std::string catalog = std::to_string(catalog_id);
  ResolvedTable out;
  out.group = &g;
  HOGLAKE_ASSIGN_OR_RETURN(
      PgResult r,
      conn.Exec("SELECT v.table_id, t.table_uuid FROM hog_namespace n "
                "JOIN hog_table_version v ON v.catalog_id = n.catalog_id AND v.namespace_id = "
                "n.namespace_id "
                "JOIN hog_table t ON t.catalog_id = v.catalog_id AND t.table_id = v.table_id "
                "WHERE n.catalog_id = $1 AND n.name = $2 AND n.dropped_snapshot IS NULL "
                "AND v.name = $3 AND v.end_snapshot IS NULL",
                {catalog, g.namespace_name, g.table}));
  if (r.rows() == 0) {
    HOGLAKE_ASSIGN_OR_RETURN(
        PgResult dropped,
        conn.Exec("SELECT max(t.dropped_snapshot) FROM hog_namespace n "
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
  const std::vector<PgParam> key = {catalog, std::to_string(out.table_id)};
  HOGLAKE_ASSIGN_OR_RETURN(
      PgResult cols,
      conn.Exec("SELECT field_id, col_type, coalesce((type_params->>'precision')::int, 0), "
                "coalesce((type_params->>'scale')::int, 0) FROM hog_column "
                "WHERE catalog_id = $1 AND table_id = $2 AND end_snapshot IS NULL",
                key));
  for (int i = 0; i < cols.rows(); ++i) {
    HOGLAKE_ASSIGN_OR_RETURN(iceberg::ColumnType type,
                             iceberg::ParseColumnType(cols.GetText(i, 1)));
    iceberg::TypeSpec spec(type);
    spec.precision = static_cast<int32_t>(cols.GetInt64(i, 2));
    spec.scale = static_cast<int32_t>(cols.GetInt64(i, 3));
    out.columns[cols.GetInt64(i, 0)] = StatsColumn{spec, !iceberg::IsContainer(type)};
  }
  HOGLAKE_ASSIGN_OR_RETURN(
      PgResult spec,
      conn.Exec("SELECT s.spec_id, (SELECT count(*) FROM hog_partition_field f WHERE f.catalog_id "
                "= s.catalog_id "
                "AND f.table_id = s.table_id AND f.spec_id = s.spec_id) FROM hog_partition_spec s "
                "WHERE s.catalog_id = $1 AND s.table_id = $2 AND s.end_snapshot IS NULL",
                key));
  if (spec.rows() > 0) {
    out.spec_id = spec.GetInt64(0, 0);
    out.spec_arity = spec.GetInt64(0, 1);
  }
  (void)head;
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
  HOGLAKE_ASSIGN_OR_RETURN(PgPool::Lease conn, pool_->Acquire());
  HOGLAKE_ASSIGN_OR_RETURN(CatalogInfo info, GetCatalogOn(*conn, catalog));
  std::string data_path = info.data_path;
  if (!data_path.ends_with('/')) data_path += '/';
  auto check_paths = [&]() -> Status {
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

  HOGLAKE_ASSIGN_OR_RETURN(
      CommitScope scope,
      CommitScope::BeginForId(*conn, info.catalog_id, catalog, options_.commit_lock_timeout_ms,
                              options_.commit_lock_observer));
  const int64_t head = scope.head().head_snapshot_id;
  const std::string catalog_id = std::to_string(scope.catalog_id());
  std::string fingerprint;
  if (request.idempotency_key) {
    fingerprint = CommitFingerprint(request);
    HOGLAKE_ASSIGN_OR_RETURN(PgResult receipt,
                             conn->Exec("SELECT encode(fingerprint, 'hex'), snapshot_id, "
                                        "schema_version FROM hog_commit_receipt "
                                        "WHERE catalog_id = $1 AND idempotency_key = $2",
                                        {catalog_id, *request.idempotency_key}));
    if (receipt.rows() > 0) {
      if (receipt.GetText(0, 0) != HexEncode(fingerprint)) {
        return Validation("idempotency_key ", *request.idempotency_key,
                          " reused with a different request");
      }
      return CommitResult{receipt.GetInt64(0, 1), receipt.GetInt64(0, 2)};
    }
    HOGLAKE_RETURN_IF_ERROR(check_paths());
  }
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
  std::vector<ResolvedTable> tables;
  for (TableAppend& g : request.appends) {
    HOGLAKE_ASSIGN_OR_RETURN(ResolvedTable t, Resolve(*conn, scope.catalog_id(), head, g));
    tables.push_back(std::move(t));
  }
  if (request.read_snapshot) {
    const int64_t read = *request.read_snapshot;
    if (read > head) return Validation("read_snapshot ", read, " is beyond head ", head);
    if (read < scope.head().earliest_snapshot_id) {
      return BelowFloorError(scope.head(), StrCat("read_snapshot ", read));
    }
    std::vector<int64_t> ids;
    for (const auto& t : tables) ids.push_back(t.table_id);
    HOGLAKE_ASSIGN_OR_RETURN(
        PgResult hits,
        conn->Exec("SELECT DISTINCT object_id FROM hog_snapshot_change WHERE catalog_id = $1 "
                   "AND snapshot_id > $2 AND object_id = ANY($3::bigint[]) "
                   "AND kind IN ('table_dropped', 'table_altered')",
                   {catalog_id, std::to_string(read), PgIntArray(ids)}));
    if (hits.rows() > 0) {
      std::vector<std::string> names;
      for (int i = 0; i < hits.rows(); ++i) {
        for (const auto& t : tables) {
          if (t.table_id == hits.GetInt64(i, 0)) names.push_back(Qualified(*t.group));
        }
      }
      std::sort(names.begin(), names.end());
      Error e = MakeError(ErrorCode::kDdlSinceReadSnapshot, "DDL on ", names[0],
                          names.size() > 1 ? " and others" : "", " since read_snapshot ", read);
      e.wire_extra = TablesJson(names) + ",\"read_snapshot\":" + std::to_string(read) +
                     ",\"retry\":\"re-prepare\"";
      return e;
    }
  }
  int64_t total_files = 0;
  for (ResolvedTable& t : tables) {
    HOGLAKE_RETURN_IF_ERROR(ValidateFiles(t));
    total_files += static_cast<int64_t>(t.group->files.size());
  }
  // Upload claims (§4.2 step 12): claimed paths must belong to this operation.
  std::vector<PublishedPath> published;
  for (const ResolvedTable& t : tables) {
    for (const FileRegistration& f : t.group->files) {
      published.push_back({f.path, "data", f.file_format.value_or("parquet")});
    }
  }
  HOGLAKE_RETURN_IF_ERROR(RegisterUploadClaims(*conn, scope.catalog_id(), request.idempotency_key,
                                               published, endpoint == CommitEndpoint::kUploads));
  HOGLAKE_RETURN_IF_ERROR(RefuseQueuedPaths(*conn, scope.catalog_id(), published));

  // ---- writes ----
  const int64_t snapshot = scope.snapshot_id();
  HOGLAKE_ASSIGN_OR_RETURN(int64_t first_file_id, scope.AllocateIds("next_file_id", total_files));
  std::vector<FileBatch> batches;
  for (const ResolvedTable& t : tables) {
    batches.push_back({t.table_id, Qualified(*t.group), t.spec_id, &t.group->files});
    scope.AddChange(ChangeKind::kTableInsertedInto, t.table_id);
  }
  HOGLAKE_RETURN_IF_ERROR(
      InsertDataFiles(*conn, scope.catalog_id(), snapshot, first_file_id, batches));
  const std::string snap = std::to_string(snapshot);
  if (request.idempotency_key) {
    HOGLAKE_RETURN_IF_ERROR(
        conn->Exec("INSERT INTO hog_commit_receipt (catalog_id, idempotency_key, fingerprint, "
                   "snapshot_id, schema_version) "
                   "VALUES ($1, $2, decode($3, 'hex'), $4, $5)",
                   {catalog_id, *request.idempotency_key, HexEncode(fingerprint), snap,
                    std::to_string(scope.head().schema_version)}));
  }
  return scope.Finish(/*ddl=*/false, CommitMetadata{request.author, request.message});
}

Result<CommitReceipt> CatalogService::GetReceipt(std::string_view catalog,
                                                 std::string_view operation) {
  HOGLAKE_ASSIGN_OR_RETURN(PgPool::Lease conn, pool_->Acquire());
  HOGLAKE_ASSIGN_OR_RETURN(CatalogHead head, ReadCatalogHead(*conn, catalog));
  HOGLAKE_ASSIGN_OR_RETURN(PgResult r,
                           conn->Exec("SELECT snapshot_id, schema_version FROM hog_commit_receipt "
                                      "WHERE catalog_id = $1 AND idempotency_key = $2",
                                      {std::to_string(head.catalog_id), std::string(operation)}));
  if (r.rows() == 0) return NotFound("no receipt for operation ", operation);
  return CommitReceipt{std::string(operation), r.GetInt64(0, 0), r.GetInt64(0, 1)};
}

}  // namespace hoglake::catalog
