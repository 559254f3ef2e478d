// GET …/maintenance/status (contract §2.14): per catalog, every task of the
// ledger vocabulary with its loop cadence, its newest ledger row and a
// backlog measured live from the catalog tables.
//
// Backlog keys per task (absent keys are unknown, never zero):
//   hydrator   pending_files, failed_files — live files of non-dropped tables
//              in that stats state (partial indexes; counts saturate at
//              kStatusCountCap, i.e. a value equal to the cap means "at least").
//   expiry     snapshot_retention_seconds (absent while retention is off),
//              consumer_floor, earliest_snapshot_id, head_snapshot_id.
//   cleanup    queued_removals (undrained removal-queue rows, saturating at
//              kStatusCountCap), oldest_queued_age_seconds (absent when the
//              queue is empty).
//   compaction target_bytes only: this server keeps no compaction-debt
//              sample, so small_files is absent (unknown).
//   verify, retirement: no keys.
// No sampler runs here, so the report carries no sampled_at,
// sample_started_at or sampled_snapshot_id.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "catalog/maintenance/maintenance_info.h"

namespace hoglake::catalog {

// Saturation point of the status counts (counted over at most cap+1 rows).
inline constexpr int64_t kStatusCountCap = 100000;

// HOGLAKE_COMPACTION_TARGET_BYTES default (server digest §14).
inline constexpr int64_t kDefaultCompactionTargetBytes = 536870912;

// The cadence of each background loop in this process; 0 = off.
struct MaintenanceLoopIntervals {
  int64_t hydrator_ms = 0;
  int64_t expiry_ms = 0;
  int64_t cleanup_ms = 0;
  int64_t compaction_ms = 0;  // never run here
  int64_t retirement_ms = 0;
};

struct MaintenanceStatusOptions {
  // Unknown cadences (no loop wired) omit loop_interval_ms everywhere.
  std::optional<MaintenanceLoopIntervals> loops;
  // `hoglake serve`: HOGLAKE_COMPACTION_TARGET_BYTES (at least 2).
  int64_t compaction_target_bytes = kDefaultCompactionTargetBytes;
};

// One task's backlog; a key is present iff its optional is set (the task
// decides which keys it reports, see the file comment).
struct MaintenanceBacklog {
  std::optional<int64_t> pending_files;
  std::optional<int64_t> failed_files;
  std::optional<int64_t> snapshot_retention_seconds;
  std::optional<bool> consumer_floor;
  std::optional<int64_t> earliest_snapshot_id;
  std::optional<int64_t> head_snapshot_id;
  std::optional<int64_t> queued_removals;
  // A JSON number (seconds, millisecond precision).
  std::optional<std::string> oldest_queued_age_seconds;
  std::optional<int64_t> small_files;
  std::optional<int64_t> target_bytes;
};

struct MaintenanceTaskStatus {
  std::string task;
  std::optional<int64_t> loop_interval_ms;  // absent for verify or when unknown
  std::optional<MaintenanceRun> last_run;   // newest ledger row of the task
  MaintenanceBacklog backlog;
};

// Tasks in MaintenanceTasks() order, every task always listed.
struct MaintenanceStatusReport {
  std::string catalog;
  std::vector<MaintenanceTaskStatus> tasks;
};

}  // namespace hoglake::catalog
