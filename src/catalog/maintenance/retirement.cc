// CatalogService::Retire (server digest §5.4): retirement of dropped tables'
// data files. Invariant kept: only rows of tables dropped at or below the
// floor are deleted (re-checked under the commit lock), so no retained
// snapshot, scan or changefeed can name a retired path; cleanup still checks
// every queued path against all file rows before deleting an object.
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <thread>

#include "catalog/catalog_service.h"
#include "catalog/maintenance/file_children.h"
#include "catalog/maintenance/maintenance_ledger.h"
#include "common/clock.h"
#include "common/json_writer.h"

namespace hoglake::catalog {
namespace {

constexpr int64_t kCandidateLimit = 1000;
constexpr int64_t kStatementBoundCapMs = 60000 / 4;

bool Cancelled(const RetirementOptions& options) {
  return options.cancel != nullptr && options.cancel->load();
}

// Sleeps `ms`, waking early when the run is cancelled.
void Pause(const RetirementOptions& options, int64_t ms) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
  while (!Cancelled(options) && std::chrono::steady_clock::now() < until) {
    std::this_thread::sleep_for(std::min<std::chrono::steady_clock::duration>(
        std::chrono::milliseconds(50), until - std::chrono::steady_clock::now()));
  }
}

bool IsStatementTimeout(const Error& error) {
  return error.message.find("PostgreSQL 57014") != std::string::npos;
}

}  // namespace

std::string RetirementResult::ToJson() const {
  JsonWriter w;
  w.BeginObject();
  w.Field("tables_examined", tables_examined);
  w.Field("rows_retired", rows_retired);
  w.Field("batches", batches);
  if (candidates > 0) w.Field("candidates", candidates);
  if (timeouts > 0) w.Field("timeouts", timeouts);
  if (convoyed) w.Field("convoyed", true);
  if (truncated) w.Field("truncated", true);
  w.OptionalField("skipped", skipped);
  w.EndObject();
  return w.Take();
}

