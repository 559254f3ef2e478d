#include "catalog/commit/data_file_writes.h"

#include <climits>
#include <map>

#include "catalog/model/packed_stats.h"
#include "common/encoding.h"

namespace hoglake::catalog {
namespace {

std::optional<std::string> OptionalNumber(const std::optional<int64_t>& value) {
  return value ? std::optional<std::string>(std::to_string(*value)) : std::nullopt;
}

// $1 catalog; $2..$12 per file (file id, snapshot, table, path, records,
// size, footer size, first row id, stats state, spec id, split offsets);
// $13..$14 packed stats (file id, hex); $15..$17 partition values (file id,
// key, value). Every parameter but the catalog is an array with a row per
// element, so the inserts of several commits fuse into one (a batch's).
constexpr const char* kInsertFiles =
    "WITH f AS (INSERT INTO hog_data_file (catalog_id, data_file_id, begin_snapshot, table_id, "
    "path, record_count, file_size_bytes, footer_size, row_id_start, stats_state, spec_id, "
    "split_offsets) "
    "SELECT $1, u.id, u.sn, u.t, u.p, u.r, u.s, u.f::bigint, u.ro, u.st, u.sp::bigint, "
    "u.so::bigint[] "
    "FROM unnest($2::bigint[], $3::bigint[], $4::bigint[], $5::text[], $6::bigint[], "
    "$7::bigint[], $8::text[], $9::bigint[], $10::text[], $11::text[], $12::text[]) "
    "AS u(id, sn, t, p, r, s, f, ro, st, sp, so)), "
    "c AS (INSERT INTO hog_file_stats (catalog_id, data_file_id, stats) "
    "SELECT $1, u.id, decode(u.s, 'hex') FROM unnest($13::bigint[], $14::text[]) AS u(id, s)), "
    "v AS (INSERT INTO hog_file_partition_value (catalog_id, data_file_id, key_index, value) "
    "SELECT $1, u.id, u.k, u.v FROM unnest($15::bigint[], $16::integer[], $17::text[]) "
    "AS u(id, k, v)) "
    "SELECT 1";

}  // namespace

Result<DataFileInsert> DataFileInsert::Plan(CommitScope& scope,
                                            const std::vector<FileBatch>& batches) {
  DataFileInsert out;
  // Per table (in first-seen order): rows and bytes added.
  std::vector<const FileBatch*> tables;
  std::vector<int64_t> added_files, added_rows, added_bytes;
  std::map<int64_t, size_t> slot;
  int64_t file_count = 0;
  for (const FileBatch& batch : batches) {
    if (batch.files->empty()) continue;
    auto [it, inserted] = slot.emplace(batch.table_id, tables.size());
    if (inserted) {
      tables.push_back(&batch);
      added_files.push_back(0);
      added_rows.push_back(0);
      added_bytes.push_back(0);
    }
    for (const FileRegistration& f : *batch.files) {
      if (added_rows[it->second] > INT64_MAX - f.record_count) {
        return Validation("row ids of ", batch.qualified_name, " would overflow");
      }
      if (added_bytes[it->second] > INT64_MAX - f.file_size_bytes) {
        return Validation("the file_size_bytes of the files added to ", batch.qualified_name,
                          " sum past 2^63 - 1");
      }
      ++added_files[it->second];
      added_rows[it->second] += f.record_count;
      added_bytes[it->second] += f.file_size_bytes;
      ++file_count;
    }
  }
  if (tables.empty()) return out;

  // Each table's new row-id range is handed out in batch and file order.
  std::vector<int64_t> next_row(tables.size());
  for (size_t k = 0; k < tables.size(); ++k) {
    next_row[k] = scope.ReserveRows(tables[k]->table_id, tables[k]->next_row_id, added_files[k],
                                    added_rows[k], added_bytes[k]);
  }
  HOGLAKE_ASSIGN_OR_RETURN(const int64_t first_file_id,
                           scope.AllocateIds("next_file_id", file_count));

  std::vector<int64_t> file_ids, snapshots, table_ids, records, sizes, row_starts;
  std::vector<std::optional<std::string>> paths, footers, states, spec_ids, splits;
  std::vector<int64_t> stat_file;
  std::vector<std::optional<std::string>> stat_packed;
  std::vector<int64_t> pv_file, pv_key;
  std::vector<std::optional<std::string>> pv_value;
  int64_t file_id = first_file_id;
  for (const FileBatch& batch : batches) {
    if (batch.files->empty()) continue;
    int64_t& row = next_row[slot.at(batch.table_id)];
    for (const FileRegistration& f : *batch.files) {
      const int64_t id = file_id++;
      file_ids.push_back(id);
      snapshots.push_back(scope.snapshot_id());
      table_ids.push_back(batch.table_id);
      paths.emplace_back(f.path);
      records.push_back(f.record_count);
      sizes.push_back(f.file_size_bytes);
      footers.push_back(OptionalNumber(f.footer_size));
      row_starts.push_back(row);
      states.emplace_back(
          StatsStateName(f.column_stats ? StatsState::kProvided : StatsState::kPending));
      spec_ids.push_back(OptionalNumber(batch.spec_id));
      splits.push_back(f.split_offsets
                           ? std::optional<std::string>(pg::PgIntArray(*f.split_offsets))
                           : std::nullopt);
      row += f.record_count;
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
  out.statement_.sql = kInsertFiles;
  out.statement_.params = {std::to_string(scope.catalog_id()),
                           pg::PgIntArray(file_ids),
                           pg::PgIntArray(snapshots),
                           pg::PgIntArray(table_ids),
                           pg::PgTextArray(paths),
                           pg::PgIntArray(records),
                           pg::PgIntArray(sizes),
                           pg::PgTextArray(footers),
                           pg::PgIntArray(row_starts),
                           pg::PgTextArray(states),
                           pg::PgTextArray(spec_ids),
                           pg::PgTextArray(splits),
                           pg::PgIntArray(stat_file),
                           pg::PgTextArray(stat_packed),
                           pg::PgIntArray(pv_file),
                           pg::PgIntArray(pv_key),
                           pg::PgTextArray(pv_value)};
  out.statement_.fusable = true;
  return out;
}

Status InsertDataFiles(CommitScope& scope, const std::vector<FileBatch>& batches) {
  HOGLAKE_ASSIGN_OR_RETURN(DataFileInsert insert, DataFileInsert::Plan(scope, batches));
  if (insert.empty()) return Status::Ok();
  return scope.conn().ExecPrepared(insert.statement().sql, insert.statement().params).status();
}

Status EndLiveDataFiles(CommitScope& scope, int64_t table_id) {
  const std::vector<pg::PgParam> key = {std::to_string(scope.catalog_id()),
                                        std::to_string(table_id),
                                        std::to_string(scope.snapshot_id())};
  HOGLAKE_RETURN_IF_ERROR(scope.conn().Exec(
      "UPDATE hog_data_file SET end_snapshot = $3 WHERE catalog_id = $1 AND table_id = $2 "
      "AND end_snapshot IS NULL",
      key));
  return scope.conn()
      .Exec(
          "UPDATE hog_table_stats SET file_count = 0, record_count = 0, file_size_bytes = 0 "
          "WHERE catalog_id = $1 AND table_id = $2",
          {key[0], key[1]})
      .status();
}

}  // namespace hoglake::catalog
