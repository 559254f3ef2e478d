// CatalogService::MaintenanceStatus (contract §2.14; maintenance_status.h).
#include "catalog/maintenance/maintenance_status.h"

#include <cstdlib>
#include <map>

#include "catalog/catalog_service.h"

namespace hoglake::catalog {
namespace {

// count(*) over at most kStatusCountCap + 1 rows of `from_where`, reported
// saturated at the cap.
std::string CappedCount(std::string_view from_where) {
  return StrCat("(SELECT least(count(*), ", kStatusCountCap, ") FROM (SELECT 1 ", from_where,
                " LIMIT ", kStatusCountCap + 1, ") capped)");
}

std::string StatsStateCount(StatsState state) {
  return CappedCount(
      StrCat("FROM hog_data_file f JOIN hog_table t ON t.catalog_id = f.catalog_id AND "
             "t.table_id = f.table_id WHERE f.catalog_id = c.catalog_id AND f.stats_state = '",
             StatsStateName(state), "' AND f.end_snapshot IS NULL AND t.dropped_snapshot IS NULL"));
}

// The task vocabulary as a text[] literal (the names need no quoting).
std::string TaskArray() {
  std::string out = "{";
  for (const std::string& task : MaintenanceTasks()) out += (out.size() > 1 ? "," : "") + task;
  return out + "}";
}

}  // namespace

Result<MaintenanceStatusReport> CatalogService::MaintenanceStatus(
    std::string_view catalog, const MaintenanceStatusOptions& options) {
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgPool::Lease conn, pool_->Acquire());
  // One snapshot of the catalog row, its backlogs and its ledger.
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgTransaction txn, pg::PgTransaction::Begin(*conn));
  HOGLAKE_RETURN_IF_ERROR(conn->Exec("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY"));
  HOGLAKE_ASSIGN_OR_RETURN(
      pg::PgResult row,
      conn->Exec(
          StrCat("SELECT c.catalog_id, c.last_snapshot_id, c.earliest_snapshot_id, "
                 "c.snapshot_retention_seconds, c.consumer_floor, ",
                 StatsStateCount(StatsState::kPending), ", ", StatsStateCount(StatsState::kFailed),
                 ", ",
                 CappedCount("FROM hog_file_removal q WHERE q.catalog_id = c.catalog_id AND "
                             "q.drained_at IS NULL"),
                 ", (SELECT round(greatest(0, extract(epoch from clock_timestamp() - "
                 "q.scheduled_at))::numeric, 3)::text FROM hog_file_removal q WHERE "
                 "q.catalog_id = c.catalog_id AND q.drained_at IS NULL ORDER BY q.removal_id "
                 "LIMIT 1) FROM hog_catalog c WHERE c.name = $1"),
          {std::string(catalog)}));
  if (row.rows() == 0) return NotFound("catalog '", catalog, "' not found");
  const std::string catalog_id = row.GetString(0, 0);

  // The newest run of each task (index (catalog_id, task, run_id DESC)).
  HOGLAKE_ASSIGN_OR_RETURN(
      pg::PgResult runs,
      conn->Exec("SELECT r.run_id, r.task, r.run_trigger, "
                 "(extract(epoch from r.started_at) * 1000000)::bigint, "
                 "(extract(epoch from r.finished_at) * 1000000)::bigint, r.status, r.error, "
                 "r.result::text FROM unnest($2::text[]) AS k(task) CROSS JOIN LATERAL "
                 "(SELECT * FROM hog_maintenance_run m WHERE m.catalog_id = $1 AND "
                 "m.task = k.task ORDER BY m.run_id DESC LIMIT 1) r",
                 {catalog_id, TaskArray()}));
  HOGLAKE_RETURN_IF_ERROR(txn.Commit());
  std::map<std::string, MaintenanceRun, std::less<>> last_runs;
  for (int i = 0; i < runs.rows(); ++i) {
    last_runs[runs.GetString(i, 1)] = MaintenanceRun{
        runs.GetInt64(i, 0),  std::string(catalog),         runs.GetString(i, 1),
        runs.GetString(i, 2), runs.GetInt64(i, 3),          runs.GetInt64(i, 4),
        runs.GetString(i, 5), runs.GetOptionalString(i, 6), runs.GetOptionalString(i, 7)};
  }

  MaintenanceStatusReport report;
  report.catalog = std::string(catalog);
  for (const std::string& task : MaintenanceTasks()) {
    MaintenanceTaskStatus status;
    status.task = task;
    if (auto it = last_runs.find(task); it != last_runs.end()) status.last_run = it->second;
    MaintenanceBacklog& b = status.backlog;
    std::optional<int64_t> interval;
    if (task == "hydrator") {
      b.pending_files = row.GetInt64(0, 5);
      b.failed_files = row.GetInt64(0, 6);
      if (options.loops) interval = options.loops->hydrator_ms;
    } else if (task == "expiry") {
      b.snapshot_retention_seconds = row.GetOptionalInt64(0, 3);
      b.consumer_floor = row.GetBool(0, 4);
      b.earliest_snapshot_id = row.GetInt64(0, 2);
      b.head_snapshot_id = row.GetInt64(0, 1);
      if (options.loops) interval = options.loops->expiry_ms;
    } else if (task == "cleanup") {
      b.queued_removals = row.GetInt64(0, 7);
      b.oldest_queued_age_seconds = row.GetOptionalString(0, 8);
      if (options.loops) interval = options.loops->cleanup_ms;
    } else if (task == "compaction") {
      b.target_bytes = options.compaction_target_bytes;
      if (options.loops) interval = options.loops->compaction_ms;
    } else if (task == "retirement") {
      if (options.loops) interval = options.loops->retirement_ms;
    }  // verify: no loop, no backlog
    status.loop_interval_ms = interval;
    report.tasks.push_back(std::move(status));
  }
  return report;
}

}  // namespace hoglake::catalog
