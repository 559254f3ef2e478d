// CatalogService: read planning — scan, file listing, per-file statistics.
// Each call reads one consistent state (a read-only repeatable-read
// transaction) at one resolved snapshot.
#include <algorithm>
#include <map>

#include "catalog/catalog_service.h"
#include "catalog/commit/file_registration.h"
#include "catalog/ddl/table_store.h"
#include "catalog/model/packed_stats.h"
#include "catalog/reads/data_file_rows.h"
#include "catalog/reads/table_at.h"
#include "common/encoding.h"

namespace hoglake::catalog {
namespace {

constexpr int64_t kMaxStatsEntries = 1000000;

// A bytea column selected as encode(…, 'hex'), as bytes.
std::optional<std::string> OptionalHexBytes(const pg::PgResult& r, int row, int col) {
  if (r.IsNull(row, col)) return std::nullopt;
  Result<std::string> bytes = HexDecode(r.GetText(row, col));
  return bytes.ok() ? std::optional<std::string>(std::move(*bytes)) : std::nullopt;
}

void CollectPaths(const std::vector<ColumnNode>& nodes, const std::string& prefix,
                  std::map<int32_t, std::pair<const ColumnNode*, std::string>>* out) {
  for (const ColumnNode& n : nodes) {
    const std::string path = prefix.empty() ? n.name : prefix + "." + n.name;
    (*out)[n.field_id] = {&n, path};
    CollectPaths(n.children, path, out);
  }
}

}  // namespace

Result<CatalogService::TableAt> CatalogService::OpenTableAt(pg::PgConnection& conn,
                                                            const TableRef& ref,
                                                            const SnapshotSelector& at) {
  HOGLAKE_ASSIGN_OR_RETURN(CatalogHead head, ReadCatalogHead(conn, ref.catalog));
  HOGLAKE_ASSIGN_OR_RETURN(int64_t snapshot, ResolveSnapshot(conn, head, at));
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgTransaction txn, pg::PgTransaction::Begin(conn));
  HOGLAKE_RETURN_IF_ERROR(conn.Exec("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY"));
  HOGLAKE_ASSIGN_OR_RETURN(int64_t namespace_id, NamespaceIdAt(conn, head.catalog_id, ref.catalog,
                                                               ref.namespace_name, snapshot));
  HOGLAKE_ASSIGN_OR_RETURN(std::optional<int64_t> table_id,
                           TableIdAt(conn, head.catalog_id, namespace_id, ref.table, snapshot));
  if (!table_id) {
    return NotFound("table '", ref.namespace_name, ".", ref.table, "' not found at snapshot ",
                    snapshot);
  }
  HOGLAKE_ASSIGN_OR_RETURN(TableInfo table, LoadTable(conn, head.catalog_id, *table_id,
                                                      ref.namespace_name, snapshot, false));
  return TableAt{std::move(txn), head, snapshot, std::move(table)};
}

Result<std::vector<DataFileInfo>> CatalogService::Scan(const TableRef& ref,
                                                       const SnapshotSelector& at,
                                                       const ScanOptions& options) {
  std::vector<DataFileInfo> files;
  HOGLAKE_RETURN_IF_ERROR(ScanEach(ref, at, options, [&](const DataFileInfo& f) {
    files.push_back(f);
    return Status::Ok();
  }));
  return files;
}

