// MaintenanceLoop: runs expiry then cleanup in the background on a fixed
// cadence for every catalog that has a retention set. Single-flight across servers: a
// sweep of one catalog runs only while this process holds that catalog's
// expiry advisory lock (pg_try_advisory_lock; a busy lock skips the catalog
// until the next tick). Each sweep is recorded in the ledger as a `loop` run.
// The loop never holds the commit lock longer than expiry's phase A does.
//
// Retirement of dropped tables (server digest §5.4) runs on its own cadence,
// HOGLAKE_RETIREMENT_INTERVAL_MS (default 0 = off), over every catalog whose
// floor has moved; its knobs come from RetirementOptions::FromEnv() and its
// single flight is Retire's own per-catalog lock. Stop() cancels a running
// retirement between batches.
//
// Deferred-stats hydration (server digest §7) runs on
// HOGLAKE_HYDRATOR_INTERVAL_MS (default 900000, 0 = off) when a Hydrator is
// given: one Sweep of up to its batch, claims fenced by leases so several
// servers share the work.
//
// Planner statistics: every HOGLAKE_ANALYZE_INTERVAL_MS (default 10000, 0 =
// off) the loop ANALYZEs each hog_* table that was never analyzed (once it
// holds 500 rows) or changed by more than a tenth since it was — without
// this, plans cached while the catalog was empty (foreign-key checks among
// them) keep scanning a whole catalog per row until autovacuum gets round
// to it.
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
#include "catalog/hydrator.h"
#include "catalog/maintenance_observer.h"
#include "catalog/maintenance_status.h"

namespace hoglake::catalog {

class MaintenanceLoop {
 public:
  // `interval_ms` 0 disables expiry+cleanup sweeps; `retirement_interval_ms`
  // 0 disables retirement (negative: read HOGLAKE_RETIREMENT_INTERVAL_MS).
  // With both off, Start does nothing.
  MaintenanceLoop(CatalogService* service, PgPool* pool, int64_t interval_ms,
                  int64_t retirement_interval_ms = -1, Hydrator* hydrator = nullptr,
                  int64_t hydrator_interval_ms = -1);
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
  PgPool* pool_;
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
