#include "catalog/commit/write_target.h"

namespace hoglake::catalog {
namespace {

std::string Qualified(std::string_view namespace_name, std::string_view table) {
  return StrCat(namespace_name, ".", table);
}

// The live table, its live partition spec (id and arity), its live columns
// (one row per column; one row with NULL column fields when it has none),
// whether it saw DDL after the read snapshot ($4; false without one) and its
// next row id.
constexpr const char* kResolveQuery =
    "SELECT v.table_id, t.table_uuid, sp.spec_id, sp.arity, c.field_id, c.col_type, "
    "coalesce((c.type_params->>'precision')::int, 0), "
    "coalesce((c.type_params->>'scale')::int, 0), "
    "$4::bigint IS NOT NULL AND EXISTS (SELECT 1 FROM hog_snapshot_change x "
    "WHERE x.catalog_id = v.catalog_id AND x.object_id = v.table_id AND x.snapshot_id > $4 "
    "AND x.kind IN ('table_dropped', 'table_altered')), st.next_row_id "
    "FROM hog_namespace n "
    "JOIN hog_table_version v ON v.catalog_id = n.catalog_id AND v.namespace_id = "
    "n.namespace_id "
    "JOIN hog_table t ON t.catalog_id = v.catalog_id AND t.table_id = v.table_id "
    "JOIN hog_table_stats st ON st.catalog_id = v.catalog_id AND st.table_id = v.table_id "
    "LEFT JOIN LATERAL (SELECT s.spec_id, (SELECT count(*) FROM hog_partition_field f "
    "WHERE f.catalog_id = s.catalog_id AND f.table_id = s.table_id AND f.spec_id = "
    "s.spec_id) AS arity FROM hog_partition_spec s WHERE s.catalog_id = v.catalog_id "
    "AND s.table_id = v.table_id AND s.end_snapshot IS NULL LIMIT 1) sp ON true "
    "LEFT JOIN hog_column c ON c.catalog_id = v.catalog_id AND c.table_id = v.table_id "
    "AND c.end_snapshot IS NULL "
    "WHERE n.catalog_id = $1 AND n.name = $2 AND n.dropped_snapshot IS NULL "
    "AND v.name = $3 AND v.end_snapshot IS NULL";

}  // namespace

pg::PgStatement WriteTargetStatement(const std::string& catalog_id, std::string_view namespace_name,
                                     std::string_view table,
                                     const std::optional<int64_t>& read_snapshot) {
  return {
      kResolveQuery,
      {catalog_id, std::string(namespace_name), std::string(table),
       read_snapshot ? std::optional<std::string>(std::to_string(*read_snapshot)) : std::nullopt}};
}

Result<std::optional<WriteTarget>> ReadWriteTarget(
    pg::PgConnection& conn, const std::string& catalog_id, std::string_view namespace_name,
    std::string_view table, const std::optional<std::string>& expected_table_uuid,
    const pg::PgResult& r) {
  if (r.rows() == 0) {
    HOGLAKE_ASSIGN_OR_RETURN(
        pg::PgResult dropped,
        conn.ExecPrepared(
            "SELECT max(t.dropped_snapshot) FROM hog_namespace n "
            "JOIN hog_table_version v ON v.catalog_id = n.catalog_id AND v.namespace_id = "
            "n.namespace_id "
            "JOIN hog_table t ON t.catalog_id = v.catalog_id AND t.table_id = v.table_id "
            "WHERE n.catalog_id = $1 AND n.name = $2 AND v.name = $3 AND t.dropped_snapshot "
            "= v.end_snapshot",
            {catalog_id, std::string(namespace_name), std::string(table)}));
    if (!dropped.IsNull(0, 0)) {
      return MakeError(ErrorCode::kTableDropped, "table ", Qualified(namespace_name, table),
                       " was dropped at snapshot ", dropped.GetInt64(0, 0));
    }
    return std::optional<WriteTarget>();
  }
  WriteTarget out;
  out.table_id = r.GetInt64(0, 0);
  out.table_uuid = r.GetString(0, 1);
  out.next_row_id = r.GetInt64(0, 9);
  if (expected_table_uuid && *expected_table_uuid != out.table_uuid) {
    const std::string name = Qualified(namespace_name, table);
    Error e = MakeError(ErrorCode::kTableRecreated, "table ", name,
                        " was recreated: expected incarnation ", *expected_table_uuid, ", live is ",
                        out.table_uuid);
    e.detail.tables = {name};
    e.detail.re_prepare = true;
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
  out.ddl_since_read = r.GetBool(0, 8);
  return std::optional<WriteTarget>(std::move(out));
}

Status ValidateRegistrations(std::vector<FileRegistration>& files, const WriteTarget& t,
                             std::string_view door) {
  for (size_t i = 0; i < files.size(); ++i) {
    FileRegistration& f = files[i];
    const std::string where = StrCat(door, " file ", i, " (", f.path, ")");
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

}  // namespace hoglake::catalog
