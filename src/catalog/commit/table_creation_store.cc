#include "catalog/commit/table_creation_store.h"

#include <algorithm>

#include "catalog/commit/table_creation_codec.h"
#include "catalog/model/identifiers.h"

namespace hoglake::catalog {
namespace {

bool AnyColumnComment(const std::vector<ColumnNode>& columns) {
  for (const ColumnNode& c : columns) {
    if (c.comment || AnyColumnComment(c.children)) return true;
  }
  return false;
}

constexpr const char* kDedicated = " require their dedicated preparation endpoint";

}  // namespace

Status CheckEndpointFields(const TableCreationDefinition& d, TableCreationEndpoint endpoint) {
  const bool partitioned = !d.partition_fields.empty();
  const bool sorted = !d.sort_fields.empty();
  const bool metadata = d.comment || !d.properties.empty() || AnyColumnComment(d.columns);
  const bool partition_ok =
      endpoint == TableCreationEndpoint::kPartitioned || endpoint == TableCreationEndpoint::kSorted;
  if (partitioned && !partition_ok) {
    return Validation("partition_fields", kDedicated,
                      " (…/partitioned, or …/sorted with sort_fields)");
  }
  if (sorted && endpoint != TableCreationEndpoint::kSorted) {
    return Validation("sort_fields", kDedicated, " (…/sorted)");
  }
  if (metadata && endpoint != TableCreationEndpoint::kMetadata) {
    return Validation("comment, properties and column comments", kDedicated, " (…/metadata)");
  }
  if (endpoint == TableCreationEndpoint::kPartitioned && !partitioned) {
    return Validation("…/partitioned requires non-empty partition_fields");
  }
  if (endpoint == TableCreationEndpoint::kSorted && !sorted) {
    return Validation("…/sorted requires non-empty sort_fields");
  }
  return Status::Ok();
}

Result<AlterState> BuildTableState(const TableCreationDefinition& d) {
  HOGLAKE_RETURN_IF_ERROR(ValidateIdentifier("table", d.name));
  HOGLAKE_RETURN_IF_ERROR(ValidateColumns(d.columns));
  HOGLAKE_RETURN_IF_ERROR(ValidateProperties(d.properties));
  if (d.comment) HOGLAKE_RETURN_IF_ERROR(ValidateComment("table comment", *d.comment));
  if (d.replacement && d.replacement->read_snapshot < 0) {
    return Validation("replacement.read_snapshot ", d.replacement->read_snapshot, " is negative");
  }
  AlterState state;
  state.name = d.name;
  state.comment = d.comment;
  state.properties = d.properties;
  std::erase_if(state.properties, [](const auto& kv) {
    return kv.first == "write.format.default";  // parquet is the default; not stored
  });
  state.columns = d.columns;
  HOGLAKE_ASSIGN_OR_RETURN(state.next_field_id, AssignFieldIds(state.columns, 1));
  AlterEnvironment env;
  env.namespace_name = d.namespace_name;
  env.table_name_taken = [](std::string_view) -> Result<bool> { return false; };
  if (!d.partition_fields.empty()) {
    AlterOp op;
    op.kind = AlterOpKind::kSetPartitionSpec;
    op.partition_fields = d.partition_fields;
    Status applied = ApplyAlterOp(state, op, env);
    if (!applied.ok()) return Validation("partition_fields: ", applied.error().message);
  }
  if (!d.sort_fields.empty()) {
    AlterOp op;
    op.kind = AlterOpKind::kSetSortOrder;
    op.sort_fields = d.sort_fields;
    Status applied = ApplyAlterOp(state, op, env);
    if (!applied.ok()) return Validation("sort_fields: ", applied.error().message);
  }
  return state;
}

Result<std::optional<OperationRow>> LockOperation(pg::PgConnection& conn, int64_t catalog_id,
                                                  std::string_view operation_id) {
  const std::vector<pg::PgParam> key = {std::to_string(catalog_id), std::string(operation_id)};
  HOGLAKE_RETURN_IF_ERROR(conn.Exec(
      "UPDATE hog_table_creation SET state = 'aborted', reason = 'expired' WHERE catalog_id = $1 "
      "AND operation_id = $2 AND state = 'prepared' AND expires_at <= clock_timestamp()",
      key));
  HOGLAKE_ASSIGN_OR_RETURN(
      pg::PgResult r,
      conn.Exec("SELECT operation_id::text, namespace_id, definition::text, table_uuid::text, "
                "write_path, state, (extract(epoch from expires_at) * 1000000)::bigint, "
                "snapshot_id, schema_version, reason FROM hog_table_creation "
                "WHERE catalog_id = $1 AND operation_id = $2 FOR UPDATE",
                key));
  if (r.rows() == 0) return std::optional<OperationRow>();
  OperationRow row;
  row.operation_id = r.GetString(0, 0);
  row.namespace_id = r.GetInt64(0, 1);
  row.definition_json = r.GetString(0, 2);
  row.table_uuid = r.GetString(0, 3);
  row.write_path = r.GetString(0, 4);
  row.state = r.GetString(0, 5);
  row.expires_at_micros = r.GetInt64(0, 6);
  row.snapshot_id = r.GetOptionalInt64(0, 7);
  row.schema_version = r.GetOptionalInt64(0, 8);
  row.reason = r.GetOptionalString(0, 9);
  return std::optional<OperationRow>(std::move(row));
}

Result<bool> StoredJsonEquals(pg::PgConnection& conn, int64_t catalog_id,
                              std::string_view operation_id, std::string_view column,
                              const std::string& json) {
  if (column != "definition" && column != "files") return Internal("unknown column ", column);
  HOGLAKE_ASSIGN_OR_RETURN(
      pg::PgResult r,
      conn.Exec(StrCat("SELECT ", column,
                       " IS NOT DISTINCT FROM $3::jsonb FROM "
                       "hog_table_creation WHERE catalog_id = $1 AND operation_id = $2"),
                {std::to_string(catalog_id), std::string(operation_id), json}));
  return r.rows() > 0 && r.GetBool(0, 0);
}

Status SetOperationState(pg::PgConnection& conn, int64_t catalog_id, std::string_view operation_id,
                         std::string_view state, const std::optional<std::string>& reason,
                         const std::optional<std::string>& files_json,
                         std::optional<int64_t> snapshot_id,
                         std::optional<int64_t> schema_version) {
  auto number = [](std::optional<int64_t> v) {
    return v ? std::optional<std::string>(std::to_string(*v)) : std::nullopt;
  };
  return conn
      .Exec(
          "UPDATE hog_table_creation SET state = $3, reason = $4, files = coalesce($5::jsonb, "
          "files), snapshot_id = $6::bigint, schema_version = $7::bigint "
          "WHERE catalog_id = $1 AND operation_id = $2",
          {std::to_string(catalog_id), std::string(operation_id), std::string(state), reason,
           files_json, number(snapshot_id), number(schema_version)})
      .status();
}

Result<TableCreation> TableCreationOf(const OperationRow& row) {
  HOGLAKE_ASSIGN_OR_RETURN(TableCreationDefinition d, ParseDefinitionJson(row.definition_json));
  TableCreation out;
  out.operation_id = row.operation_id;
  out.table_uuid = row.table_uuid;
  out.namespace_name = d.namespace_name;
  out.name = d.name;
  out.columns = std::move(d.columns);
  Result<int32_t> assigned = AssignFieldIds(out.columns, 1);
  if (!assigned.ok()) {
    return MakeError(ErrorCode::kCorruptDefinition, "stored table-creation definition of ",
                     row.operation_id, ": ", assigned.error().message);
  }
  out.write_path = row.write_path;
  out.state = row.state;
  out.expires_at_micros = row.expires_at_micros;
  out.snapshot_id = row.snapshot_id;
  out.schema_version = row.schema_version;
  out.reason = row.reason;
  return out;
}

Error OperationNotFound(std::string_view operation_id) {
  return MakeError(ErrorCode::kNotFound, "table-creation operation '", operation_id, "' not found");
}

}  // namespace hoglake::catalog
