#include "catalog/maintenance/health_sample.h"

#include <algorithm>
#include <charconv>
#include <iterator>
#include <map>

#include "catalog/maintenance/maintenance_info.h"

namespace hoglake::catalog {
namespace {

double GetDouble(const pg::PgResult& r, int row, int col) {
  if (r.IsNull(row, col)) return 0;
  const std::string_view text = r.GetText(row, col);
  double value = 0;
  std::from_chars(text.data(), text.data() + text.size(), value);
  return value;
}

}  // namespace

Result<std::vector<CatalogHealthSample>> SampleCatalogHealth(pg::PgConnection& conn) {
  std::vector<CatalogHealthSample> out;
  std::map<int64_t, size_t> index;  // catalog_id → position in out
  HOGLAKE_ASSIGN_OR_RETURN(
      pg::PgResult heads,
      conn.Exec("SELECT c.catalog_id, c.name, c.last_snapshot_id, c.earliest_snapshot_id, "
                "extract(epoch FROM clock_timestamp() - hs.snapshot_time), "
                "extract(epoch FROM clock_timestamp() - es.snapshot_time) "
                "FROM hog_catalog c "
                "LEFT JOIN hog_snapshot hs ON hs.catalog_id = c.catalog_id "
                "AND hs.snapshot_id = c.last_snapshot_id "
                "LEFT JOIN hog_snapshot es ON es.catalog_id = c.catalog_id "
                "AND es.snapshot_id = c.earliest_snapshot_id ORDER BY c.name"));
  for (int i = 0; i < heads.rows(); ++i) {
    CatalogHealthSample sample;
    sample.catalog = heads.GetString(i, 1);
    sample.head_snapshot_id = heads.GetInt64(i, 2);
    sample.earliest_snapshot_id = heads.GetInt64(i, 3);
    sample.head_age_seconds = GetDouble(heads, i, 4);
    sample.earliest_age_seconds = GetDouble(heads, i, 5);
    index[heads.GetInt64(i, 0)] = out.size();
    out.push_back(std::move(sample));
  }
  auto sample_of = [&](const pg::PgResult& r, int row) -> CatalogHealthSample* {
    auto it = index.find(r.GetInt64(row, 0));
    return it == index.end() ? nullptr : &out[it->second];
  };

  HOGLAKE_ASSIGN_OR_RETURN(
      pg::PgResult queue,
      conn.Exec("SELECT catalog_id, count(*), "
                "extract(epoch FROM clock_timestamp() - min(scheduled_at)) "
                "FROM hog_file_removal WHERE drained_at IS NULL GROUP BY catalog_id"));
  for (int i = 0; i < queue.rows(); ++i) {
    if (CatalogHealthSample* s = sample_of(queue, i)) {
      s->removal_queue_depth = queue.GetInt64(i, 1);
      s->oldest_removal_age_seconds = GetDouble(queue, i, 2);
    }
  }

  // Live totals from the tables' running totals (one row per table).
  HOGLAKE_ASSIGN_OR_RETURN(
      // Sums of bigints are numeric: capped at 2^63 - 1 rather than lost.
      pg::PgResult live,
      conn.Exec("SELECT s.catalog_id, least(sum(s.file_count), 9223372036854775807), "
                "least(sum(s.record_count), 9223372036854775807), "
                "least(sum(s.file_size_bytes), 9223372036854775807) "
                "FROM hog_table_stats s JOIN hog_table t "
                "ON t.catalog_id = s.catalog_id AND t.table_id = s.table_id "
                "WHERE t.dropped_snapshot IS NULL GROUP BY s.catalog_id"));
  for (int i = 0; i < live.rows(); ++i) {
    if (CatalogHealthSample* s = sample_of(live, i)) {
      s->live_files = live.GetInt64(i, 1);
      s->live_rows = live.GetInt64(i, 2);
      s->live_bytes = live.GetInt64(i, 3);
    }
  }
  // Live files flagged for deferred stats or missing field ids, one count
  // per flag: each a scan of the partial index whose predicate it repeats
  // (V1, V7, V14).
  struct Flag {
    const char* predicate;
    int64_t CatalogHealthSample::*count;
  };
  static constexpr Flag kFlags[] = {
      {"f.stats_state = 'pending'", &CatalogHealthSample::stats_pending_files},
      {"f.stats_state = 'failed'", &CatalogHealthSample::stats_failed_files},
      {"f.missing_field_ids", &CatalogHealthSample::missing_field_id_files}};
  static const std::string kFlaggedQuery = [] {
    std::string sql;
    for (size_t k = 0; k < std::size(kFlags); ++k) {
      sql += StrCat(k ? " UNION ALL " : "", "SELECT f.catalog_id, ", k,
                    ", count(*) FROM hog_data_file f JOIN hog_table t "
                    "ON t.catalog_id = f.catalog_id AND t.table_id = f.table_id WHERE ",
                    kFlags[k].predicate,
                    " AND f.end_snapshot IS NULL AND t.dropped_snapshot IS NULL "
                    "GROUP BY f.catalog_id");
    }
    return sql;
  }();
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgResult flagged, conn.Exec(kFlaggedQuery));
  for (int i = 0; i < flagged.rows(); ++i) {
    if (CatalogHealthSample* s = sample_of(flagged, i)) {
      s->*kFlags[static_cast<size_t>(flagged.GetInt64(i, 1))].count = flagged.GetInt64(i, 2);
    }
  }

