// MaintenanceReporter: the server's MaintenanceObserver. Each maintenance
// run, loop or manual, becomes counters in Metrics and — when it did work
// or failed — one audit line (common/audit.h):
//
//   expiry      hoglake_snapshots_expired_total{catalog},
//               hoglake_expiry_files_queued_total{catalog},
//               hoglake_expiry_purge_failures_total{catalog}; audit "expiry"
//   cleanup     hoglake_files_removed_total{catalog},
//               hoglake_files_already_absent_total{catalog},
//               hoglake_cleanup_delete_failures_total{catalog},
//               hoglake_cleanup_still_referenced_total{catalog}; audit
//               "cleanup" (outcome invariant_violation when the drain found
//               a queued path still referenced)
//   retirement  hoglake_rows_retired_total{catalog},
//               hoglake_retirement_{batches,timeouts,convoyed}_total{catalog};
//               audit "retirement"
//   hydration   hoglake_stats_hydrated_total{result=provided|failed|transient};
//               audit "hydrate"; rehydrate: audit "rehydrate"
//   every run   hoglake_maintenance_runs_total{task,trigger,status}
//   loop        hoglake_background_loop_failures_total{loop}
#pragma once

#include "catalog/maintenance/maintenance_observer.h"
#include "server/observability/metrics.h"

namespace hoglake::server {

class MaintenanceReporter : public catalog::MaintenanceObserver {
 public:
  explicit MaintenanceReporter(Metrics* metrics) : metrics_(metrics) {}

  void OnExpiry(std::string_view catalog, bool manual,
                const Result<catalog::ExpiryResult>& result) override;
  void OnCleanup(std::string_view catalog, bool manual,
                 const Result<catalog::CleanupResult>& result) override;
  void OnRetirement(std::string_view catalog, bool manual,
                    const Result<catalog::RetirementResult>& result) override;
  void OnHydration(std::string_view catalog, bool manual,
                   const Result<catalog::HydratorResult>& result) override;
  void OnRehydrate(std::string_view catalog, const Result<int64_t>& requeued) override;
  void OnLoopFailure(std::string_view loop, const Error& error) override;

 private:
  void CountRun(std::string_view task, bool manual, bool ok);
  void Count(const MetricFamily& family, std::string_view catalog, int64_t delta);

  Metrics* metrics_;
};

}  // namespace hoglake::server
