#include "server/observability/metrics.h"

#include <algorithm>
#include <cstdio>

namespace hoglake::server {
namespace {

constexpr double kBounds[] = {0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05,
                              0.1,    0.25,  0.5,    1,     2.5,  5,     10};

// Commit-lock waits run up to HOGLAKE_COMMIT_LOCK_TIMEOUT_MS (default 30 s).
constexpr double kLockWaitBounds[] = {0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25,
                                      0.5,   1,     2.5,  5,     10,   30,  60};

// Requests per group-commit batch (at most kCommitBatchMaxRequests, 64).
constexpr double kBatchBounds[] = {1, 2, 4, 8, 16, 32, 64};

std::string Escape(const std::string& value) {
  std::string out;
  for (char c : value) {
    if (c == '\\' || c == '"') out.push_back('\\');
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out.push_back(c);
  }
  return out;
}

std::string Number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.9g", v);
  return buf;
}

// Integral values exactly (counts and byte totals), others as %.9g.
std::string GaugeNumber(double v) {
  if (v == static_cast<double>(static_cast<int64_t>(v)) && v > -9.0e15 && v < 9.0e15) {
    return std::to_string(static_cast<int64_t>(v));
  }
  return Number(v);
}

std::string Render(const MetricLabels& labels) {
  if (labels.empty()) return "";
  std::string out = "{";
  for (const auto& [name, value] : labels) {
    if (out.size() > 1) out += ',';
    out += name + "=\"" + Escape(value) + "\"";
  }
  return out + "}";
}

// "# HELP name help" and "# TYPE name type".
void Header(const MetricFamily& family, std::string* out) {
  *out += "# HELP ";
  *out += family.name;
  *out += ' ';
  *out += family.help;
  *out += "\n# TYPE ";
  *out += family.name;
  *out += ' ';
  *out += family.type;
  *out += '\n';
}

}  // namespace

void Metrics::Histogram::Observe(std::span<const double> bounds, double seconds) {
  if (buckets.empty()) buckets.assign(bounds.size(), 0);
  for (size_t i = 0; i < bounds.size(); ++i) {
    if (seconds <= bounds[i]) ++buckets[i];
  }
  ++count;
  sum += seconds;
}

void Metrics::Histogram::Render(std::string_view name, std::string_view labels,
                                std::span<const double> bounds, std::string* out) const {
  const std::string n(name);
  const std::string prefix = labels.empty() ? "" : std::string(labels) + ",";
  const std::string own = labels.empty() ? "" : "{" + std::string(labels) + "}";
  for (size_t i = 0; i < bounds.size(); ++i) {
    const uint64_t hits = buckets.empty() ? 0 : buckets[i];
    *out += n + "_bucket{" + prefix + "le=\"" + Number(bounds[i]) + "\"} " + std::to_string(hits) +
            "\n";
  }
  *out += n + "_bucket{" + prefix + "le=\"+Inf\"} " + std::to_string(count) + "\n";
  *out += n + "_sum" + own + " " + Number(sum) + "\n";
  *out += n + "_count" + own + " " + std::to_string(count) + "\n";
}

void Metrics::AddToCounter(const std::string& name, const std::string& help,
                           const MetricLabels& labels, uint64_t delta) {
  if (delta == 0) return;
  std::lock_guard lock(mutex_);
  Counter& counter = counters_[name];
  if (counter.help.empty()) counter.help = help;
  counter.series[labels] += delta;
}

void Metrics::AddToCounter(const MetricFamily& family, const MetricLabels& labels, uint64_t delta) {
  AddToCounter(std::string(family.name), std::string(family.help), labels, delta);
}

void Metrics::PublishGauges(std::vector<GaugeSample> gauges) {
  std::stable_sort(gauges.begin(), gauges.end(),
                   [](const GaugeSample& a, const GaugeSample& b) { return a.name < b.name; });
  std::lock_guard lock(mutex_);
  gauges_ = std::move(gauges);
}

void Metrics::RecordRequest(const std::string& route, const std::string& method, int status,
                            double seconds) {
  std::lock_guard lock(mutex_);
  ++requests_[{route, method, status}];
  durations_[{route, method}].Observe(kBounds, seconds);
}

void Metrics::RecordCommitLockWait(double seconds, bool timed_out) {
  std::lock_guard lock(mutex_);
  lock_waits_.Observe(kLockWaitBounds, seconds);
  if (timed_out) ++queue_timeouts_;
}

void Metrics::RecordCommitBatch(size_t requests) {
  std::lock_guard lock(mutex_);
  commit_batches_.Observe(kBatchBounds, static_cast<double>(requests));
}

void Metrics::RecordRequestQueueWait(double seconds) {
  std::lock_guard lock(mutex_);
  queue_waits_.Observe(kLockWaitBounds, seconds);
}

void Metrics::RecordRequestShed() {
  std::lock_guard lock(mutex_);
  ++requests_shed_;
}

void Metrics::RecordCommit(const std::string& kind) {
  std::lock_guard lock(mutex_);
  ++commits_[kind];
}

std::string Metrics::RenderPrometheus() const {
  using namespace metric;
  std::lock_guard lock(mutex_);
  std::string out;
  Header(kHttpRequests, &out);
  for (const auto& [key, count] : requests_) {
    const auto& [route, method, status] = key;
    out += std::string(kHttpRequests.name) + "{route=\"" + Escape(route) + "\",method=\"" + method +
           "\",status=\"" + std::to_string(status) + "\"} " + std::to_string(count) + "\n";
  }
  Header(kHttpRequestDuration, &out);
  for (const auto& [key, h] : durations_) {
    const std::string labels = "route=\"" + Escape(key.first) + "\",method=\"" + key.second + "\"";
    h.Render(kHttpRequestDuration.name, labels, kBounds, &out);
  }
  Header(kCommits, &out);
  for (const auto& [kind, count] : commits_) {
    out += std::string(kCommits.name) + "{kind=\"" + Escape(kind) + "\"} " + std::to_string(count) +
           "\n";
  }
  Header(kCommitLockWait, &out);
  lock_waits_.Render(kCommitLockWait.name, "", kLockWaitBounds, &out);
  Header(kCommitQueueTimeouts, &out);
  out += std::string(kCommitQueueTimeouts.name) + " " + std::to_string(queue_timeouts_) + "\n";
  Header(kCommitBatchRequests, &out);
  commit_batches_.Render(kCommitBatchRequests.name, "", kBatchBounds, &out);
  Header(kRequestQueueWait, &out);
  queue_waits_.Render(kRequestQueueWait.name, "", kLockWaitBounds, &out);
  Header(kRequestsShed, &out);
  out += std::string(kRequestsShed.name) + " " + std::to_string(requests_shed_) + "\n";
  for (const auto& [name, counter] : counters_) {
    out += "# HELP " + name + " " + counter.help + "\n";
    out += "# TYPE " + name + " counter\n";
    for (const auto& [labels, value] : counter.series) {
      out += name + Render(labels) + " " + std::to_string(value) + "\n";
    }
  }
  for (size_t i = 0; i < gauges_.size(); ++i) {
    const GaugeSample& g = gauges_[i];
    if (i == 0 || gauges_[i - 1].name != g.name) {
      out += "# HELP " + g.name + " " + g.help + "\n";
      out += "# TYPE " + g.name + " gauge\n";
    }
    out += g.name + Render(g.labels) + " " + GaugeNumber(g.value) + "\n";
  }
  return out;
}

}  // namespace hoglake::server
