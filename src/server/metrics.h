// Process metrics in the Prometheus text format 0.0.4 (served at /metrics):
//   hoglake_http_requests_total{route,method,status}            counter
//   hoglake_http_request_duration_seconds{route,method}         histogram
//   hoglake_commits_total{kind}                                  counter
//   hoglake_commit_lock_wait_seconds                             histogram
//     every request-path wait for a catalog commit lock (granted or timed
//     out); no per-catalog label, so its cardinality is fixed
//   hoglake_commit_queue_timeouts_total                          counter
//     those waits that hit HOGLAKE_COMMIT_LOCK_TIMEOUT_MS (→ 503)
// The two commit-lock series are always rendered (zero before any wait).
// Thread-safe; recording is a mutex-guarded map update.
#pragma once

#include <map>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

namespace hoglake::server {

class Metrics {
 public:
  void RecordRequest(const std::string& route, const std::string& method, int status,
                     double seconds);
  void RecordCommit(const std::string& kind);
  // One commit-lock wait of `seconds`; `timed_out` also counts a queue timeout.
  void RecordCommitLockWait(double seconds, bool timed_out);
  std::string RenderPrometheus() const;

 private:
  struct Histogram {
    std::vector<uint64_t> buckets;  // cumulative counts per bound
    uint64_t count = 0;
    double sum = 0;
  };
  mutable std::mutex mutex_;
  std::map<std::tuple<std::string, std::string, int>, uint64_t> requests_;
  std::map<std::pair<std::string, std::string>, Histogram> durations_;
  std::map<std::string, uint64_t> commits_;
  Histogram lock_waits_;
  uint64_t queue_timeouts_ = 0;
};

}  // namespace hoglake::server
