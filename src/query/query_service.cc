#include "query/query_service.h"

#include <chrono>

#include "common/encoding.h"
#include "common/log.h"
#include "common/sha256.h"
#include "sql/engine.h"
#include "sql/source/lake_files.h"

namespace hoglake::query {

struct QueryService::Active {
  RunRecord run;
  std::map<std::string, std::string> catalog_aliases;
  std::mutex mu;
  sql::Session* session = nullptr;  // while executing
  bool cancel_requested = false;    // by a client
  bool timed_out = false;
  bool done = false;
  std::chrono::steady_clock::time_point started;
};

namespace {

using Clock = std::chrono::steady_clock;

int64_t MillisSince(Clock::time_point t) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t).count();
}

// Streams the statement's rows into the result object, recording the
// result's columns once they are known.
class ResultSinkToStore : public sql::ResultSink {
 public:
  ResultSinkToStore(RunStore* runs, ResultStore* results, std::string result_id)
      : runs_(runs), results_(results), result_id_(std::move(result_id)) {}

  Status Start(const std::vector<sql::ResultColumn>& columns,
               const columnar::SchemaPtr& schema) override {
    std::vector<ResultColumnSpec> specs;
    for (const sql::ResultColumn& c : columns) {
      specs.push_back(ResultColumnSpec{c.name, sql::PgTypeName(c.type)});
    }
    HOGLAKE_RETURN_IF_ERROR(runs_->SetResultColumns(result_id_, specs));
    // Result columns keep their SELECT names, duplicates included.
    HOGLAKE_ASSIGN_OR_RETURN(writer_, results_->Create(result_id_, schema));
    return Status::Ok();
  }
  Status Batch(columnar::RecordBatch batch) override { return writer_->Write(batch); }
  Result<WrittenResult> Finish() { return writer_->Finish(); }

 private:
  RunStore* runs_;
  ResultStore* results_;
  std::string result_id_;
  std::unique_ptr<ResultWriter> writer_;
};

}  // namespace

QueryService::QueryService(catalog::LakeTables* tables, RunStore* runs, ResultStore* results,
                           QueryServiceOptions options)
    : tables_(tables),
      runs_(runs),
      results_(results),
      options_(std::move(options)),
      files_(sql::MakeLakeFiles(options_.s3, options_.footer_cache_bytes)) {}

QueryService::~QueryService() { Stop(); }

void QueryService::Start() {
  std::lock_guard<std::mutex> lock(mu_);
  if (!workers_.empty()) return;
  stopping_ = false;
  for (int i = 0; i < std::max(1, options_.workers); ++i) workers_.emplace_back([this] { Work(); });
  housekeeper_ = std::thread([this] { Housekeep(); });
}

void QueryService::Stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (workers_.empty()) return;
    stopping_ = true;
    for (auto& [id, active] : active_) {
      std::lock_guard<std::mutex> active_lock(active->mu);
      if (active->session) active->session->Cancel();
    }
  }
  work_ready_.notify_all();
  housekeeping_wake_.notify_all();
  for (std::thread& t : workers_) t.join();
  workers_.clear();
  if (housekeeper_.joinable()) housekeeper_.join();
}

int64_t QueryService::active() const {
  std::lock_guard<std::mutex> lock(mu_);
  return static_cast<int64_t>(active_.size());
}