Result<RetirementResult> CatalogService::Retire(std::string_view catalog,
                                                const RetirementOptions& options, bool manual) {
  if (options.batch <= 0) return Validation("batch must be positive, got ", options.batch);
  const int64_t started = NowMicros();
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::milliseconds(options.run_budget_ms);
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgPool::Lease conn, pool_->Acquire());
  HOGLAKE_ASSIGN_OR_RETURN(CatalogHead head, ReadCatalogHead(*conn, catalog));
  const std::string catalog_id = std::to_string(head.catalog_id);
  RetirementResult result;

  const std::string key =
      std::to_string(pg::AdvisoryLockKey(pg::LockClass::kRetirement, head.catalog_id));
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgResult locked,
                           conn->Exec("SELECT pg_try_advisory_lock($1)", {key}));
  if (!locked.GetBool(0, 0)) {
    result.skipped = "lock_held";
    return result;
  }

  // One batch of one table under the commit lock. Sets *done when the table
  // has no live file left (or is no longer eligible), *stop_run on convoy.
  const int64_t admission = options_.commit_lock_timeout_ms;
  const int64_t bound_ms = std::max<int64_t>(
      1,
      (admission > 0 ? std::min(kStatementBoundCapMs, admission / 2) : kStatementBoundCapMs) / 4);
  auto batch = [&](const std::string& table_id, bool* done, bool* stop_run) -> Status {
    Result<CommitScope> scope =
        CommitScope::BeginForId(*conn, head.catalog_id, catalog, options_.commit_lock_timeout_ms);
    if (!scope.ok()) {
      if (scope.error().code == ErrorCode::kCommitQueueTimeout) {
        result.convoyed = true;
        *stop_run = true;
        return Status::Ok();
      }
      return scope.error();
    }
    HOGLAKE_RETURN_IF_ERROR(
        conn->Exec("SELECT set_config('statement_timeout', $1, true)", {std::to_string(bound_ms)}));
    // Re-read under the lock: the drop must still be at or below the floor.
    HOGLAKE_ASSIGN_OR_RETURN(
        pg::PgResult table,
        conn->Exec("SELECT 1 FROM hog_table WHERE catalog_id = $1 AND table_id = $2 AND "
                   "dropped_snapshot IS NOT NULL AND dropped_snapshot <= $3",
                   {catalog_id, table_id, std::to_string(scope->head().earliest_snapshot_id)}));
    if (table.rows() == 0) {
      *done = true;
      return Status::Ok();  // the scope rolls back
    }
    // No DV rows exist in this schema (DVs are not implemented), so only
    // data-file rows are retired (deleted by TID, queued in the same
    // statement; no other qual on the outer DELETE, so the plan stays a TID
    // scan; commits, the only writers of end_snapshot, wait on the commit
    // lock held here), then their stats and partition values, set-based, in the
    // same transaction (V11: no cascade).
    Result<pg::PgResult> retired = conn->Exec(
        StrCat("WITH gone AS (DELETE FROM hog_data_file d WHERE d.ctid = ANY(ARRAY(SELECT ctid "
               "FROM hog_data_file WHERE catalog_id = $1 AND table_id = $2 AND end_snapshot IS "
               "NULL ORDER BY begin_snapshot LIMIT $3)) RETURNING d.data_file_id, d.path)",
               QueueGoneFilesSql("table_drop_gc")),
        {catalog_id, table_id, std::to_string(options.batch)});
    Status children = Status::Ok();
    if (retired.ok() && retired->GetInt64(0, 1) > 0) {
      children = DeleteFileChildren(*conn, catalog_id, retired->GetString(0, 0));
    }
    if (!retired.ok() || !children.ok()) {
      const Error& error = retired.ok() ? children.error() : retired.error();
      if (!IsStatementTimeout(error)) return error;
      ++result.timeouts;  // ends this table for the run, same size next time
      *done = true;
      return Status::Ok();
    }
    HOGLAKE_RETURN_IF_ERROR(scope->CommitWithoutSnapshot());
    ++result.batches;
    result.rows_retired += retired->GetInt64(0, 1);
    *done = retired->GetInt64(0, 1) < options.batch;
    return Status::Ok();
  };

  auto run = [&]() -> Status {
    // 1. Undrained queue rows, counted once (bounded just past the ceiling).
    HOGLAKE_ASSIGN_OR_RETURN(
        pg::PgResult queued,
        conn->Exec("SELECT count(*) FROM (SELECT 1 FROM hog_file_removal WHERE catalog_id = $1 "
                   "AND drained_at IS NULL LIMIT $2) q",
                   {catalog_id, std::to_string(std::max<int64_t>(options.queue_ceiling, 0) + 1)}));
    // 2. Candidates: dropped at or below the floor, with live files left.
    HOGLAKE_ASSIGN_OR_RETURN(
        pg::PgResult candidates,
        conn->Exec("SELECT t.table_id FROM hog_table t JOIN hog_catalog c USING (catalog_id) "
                   "WHERE t.catalog_id = $1 AND t.dropped_snapshot IS NOT NULL AND "
                   "t.dropped_snapshot <= c.earliest_snapshot_id AND EXISTS (SELECT 1 FROM "
                   "hog_data_file d WHERE d.catalog_id = t.catalog_id AND d.table_id = t.table_id "
                   "AND d.end_snapshot IS NULL) ORDER BY t.table_id LIMIT $2",
                   {catalog_id, std::to_string(kCandidateLimit)}));
    result.candidates = candidates.rows();
    if (candidates.rows() == 0) return Status::Ok();
    std::vector<int64_t> ids;
    for (int i = 0; i < candidates.rows(); ++i) ids.push_back(candidates.GetInt64(i, 0));
    // 3. Stamp first eligibility (before the ceiling check).
    HOGLAKE_RETURN_IF_ERROR(conn->Exec(
        "UPDATE hog_table SET retirement_eligible_at = clock_timestamp() WHERE catalog_id = $1 "
        "AND table_id = ANY($2::bigint[]) AND retirement_eligible_at IS NULL",
        {catalog_id, pg::PgIntArray(ids)}));
    // 4. Back-pressure: let cleanup catch up first.
    if (queued.GetInt64(0, 0) > options.queue_ceiling) {
      result.skipped = "queue_full";
      return Status::Ok();
    }
    // 5. Per table, batches until done, the budget, a convoy or cancel.
    for (int64_t id : ids) {
      ++result.tables_examined;
      bool done = false;
      while (!done) {
        if (result.batches + result.timeouts > 0) Pause(options, options.pause_ms);
        if (Cancelled(options) || std::chrono::steady_clock::now() >= deadline) {
          result.truncated = true;
          return Status::Ok();
        }
        bool stop_run = false;
        HOGLAKE_RETURN_IF_ERROR(batch(std::to_string(id), &done, &stop_run));
        if (stop_run) return Status::Ok();
      }
    }
    return Status::Ok();
  };
  Status ran = run();
  Result<pg::PgResult> unlocked = conn->Exec("SELECT pg_advisory_unlock($1)", {key});
  Result<std::string> outcome =
      ran.ok() ? Result<std::string>(result.ToJson()) : Result<std::string>(ran.error());
  Status recorded =
      RecordMaintenanceRun(*conn, head.catalog_id, "retirement", manual, started, outcome);
  if (!unlocked.ok()) return unlocked.error();
  if (!ran.ok()) return ran.error();
  HOGLAKE_RETURN_IF_ERROR(recorded);
  return result;
}

}  // namespace hoglake::catalog
