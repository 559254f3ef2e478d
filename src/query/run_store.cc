#include "query/run_store.h"

#include "common/encoding.h"
#include "common/json_writer.h"
#include "query/keyset_cursor.h"
#include "query/timestamp_sql.h"

namespace hoglake::query {
namespace {

// Timestamps as RFC 3339 text in UTC with microseconds, and as epoch
// microseconds for cursors.
const std::string& RunColumns() {
  static const std::string columns = StrCat(
      "run_id, status, sql_text, sql_hash, coalesce(default_catalog, ''), "
      "coalesce(default_schema, ''), coalesce(result_id, ''), error_message, error_sqlstate, "
      "row_count, rows_scanned, bytes_scanned, execution_time_ms, ",
      Rfc3339Sql("created_at"), ", ", Rfc3339Sql("completed_at"), ", ",
      "(extract(epoch FROM created_at) * 1000000)::bigint");
  return columns;
}

RunRecord RunFromRow(const pg::PgResult& r, int row) {
  RunRecord run;
  run.run_id = r.GetString(row, 0);
  run.state = RunStateFromStored(r.GetText(row, 1)).value_or(RunState::kFailed);
  run.sql_text = r.GetString(row, 2);
  run.sql_hash = r.GetString(row, 3);
  run.default_catalog = r.GetString(row, 4);
  run.default_schema = r.GetString(row, 5);
  run.result_id = r.GetString(row, 6);
  run.error_message = r.GetOptionalString(row, 7);
  run.error_sqlstate = r.GetOptionalString(row, 8);
  run.row_count = r.GetOptionalInt64(row, 9);
  run.rows_scanned = r.GetOptionalInt64(row, 10);
  run.bytes_scanned = r.GetOptionalInt64(row, 11);
  run.execution_time_ms = r.GetOptionalInt64(row, 12);
  run.created_at = r.GetString(row, 13);
  run.completed_at = r.GetOptionalString(row, 14);
  run.created_micros = r.GetInt64(row, 15);
  return run;
}

std::string StoredList(const std::vector<RunState>& states) {
  std::vector<std::optional<std::string>> names;
  for (RunState s : states) names.emplace_back(std::string(StoredName(s)));
  return pg::PgTextArray(names);
}

std::string ActiveStates() { return StoredList({RunState::kQueued, RunState::kRunning}); }

constexpr std::string_view kInterrupted =
    "interrupted: the server running this query stopped before it finished";

std::string ColumnsJson(const std::vector<ResultColumnSpec>& columns) {
  JsonWriter w;
  w.BeginArray();
  for (const ResultColumnSpec& c : columns) {
    w.BeginObject();
    w.Field("name", c.name);
    w.Field("type", c.type);
    w.EndObject();
  }
  w.EndArray();
  return w.Take();
}

}  // namespace

RunStore::RunStore(pg::PgPool* pool, std::string instance, int64_t stale_after_ms)
    : pool_(pool), instance_(std::move(instance)), stale_after_ms_(stale_after_ms) {}

Status RunStore::InsertRun(const RunRecord& run) {
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgPool::Lease conn, pool_->Acquire());
  std::vector<pg::PgStatement> statements;
  statements.push_back(pg::PgStatement{
      "INSERT INTO hog_query_result (result_id, status) VALUES ($1, 'pending')", {run.result_id}});
  statements.push_back(pg::PgStatement{
      "INSERT INTO hog_query_run (run_id, status, sql_text, sql_hash, default_catalog, "
      "default_schema, result_id, instance) VALUES ($1, 'queued', $2, $3, $4, $5, $6, $7)",
      {run.run_id, run.sql_text, run.sql_hash, run.default_catalog, run.default_schema,
       run.result_id, instance_}});
  return conn->ExecPipeline(statements).status();
}

Status RunStore::MarkRunning(const std::string& run_id) {
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgPool::Lease conn, pool_->Acquire());
  return conn
      ->ExecPrepared(
          "UPDATE hog_query_run SET status = 'running', heartbeat_at = now() "
          "WHERE run_id = $1 AND status = 'queued'",
          {run_id})
      .status();
}

Status RunStore::SetResultColumns(const std::string& result_id,
                                  const std::vector<ResultColumnSpec>& columns) {
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgPool::Lease conn, pool_->Acquire());
  return conn
      ->ExecPrepared(
          "UPDATE hog_query_result SET status = 'processing', columns = $2::jsonb "
          "WHERE result_id = $1 AND status = 'pending'",
          {result_id, ColumnsJson(columns)})
      .status();
}

