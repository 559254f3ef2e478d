#include "server/observability/metric_families.h"

namespace hoglake::server {

std::span<const MetricFamily> AllMetricFamilies() {
  using namespace metric;
  static constexpr MetricFamily kAll[] = {
      kHttpRequests,
      kHttpRequestDuration,
      kHttpRefused,
      kRequestQueueWait,
      kRequestsShed,
      kCommits,
      kCommitLockWait,
      kCommitQueueTimeouts,
      kCommitBatchRequests,
      kCommitBatches,
      kMaintenanceRuns,
      kSnapshotsExpired,
      kExpiryFilesQueued,
      kExpiryPurgeFailures,
      kFilesRemoved,
      kFilesAlreadyAbsent,
      kCleanupDeleteFailures,
      kCleanupStillReferenced,
      kRowsRetired,
      kRetirementBatches,
      kRetirementTimeouts,
      kRetirementConvoyed,
      kStatsHydrated,
      kBackgroundLoopFailures,
      kHeadSnapshotId,
      kEarliestSnapshotId,
      kSnapshotCount,
      kHeadAge,
      kEarliestSnapshotAge,
      kRemovalQueueDepth,
      kRemovalQueueOldestAge,
      kLiveFiles,
      kLiveRows,
      kLiveBytes,
      kStatsPendingFiles,
      kStatsFailedFiles,
      kMissingFieldIdFiles,
      kTableCount,
      kDroppedTablesPendingRetirement,
      kConsumerLag,
      kConsumerLagMax,
      kMaintenanceLastRunEpoch,
      kMaintenanceLastRunDuration,
      kMetricsLastSampleEpoch,
  };
  return kAll;
}

}  // namespace hoglake::server
