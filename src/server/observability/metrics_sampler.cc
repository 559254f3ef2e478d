#include "server/observability/metrics_sampler.h"

#include <string>
#include <vector>

#include "catalog/maintenance/health_sample.h"
#include "common/clock.h"
#include "common/log.h"

namespace hoglake::server {

namespace {

std::vector<GaugeSample> ToGauges(const std::vector<catalog::CatalogHealthSample>& samples) {
  std::vector<GaugeSample> out;
  for (const catalog::CatalogHealthSample& s : samples) {
    auto add = [&](const MetricFamily& family, double value, MetricLabels extra = {}) {
      MetricLabels labels{{"catalog", s.catalog}};
      labels.insert(labels.end(), extra.begin(), extra.end());
      out.push_back({std::string(family.name), std::string(family.help), std::move(labels), value});
    };
    add(metric::kHeadSnapshotId, static_cast<double>(s.head_snapshot_id));
    add(metric::kEarliestSnapshotId, static_cast<double>(s.earliest_snapshot_id));
    add(metric::kSnapshotCount,
        static_cast<double>(s.head_snapshot_id - s.earliest_snapshot_id + 1));
    add(metric::kHeadAge, s.head_age_seconds);
    add(metric::kEarliestSnapshotAge, s.earliest_age_seconds);
    add(metric::kRemovalQueueDepth, static_cast<double>(s.removal_queue_depth));
    if (s.oldest_removal_age_seconds) {
      add(metric::kRemovalQueueOldestAge, *s.oldest_removal_age_seconds);
    }
    add(metric::kLiveFiles, static_cast<double>(s.live_files));
    add(metric::kLiveRows, static_cast<double>(s.live_rows));
    add(metric::kLiveBytes, static_cast<double>(s.live_bytes));
    add(metric::kStatsPendingFiles, static_cast<double>(s.stats_pending_files));
    add(metric::kStatsFailedFiles, static_cast<double>(s.stats_failed_files));
    add(metric::kMissingFieldIdFiles, static_cast<double>(s.missing_field_id_files));
    add(metric::kTableCount, static_cast<double>(s.table_count));
    add(metric::kDroppedTablesPendingRetirement,
        static_cast<double>(s.dropped_tables_pending_retirement));
    int64_t max_lag = 0;
    for (const auto& [consumer, lag] : s.consumer_lag) {
      add(metric::kConsumerLag, static_cast<double>(lag), {{"consumer", consumer}});
      max_lag = std::max(max_lag, lag);
    }
    if (!s.consumer_lag.empty()) {
      add(metric::kConsumerLagMax, static_cast<double>(max_lag));
    }
    for (const auto& run : s.last_runs) {
      add(metric::kMaintenanceLastRunEpoch, run.finished_epoch_seconds,
          {{"task", run.task}, {"status", run.status}});
      add(metric::kMaintenanceLastRunDuration, run.duration_seconds, {{"task", run.task}});
    }
  }
  return out;
}

int64_t SaturatingAdd(int64_t a, int64_t b) {
  int64_t sum = 0;
  if (__builtin_add_overflow(a, b, &sum)) return b > 0 ? INT64_MAX : INT64_MIN;
  return sum;
}

}  // namespace

MetricsSampler::MetricsSampler(pg::PgPool* pool, Metrics* metrics, int64_t interval_ms)
    : pool_(pool), metrics_(metrics), interval_ms_(interval_ms) {}

MetricsSampler::~MetricsSampler() { Stop(); }

void MetricsSampler::Start() {
  if (interval_ms_ <= 0 || thread_.joinable()) return;
  thread_ = std::thread([this] { Run(); });
}

void MetricsSampler::Stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

std::optional<InstanceTotals> MetricsSampler::totals() const {
  std::lock_guard lock(mutex_);
  return totals_;
}

void MetricsSampler::SampleOnce() {
  auto fail = [&](const Error& error) {
    LogWarn("metrics sample: ", error.ToString());
    metrics_->AddToCounter(metric::kBackgroundLoopFailures, {{"loop", "metrics"}}, 1);
  };
  Result<pg::PgPool::Lease> conn = pool_->Acquire();
  if (!conn.ok()) return fail(conn.error());
  Result<std::vector<catalog::CatalogHealthSample>> samples = catalog::SampleCatalogHealth(**conn);
  if (!samples.ok()) return fail(samples.error());
  InstanceTotals totals;
  for (const auto& s : *samples) {
    // Saturating: many catalogs' totals together may pass 2^63 - 1.
    totals.total_rows = SaturatingAdd(totals.total_rows, s.live_rows);
    totals.total_size_bytes = SaturatingAdd(totals.total_size_bytes, s.live_bytes);
  }
  std::vector<GaugeSample> gauges = ToGauges(*samples);
  gauges.push_back({std::string(metric::kMetricsLastSampleEpoch.name),
                    std::string(metric::kMetricsLastSampleEpoch.help),
                    {},
                    static_cast<double>(NowMicros() / 1000000)});
  metrics_->PublishGauges(std::move(gauges));
  std::lock_guard lock(mutex_);
  totals_ = totals;
}

void MetricsSampler::Run() {
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    lock.unlock();
    SampleOnce();
    lock.lock();
    wake_.wait_for(lock, std::chrono::milliseconds(interval_ms_), [this] { return stopping_; });
  }
}

}  // namespace hoglake::server