Status RunStore::FinishSucceeded(const std::string& run_id, const std::string& result_id,
                                 const RunFinish& f) {
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgPool::Lease conn, pool_->Acquire());
  std::vector<pg::PgStatement> statements;
  statements.push_back(pg::PgStatement{
      "UPDATE hog_query_result SET status = 'ready', path = $2, row_count = $3, size_bytes = $4, "
      "completed_at = now() WHERE result_id = $1",
      {result_id, f.path, std::to_string(f.row_count), std::to_string(f.size_bytes)}});
  statements.push_back(pg::PgStatement{
      "UPDATE hog_query_run SET status = 'succeeded', row_count = $2, rows_scanned = $3, "
      "bytes_scanned = $4, execution_time_ms = $5, completed_at = now() "
      "WHERE run_id = $1 AND status IN ('queued', 'running')",
      {run_id, std::to_string(f.row_count), std::to_string(f.rows_scanned),
       std::to_string(f.bytes_scanned), std::to_string(f.execution_time_ms)}});
  return conn->ExecPipeline(statements).status();
}

Status RunStore::FinishUnsuccessful(const std::string& run_id, const std::string& result_id,
                                    RunState state, const std::string& message,
                                    const std::string& sqlstate, int64_t execution_time_ms) {
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgPool::Lease conn, pool_->Acquire());
  std::vector<pg::PgStatement> statements;
  statements.push_back(pg::PgStatement{
      "UPDATE hog_query_result SET status = 'failed', error_message = $2, completed_at = now() "
      "WHERE result_id = $1",
      {result_id, message}});
  statements.push_back(pg::PgStatement{
      "UPDATE hog_query_run SET status = $2, error_message = $3, error_sqlstate = $4, "
      "execution_time_ms = $5, completed_at = now() "
      "WHERE run_id = $1 AND status IN ('queued', 'running')",
      {run_id, std::string(StoredName(state)), message,
       sqlstate.empty() ? pg::PgParam() : pg::PgParam(sqlstate),
       std::to_string(execution_time_ms)}});
  return conn->ExecPipeline(statements).status();
}

Result<RunRecord> RunStore::GetRun(const std::string& run_id) {
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgPool::Lease conn, pool_->Acquire());
  const std::string sql = "SELECT " + RunColumns() + " FROM hog_query_run WHERE run_id = $1";
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgResult r, conn->Exec(sql, {run_id}));
  if (r.rows() == 0) return MakeError(ErrorCode::kNotFound, "query run '" + run_id + "' not found");
  RunRecord run = RunFromRow(r, 0);
  if (!IsTerminal(run.state)) {
    // A run whose server stopped answering is over.
    HOGLAKE_ASSIGN_OR_RETURN(int64_t failed, FailStale());
    if (failed > 0) {
      HOGLAKE_ASSIGN_OR_RETURN(r, conn->Exec(sql, {run_id}));
      run = RunFromRow(r, 0);
    }
  }
  return run;
}

Result<RunPage> RunStore::ListRuns(int64_t limit, const std::optional<std::string>& cursor,
                                   const std::vector<RunState>& states) {
  HOGLAKE_RETURN_IF_ERROR(FailStale().status());
  std::string sql = "SELECT " + RunColumns() + " FROM hog_query_run WHERE true";
  std::vector<pg::PgParam> params;
  if (cursor) {
    HOGLAKE_ASSIGN_OR_RETURN(auto position, DecodeKeysetCursor(*cursor));
    params.push_back(std::to_string(position.first));
    params.push_back(position.second);
    sql +=
        " AND (created_at, run_id) < (timestamptz 'epoch' + $1::bigint * interval '1 microsecond',"
        " $2)";
  }
  if (!states.empty()) {
    params.push_back(StoredList(states));
    sql += " AND status = ANY($" + std::to_string(params.size()) + "::text[])";
  }
  params.push_back(std::to_string(limit + 1));
  sql += " ORDER BY created_at DESC, run_id DESC LIMIT $" + std::to_string(params.size());
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgPool::Lease conn, pool_->Acquire());
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgResult r, conn->Exec(sql, params));
  RunPage page;
  for (int i = 0; i < r.rows() && i < limit; ++i) page.runs.push_back(RunFromRow(r, i));
  if (r.rows() > limit && !page.runs.empty()) {
    page.next_cursor = EncodeKeysetCursor(page.runs.back().created_micros, page.runs.back().run_id);
  }
  return page;
}

Result<ResultRecord> RunStore::GetResult(const std::string& result_id) {
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgPool::Lease conn, pool_->Acquire());
  HOGLAKE_ASSIGN_OR_RETURN(
      pg::PgResult r,
      conn->Exec(StrCat("SELECT status, coalesce(path, ''), row_count, size_bytes, error_message, ",
                        Rfc3339Sql("created_at"), " FROM hog_query_result WHERE result_id = $1"),
                 {result_id}));
  if (r.rows() == 0) return MakeError(ErrorCode::kNotFound, "result '" + result_id + "' not found");
  ResultRecord result;
  result.result_id = result_id;
  result.state = ResultStateFromName(r.GetText(0, 0)).value_or(ResultState::kFailed);
  result.path = r.GetString(0, 1);
  result.row_count = r.GetOptionalInt64(0, 2);
  result.size_bytes = r.GetOptionalInt64(0, 3);
  result.error_message = r.GetOptionalString(0, 4);
  result.created_at = r.GetString(0, 5);
  if (result.state == ResultState::kPending || result.state == ResultState::kProcessing) {
    // The run writing it may have died: the result then failed with it.
    HOGLAKE_ASSIGN_OR_RETURN(int64_t failed, FailStale());
    if (failed > 0) return GetResult(result_id);
  }
  HOGLAKE_ASSIGN_OR_RETURN(
      pg::PgResult c,
      conn->Exec("SELECT c.value->>'name', c.value->>'type' FROM hog_query_result r, "
                 "jsonb_array_elements(coalesce(r.columns, '[]'::jsonb)) WITH ORDINALITY c "
                 "WHERE r.result_id = $1 ORDER BY c.ordinality",
                 {result_id}));
  for (int i = 0; i < c.rows(); ++i) {
    result.columns.push_back(ResultColumnSpec{c.GetString(i, 0), c.GetString(i, 1)});
  }
  return result;
}

