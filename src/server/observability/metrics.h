// Process metrics in the Prometheus text format 0.0.4 (served at /metrics;
// every family, with its HELP text, is in metric_families.h):
//   hoglake_http_requests_total{route,method,status}            counter
//   hoglake_http_request_duration_seconds{route,method}         histogram
//   hoglake_commits_total{kind}                                  counter
//   hoglake_commit_lock_wait_seconds                             histogram
//     every request-path wait for a catalog commit lock (granted or timed
//     out); no per-catalog label, so its cardinality is fixed
//   hoglake_commit_queue_timeouts_total                          counter
//     those waits that hit HOGLAKE_COMMIT_LOCK_TIMEOUT_MS (→ 503)
//   hoglake_commit_batch_requests                                histogram
//     commit requests per group-commit batch (one PostgreSQL transaction,
//     one lock wait): near 1 when commits to a catalog do not overlap
//   hoglake_commit_batches_total{path}                           counter
//     group-commit batches by how they ran: cached (one round trip on the
//     state the catalog's last batch left), read, fallback (a cached attempt
//     rolled back, then read); appears once counted
//   hoglake_request_queue_wait_seconds                           histogram
//     how long each request waited for a handler thread
//   hoglake_requests_shed_total                                  counter
//     requests answered 503 because that wait passed the admission bound
// The commit-lock and batch series are always rendered (zero before any).
//
// Beside those, two open families:
//   counters added with AddToCounter (background work: snapshots expired,
//     files removed, stats hydrated, rows retired, loop failures, …); a
//     series appears only once something was counted in it;
//   gauges published as a whole by the metrics sampler (PublishGauges
//     replaces the previous sample), rendered as sampled.
// Thread-safe; recording is a mutex-guarded map update.
#pragma once

#include <map>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "server/observability/metric_families.h"

namespace hoglake::server {

using MetricLabels = std::vector<std::pair<std::string, std::string>>;

struct GaugeSample {
  std::string name;  // "hoglake_head_snapshot_id"
  std::string help;
  MetricLabels labels;
  double value = 0;
};

class Metrics {
 public:
  void RecordRequest(const std::string& route, const std::string& method, int status,
                     double seconds);
  void RecordCommit(const std::string& kind);
  // One commit-lock wait of `seconds`; `timed_out` also counts a queue timeout.
  void RecordCommitLockWait(double seconds, bool timed_out);
  // One group-commit batch of `requests` commit requests.
  void RecordCommitBatch(size_t requests);
  void RecordRequestQueueWait(double seconds);
  void RecordRequestShed();
  // Adds `delta` (> 0; 0 records nothing) to counter `name`{labels}.
  void AddToCounter(const std::string& name, const std::string& help, const MetricLabels& labels,
                    uint64_t delta);
  // The same for a family of metric_families.h (its name and HELP text).
  void AddToCounter(const MetricFamily& family, const MetricLabels& labels, uint64_t delta);
  void PublishGauges(std::vector<GaugeSample> gauges);
  std::string RenderPrometheus() const;

 private:
  struct Histogram {
    std::vector<uint64_t> buckets;  // cumulative counts per bound
    uint64_t count = 0;
    double sum = 0;

    void Observe(std::span<const double> bounds, double seconds);
    // Appends `name`_bucket/_sum/_count lines; `labels` is "" or `k="v",…`.
    void Render(std::string_view name, std::string_view labels, std::span<const double> bounds,
                std::string* out) const;
  };
  mutable std::mutex mutex_;
  std::map<std::tuple<std::string, std::string, int>, uint64_t> requests_;
  std::map<std::pair<std::string, std::string>, Histogram> durations_;
  std::map<std::string, uint64_t> commits_;
  struct Counter {
    std::string help;
    std::map<MetricLabels, uint64_t> series;
  };
  std::map<std::string, Counter> counters_;
  std::vector<GaugeSample> gauges_;
  Histogram lock_waits_;
  Histogram commit_batches_;
  uint64_t queue_timeouts_ = 0;
  Histogram queue_waits_;
  uint64_t requests_shed_ = 0;
};

}  // namespace hoglake::server