Result<SubmitOutcome> QueryService::Submit(const Submission& submission, RunRecord* run) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (static_cast<int64_t>(active_.size()) >=
        static_cast<int64_t>(options_.workers) + options_.queue_limit) {
      return SubmitOutcome::kOverloaded;
    }
  }
  auto active = std::make_shared<Active>();
  active->catalog_aliases = submission.catalog_aliases;
  RunRecord& r = active->run;
  r.run_id = NewId(IdKind::kRun);
  r.result_id = NewId(IdKind::kResult);
  r.sql_text = submission.sql;
  r.sql_hash = HexEncode(Sha256(submission.sql));
  r.default_catalog =
      submission.default_catalog.empty() ? options_.default_catalog : submission.default_catalog;
  r.default_schema =
      submission.default_schema.empty() ? options_.default_schema : submission.default_schema;
  HOGLAKE_RETURN_IF_ERROR(runs_->InsertRun(r));
  {
    std::lock_guard<std::mutex> lock(mu_);
    active_[r.run_id] = active;
    queue_.push_back(active);
  }
  work_ready_.notify_one();
  HOGLAKE_ASSIGN_OR_RETURN(*run, runs_->GetRun(r.run_id));
  return SubmitOutcome::kAccepted;
}

bool QueryService::Wait(const std::string& run_id, int64_t timeout_ms) {
  std::unique_lock<std::mutex> lock(mu_);
  auto finished = [&] { return active_.find(run_id) == active_.end(); };
  if (timeout_ms < 0) {
    finished_.wait(lock, finished);
    return true;
  }
  return finished_.wait_for(lock, std::chrono::milliseconds(timeout_ms), finished);
}

Result<RunRecord> QueryService::Cancel(const std::string& run_id) {
  std::shared_ptr<Active> active;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = active_.find(run_id);
    if (it != active_.end()) active = it->second;
  }
  if (!active) return runs_->RequestCancel(run_id);
  {
    std::lock_guard<std::mutex> lock(active->mu);
    active->cancel_requested = true;
    if (active->session) active->session->Cancel();
  }
  Wait(run_id, 10000);
  return runs_->GetRun(run_id);
}

void QueryService::Work() {
  while (true) {
    std::shared_ptr<Active> active;
    {
      std::unique_lock<std::mutex> lock(mu_);
      work_ready_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return;  // stopping
      active = queue_.front();
      queue_.pop_front();
    }
    Execute(active);
    {
      std::lock_guard<std::mutex> lock(mu_);
      active_.erase(active->run.run_id);
    }
    finished_.notify_all();
  }
}

void QueryService::Execute(const std::shared_ptr<Active>& active) {
  const RunRecord& run = active->run;
  active->started = Clock::now();
  auto fail = [&](RunState state, const std::string& message, const std::string& sqlstate) {
    Status status = runs_->FinishUnsuccessful(run.run_id, run.result_id, state, message, sqlstate,
                                              MillisSince(active->started));
    if (!status.ok()) LogWarn("query run ", run.run_id, ": recording its end: ", status.ToString());
  };
  auto stopping = [&] {
    std::lock_guard<std::mutex> lock(mu_);
    return stopping_;
  };
  constexpr std::string_view kShutDown =
      "interrupted: the server shut down before the query finished";
  if (stopping()) {
    fail(RunState::kFailed, std::string(kShutDown), "57P01");
    return;
  }
  {
    std::lock_guard<std::mutex> lock(active->mu);
    if (active->cancel_requested) {
      fail(RunState::kCancelled, "cancelled before it started", "57014");
      return;
    }
  }
  if (Status status = runs_->MarkRunning(run.run_id); !status.ok()) {
    fail(RunState::kFailed, status.error().message, "");
    return;
  }
  sql::SessionOptions session_options;
  session_options.tables = tables_;
  session_options.listing = listing_;
  session_options.default_catalog = run.default_catalog;
  session_options.default_schema = run.default_schema;
  session_options.catalog_aliases = active->catalog_aliases;
  session_options.search_lake = true;
  session_options.threads = options_.threads;
  if (options_.memory_budget_bytes > 0) {
    session_options.memory_budget_bytes = options_.memory_budget_bytes;
  }
  session_options.s3 = options_.s3;
  session_options.files = files_;
  sql::Session session(session_options);
  {
    std::lock_guard<std::mutex> lock(active->mu);
    active->session = &session;
  }
  ResultSinkToStore sink(runs_, results_, run.result_id);
  Result<sql::ExecutionStats> stats = session.Execute(run.sql_text, sink);
  Result<WrittenResult> written = stats.ok() ? sink.Finish() : Result<WrittenResult>(stats.error());
  bool cancelled = false;
  bool timed_out = false;
  {
    std::lock_guard<std::mutex> lock(active->mu);
    active->session = nullptr;
    cancelled = active->cancel_requested;
    timed_out = active->timed_out;
  }
  const bool shut_down = stopping();
  if (!written.ok()) {
    const Error& error = written.error();
    if (shut_down && error.detail.sqlstate == "57014") {
      fail(RunState::kFailed, std::string(kShutDown), "57P01");
    } else if (timed_out) {
      fail(RunState::kFailed,
           StrCat("canceling statement due to the query timeout (", options_.timeout_ms, " ms)"),
           "57014");
    } else if (cancelled && error.detail.sqlstate == "57014") {
      fail(RunState::kCancelled, "canceling statement due to user request", "57014");
    } else {
      fail(RunState::kFailed, error.message, error.detail.sqlstate);
    }
    return;
  }
  RunFinish finish;
  finish.row_count = written->rows;
  finish.rows_scanned = stats->rows_scanned;
  finish.bytes_scanned = stats->bytes_scanned;
  finish.execution_time_ms = MillisSince(active->started);
  finish.path = written->path;
  finish.size_bytes = written->bytes;
  if (Status status = runs_->FinishSucceeded(run.run_id, run.result_id, finish); !status.ok()) {
    LogWarn("query run ", run.run_id, ": recording its success: ", status.ToString());
  }
}