Result<ResultPage> RunStore::ListResults(int64_t limit, int64_t offset) {
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgPool::Lease conn, pool_->Acquire());
  HOGLAKE_ASSIGN_OR_RETURN(
      pg::PgResult r,
      conn->Exec(StrCat("SELECT result_id, status, error_message, ", Rfc3339Sql("created_at"),
                        " FROM hog_query_result ORDER BY created_at DESC, result_id DESC "
                        "LIMIT $1 OFFSET $2"),
                 {std::to_string(limit + 1), std::to_string(offset)}));
  ResultPage page;
  for (int i = 0; i < r.rows() && i < limit; ++i) {
    ResultRecord result;
    result.result_id = r.GetString(i, 0);
    result.state = ResultStateFromName(r.GetText(i, 1)).value_or(ResultState::kFailed);
    result.error_message = r.GetOptionalString(i, 2);
    result.created_at = r.GetString(i, 3);
    page.results.push_back(std::move(result));
  }
  page.has_more = r.rows() > limit;
  return page;
}

Result<std::vector<std::string>> RunStore::Heartbeat(const std::vector<std::string>& run_ids) {
  std::vector<std::string> cancelled;
  if (run_ids.empty()) return cancelled;
  std::vector<std::optional<std::string>> ids(run_ids.begin(), run_ids.end());
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgPool::Lease conn, pool_->Acquire());
  HOGLAKE_ASSIGN_OR_RETURN(
      pg::PgResult r,
      conn->Exec("UPDATE hog_query_run SET heartbeat_at = now() "
                 "WHERE run_id = ANY($1::text[]) AND status IN ('queued', 'running') "
                 "RETURNING run_id, cancel_requested",
                 {pg::PgTextArray(ids)}));
  for (int i = 0; i < r.rows(); ++i) {
    if (r.GetBool(i, 1)) cancelled.push_back(r.GetString(i, 0));
  }
  return cancelled;
}

Result<RunRecord> RunStore::RequestCancel(const std::string& run_id) {
  {
    HOGLAKE_ASSIGN_OR_RETURN(pg::PgPool::Lease conn, pool_->Acquire());
    HOGLAKE_RETURN_IF_ERROR(
        conn->Exec("UPDATE hog_query_run SET cancel_requested = true WHERE run_id = $1 "
                   "AND status IN ('queued', 'running')",
                   {run_id})
            .status());
  }
  return GetRun(run_id);
}

Result<int64_t> RunStore::FailStale() {
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgPool::Lease conn, pool_->Acquire());
  HOGLAKE_ASSIGN_OR_RETURN(
      pg::PgResult r,
      conn->Exec("WITH stale AS (UPDATE hog_query_run SET status = 'failed', error_message = $3, "
                 "completed_at = now() WHERE status = ANY($1::text[]) "
                 "AND heartbeat_at < now() - $2::bigint * interval '1 millisecond' "
                 "RETURNING result_id), "
                 "results AS (UPDATE hog_query_result SET status = 'failed', error_message = $3, "
                 "completed_at = now() WHERE result_id IN (SELECT result_id FROM stale) "
                 "AND status IN ('pending', 'processing') RETURNING 1) "
                 "SELECT count(*) FROM stale",
                 {ActiveStates(), std::to_string(stale_after_ms_), std::string(kInterrupted)}));
  return r.GetInt64(0, 0);
}

Result<std::vector<std::string>> RunStore::ExpireResults(int64_t retention_seconds) {
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgPool::Lease conn, pool_->Acquire());
  HOGLAKE_ASSIGN_OR_RETURN(
      pg::PgResult r,
      conn->Exec("DELETE FROM hog_query_result WHERE created_at < now() - $1::bigint * "
                 "interval '1 second' AND status IN ('ready', 'failed') RETURNING path",
                 {std::to_string(retention_seconds)}));
  std::vector<std::string> paths;
  for (int i = 0; i < r.rows(); ++i) {
    if (!r.IsNull(i, 0) && !r.GetText(i, 0).empty()) paths.push_back(r.GetString(i, 0));
  }
  return paths;
}

}  // namespace hoglake::query
