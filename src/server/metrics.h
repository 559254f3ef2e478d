// Process metrics in the Prometheus text format 0.0.4 (served at /metrics):
//   hoglake_http_requests_total{route,method,status}            counter
//   hoglake_http_request_duration_seconds{route,method}         histogram
//   hoglake_commits_total{kind}                                  counter
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
};

}  // namespace hoglake::server
