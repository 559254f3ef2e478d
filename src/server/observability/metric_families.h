// Every metric family GET /metrics can render: its name, Prometheus type and
// the HELP text it is rendered with. The code that records or renders a
// family names it through these constants, so this is the one list of what
// /metrics may show; docs/operations.md ("Metrics") lists the same names and
// types, and tests/server/metric_families_test.cc keeps the three equal (and
// fails on a "hoglake_…" name spelled anywhere else in src/).
#pragma once

#include <span>
#include <string_view>

namespace hoglake::server {

struct MetricFamily {
  std::string_view name;
  std::string_view type;  // "counter", "gauge" or "histogram"
  std::string_view help;
};

namespace metric {

// Request path (Metrics::Record*, always rendered but for the labelled ones).
inline constexpr MetricFamily kHttpRequests{"hoglake_http_requests_total", "counter",
                                            "HTTP requests by route, method and status."};
inline constexpr MetricFamily kHttpRequestDuration{"hoglake_http_request_duration_seconds",
                                                   "histogram", "HTTP request latency."};
inline constexpr MetricFamily kHttpRefused{
    "hoglake_http_refused_total", "counter",
    "Connections and requests the HTTP front end refused or cut, by reason"};
inline constexpr MetricFamily kRequestQueueWait{"hoglake_request_queue_wait_seconds", "histogram",
                                                "Wait for a handler thread."};
inline constexpr MetricFamily kRequestsShed{"hoglake_requests_shed_total", "counter",
                                            "Requests refused (503) for waiting too long."};

// Commit path.
inline constexpr MetricFamily kCommits{"hoglake_commits_total", "counter",
                                       "Successful catalog commits by kind."};
inline constexpr MetricFamily kCommitLockWait{"hoglake_commit_lock_wait_seconds", "histogram",
                                              "Wait for a catalog commit lock."};
inline constexpr MetricFamily kCommitQueueTimeouts{"hoglake_commit_queue_timeouts_total", "counter",
                                                   "Commit-lock waits that timed out."};
inline constexpr MetricFamily kCommitBatchRequests{"hoglake_commit_batch_requests", "histogram",
                                                   "Commit requests per group-commit batch."};
inline constexpr MetricFamily kCommitBatches{
    "hoglake_commit_batches_total", "counter",
    "Group-commit batches by how they ran: cached (one round trip on the state the catalog's "
    "last batch left), read (reads, then writes), fallback (a cached attempt abandoned before "
    "COMMIT, then read)."};

// Maintenance runs (MaintenanceReporter).
inline constexpr MetricFamily kMaintenanceRuns{"hoglake_maintenance_runs_total", "counter",
                                               "Maintenance runs by task, trigger and status."};
inline constexpr MetricFamily kSnapshotsExpired{"hoglake_snapshots_expired_total", "counter",
                                                "Snapshots removed below the expiry floor."};
inline constexpr MetricFamily kExpiryFilesQueued{"hoglake_expiry_files_queued_total", "counter",
                                                 "Unreachable file paths queued for cleanup."};
inline constexpr MetricFamily kExpiryPurgeFailures{"hoglake_expiry_purge_failures_total", "counter",
                                                   "Expiry purge pages that failed."};
inline constexpr MetricFamily kFilesRemoved{"hoglake_files_removed_total", "counter",
                                            "Objects deleted by cleanup."};
inline constexpr MetricFamily kFilesAlreadyAbsent{"hoglake_files_already_absent_total", "counter",
                                                  "Queued objects cleanup found already gone."};
inline constexpr MetricFamily kCleanupDeleteFailures{"hoglake_cleanup_delete_failures_total",
                                                     "counter",
                                                     "Object deletes that failed (retried later)."};
inline constexpr MetricFamily kCleanupStillReferenced{
    "hoglake_cleanup_still_referenced_total", "counter",
    "Queued paths cleanup kept because a file row still referenced them."};
inline constexpr MetricFamily kRowsRetired{"hoglake_rows_retired_total", "counter",
                                           "Dropped tables' file rows retired."};
inline constexpr MetricFamily kRetirementBatches{"hoglake_retirement_batches_total", "counter",
                                                 "Retirement batch transactions committed."};
inline constexpr MetricFamily kRetirementTimeouts{"hoglake_retirement_timeouts_total", "counter",
                                                  "Retirement batches that hit their bound."};
inline constexpr MetricFamily kRetirementConvoyed{"hoglake_retirement_convoyed_total", "counter",
                                                  "Retirement runs ended by a busy commit lock."};
inline constexpr MetricFamily kStatsHydrated{
    "hoglake_stats_hydrated_total", "counter",
    "Deferred-stats files settled by the hydrator, by result."};
inline constexpr MetricFamily kBackgroundLoopFailures{
    "hoglake_background_loop_failures_total", "counter",
    "Background loop passes that failed before reaching a catalog."};

// Per-catalog gauges (MetricsSampler).
inline constexpr MetricFamily kHeadSnapshotId{"hoglake_head_snapshot_id", "gauge",
                                              "The catalog's head snapshot id."};
inline constexpr MetricFamily kEarliestSnapshotId{
    "hoglake_earliest_snapshot_id", "gauge", "The catalog's expiry floor (earliest snapshot id)."};
inline constexpr MetricFamily kSnapshotCount{"hoglake_snapshot_count", "gauge",
                                             "Retained snapshots (head - earliest + 1)."};
inline constexpr MetricFamily kHeadAge{"hoglake_head_age_seconds", "gauge",
                                       "Seconds since the head snapshot was committed."};
inline constexpr MetricFamily kEarliestSnapshotAge{"hoglake_earliest_snapshot_age_seconds", "gauge",
                                                   "Age of the floor snapshot, in seconds."};
inline constexpr MetricFamily kRemovalQueueDepth{
    "hoglake_removal_queue_depth", "gauge", "Queued object removals not yet drained by cleanup."};
inline constexpr MetricFamily kRemovalQueueOldestAge{
    "hoglake_removal_queue_oldest_age_seconds", "gauge", "Age of the oldest undrained removal."};
inline constexpr MetricFamily kLiveFiles{"hoglake_live_files", "gauge",
                                         "Live data files of live tables."};
inline constexpr MetricFamily kLiveRows{"hoglake_live_rows", "gauge",
                                        "Rows in live data files of live tables."};
inline constexpr MetricFamily kLiveBytes{"hoglake_live_bytes", "gauge",
                                         "Bytes of live data files of live tables."};
inline constexpr MetricFamily kStatsPendingFiles{"hoglake_stats_pending_files", "gauge",
                                                 "Live files whose statistics await hydration."};
inline constexpr MetricFamily kStatsFailedFiles{
    "hoglake_stats_failed_files", "gauge", "Live files whose statistics could not be hydrated."};
inline constexpr MetricFamily kMissingFieldIdFiles{
    "hoglake_missing_field_id_files", "gauge", "Live files registered without Parquet field ids."};
inline constexpr MetricFamily kTableCount{"hoglake_table_count", "gauge", "Live tables."};
inline constexpr MetricFamily kDroppedTablesPendingRetirement{
    "hoglake_dropped_tables_pending_retirement", "gauge",
    "Dropped tables whose file rows are not yet retired."};
inline constexpr MetricFamily kConsumerLag{
    "hoglake_consumer_lag_snapshots", "gauge",
    "Snapshots between head and a consumer's lowest offset."};
inline constexpr MetricFamily kConsumerLagMax{"hoglake_consumer_lag_max", "gauge",
                                              "The largest consumer lag, in snapshots."};
inline constexpr MetricFamily kMaintenanceLastRunEpoch{
    "hoglake_maintenance_last_run_epoch", "gauge",
    "When a task's last run finished (Unix seconds)."};
inline constexpr MetricFamily kMaintenanceLastRunDuration{
    "hoglake_maintenance_last_run_duration_seconds", "gauge", "How long a task's last run took."};
inline constexpr MetricFamily kMetricsLastSampleEpoch{"hoglake_metrics_last_sample_epoch", "gauge",
                                                      "When the last metrics sample was taken."};

}  // namespace metric

// Every family above.
std::span<const MetricFamily> AllMetricFamilies();

}  // namespace hoglake::server