// How the statistics of a plan are read (the cost of a large plan is almost
// all here):
//  * one packed row per file (hog_file_stats, packed_stats.h): 20K files ×
//    30 columns is 20K rows of ~1.8 KB, not 600K rows;
//  * one cursor over a LATERAL join — the table's provided files at S in
//    plan order (row_id_start, id), each followed by its stats row from the
//    primary-key index — so rows arrive in the order the files are emitted
//    and each file is handed to the sink as soon as its row is read (no sort,
//    no hash of the catalog's whole stats table, nothing held for all files);
//  * fetched in binary (the packed bytes as they are stored) in pages of
//    kStatsPage rows, so libpq never builds one huge result, the next page
//    requested before the current one is encoded;
//  * parallel query is off in this read-only transaction: a Gather could
//    reorder rows. The merge below still checks that every row was consumed
//    and fails the plan (never returns partial stats) if one arrived out of
//    order.
// A provided file without a stats row (committed with `column_stats: []`)
// gets an empty list. Entries of columns dropped since, of containers and of
// fields not asked for (stats_fields) are skipped while unpacking.
Status CatalogService::ScanEach(const TableRef& ref, const SnapshotSelector& at,
                                const ScanOptions& options,
                                const std::function<Status(const DataFileInfo&)>& sink) {
  constexpr int kStatsPage = 512;
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgPool::Lease conn, pool_->Acquire());
  HOGLAKE_ASSIGN_OR_RETURN(TableAt t, OpenTableAt(*conn, ref, at));
  const std::vector<pg::PgParam> params = {std::to_string(t.head.catalog_id),
                                           std::to_string(t.table.table_id),
                                           std::to_string(t.snapshot)};
  const char* visible =
      "f.begin_snapshot <= $3 AND (f.end_snapshot IS NULL OR $3 < f.end_snapshot)";
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgResult r,
                           conn->Exec(StrCat("SELECT ", kDataFileColumns,
                                             " FROM hog_data_file f WHERE f.catalog_id = $1 "
                                             "AND f.table_id = $2 AND ",
                                             visible, " ORDER BY f.row_id_start, f.data_file_id"),
                                      params));
  // The columns whose entries a plan returns, by field id (dense for the
  // usual small ids; nullptr = skip the entry).
  StatsColumns columns;
  std::vector<const StatsColumn*> wanted_dense;
  std::map<int64_t, const StatsColumn*> wanted_sparse;
  auto wanted = [&](int32_t field_id) -> const StatsColumn* {
    if (field_id >= 0 && static_cast<size_t>(field_id) < wanted_dense.size()) {
      return wanted_dense[field_id];
    }
    auto it = wanted_sparse.find(field_id);
    return it == wanted_sparse.end() ? nullptr : it->second;
  };
  if (options.column_stats) {
    columns = StatsColumnsOf(t.table.columns);
    int64_t leaves = 0;
    for (const auto& [id, c] : columns) {
      const bool asked = !options.stats_fields ||
                         std::find(options.stats_fields->begin(), options.stats_fields->end(),
                                   id) != options.stats_fields->end();
      leaves += c.is_leaf && iceberg::HasBounds(c.type.type) && asked;
      if (!c.is_leaf || !asked) continue;
      if (id >= 0 && id < (1 << 16)) {
        if (wanted_dense.size() <= static_cast<size_t>(id)) wanted_dense.resize(id + 1, nullptr);
        wanted_dense[id] = &c;
      } else {
        wanted_sparse[id] = &c;
      }
    }
    if (leaves * static_cast<int64_t>(r.rows()) > kMaxStatsEntries) {
      return Validation("the scan would return ", leaves * static_cast<int64_t>(r.rows()),
                        " column statistics, more than ", kMaxStatsEntries,
                        "; narrow it with stats_fields");
    }
    HOGLAKE_RETURN_IF_ERROR(
        conn->ExecScript("SET LOCAL max_parallel_workers_per_gather = 0; SET LOCAL jit = off"));
    HOGLAKE_RETURN_IF_ERROR(
        conn->Exec(StrCat("DECLARE hog_scan_stats NO SCROLL CURSOR FOR "
                          "SELECT f.data_file_id, s.stats "
                          "FROM (SELECT f.catalog_id, f.data_file_id, f.row_id_start "
                          "FROM hog_data_file f WHERE f.catalog_id = $1 AND f.table_id = $2 "
                          "AND f.stats_state = 'provided' AND ",
                          visible,
                          " ORDER BY f.row_id_start, f.data_file_id) f "
                          "CROSS JOIN LATERAL (SELECT s.stats FROM hog_file_stats s "
                          "WHERE s.catalog_id = f.catalog_id "
                          "AND s.data_file_id = f.data_file_id) s"),
                   params)
            .status());
  }

  // The stats cursor, one page at a time, the next page always in flight
  // while this one is encoded (PostgreSQL and the encoder overlap; the
  // socket is drained as the files are written, so PostgreSQL never waits
  // on it). `in_flight` is received before the connection is used again or
  // released, on every path.
  const std::string fetch = StrCat("FETCH ", kStatsPage, " FROM hog_scan_stats");
  pg::PgResult page;
  int at_row = 0;
  bool exhausted = !options.column_stats;
  bool in_flight = false;
  struct Drain {
    pg::PgConnection* conn;
    bool* in_flight;
    ~Drain() {
      if (*in_flight) (void)conn->ReceiveResult();
    }
  } drain{&*conn, &in_flight};
  if (!exhausted) {
    HOGLAKE_RETURN_IF_ERROR(conn->SendBinary(fetch));
    in_flight = true;
  }
  auto has_row = [&]() -> Result<bool> {
    if (at_row < page.rows()) return true;
    if (exhausted) return false;
    in_flight = false;
    HOGLAKE_ASSIGN_OR_RETURN(page, conn->ReceiveResult());
    at_row = 0;
    if (page.rows() < kStatsPage) {
      exhausted = true;
    } else {
      HOGLAKE_RETURN_IF_ERROR(conn->SendBinary(fetch));
      in_flight = true;
    }
    return page.rows() > 0;
  };

  // Reused across files: its rows (and their bound buffers) are overwritten
  // in place, the vector cut to each file's count.
  std::vector<ColumnStatRow> scratch;
  for (int i = 0; i < r.rows(); ++i) {
    DataFileInfo f = DataFileFromRow(r, i);
    if (!options.split_offsets) f.split_offsets.reset();
    if (options.column_stats && f.stats_state == StatsState::kProvided) {
      f.column_stats = std::move(scratch);
      std::vector<ColumnStatRow>& rows = *f.column_stats;
      size_t used = 0;
      HOGLAKE_ASSIGN_OR_RETURN(bool more, has_row());
      if (more && page.GetBinaryInt64(at_row, 0) == f.data_file_id) {
        PackedStatsReader reader(page.GetText(at_row++, 1));
        for (PackedStat s; reader.Next(&s);) {
          const StatsColumn* column = wanted(s.field_id);
          if (column == nullptr) continue;  // dropped since, a container, or not asked for
          ColumnStatRow& row = used < rows.size() ? rows[used] : rows.emplace_back();
          ++used;
          CopyToRow(s, &row);
          row.type = column->type;
        }
        HOGLAKE_RETURN_IF_ERROR(reader.status());
      }
      rows.resize(used);
    }
    HOGLAKE_RETURN_IF_ERROR(sink(f));
    if (f.column_stats) scratch = std::move(*f.column_stats);
    if (in_flight && i % 16 == 15) conn->ConsumeInput();
  }
  HOGLAKE_ASSIGN_OR_RETURN(bool left_over, has_row());
  if (left_over) {
    return Internal("scan statistics arrived out of plan order (data file ",
                    page.GetBinaryInt64(at_row, 0), ")");
  }
  HOGLAKE_RETURN_IF_ERROR(t.txn.Commit());
  return Status::Ok();
}

