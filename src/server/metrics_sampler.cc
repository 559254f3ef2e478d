#include "server/metrics_sampler.h"

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
    auto add = [&](const char* name, const char* help, double value, MetricLabels extra = {}) {
      MetricLabels labels{{"catalog", s.catalog}};
      labels.insert(labels.end(), extra.begin(), extra.end());
      out.push_back({name, help, std::move(labels), value});
    };
    add("hoglake_head_snapshot_id", "The catalog's head snapshot id.",
        static_cast<double>(s.head_snapshot_id));
    add("hoglake_earliest_snapshot_id", "The catalog's expiry floor (earliest snapshot id).",
        static_cast<double>(s.earliest_snapshot_id));
    add("hoglake_snapshot_count", "Retained snapshots (head - earliest + 1).",
        static_cast<double>(s.head_snapshot_id - s.earliest_snapshot_id + 1));
    add("hoglake_head_age_seconds", "Seconds since the head snapshot was committed.",
        s.head_age_seconds);
    add("hoglake_earliest_snapshot_age_seconds", "Age of the floor snapshot, in seconds.",
        s.earliest_age_seconds);
    add("hoglake_removal_queue_depth", "Queued object removals not yet drained by cleanup.",
        static_cast<double>(s.removal_queue_depth));
    if (s.oldest_removal_age_seconds) {
      add("hoglake_removal_queue_oldest_age_seconds", "Age of the oldest undrained removal.",
          *s.oldest_removal_age_seconds);
    }
    add("hoglake_live_files", "Live data files of live tables.", static_cast<double>(s.live_files));
    add("hoglake_live_rows", "Rows in live data files of live tables.",
        static_cast<double>(s.live_rows));
    add("hoglake_live_bytes", "Bytes of live data files of live tables.",
        static_cast<double>(s.live_bytes));
    add("hoglake_stats_pending_files", "Live files whose statistics await hydration.",
        static_cast<double>(s.stats_pending_files));
    add("hoglake_stats_failed_files", "Live files whose statistics could not be hydrated.",
        static_cast<double>(s.stats_failed_files));
    add("hoglake_missing_field_id_files", "Live files registered without Parquet field ids.",
        static_cast<double>(s.missing_field_id_files));
    add("hoglake_table_count", "Live tables.", static_cast<double>(s.table_count));
    add("hoglake_dropped_tables_pending_retirement",
        "Dropped tables whose file rows are not yet retired.",
        static_cast<double>(s.dropped_tables_pending_retirement));
    int64_t max_lag = 0;
    for (const auto& [consumer, lag] : s.consumer_lag) {
      add("hoglake_consumer_lag_snapshots",
          "Snapshots between head and a consumer's lowest offset.", static_cast<double>(lag),
          {{"consumer", consumer}});
      max_lag = std::max(max_lag, lag);
    }
    if (!s.consumer_lag.empty()) {
      add("hoglake_consumer_lag_max", "The largest consumer lag, in snapshots.",
          static_cast<double>(max_lag));
    }
    for (const auto& run : s.last_runs) {
      add("hoglake_maintenance_last_run_epoch", "When a task's last run finished (Unix seconds).",
          run.finished_epoch_seconds, {{"task", run.task}, {"status", run.status}});
      add("hoglake_maintenance_last_run_duration_seconds", "How long a task's last run took.",
          run.duration_seconds, {{"task", run.task}});
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
    metrics_->AddToCounter("hoglake_background_loop_failures_total",
                           "Background loop passes that failed before reaching a catalog.",
                           {{"loop", "metrics"}}, 1);
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
  gauges.push_back({"hoglake_metrics_last_sample_epoch",
                    "When the last metrics sample was taken.",
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
