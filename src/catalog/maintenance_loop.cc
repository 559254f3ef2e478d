#include "catalog/maintenance_loop.h"

#include <algorithm>
#include <cstdlib>

#include "catalog/advisory_locks.h"
#include "common/log.h"

namespace hoglake::catalog {

namespace {

int64_t RetirementIntervalFromEnv() {
  const char* value = std::getenv("HOGLAKE_RETIREMENT_INTERVAL_MS");
  if (value == nullptr || *value == '\0') return 0;
  char* end = nullptr;
  const long long parsed = std::strtoll(value, &end, 10);
  return (end != nullptr && *end == '\0' && parsed > 0) ? parsed : 0;
}

}  // namespace

MaintenanceLoop::MaintenanceLoop(CatalogService* service, PgPool* pool, int64_t interval_ms,
                                 int64_t retirement_interval_ms)
    : service_(service),
      pool_(pool),
      interval_ms_(interval_ms),
      retirement_interval_ms_(retirement_interval_ms < 0 ? RetirementIntervalFromEnv()
                                                         : retirement_interval_ms),
      retirement_options_(RetirementOptions::FromEnv()) {
  retirement_options_.cancel = &cancel_;
}

MaintenanceLoop::~MaintenanceLoop() { Stop(); }

void MaintenanceLoop::Start() {
  if ((interval_ms_ <= 0 && retirement_interval_ms_ <= 0) || thread_.joinable()) return;
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
  const auto start = Clock::now();
  auto next_sweep = start + std::chrono::milliseconds(interval_ms_);
  auto next_retirement = start + std::chrono::milliseconds(retirement_interval_ms_);
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    auto wake_at = interval_ms_ > 0 ? next_sweep : next_retirement;
    if (retirement_interval_ms_ > 0) wake_at = std::min(wake_at, next_retirement);
    if (wake_.wait_until(lock, wake_at, [this] { return stopping_; })) break;
    lock.unlock();
    if (interval_ms_ > 0 && Clock::now() >= next_sweep) {
      RunOnce();
      next_sweep = Clock::now() + std::chrono::milliseconds(interval_ms_);
    }
    if (retirement_interval_ms_ > 0 && Clock::now() >= next_retirement) {
      RunRetirementOnce();
      next_retirement = Clock::now() + std::chrono::milliseconds(retirement_interval_ms_);
    }
    lock.lock();
  }
}

void MaintenanceLoop::RunRetirementOnce() {
  std::vector<std::string> names;
  {
    Result<PgPool::Lease> conn = pool_->Acquire();
    if (!conn.ok()) {
      LogWarn("retirement loop: ", conn.error().ToString());
      return;
    }
    // A catalog whose floor never moved has nothing below it to retire.
    Result<PgResult> catalogs =
        (*conn)->Exec("SELECT name FROM hog_catalog WHERE earliest_snapshot_id > 0 ORDER BY name");
    if (!catalogs.ok()) {
      LogWarn("retirement loop: ", catalogs.error().ToString());
      return;
    }
    for (int i = 0; i < catalogs->rows(); ++i) names.push_back(catalogs->GetString(i, 0));
  }
  for (const std::string& name : names) {
    if (cancel_) return;
    Result<RetirementResult> result = service_->Retire(name, retirement_options_, /*manual=*/false);
    if (!result.ok()) {
      LogWarn("retirement of catalog '", name, "' failed: ", result.error().ToString());
    } else if (result->rows_retired > 0 || result->convoyed || result->timeouts > 0 ||
               result->skipped == "queue_full") {
      LogInfo("retirement of catalog '", name, "': ", result->ToJson());
    }
  }
}

void MaintenanceLoop::RunOnce() {
  Result<PgPool::Lease> conn = pool_->Acquire();
  if (!conn.ok()) {
    LogWarn("maintenance loop: ", conn.error().ToString());
    return;
  }
  Result<PgResult> catalogs = (*conn)->Exec(
      "SELECT catalog_id, name FROM hog_catalog WHERE snapshot_retention_seconds IS NOT NULL ORDER "
      "BY name");
  if (!catalogs.ok()) {
    LogWarn("maintenance loop: ", catalogs.error().ToString());
    return;
  }
  for (int i = 0; i < catalogs->rows(); ++i) {
    const std::string key =
        std::to_string(AdvisoryLockKey(LockClass::kExpiry, catalogs->GetInt64(i, 0)));
    Result<PgResult> locked = (*conn)->Exec("SELECT pg_try_advisory_lock($1)", {key});
    if (!locked.ok() || !locked->GetBool(0, 0)) continue;  // another server is sweeping it
    const std::string name = catalogs->GetString(i, 1);
    Result<ExpiryResult> result = service_->Expire(name, kDefaultExpiryBatch, /*manual=*/false);
    if (!result.ok()) {
      LogWarn("expiry of catalog '", name, "' failed: ", result.error().ToString());
    } else if (result->snapshots_expired > 0 || result->data_files_queued > 0) {
      LogInfo("expiry of catalog '", name, "': ", result->ToJson());
    }
    Result<CleanupResult> cleaned = service_->Cleanup(name, kDefaultCleanupBatch, /*manual=*/false);
    if (!cleaned.ok()) {
      LogWarn("cleanup of catalog '", name, "' failed: ", cleaned.error().ToString());
    } else if (cleaned->removed > 0 || cleaned->still_referenced > 0) {
      LogInfo("cleanup of catalog '", name, "': ", cleaned->ToJson());
    }
    (void)(*conn)->Exec("SELECT pg_advisory_unlock($1)", {key});
  }
}

}  // namespace hoglake::catalog
