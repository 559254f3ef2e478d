// MaintenanceLoop: runs expiry then cleanup in the background on a fixed
// cadence for every catalog that has a retention set. Single-flight across servers: a
// sweep of one catalog runs only while this process holds that catalog's
// expiry advisory lock (pg_try_advisory_lock; a busy lock skips the catalog
// until the next tick). Each sweep is recorded in the ledger as a `loop` run.
// The loop never holds the commit lock longer than expiry's phase A does.
#pragma once

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "catalog/catalog_service.h"

namespace hoglake::catalog {

class MaintenanceLoop {
 public:
  // `interval_ms` 0 disables the loop (Start does nothing).
  MaintenanceLoop(CatalogService* service, PgPool* pool, int64_t interval_ms);
  ~MaintenanceLoop();

  void Start();
  void Stop();

  // One sweep over every catalog now (what each tick does).
  void RunOnce();

 private:
  void Run();

  CatalogService* service_;
  PgPool* pool_;
  const int64_t interval_ms_;
  std::thread thread_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
};

}  // namespace hoglake::catalog
