#include "catalog/data_file_writes.h"

#include <climits>

#include "common/encoding.h"

namespace hoglake::catalog {
namespace {

std::optional<std::string> OptionalNumber(const std::optional<int64_t>& value) {
  return value ? std::optional<std::string>(std::to_string(*value)) : std::nullopt;
}

std::optional<std::string> OptionalHex(const std::optional<std::string>& bytes) {
  return bytes ? std::optional<std::string>(HexEncode(*bytes)) : std::nullopt;
}

}  // namespace

Status InsertDataFiles(PgConnection& conn, int64_t catalog_id, int64_t snapshot,
                       int64_t first_file_id, const std::vector<FileBatch>& batches) {
  const std::string catalog = std::to_string(catalog_id);
  int64_t next_file_id = first_file_id;
  std::vector<int64_t> file_ids, table_ids, records, sizes, row_starts;
  std::vector<std::optional<std::string>> paths, footers, states, spec_ids, splits;
  std::vector<int64_t> stat_file, stat_field, stat_values, stat_nulls;
  std::vector<std::optional<std::string>> stat_nans, stat_sizes, stat_lower, stat_upper;
  std::vector<int64_t> pv_file, pv_key;
  std::vector<std::optional<std::string>> pv_value;
  std::vector<int64_t> touched, added_rows, added_bytes;
  for (const FileBatch& batch : batches) {
    HOGLAKE_ASSIGN_OR_RETURN(
        PgResult next, conn.Exec("SELECT next_row_id FROM hog_table_stats WHERE catalog_id = $1 "
                                 "AND table_id = $2",
                                 {catalog, std::to_string(batch.table_id)}));
    int64_t row_id = next.GetInt64(0, 0);
    int64_t rows = 0, bytes = 0;
    for (const FileRegistration& f : *batch.files) {
      if (row_id > INT64_MAX - f.record_count) {
        return Validation("row ids of ", batch.qualified_name, " would overflow");
      }
      const int64_t id = next_file_id++;
      file_ids.push_back(id);
      table_ids.push_back(batch.table_id);
      paths.emplace_back(f.path);
      records.push_back(f.record_count);
      sizes.push_back(f.file_size_bytes);
      footers.push_back(OptionalNumber(f.footer_size));
      row_starts.push_back(row_id);
      states.emplace_back(f.column_stats ? "provided" : "pending");
      spec_ids.push_back(OptionalNumber(batch.spec_id));
      splits.push_back(f.split_offsets ? std::optional<std::string>(PgIntArray(*f.split_offsets))
                                       : std::nullopt);
      row_id += f.record_count;
      rows += f.record_count;
      bytes += f.file_size_bytes;
      if (f.column_stats) {
        for (const ColumnStatsInput& s : *f.column_stats) {
          stat_file.push_back(id);
          stat_field.push_back(s.field_id);
          stat_values.push_back(s.value_count);
          stat_nulls.push_back(s.null_count);
          stat_nans.push_back(OptionalNumber(s.nan_count));
          stat_sizes.push_back(OptionalNumber(s.size_bytes));
          stat_lower.push_back(OptionalHex(s.lower_bound));
          stat_upper.push_back(OptionalHex(s.upper_bound));
        }
      }
      if (f.partition_values) {
        for (size_t k = 0; k < f.partition_values->size(); ++k) {
          pv_file.push_back(id);
          pv_key.push_back(static_cast<int64_t>(k));
          pv_value.push_back((*f.partition_values)[k]);
        }
      }
    }
    touched.push_back(batch.table_id);
    added_rows.push_back(rows);
    added_bytes.push_back(bytes);
  }
  if (file_ids.empty()) return Status::Ok();
  const std::string snap = std::to_string(snapshot);
  HOGLAKE_RETURN_IF_ERROR(conn.Exec(
      "INSERT INTO hog_data_file (catalog_id, begin_snapshot, data_file_id, table_id, path, "
      "record_count, "
      "file_size_bytes, footer_size, row_id_start, stats_state, spec_id, split_offsets) "
      "SELECT $1, $2, u.id, u.t, u.p, u.r, u.s, u.f::bigint, u.rs, u.st, u.sp::bigint, "
      "u.so::bigint[] "
      "FROM unnest($3::bigint[], $4::bigint[], $5::text[], $6::bigint[], $7::bigint[], $8::text[], "
      "$9::bigint[], $10::text[], $11::text[], $12::text[]) AS u(id, t, p, r, s, f, rs, st, sp, "
      "so)",
      {catalog, snap, PgIntArray(file_ids), PgIntArray(table_ids), PgTextArray(paths),
       PgIntArray(records), PgIntArray(sizes), PgTextArray(footers), PgIntArray(row_starts),
       PgTextArray(states), PgTextArray(spec_ids), PgTextArray(splits)}));
  if (!stat_file.empty()) {
    HOGLAKE_RETURN_IF_ERROR(
        conn.Exec("INSERT INTO hog_file_column_stats (catalog_id, data_file_id, field_id, "
                  "value_count, null_count, "
                  "nan_count, size_bytes, lower_bound, upper_bound) "
                  "SELECT $1, u.f, u.id, u.v, u.n, u.nan::bigint, u.sz::bigint, decode(u.lo, "
                  "'hex'), decode(u.hi, 'hex') "
                  "FROM unnest($2::bigint[], $3::integer[], $4::bigint[], $5::bigint[], "
                  "$6::text[], $7::text[], "
                  "$8::text[], $9::text[]) AS u(f, id, v, n, nan, sz, lo, hi)",
                  {catalog, PgIntArray(stat_file), PgIntArray(stat_field), PgIntArray(stat_values),
                   PgIntArray(stat_nulls), PgTextArray(stat_nans), PgTextArray(stat_sizes),
                   PgTextArray(stat_lower), PgTextArray(stat_upper)}));
  }
  if (!pv_file.empty()) {
    HOGLAKE_RETURN_IF_ERROR(conn.Exec(
        "INSERT INTO hog_file_partition_value (catalog_id, data_file_id, key_index, value) "
        "SELECT $1, u.f, u.k, u.v FROM unnest($2::bigint[], $3::integer[], $4::text[]) AS u(f, k, "
        "v)",
        {catalog, PgIntArray(pv_file), PgIntArray(pv_key), PgTextArray(pv_value)}));
  }
  return conn
      .Exec(
          "UPDATE hog_table_stats s SET record_count = s.record_count + u.r, "
          "file_size_bytes = s.file_size_bytes + u.b, next_row_id = s.next_row_id + u.r "
          "FROM unnest($2::bigint[], $3::bigint[], $4::bigint[]) AS u(t, r, b) "
          "WHERE s.catalog_id = $1 AND s.table_id = u.t",
          {catalog, PgIntArray(touched), PgIntArray(added_rows), PgIntArray(added_bytes)})
      .status();
}

}  // namespace hoglake::catalog
