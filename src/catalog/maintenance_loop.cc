#include "catalog/maintenance_loop.h"

#include "catalog/advisory_locks.h"
#include "common/log.h"

namespace hoglake::catalog {

MaintenanceLoop::MaintenanceLoop(CatalogService* service, PgPool* pool, int64_t interval_ms)
    : service_(service), pool_(pool), interval_ms_(interval_ms) {}

MaintenanceLoop::~MaintenanceLoop() { Stop(); }

void MaintenanceLoop::Start() {
  if (interval_ms_ <= 0 || thread_.joinable()) return;
  thread_ = std::thread([this] { Run(); });
}

void MaintenanceLoop::Stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void MaintenanceLoop::Run() {
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    if (wake_.wait_for(lock, std::chrono::milliseconds(interval_ms_), [this] { return stopping_; }))
      break;
    lock.unlock();
    RunOnce();
    lock.lock();
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