Result<std::vector<DataFileInfo>> CatalogService::ListFiles(const TableRef& ref,
                                                            const SnapshotSelector& at,
                                                            const FileListing& listing) {
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgPool::Lease conn, pool_->Acquire());
  HOGLAKE_ASSIGN_OR_RETURN(TableAt t, OpenTableAt(*conn, ref, at));
  std::vector<pg::PgParam> params = {std::to_string(t.head.catalog_id),
                                     std::to_string(t.table.table_id), std::to_string(t.snapshot)};
  // Leading sort field, if the table is sorted at S.
  std::optional<int32_t> sort_field;
  iceberg::TypeSpec sort_type;
  if (t.table.sort_spec && !t.table.sort_spec->fields.empty()) {
    sort_field = t.table.sort_spec->fields[0].source_field_id;
    const StatsColumns columns = StatsColumnsOf(t.table.columns);
    if (auto it = columns.find(*sort_field); it != columns.end()) sort_type = it->second.type;
  }
  std::string joins;
  std::string where;
  for (size_t k = 0; k < listing.partition.size(); ++k) {
    const std::string alias = "p" + std::to_string(k);
    joins += StrCat(" JOIN hog_file_partition_value ", alias, " ON ", alias,
                    ".catalog_id = f.catalog_id AND ", alias, ".data_file_id = f.data_file_id AND ",
                    alias, ".key_index = ", listing.partition[k].first);
    if (listing.partition[k].second) {
      params.push_back(*listing.partition[k].second);
      where += StrCat(" AND ", alias, ".value = $", params.size());
    } else {
      where += StrCat(" AND ", alias, ".value IS NULL");
    }
  }
  std::string order;
  const char* dir = listing.descending ? " DESC" : " ASC";
  if (listing.sort == "default") {
    order = StrCat("f.begin_snapshot", dir, ", f.row_id_start", dir, ", f.data_file_id", dir);
  } else {
    const std::map<std::string, std::string> keys = {{"id", "f.data_file_id"},
                                                     {"path", "f.path"},
                                                     {"record_count", "f.record_count"},
                                                     {"size", "f.file_size_bytes"},
                                                     {"begin_snapshot", "f.begin_snapshot"},
                                                     {"stats", "f.stats_state"}};
    order = StrCat(keys.at(listing.sort), dir, ", f.data_file_id", dir);
  }
  std::string limit;
  if (listing.limit) limit = StrCat(" LIMIT ", std::min<int64_t>(*listing.limit, 10000));
  // The file's packed statistics (hex), when the table is sorted.
  const char* sort_stats =
      sort_field ? "(SELECT encode(s.stats, 'hex') FROM hog_file_stats s WHERE s.catalog_id = "
                   "f.catalog_id AND s.data_file_id = f.data_file_id)"
                 : "NULL";
  HOGLAKE_ASSIGN_OR_RETURN(
      pg::PgResult r,
      conn->Exec(
          StrCat("SELECT ", kDataFileColumns, ", ", sort_stats, " FROM hog_data_file f", joins,
                 " WHERE f.catalog_id = $1 AND f.table_id = $2 AND f.begin_snapshot <= $3 "
                 "AND (f.end_snapshot IS NULL OR $3 < f.end_snapshot)",
                 where, " ORDER BY ", order, limit, " OFFSET ", listing.offset),
          params));
  std::vector<DataFileInfo> files;
  for (int i = 0; i < r.rows(); ++i) {
    DataFileInfo f = DataFileFromRow(r, i);
    f.split_offsets.reset();
    if (sort_field) {
      // The sort field's entry, if the file has one (no entry: no bounds).
      if (std::optional<std::string> packed = OptionalHexBytes(r, i, kDataFileColumnCount)) {
        PackedStatsReader reader(*packed);
        for (PackedStat s; reader.Next(&s);) {
          if (s.field_id != *sort_field) continue;
          OrderingBounds b;
          b.field_id = sort_field;
          b.type = sort_type;
          if (s.lower_bound) b.lower.emplace(*s.lower_bound);
          if (s.upper_bound) b.upper.emplace(*s.upper_bound);
          f.ordering_bounds = std::move(b);
          break;
        }
        HOGLAKE_RETURN_IF_ERROR(reader.status());
      }
    } else if (f.record_count > 0) {
      OrderingBounds b;
      b.row_span = true;
      b.row_lower = f.row_id_start;
      if (!f.explicit_row_ids) b.row_upper = f.row_id_start + f.record_count - 1;
      f.ordering_bounds = std::move(b);
    }
    files.push_back(std::move(f));
  }
  HOGLAKE_RETURN_IF_ERROR(t.txn.Commit());
  return files;
}

