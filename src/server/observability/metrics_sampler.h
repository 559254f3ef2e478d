// MetricsSampler: every HOGLAKE_METRICS_SAMPLE_INTERVAL_MS (default 15000;
// 0 = off) reads every catalog's health (catalog/maintenance/health_sample.h) on one
// pooled connection and publishes it to Metrics as gauges, replacing the
// previous sample (a dropped catalog's series disappear):
//
//   per catalog{catalog}: hoglake_head_snapshot_id, hoglake_earliest_snapshot_id,
//     hoglake_snapshot_count (head − earliest + 1), hoglake_head_age_seconds,
//     hoglake_earliest_snapshot_age_seconds (the floor's age),
//     hoglake_removal_queue_depth, hoglake_removal_queue_oldest_age_seconds,
//     hoglake_live_files, hoglake_live_rows, hoglake_live_bytes,
//     hoglake_stats_pending_files, hoglake_stats_failed_files,
//     hoglake_missing_field_id_files, hoglake_table_count,
//     hoglake_dropped_tables_pending_retirement,
//     hoglake_consumer_lag_snapshots{consumer}, hoglake_consumer_lag_max,
//     hoglake_maintenance_last_run_epoch{task,status},
//     hoglake_maintenance_last_run_duration_seconds{task}
//   instance: hoglake_metrics_last_sample_epoch
//
// The first sample is taken at Start. A failed sample keeps the previous
// one and counts hoglake_background_loop_failures_total{loop="metrics"}.
// The instance totals of the last sample are what GET /v1/info reports.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <optional>
#include <thread>

#include "pg/pg_pool.h"
#include "server/observability/metrics.h"

namespace hoglake::server {

struct InstanceTotals {
  int64_t total_rows = 0;
  int64_t total_size_bytes = 0;
};

class MetricsSampler {
 public:
  // Samples every `interval_ms` once started (0: never).
  MetricsSampler(pg::PgPool* pool, Metrics* metrics, int64_t interval_ms);
  ~MetricsSampler();

  void Start();
  void Stop();
  // One sample now (what each tick does).
  void SampleOnce();
  // Totals over every catalog from the last successful sample; nullopt
  // before the first.
  std::optional<InstanceTotals> totals() const;

 private:
  void Run();

  pg::PgPool* pool_;
  Metrics* metrics_;
  const int64_t interval_ms_;
  std::thread thread_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::optional<InstanceTotals> totals_;
};

}  // namespace hoglake::server
