// MaintenanceObserver: told about every maintenance run as it resolves —
// from the background loop and from the manual HTTP triggers alike — so the
// server can count it (metrics) and record it (audit) while the catalog
// layer knows about neither. Calls come on the thread that ran the job,
// after its transactions ended; an observer must not block for long.
// Every method defaults to doing nothing.
#pragma once

#include <string_view>

#include "catalog/maintenance/hydrator.h"
#include "catalog/maintenance/maintenance_info.h"
#include "common/status.h"

namespace hoglake::catalog {

class MaintenanceObserver {
 public:
  virtual ~MaintenanceObserver() = default;

  virtual void OnExpiry(std::string_view /*catalog*/, bool /*manual*/,
                        const Result<ExpiryResult>& /*result*/) {}
  virtual void OnCleanup(std::string_view /*catalog*/, bool /*manual*/,
                         const Result<CleanupResult>& /*result*/) {}
  virtual void OnRetirement(std::string_view /*catalog*/, bool /*manual*/,
                            const Result<RetirementResult>& /*result*/) {}
  // `catalog` is empty for a loop sweep across every catalog.
  virtual void OnHydration(std::string_view /*catalog*/, bool /*manual*/,
                           const Result<HydratorResult>& /*result*/) {}
  // A manual rehydrate: how many files went back to pending.
  virtual void OnRehydrate(std::string_view /*catalog*/, const Result<int64_t>& /*requeued*/) {}
  // A background loop task failed before reaching a catalog (database
  // unreachable, say); `loop` ∈ {expiry, retirement, hydrator, analyze}.
  virtual void OnLoopFailure(std::string_view /*loop*/, const Error& /*error*/) {}
};

}  // namespace hoglake::catalog
