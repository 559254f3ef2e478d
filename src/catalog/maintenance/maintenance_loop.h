// MaintenanceLoop: runs expiry then cleanup in the background on a fixed
// cadence for every catalog that has a retention set. Single-flight across servers: a
// sweep of one catalog runs only while this process holds that catalog's
// expiry advisory lock (pg_try_advisory_lock; a busy lock skips the catalog
// until the next tick). Each sweep is recorded in the ledger as a `loop` run.
// The loop never holds the commit lock longer than expiry's phase A does.
//
// Retirement of dropped tables (server digest §5.4) runs on its own cadence
// (default off) over every catalog whose floor has moved, with the knobs of
// MaintenanceLoopOptions::retirement; its single flight is Retire's own
// per-catalog lock. Stop() cancels a running retirement between batches.
//
// Deferred-stats hydration (server digest §7) runs on its cadence when a
// Hydrator is given: one Sweep of up to its batch, claims fenced by leases so
// several servers share the work.
//
// Planner statistics: on its cadence the loop ANALYZEs each hog_* table that was never analyzed
// (once it holds 500 rows) or changed by more than a tenth since it was — without this, plans
// cached while the catalog was empty (foreign-key checks among them) keep scanning a whole catalog
// per row until autovacuum gets round to it.
//
// Every run, and every pass that failed before reaching a catalog, is
// reported to the MaintenanceObserver set with SetObserver (metrics and
// audit live in the server).
#pragma once

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "catalog/catalog_service.h"
#include "catalog/maintenance/hydrator.h"
#include "catalog/maintenance/maintenance_observer.h"
#include "catalog/maintenance/maintenance_status.h"

namespace hoglake::catalog {

// Cadences in milliseconds, each 0 = off (`hoglake serve` fills them from
// HOGLAKE_EXPIRY_INTERVAL_MS, _RETIREMENT_INTERVAL_MS, _HYDRATOR_INTERVAL_MS
// and _ANALYZE_INTERVAL_MS).
struct MaintenanceLoopOptions {
  int64_t expiry_interval_ms = 60000;  // expiry + cleanup sweeps
  int64_t retirement_interval_ms = 0;
  int64_t hydrator_interval_ms = 900000;  // only with a Hydrator
  int64_t analyze_interval_ms = 10000;
  RetirementOptions retirement;  // its `cancel` is the loop's own
};

class MaintenanceLoop {
 public:
  // With every cadence off, Start does nothing. `hydrator` may be null (no
  // hydration).
  MaintenanceLoop(CatalogService* service, pg::PgPool* pool, const MaintenanceLoopOptions& options,
                  Hydrator* hydrator = nullptr);
  ~MaintenanceLoop();

  // Told about every run the loop makes (null: nobody); set before Start.
  void SetObserver(MaintenanceObserver* observer) { observer_ = observer ? observer : &quiet_; }

  void Start();
  void Stop();

  // One expiry+cleanup sweep over every catalog now (what each tick does).
  void RunOnce();
  // One retirement run over every catalog whose floor has moved.
  void RunRetirementOnce();
  // One hydrator sweep (no-op without a hydrator).
  void RunHydratorOnce();
  // ANALYZE the catalog tables whose statistics are missing or stale.
  void RunAnalyzeOnce();

  // The cadences this loop runs (0 = off) as GET …/maintenance/status
  // reports them: expiry and cleanup share one sweep; compaction never runs.
  MaintenanceLoopIntervals intervals() const;

 private:
  void Run();

  CatalogService* service_;
  pg::PgPool* pool_;
  const int64_t interval_ms_;
  const int64_t retirement_interval_ms_;
  Hydrator* hydrator_;
  const int64_t hydrator_interval_ms_;
  const int64_t analyze_interval_ms_;
  RetirementOptions retirement_options_;
  MaintenanceObserver quiet_;
  MaintenanceObserver* observer_ = &quiet_;
  std::atomic<bool> cancel_{false};
  std::thread thread_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
};

}  // namespace hoglake::catalog
