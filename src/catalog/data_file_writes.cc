#include "catalog/data_file_writes.h"

#include <climits>
#include <map>

#include "catalog/packed_stats.h"
#include "common/encoding.h"

namespace hoglake::catalog {
namespace {

std::optional<std::string> OptionalNumber(const std::optional<int64_t>& value) {
  return value ? std::optional<std::string>(std::to_string(*value)) : std::nullopt;
}

// $1 catalog, $2 snapshot, $3..$5 per table (id, rows, bytes), $6 file
// count (allocating) or first file id (given), $7..$16 per file (offset in
// the batch, table, path, records, size, footer size, row offset in its
// table's new range, stats state, spec id, split offsets), $17..$18 packed
// stats (file offset, hex), $19..$21 partition values (file offset, key,
// value).
const std::string& InsertStatement(bool allocating) {
  static const std::string writes =
      "s AS (UPDATE hog_table_stats s SET record_count = s.record_count + u.r, "
      "file_size_bytes = s.file_size_bytes + u.b, next_row_id = s.next_row_id + u.r "
      "FROM unnest($3::bigint[], $4::bigint[], $5::bigint[]) AS u(t, r, b) "
      "WHERE s.catalog_id = $1 AND s.table_id = u.t "
      "RETURNING s.table_id, s.next_row_id - u.r AS start), "
      "f AS (INSERT INTO hog_data_file (catalog_id, begin_snapshot, data_file_id, table_id, path, "
      "record_count, file_size_bytes, footer_size, row_id_start, stats_state, spec_id, "
      "split_offsets) "
      "SELECT $1, $2, a.first + u.i, u.t, u.p, u.r, u.s, u.f::bigint, s.start + u.ro, u.st, "
      "u.sp::bigint, u.so::bigint[] "
      "FROM unnest($7::bigint[], $8::bigint[], $9::text[], $10::bigint[], $11::bigint[], "
      "$12::text[], $13::bigint[], $14::text[], $15::text[], $16::text[]) "
      "AS u(i, t, p, r, s, f, ro, st, sp, so) JOIN s ON s.table_id = u.t CROSS JOIN a), "
      "c AS (INSERT INTO hog_file_stats (catalog_id, data_file_id, stats) "
      "SELECT $1, a.first + u.i, decode(u.s, 'hex') FROM unnest($17::bigint[], $18::text[]) "
      "AS u(i, s) CROSS JOIN a), "
      "v AS (INSERT INTO hog_file_partition_value (catalog_id, data_file_id, key_index, value) "
      "SELECT $1, a.first + u.i, u.k, u.v FROM unnest($19::bigint[], $20::integer[], $21::text[]) "
      "AS u(i, k, v) CROSS JOIN a) "
      "SELECT count(*) FROM s";
  static const std::string allocating_sql = StrCat(
      "WITH a AS (UPDATE hog_catalog SET next_file_id = next_file_id + $6 WHERE catalog_id = $1 "
      "RETURNING next_file_id - $6 AS first), ",
      writes);
  static const std::string given_sql = StrCat("WITH a AS (SELECT $6::bigint AS first), ", writes);
  return allocating ? allocating_sql : given_sql;
}

}  // namespace

Result<DataFileInsert> DataFileInsert::Plan(int64_t catalog_id, int64_t snapshot,
                                            std::optional<int64_t> first_file_id,
                                            const std::vector<FileBatch>& batches) {
  DataFileInsert out;
  // Per table (in first-seen order): rows and bytes added. Each table's new
  // row-id range is handed out in batch and file order.
  std::vector<int64_t> tables, added_rows, added_bytes;
  std::map<int64_t, size_t> slot;
  for (const FileBatch& batch : batches) {
    if (batch.files->empty()) continue;
    auto [it, inserted] = slot.emplace(batch.table_id, tables.size());
    if (inserted) {
      tables.push_back(batch.table_id);
      added_rows.push_back(0);
      added_bytes.push_back(0);
    }
    for (const FileRegistration& f : *batch.files) {
      if (added_rows[it->second] > INT64_MAX - f.record_count) {
        return Validation("row ids of ", batch.qualified_name, " would overflow");
      }
      added_rows[it->second] += f.record_count;
      added_bytes[it->second] += f.file_size_bytes;
    }
  }
  if (tables.empty()) return out;

  std::vector<int64_t> row_offset(tables.size(), 0);
  std::vector<int64_t> file_index, table_ids, records, sizes, row_offsets;
  std::vector<std::optional<std::string>> paths, footers, states, spec_ids, splits;
  std::vector<int64_t> stat_file;
  std::vector<std::optional<std::string>> stat_packed;
  std::vector<int64_t> pv_file, pv_key;
  std::vector<std::optional<std::string>> pv_value;
  for (const FileBatch& batch : batches) {
    if (batch.files->empty()) continue;
    int64_t& offset = row_offset[slot.at(batch.table_id)];
    for (const FileRegistration& f : *batch.files) {
      const auto index = static_cast<int64_t>(file_index.size());
      file_index.push_back(index);
      table_ids.push_back(batch.table_id);
      paths.emplace_back(f.path);
      records.push_back(f.record_count);
      sizes.push_back(f.file_size_bytes);
      footers.push_back(OptionalNumber(f.footer_size));
      row_offsets.push_back(offset);
      states.emplace_back(f.column_stats ? "provided" : "pending");
      spec_ids.push_back(OptionalNumber(batch.spec_id));
      splits.push_back(f.split_offsets ? std::optional<std::string>(PgIntArray(*f.split_offsets))
                                       : std::nullopt);
      offset += f.record_count;
      if (f.column_stats && !f.column_stats->empty()) {
        stat_file.push_back(index);
        stat_packed.emplace_back(HexEncode(PackColumnStats(*f.column_stats)));
      }
      if (f.partition_values) {
        for (size_t k = 0; k < f.partition_values->size(); ++k) {
          pv_file.push_back(index);
          pv_key.push_back(static_cast<int64_t>(k));
          pv_value.push_back((*f.partition_values)[k]);
        }
      }
    }
  }
  out.statement_.sql = InsertStatement(!first_file_id);
  out.statement_.params = {
      std::to_string(catalog_id),
      std::to_string(snapshot),
      PgIntArray(tables),
      PgIntArray(added_rows),
      PgIntArray(added_bytes),
      std::to_string(first_file_id ? *first_file_id : static_cast<int64_t>(file_index.size())),
      PgIntArray(file_index),
      PgIntArray(table_ids),
      PgTextArray(paths),
      PgIntArray(records),
      PgIntArray(sizes),
      PgTextArray(footers),
      PgIntArray(row_offsets),
      PgTextArray(states),
      PgTextArray(spec_ids),
      PgTextArray(splits),
      PgIntArray(stat_file),
      PgTextArray(stat_packed),
      PgIntArray(pv_file),
      PgIntArray(pv_key),
      PgTextArray(pv_value)};
  return out;
}

Status InsertDataFiles(PgConnection& conn, int64_t catalog_id, int64_t snapshot,
                       std::optional<int64_t> first_file_id,
                       const std::vector<FileBatch>& batches) {
  HOGLAKE_ASSIGN_OR_RETURN(DataFileInsert insert,
                           DataFileInsert::Plan(catalog_id, snapshot, first_file_id, batches));
  if (insert.empty()) return Status::Ok();
  return conn.ExecPrepared(insert.statement().sql, insert.statement().params).status();
}

}  // namespace hoglake::catalog
