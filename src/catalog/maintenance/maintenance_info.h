// Maintenance tasks' results and the run ledger (contract §2.14).
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace hoglake::catalog {

inline constexpr int64_t kDefaultExpiryBatch = 10000;

struct ExpiryResult {
  int64_t snapshots_expired = 0;
  int64_t data_files_queued = 0;
  int64_t delete_files_queued = 0;
  int64_t new_earliest_snapshot_id = 0;
  std::optional<std::string> floored_by_consumer;
  int64_t purge_pages = 0;
  int64_t purge_failures = 0;

  // The wire body: the five core fields, then non-default counters only.
  std::string ToJson() const;
};

inline constexpr int64_t kDefaultCleanupBatch = 2000;

struct CleanupResult {
  int64_t removed = 0;           // objects deleted
  int64_t missing = 0;           // already absent
  int64_t still_referenced = 0;  // a file row still names the path: kept
  int64_t failed = 0;            // delete failed; retried on a later run

  std::string ToJson() const;
};

inline constexpr int64_t kDefaultRetirementBatch = 8000;

// Knobs of one retirement run (server digest §5.4); `hoglake serve` reads
// them from HOGLAKE_RETIREMENT_BATCH, _RUN_BUDGET_MS, _PAUSE_MS and
// _QUEUE_CEILING.
struct RetirementOptions {
  int64_t batch = kDefaultRetirementBatch;  // victims per batch transaction
  int64_t run_budget_ms = 60000;            // wall clock; no batch starts after it
  int64_t pause_ms = 750;                   // between two batches of a run
  int64_t queue_ceiling = 500000;           // undrained queue rows above which the run skips
  // Polled between batches: set means "stop now" (server shutdown).
  const std::atomic<bool>* cancel = nullptr;
};

struct RetirementResult {
  int64_t tables_examined = 0;  // candidates this run worked on
  int64_t rows_retired = 0;     // data-file rows deleted (and their paths queued)
  int64_t batches = 0;          // committed batch transactions
  int64_t timeouts = 0;         // batches that hit their statement bound
  int64_t candidates = 0;       // candidate tables found (limit 1000)
  bool convoyed = false;        // the commit lock was not admitted: run ended
  bool truncated = false;       // budget or cancel ended the run with work left
  // Why no batch ran: "lock_held" (another run holds the catalog's
  // retirement lock; not recorded in the ledger) or "queue_full".
  std::optional<std::string> skipped;

  std::string ToJson() const;
};

// The closed task vocabulary of the ledger (hog_maintenance_run.task).
const std::vector<std::string>& MaintenanceTasks();

struct MaintenanceRun {
  int64_t run_id = 0;
  std::string catalog;
  std::string task;
  std::string trigger;  // loop | manual
  int64_t started_at_micros = 0;
  int64_t finished_at_micros = 0;
  std::string status;  // ok | failed
  std::optional<std::string> error;
  std::optional<std::string> result_json;  // null on failure
};

struct RunListing {
  std::optional<std::string> task;
  std::optional<int64_t> before;  // exclusive run id, newest first
  std::optional<int64_t> limit;   // default 50, capped at 500
};

struct RunPage {
  std::vector<MaintenanceRun> runs;
  bool has_more = false;
};

}  // namespace hoglake::catalog