  HOGLAKE_ASSIGN_OR_RETURN(
      pg::PgResult tables,
      conn.Exec("SELECT t.catalog_id, count(*) FILTER (WHERE t.dropped_snapshot IS NULL), "
                "count(*) FILTER (WHERE t.dropped_snapshot IS NOT NULL AND EXISTS ("
                "SELECT 1 FROM hog_data_file f WHERE f.catalog_id = t.catalog_id "
                "AND f.table_id = t.table_id)) "
                "FROM hog_table t GROUP BY t.catalog_id"));
  for (int i = 0; i < tables.rows(); ++i) {
    if (CatalogHealthSample* s = sample_of(tables, i)) {
      s->table_count = tables.GetInt64(i, 1);
      s->dropped_tables_pending_retirement = tables.GetInt64(i, 2);
    }
  }

  HOGLAKE_ASSIGN_OR_RETURN(
      pg::PgResult lag,
      conn.Exec("SELECT o.catalog_id, o.consumer_id, min(o.committed_snapshot) "
                "FROM hog_consumer_offset o JOIN hog_table t "
                "ON t.catalog_id = o.catalog_id AND t.table_uuid = o.table_uuid "
                "AND t.dropped_snapshot IS NULL "
                "GROUP BY o.catalog_id, o.consumer_id ORDER BY o.catalog_id, o.consumer_id"));
  for (int i = 0; i < lag.rows(); ++i) {
    if (CatalogHealthSample* s = sample_of(lag, i)) {
      s->consumer_lag.emplace_back(lag.GetString(i, 1),
                                   std::max<int64_t>(0, s->head_snapshot_id - lag.GetInt64(i, 2)));
    }
  }

  // One index probe per (catalog, task): the ledger only grows.
  std::string tasks = "ARRAY[";
  for (size_t i = 0; i < MaintenanceTasks().size(); ++i) {
    tasks += (i ? ",'" : "'") + MaintenanceTasks()[i] + "'";
  }
  tasks += "]";
  HOGLAKE_ASSIGN_OR_RETURN(
      pg::PgResult runs,
      conn.Exec("SELECT c.catalog_id, k.task, r.status, extract(epoch FROM r.finished_at), "
                "extract(epoch FROM r.finished_at - r.started_at) "
                "FROM hog_catalog c CROSS JOIN unnest(" +
                tasks +
                ") AS k(task) CROSS JOIN LATERAL (SELECT status, started_at, finished_at "
                "FROM hog_maintenance_run m WHERE m.catalog_id = c.catalog_id "
                "AND m.task = k.task ORDER BY m.run_id DESC LIMIT 1) r "
                "ORDER BY c.catalog_id, k.task"));
  for (int i = 0; i < runs.rows(); ++i) {
    if (CatalogHealthSample* s = sample_of(runs, i)) {
      s->last_runs.push_back({runs.GetString(i, 1), runs.GetString(i, 2), GetDouble(runs, i, 3),
                              GetDouble(runs, i, 4)});
    }
  }
  return out;
}

}  // namespace hoglake::catalog
