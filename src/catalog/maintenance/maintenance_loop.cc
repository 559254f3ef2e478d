#include "catalog/maintenance/maintenance_loop.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "common/log.h"
#include "pg/advisory_locks.h"

namespace hoglake::catalog {

MaintenanceLoop::MaintenanceLoop(CatalogService* service, pg::PgPool* pool,
                                 const MaintenanceLoopOptions& options, Hydrator* hydrator)
    : service_(service),
      pool_(pool),
      interval_ms_(options.expiry_interval_ms),
      retirement_interval_ms_(options.retirement_interval_ms),
      hydrator_(hydrator),
      hydrator_interval_ms_(hydrator == nullptr ? 0 : options.hydrator_interval_ms),
      analyze_interval_ms_(options.analyze_interval_ms),
      retirement_options_(options.retirement) {
  retirement_options_.cancel = &cancel_;
}

MaintenanceLoop::~MaintenanceLoop() { Stop(); }

MaintenanceLoopIntervals MaintenanceLoop::intervals() const {
  MaintenanceLoopIntervals out;
  out.expiry_ms = out.cleanup_ms = std::max<int64_t>(0, interval_ms_);
  out.retirement_ms = std::max<int64_t>(0, retirement_interval_ms_);
  out.hydrator_ms = std::max<int64_t>(0, hydrator_interval_ms_);
  return out;
}

void MaintenanceLoop::Start() {
  if ((interval_ms_ <= 0 && retirement_interval_ms_ <= 0 && hydrator_interval_ms_ <= 0 &&
       analyze_interval_ms_ <= 0) ||
      thread_.joinable()) {
    return;
  }
  thread_ = std::thread([this] { Run(); });
}

void MaintenanceLoop::Stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  cancel_ = true;
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void MaintenanceLoop::Run() {
  using Clock = std::chrono::steady_clock;
  struct Task {
    int64_t interval_ms;
    void (MaintenanceLoop::*run)();
    Clock::time_point next;
  };
  const auto start = Clock::now();
  std::vector<Task> tasks;
  for (auto [interval, run] :
       {std::pair{interval_ms_, &MaintenanceLoop::RunOnce},
        std::pair{retirement_interval_ms_, &MaintenanceLoop::RunRetirementOnce},
        std::pair{hydrator_interval_ms_, &MaintenanceLoop::RunHydratorOnce},
        std::pair{analyze_interval_ms_, &MaintenanceLoop::RunAnalyzeOnce}}) {
    if (interval > 0) tasks.push_back({interval, run, start + std::chrono::milliseconds(interval)});
  }
  std::unique_lock lock(mutex_);
  while (!stopping_ && !tasks.empty()) {
    auto wake_at = tasks[0].next;
    for (const Task& task : tasks) wake_at = std::min(wake_at, task.next);
    if (wake_.wait_until(lock, wake_at, [this] { return stopping_; })) break;
    lock.unlock();
    for (Task& task : tasks) {
      if (cancel_ || Clock::now() < task.next) continue;
      (this->*task.run)();
      task.next = Clock::now() + std::chrono::milliseconds(task.interval_ms);
    }
    lock.lock();
  }
}

void MaintenanceLoop::RunAnalyzeOnce() {
  Result<pg::PgPool::Lease> conn = pool_->Acquire();
  if (!conn.ok()) {
    LogWarn("analyze: ", conn.error().ToString());
    observer_->OnLoopFailure("analyze", conn.error());
    return;
  }
  Result<pg::PgResult> stale = (*conn)->Exec(
      "SELECT quote_ident(relname) FROM pg_stat_user_tables WHERE relname LIKE 'hog\\_%' AND "
      "((last_analyze IS NULL AND last_autoanalyze IS NULL AND n_live_tup >= 500) OR "
      "(n_mod_since_analyze > 1000 AND n_mod_since_analyze > n_live_tup / 10)) ORDER BY relname");
  if (!stale.ok()) {
    LogWarn("analyze: ", stale.error().ToString());
    observer_->OnLoopFailure("analyze", stale.error());
    return;
  }
  for (int i = 0; i < stale->rows() && !cancel_; ++i) {
    const std::string table = stale->GetString(i, 0);
    Result<pg::PgResult> analyzed = (*conn)->Exec("ANALYZE " + table);
    if (!analyzed.ok()) LogWarn("analyze of ", table, ": ", analyzed.error().ToString());
  }
}

void MaintenanceLoop::RunHydratorOnce() {
  if (hydrator_ == nullptr) return;
  Result<HydratorResult> result = hydrator_->Sweep(hydrator_->options().batch, &cancel_);
  observer_->OnHydration("", /*manual=*/false, result);
  if (!result.ok()) {
    LogWarn("hydrator sweep failed: ", result.error().ToString());
  } else if (result->claimed > 0) {
    LogInfo("hydrator sweep: ", result->ToJson());
  }
}

void MaintenanceLoop::RunRetirementOnce() {
  std::vector<std::string> names;
  {
    Result<pg::PgPool::Lease> conn = pool_->Acquire();
    if (!conn.ok()) {
      LogWarn("retirement loop: ", conn.error().ToString());
      observer_->OnLoopFailure("retirement", conn.error());
      return;
    }
    // A catalog whose floor never moved has nothing below it to retire.
    Result<pg::PgResult> catalogs =
        (*conn)->Exec("SELECT name FROM hog_catalog WHERE earliest_snapshot_id > 0 ORDER BY name");
    if (!catalogs.ok()) {
      LogWarn("retirement loop: ", catalogs.error().ToString());
      observer_->OnLoopFailure("retirement", catalogs.error());
      return;
    }
    for (int i = 0; i < catalogs->rows(); ++i) names.push_back(catalogs->GetString(i, 0));
  }
  for (const std::string& name : names) {
    if (cancel_) return;
    Result<RetirementResult> result = service_->Retire(name, retirement_options_, /*manual=*/false);
    observer_->OnRetirement(name, /*manual=*/false, result);
    if (!result.ok()) {
      LogWarn("retirement of catalog '", name, "' failed: ", result.error().ToString());
    } else if (result->rows_retired > 0 || result->convoyed || result->timeouts > 0 ||
               result->skipped == "queue_full") {
      LogInfo("retirement of catalog '", name, "': ", result->ToJson());
    }
  }
}

void MaintenanceLoop::RunOnce() {
  Result<pg::PgPool::Lease> conn = pool_->Acquire();
  if (!conn.ok()) {
    LogWarn("maintenance loop: ", conn.error().ToString());
    observer_->OnLoopFailure("expiry", conn.error());
    return;
  }
  Result<pg::PgResult> catalogs = (*conn)->Exec(
      "SELECT catalog_id, name FROM hog_catalog WHERE snapshot_retention_seconds IS NOT NULL ORDER "
      "BY name");
  if (!catalogs.ok()) {
    LogWarn("maintenance loop: ", catalogs.error().ToString());
    observer_->OnLoopFailure("expiry", catalogs.error());
    return;
  }
  for (int i = 0; i < catalogs->rows(); ++i) {
    const std::string key =
        std::to_string(pg::AdvisoryLockKey(pg::LockClass::kExpiry, catalogs->GetInt64(i, 0)));
    Result<pg::PgResult> locked = (*conn)->Exec("SELECT pg_try_advisory_lock($1)", {key});
    if (!locked.ok() || !locked->GetBool(0, 0)) continue;  // another server is sweeping it
    const std::string name = catalogs->GetString(i, 1);
    Result<ExpiryResult> result = service_->Expire(name, kDefaultExpiryBatch, /*manual=*/false);
    observer_->OnExpiry(name, /*manual=*/false, result);
    if (!result.ok()) {
      LogWarn("expiry of catalog '", name, "' failed: ", result.error().ToString());
    } else if (result->snapshots_expired > 0 || result->data_files_queued > 0) {
      LogInfo("expiry of catalog '", name, "': ", result->ToJson());
    }
    Result<CleanupResult> cleaned = service_->Cleanup(name, kDefaultCleanupBatch, /*manual=*/false);
    observer_->OnCleanup(name, /*manual=*/false, cleaned);
    if (!cleaned.ok()) {
      LogWarn("cleanup of catalog '", name, "' failed: ", cleaned.error().ToString());
    } else if (cleaned->removed > 0 || cleaned->still_referenced > 0) {
      LogInfo("cleanup of catalog '", name, "': ", cleaned->ToJson());
    }
    (void)(*conn)->Exec("SELECT pg_advisory_unlock($1)", {key});
  }
}

}  // namespace hoglake::catalog
