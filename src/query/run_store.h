// RunStore: query runs and their results as rows in the catalog database
// (migration V19), so every replica on that database sees them.
//
// A run is inserted queued together with its pending result; the server
// executing it marks it running, keeps its heartbeat fresh (Heartbeat), and
// finishes run and result in one statement pipeline (one implicit
// transaction): succeeded with the result ready, or failed/cancelled with
// the result failed. A run still queued or running whose heartbeat is older
// than the stale limit belongs to a server that died: reads report it failed
// ("interrupted") and write that down (FailStale).
//
// Errors: kNotFound naming the id; the database's errors otherwise.
// Thread-safe (each call leases its own connection).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/status.h"
#include "pg/pg_pool.h"
#include "query/query_vocabulary.h"

namespace hoglake::query {

struct ResultColumnSpec {
  std::string name;
  std::string type;  // PostgreSQL's spelling (sql::PgTypeName)
};

struct RunRecord {
  std::string run_id;
  RunState state = RunState::kQueued;
  std::string sql_text;
  std::string sql_hash;  // hex SHA-256 of sql_text
  std::string default_catalog;
  std::string default_schema;
  std::string result_id;
  std::optional<std::string> error_message;
  std::optional<std::string> error_sqlstate;
  std::optional<int64_t> row_count;
  std::optional<int64_t> rows_scanned;
  std::optional<int64_t> bytes_scanned;
  std::optional<int64_t> execution_time_ms;
  std::string created_at;                   // RFC 3339, UTC
  std::optional<std::string> completed_at;  // RFC 3339, UTC
  int64_t created_micros = 0;
};

struct ResultRecord {
  std::string result_id;
  ResultState state = ResultState::kPending;
  std::string path;  // the Parquet object, once ready
  std::vector<ResultColumnSpec> columns;
  std::optional<int64_t> row_count;
  std::optional<int64_t> size_bytes;
  std::optional<std::string> error_message;
  std::string created_at;
};

struct RunPage {
  std::vector<RunRecord> runs;
  std::optional<std::string> next_cursor;
};

struct ResultPage {
  std::vector<ResultRecord> results;
  bool has_more = false;
};

struct RunFinish {
  int64_t row_count = 0;
  int64_t rows_scanned = 0;
  int64_t bytes_scanned = 0;
  int64_t execution_time_ms = 0;
  std::string path;
  int64_t size_bytes = 0;
};

class RunStore {
 public:
  // `instance` names this server in the runs it executes; a run whose
  // heartbeat is older than `stale_after_ms` is taken as interrupted.
  RunStore(pg::PgPool* pool, std::string instance, int64_t stale_after_ms);

  const std::string& instance() const { return instance_; }
  int64_t stale_after_ms() const { return stale_after_ms_; }

  // Inserts `run` (queued) and its pending result `run.result_id`.
  Status InsertRun(const RunRecord& run);
  Status MarkRunning(const std::string& run_id);
  // The result's columns, known once the statement is planned.
  Status SetResultColumns(const std::string& result_id,
                          const std::vector<ResultColumnSpec>& columns);
  Status FinishSucceeded(const std::string& run_id, const std::string& result_id,
                         const RunFinish& finish);
  // `state` is kFailed or kCancelled.
  Status FinishUnsuccessful(const std::string& run_id, const std::string& result_id, RunState state,
                            const std::string& message, const std::string& sqlstate,
                            int64_t execution_time_ms);

  Result<RunRecord> GetRun(const std::string& run_id);
  // Newest first (created_at, run_id descending); `cursor` from a previous
  // page's next_cursor (a malformed one is kBadRequest); `states` empty = all.
  Result<RunPage> ListRuns(int64_t limit, const std::optional<std::string>& cursor,
                           const std::vector<RunState>& states);
  Result<ResultRecord> GetResult(const std::string& result_id);
  Result<ResultPage> ListResults(int64_t limit, int64_t offset);

  // Refreshes the heartbeat of `run_ids` (runs this server executes) and
  // returns those whose cancellation was requested (by any replica).
  Result<std::vector<std::string>> Heartbeat(const std::vector<std::string>& run_ids);
  // Asks for the run's cancellation; the run as it stands afterwards.
  Result<RunRecord> RequestCancel(const std::string& run_id);
  // Marks every queued or running run with a stale heartbeat failed.
  Result<int64_t> FailStale();
  // Deletes results (and their runs' links) created more than
  // `retention_seconds` ago; returns the stored objects to remove.
  Result<std::vector<std::string>> ExpireResults(int64_t retention_seconds);

 private:
  pg::PgPool* pool_;
  std::string instance_;
  int64_t stale_after_ms_;
};

}  // namespace hoglake::query
