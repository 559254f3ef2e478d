// SampleCatalogHealth: one reading of every catalog's health figures, for
// the metrics sampler (server/observability/metrics_sampler.h) — head and floor, their
// ages, the removal queue, live data totals, deferred-stats backlog,
// consumer lag, dropped tables still holding file rows, and each
// maintenance task's last run. Read-only; a handful of aggregate queries
// over all catalogs (no per-catalog round trips), none of which reads every
// live file: live totals come from the tables' running totals
// (hog_table_stats), the flagged-file counts from partial indexes. Live
// totals exclude dropped tables.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "pg/pg_connection.h"

namespace hoglake::catalog {

struct CatalogHealthSample {
  std::string catalog;
  int64_t head_snapshot_id = 0;
  int64_t earliest_snapshot_id = 0;
  double head_age_seconds = 0;      // now − the head snapshot's time
  double earliest_age_seconds = 0;  // now − the floor snapshot's time
  int64_t removal_queue_depth = 0;  // undrained removal rows
  std::optional<double> oldest_removal_age_seconds;
  int64_t live_files = 0;
  int64_t live_rows = 0;
  int64_t live_bytes = 0;
  int64_t stats_pending_files = 0;
  int64_t stats_failed_files = 0;
  int64_t missing_field_id_files = 0;
  int64_t table_count = 0;
  int64_t dropped_tables_pending_retirement = 0;  // dropped, file rows not yet retired
  // Per consumer: head − its lowest offset on a live table.
  std::vector<std::pair<std::string, int64_t>> consumer_lag;
  struct LastRun {
    std::string task;
    std::string status;  // ok | failed
    double finished_epoch_seconds = 0;
    double duration_seconds = 0;
  };
  std::vector<LastRun> last_runs;  // one per task that ever ran
};

Result<std::vector<CatalogHealthSample>> SampleCatalogHealth(pg::PgConnection& conn);

}  // namespace hoglake::catalog