Result<FileStats> CatalogService::GetFileStats(const TableRef& ref, const SnapshotSelector& at,
                                               int64_t data_file_id) {
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgPool::Lease conn, pool_->Acquire());
  HOGLAKE_ASSIGN_OR_RETURN(TableAt t, OpenTableAt(*conn, ref, at));
  const std::vector<pg::PgParam> params = {
      std::to_string(t.head.catalog_id), std::to_string(t.table.table_id),
      std::to_string(t.snapshot), std::to_string(data_file_id)};
  HOGLAKE_ASSIGN_OR_RETURN(
      pg::PgResult file,
      conn->Exec("SELECT stats_state, stats_error FROM hog_data_file f WHERE f.catalog_id = $1 "
                 "AND f.table_id = $2 AND f.data_file_id = $4 AND f.begin_snapshot <= $3 "
                 "AND (f.end_snapshot IS NULL OR $3 < f.end_snapshot)",
                 params));
  if (file.rows() == 0) {
    return NotFound("data file ", data_file_id, " is not a file of table '", ref.namespace_name,
                    ".", ref.table, "' at snapshot ", t.snapshot);
  }
  FileStats out;
  out.data_file_id = data_file_id;
  out.stats_state = ParseStatsState(file.GetString(0, 0)).value_or(StatsState::kProvided);
  if (out.stats_state != StatsState::kProvided) {
    out.no_stats_reason =
        out.stats_state == StatsState::kPending
            ? std::string("statistics are pending: the file was registered without them")
            : file.GetOptionalString(0, 1).value_or("statistics could not be read");
    HOGLAKE_RETURN_IF_ERROR(t.txn.Commit());
    return out;
  }
  std::map<int32_t, std::pair<const ColumnNode*, std::string>> paths;
  CollectPaths(t.table.columns, "", &paths);
  HOGLAKE_ASSIGN_OR_RETURN(
      pg::PgResult stats,
      conn->Exec("SELECT encode(s.stats, 'hex') FROM hog_file_stats s "
                 "WHERE s.catalog_id = $1 AND s.data_file_id = $2",
                 {std::to_string(t.head.catalog_id), std::to_string(data_file_id)}));
  std::vector<ColumnStatRow> rows;
  if (stats.rows() > 0) {
    Result<std::string> packed = HexDecode(stats.GetText(0, 0));
    if (!packed.ok()) return Internal("stats of data file ", data_file_id, " are not hex");
    HOGLAKE_ASSIGN_OR_RETURN(rows, UnpackColumnStats(*packed));
  }
  for (ColumnStatRow& row : rows) {
    auto it = paths.find(row.field_id);
    if (it == paths.end() || iceberg::IsContainer(it->second.first->type.type)) continue;
    row.type = it->second.first->type;
    out.columns.push_back(FileColumnStats{row.field_id, it->second.first->name, it->second.second,
                                          row.type, std::move(row)});
  }
  HOGLAKE_RETURN_IF_ERROR(t.txn.Commit());
  return out;
}

}  // namespace hoglake::catalog
