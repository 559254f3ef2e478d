#include "server/observability/maintenance_reporter.h"

#include <string>

#include "common/audit.h"
#include "common/json_writer.h"

namespace hoglake::server {

namespace {

void AuditRun(std::string_view action, std::string_view catalog, AuditOutcome outcome,
              std::string detail) {
  AuditEvent event;
  event.action = std::string(action);
  event.outcome = outcome;
  event.catalog = std::string(catalog);
  event.detail = std::move(detail);
  EmitAudit(event);
}

void AuditFailure(std::string_view action, std::string_view catalog, const Error& error) {
  JsonWriter w;
  w.BeginObject();
  w.Field("error", ErrorCodeName(error.code));
  w.Field("message", std::string_view(error.message));
  w.EndObject();
  AuditRun(action, catalog, AuditOutcomeFor(error.code), w.Take());
}

}  // namespace

void MaintenanceReporter::CountRun(std::string_view task, bool manual, bool ok) {
  metrics_->AddToCounter(metric::kMaintenanceRuns,
                         {{"task", std::string(task)},
                          {"trigger", manual ? "manual" : "loop"},
                          {"status", ok ? "ok" : "failed"}},
                         1);
}

void MaintenanceReporter::Count(const MetricFamily& family, std::string_view catalog,
                                int64_t delta) {
  if (delta <= 0) return;
  MetricLabels labels;
  if (!catalog.empty()) labels.emplace_back("catalog", std::string(catalog));
  metrics_->AddToCounter(family, labels, static_cast<uint64_t>(delta));
}

void MaintenanceReporter::OnExpiry(std::string_view catalog, bool manual,
                                   const Result<catalog::ExpiryResult>& result) {
  CountRun("expiry", manual, result.ok());
  if (!result.ok()) {
    AuditFailure("expiry", catalog, result.error());
    return;
  }
  Count(metric::kSnapshotsExpired, catalog, result->snapshots_expired);
  Count(metric::kExpiryFilesQueued, catalog,
        result->data_files_queued + result->delete_files_queued);
  Count(metric::kExpiryPurgeFailures, catalog, result->purge_failures);
  if (result->snapshots_expired > 0 || result->data_files_queued > 0 ||
      result->delete_files_queued > 0) {
    AuditRun("expiry", catalog, AuditOutcome::kSuccess, result->ToJson());
  }
}

void MaintenanceReporter::OnCleanup(std::string_view catalog, bool manual,
                                    const Result<catalog::CleanupResult>& result) {
  CountRun("cleanup", manual, result.ok());
  if (!result.ok()) {
    AuditFailure("cleanup", catalog, result.error());
    return;
  }
  Count(metric::kFilesRemoved, catalog, result->removed);
  Count(metric::kFilesAlreadyAbsent, catalog, result->missing);
  Count(metric::kCleanupDeleteFailures, catalog, result->failed);
  Count(metric::kCleanupStillReferenced, catalog, result->still_referenced);
  if (result->removed > 0 || result->missing > 0 || result->failed > 0 ||
      result->still_referenced > 0) {
    AuditRun(
        "cleanup", catalog,
        result->still_referenced > 0 ? AuditOutcome::kInvariantViolation : AuditOutcome::kSuccess,
        result->ToJson());
  }
}

void MaintenanceReporter::OnRetirement(std::string_view catalog, bool manual,
                                       const Result<catalog::RetirementResult>& result) {
  if (result.ok() && result->skipped == "lock_held") return;  // another server's run
  CountRun("retirement", manual, result.ok());
  if (!result.ok()) {
    AuditFailure("retirement", catalog, result.error());
    return;
  }
  Count(metric::kRowsRetired, catalog, result->rows_retired);
  Count(metric::kRetirementBatches, catalog, result->batches);
  Count(metric::kRetirementTimeouts, catalog, result->timeouts);
  Count(metric::kRetirementConvoyed, catalog, result->convoyed ? 1 : 0);
  if (result->rows_retired > 0) {
    AuditRun("retirement", catalog, AuditOutcome::kSuccess, result->ToJson());
  }
}

void MaintenanceReporter::OnHydration(std::string_view catalog, bool manual,
                                      const Result<catalog::HydratorResult>& result) {
  CountRun("hydrator", manual, result.ok());
  if (!result.ok()) {
    AuditFailure("hydrate", catalog, result.error());
    return;
  }
  for (auto [outcome, count] :
       {std::pair{"provided", result->hydrated}, std::pair{"failed", result->failed},
        std::pair{"transient", result->transient}}) {
    if (count > 0) {
      metrics_->AddToCounter(metric::kStatsHydrated, {{"result", outcome}},
                             static_cast<uint64_t>(count));
    }
  }
  if (result->claimed > 0) AuditRun("hydrate", catalog, AuditOutcome::kSuccess, result->ToJson());
}

void MaintenanceReporter::OnRehydrate(std::string_view catalog, const Result<int64_t>& requeued) {
  if (!requeued.ok()) {
    AuditFailure("rehydrate", catalog, requeued.error());
    return;
  }
  if (*requeued > 0) {
    AuditRun("rehydrate", catalog, AuditOutcome::kSuccess,
             StrCat("{\"requeued\":", *requeued, "}"));
  }
}

void MaintenanceReporter::OnLoopFailure(std::string_view loop, const Error& /*error*/) {
  metrics_->AddToCounter(metric::kBackgroundLoopFailures, {{"loop", std::string(loop)}}, 1);
}

}  // namespace hoglake::server
