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

}  // namespace

Status InsertDataFiles(PgConnection& conn, int64_t catalog_id, int64_t snapshot,
                       std::optional<int64_t> first_file_id,
                       const std::vector<FileBatch>& batches) {
  const std::string catalog = std::to_string(catalog_id);
  // Per table (in first-seen order): rows and bytes added. Row ids are
  // allocated for all of a table's files at once, then handed out in batch
  // and file order.
  std::vector<int64_t> touched, added_rows, added_bytes;
  std::vector<std::string> touched_names;
  std::map<int64_t, size_t> slot;
  for (const FileBatch& batch : batches) {
    auto [it, inserted] = slot.emplace(batch.table_id, touched.size());
    if (inserted) {
      touched.push_back(batch.table_id);
      touched_names.push_back(batch.qualified_name);
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
  if (touched.empty()) return Status::Ok();
  int64_t total_files = 0;
  for (const FileBatch& batch : batches) total_files += static_cast<int64_t>(batch.files->size());
  // One round trip: advance the totals and the row-id allocators, returning
  // where each table's new range starts (and, when asked, allocate the file
  // ids). A table whose allocator would overflow is not updated (and not
  // returned).
  std::vector<PgParam> params = {catalog, PgIntArray(touched), PgIntArray(added_rows),
                                 PgIntArray(added_bytes)};
  if (!first_file_id) params.emplace_back(std::to_string(total_files));
  HOGLAKE_ASSIGN_OR_RETURN(
      PgResult starts,
      conn.ExecPrepared(
          StrCat(first_file_id ? "WITH a AS (SELECT NULL::bigint AS first) "
                               : "WITH a AS (UPDATE hog_catalog SET next_file_id = "
                                 "next_file_id + $5 WHERE catalog_id = $1 RETURNING "
                                 "next_file_id - $5 AS first) ",
                 "UPDATE hog_table_stats s SET record_count = s.record_count + u.r, "
                 "file_size_bytes = s.file_size_bytes + u.b, next_row_id = s.next_row_id + "
                 "u.r FROM unnest($2::bigint[], $3::bigint[], $4::bigint[]) AS u(t, r, b) "
                 "WHERE s.catalog_id = $1 AND s.table_id = u.t "
                 "AND s.next_row_id <= 9223372036854775807 - u.r "
                 "RETURNING s.table_id, s.next_row_id - u.r, (SELECT first FROM a)"),
          params));
  std::vector<int64_t> next_row(touched.size(), -1);
  for (int i = 0; i < starts.rows(); ++i) {
    auto it = slot.find(starts.GetInt64(i, 0));
    if (it != slot.end()) next_row[it->second] = starts.GetInt64(i, 1);
  }
  for (size_t i = 0; i < touched.size(); ++i) {
    if (next_row[i] < 0) return Validation("row ids of ", touched_names[i], " would overflow");
  }

  int64_t next_file_id = first_file_id ? *first_file_id : starts.GetInt64(0, 2);
  std::vector<int64_t> file_ids, table_ids, records, sizes, row_starts;
  std::vector<std::optional<std::string>> paths, footers, states, spec_ids, splits;
  std::vector<int64_t> stat_file;
  std::vector<std::optional<std::string>> stat_packed;
  std::vector<int64_t> pv_file, pv_key;
  std::vector<std::optional<std::string>> pv_value;
  for (const FileBatch& batch : batches) {
    int64_t& row_id = next_row[slot.at(batch.table_id)];
    for (const FileRegistration& f : *batch.files) {
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
      if (f.column_stats && !f.column_stats->empty()) {
        stat_file.push_back(id);
        stat_packed.emplace_back(HexEncode(PackColumnStats(*f.column_stats)));
      }
      if (f.partition_values) {
        for (size_t k = 0; k < f.partition_values->size(); ++k) {
          pv_file.push_back(id);
          pv_key.push_back(static_cast<int64_t>(k));
          pv_value.push_back((*f.partition_values)[k]);
        }
      }
    }
  }
  if (file_ids.empty()) return Status::Ok();
  // One statement for the file rows, their stats and their partition values
  // (no foreign key ties the latter two to the file rows since V11: the two
  // places that delete file rows delete their children with them, see
  // file_children.h).
  return conn
      .ExecPrepared(
          "WITH f AS (INSERT INTO hog_data_file (catalog_id, begin_snapshot, data_file_id, "
          "table_id, path, record_count, file_size_bytes, footer_size, row_id_start, stats_state, "
          "spec_id, split_offsets) "
          "SELECT $1, $2, u.id, u.t, u.p, u.r, u.s, u.f::bigint, u.rs, u.st, u.sp::bigint, "
          "u.so::bigint[] "
          "FROM unnest($3::bigint[], $4::bigint[], $5::text[], $6::bigint[], $7::bigint[], "
          "$8::text[], $9::bigint[], $10::text[], $11::text[], $12::text[]) "
          "AS u(id, t, p, r, s, f, rs, st, sp, so)), "
          "c AS (INSERT INTO hog_file_stats (catalog_id, data_file_id, stats) "
          "SELECT $1, u.f, decode(u.s, 'hex') FROM unnest($13::bigint[], $14::text[]) "
          "AS u(f, s)) "
          "INSERT INTO hog_file_partition_value (catalog_id, data_file_id, key_index, value) "
          "SELECT $1, u.f, u.k, u.v FROM unnest($15::bigint[], $16::integer[], $17::text[]) "
          "AS u(f, k, v)",
          {catalog, std::to_string(snapshot), PgIntArray(file_ids), PgIntArray(table_ids),
           PgTextArray(paths), PgIntArray(records), PgIntArray(sizes), PgTextArray(footers),
           PgIntArray(row_starts), PgTextArray(states), PgTextArray(spec_ids), PgTextArray(splits),
           PgIntArray(stat_file), PgTextArray(stat_packed), PgIntArray(pv_file), PgIntArray(pv_key),
           PgTextArray(pv_value)})
      .status();
}

}  // namespace hoglake::catalog