void QueryService::Housekeep() {
  auto last_sweep = Clock::now() - std::chrono::hours(1);
  while (true) {
    std::vector<std::shared_ptr<Active>> executing;
    {
      std::unique_lock<std::mutex> lock(mu_);
      housekeeping_wake_.wait_for(lock, std::chrono::milliseconds(options_.heartbeat_ms),
                                  [&] { return stopping_; });
      if (stopping_) return;
      for (auto& [id, active] : active_) executing.push_back(active);
    }
    // Timeouts.
    std::vector<std::string> ids;
    for (const std::shared_ptr<Active>& active : executing) {
      ids.push_back(active->run.run_id);
      std::lock_guard<std::mutex> lock(active->mu);
      if (options_.timeout_ms > 0 && active->session &&
          MillisSince(active->started) > options_.timeout_ms) {
        active->timed_out = true;
        active->session->Cancel();
      }
    }
    // Heartbeats, and cancellations asked through another replica.
    Result<std::vector<std::string>> cancelled = runs_->Heartbeat(ids);
    if (cancelled.ok()) {
      for (const std::string& id : *cancelled) {
        for (const std::shared_ptr<Active>& active : executing) {
          if (active->run.run_id != id) continue;
          std::lock_guard<std::mutex> lock(active->mu);
          active->cancel_requested = true;
          if (active->session) active->session->Cancel();
        }
      }
    } else {
      LogWarn("query runs heartbeat: ", cancelled.error().message);
    }
    // Interrupted runs and expired results, once a sweep interval.
    if (Clock::now() - last_sweep >= std::chrono::milliseconds(options_.sweep_interval_ms)) {
      last_sweep = Clock::now();
      if (Result<int64_t> stale = runs_->FailStale(); stale.ok() && *stale > 0) {
        LogInfo("marked ", *stale, " interrupted query run(s) failed");
      }
      Result<std::vector<std::string>> expired = runs_->ExpireResults(options_.retention_seconds);
      if (expired.ok() && !expired->empty()) {
        results_->Remove(*expired);
        LogInfo("removed ", expired->size(), " expired query result(s)");
      }
      for (const std::function<void()>& sweep : sweeps_) sweep();
    }
  }
}

}  // namespace hoglake::query
