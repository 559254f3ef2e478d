// QueryService: runs SQL statements as query runs (hotdata-api.md §4).
//
// Submit records the run (queued) and its pending result in PostgreSQL and
// queues it for one of `workers` threads; past `workers + queue_limit` runs
// waiting or running here it refuses (kOverloaded: the caller answers 429).
// A worker runs the statement with the SQL engine, streaming the rows into
// the result's Parquet object (ResultStore) as they come, and finishes run
// and result together: succeeded + ready, or failed (the engine's message;
// the timeout's own message past `timeout_ms`) or cancelled.
//
// Housekeeping on a background thread: every `heartbeat_ms` the runs
// executing here have their heartbeat refreshed and cancellations asked on
// another replica are applied; runs with a stale heartbeat (their server
// died) are marked failed; results older than `retention_seconds` are
// deleted with their objects; every AddSweep hook runs then too (once a
// minute by default, `sweep_interval_ms`).
//
// Every statement reads data files through one set of object stores and
// one footer cache (sql/source/lake_files.h), so a footer one query parsed
// is not read again by the next.
//
// Reads (GetRun, ListRuns, GetResult, OpenResult) work for runs any replica
// on the same database and store executed.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "catalog/lake_tables.h"
#include "query/result_store.h"
#include "query/run_store.h"
#include "sql/source/footer_cache.h"
#include "storage/s3_config.h"

namespace hoglake::sql {
class Session;
class SchemaListing;
struct LakeFiles;
}  // namespace hoglake::sql

namespace hoglake::query {

struct QueryServiceOptions {
  int workers = 4;                            // statements executing at once
  int queue_limit = 64;                       // more waiting beyond that → overloaded
  int64_t timeout_ms = int64_t{3600} * 1000;  // per statement; 0 = none
  int64_t memory_budget_bytes = 0;            // per statement; 0 = the engine's default
  int threads = 0;                            // engine threads per statement; 0 = all
  int64_t retention_seconds = int64_t{7} * 24 * 3600;
  int64_t heartbeat_ms = 2000;
  // Cadence of the sweep that fails interrupted runs, expires results and
  // runs the AddSweep hooks (the first runs at start).
  int64_t sweep_interval_ms = 60000;
  std::string default_catalog;  // for unqualified names
  std::string default_schema = "public";
  S3Config s3;
  // Parsed Parquet footers kept for every statement to share (LRU, bytes of
  // parsed metadata); 0 keeps none.
  int64_t footer_cache_bytes = sql::FooterCache::kDefaultCapacityBytes;
};

struct Submission {
  std::string sql;
  std::string default_catalog;  // empty: the service's
  std::string default_schema;   // empty: the service's
  // Catalog aliases for this statement (sql::SessionOptions): a Hotdata
  // database's "default" → its catalog.
  std::map<std::string, std::string> catalog_aliases;
};

enum class SubmitOutcome { kAccepted, kOverloaded };

class QueryService {
 public:
  // `tables`, `runs` and `results` must outlive the service.
  QueryService(catalog::LakeTables* tables, RunStore* runs, ResultStore* results,
               QueryServiceOptions options);
  ~QueryService();

  // Adds work to the housekeeping sweep (e.g. expiring
  // unfinalized uploads); call before Start.
  void AddSweep(std::function<void()> sweep) { sweeps_.push_back(std::move(sweep)); }
  // What information_schema lists in statements (it must outlive the
  // service); unset, the lake's catalogs. Call before Start.
  void SetSchemaListing(sql::SchemaListing* listing) { listing_ = listing; }

  void Start();
  void Stop();

  // On kAccepted, `*run` is the queued run.
  Result<SubmitOutcome> Submit(const Submission& submission, RunRecord* run);
  // Waits up to `timeout_ms` (negative: without limit) for a run executing
  // here to finish; true when it has (or is not executing here).
  bool Wait(const std::string& run_id, int64_t timeout_ms);
  // Cancels a run executing here at once, or asks its replica to.
  Result<RunRecord> Cancel(const std::string& run_id);

  Result<RunRecord> GetRun(const std::string& run_id) { return runs_->GetRun(run_id); }
  Result<RunPage> ListRuns(int64_t limit, const std::optional<std::string>& cursor,
                           const std::vector<RunState>& states) {
    return runs_->ListRuns(limit, cursor, states);
  }
  Result<ResultRecord> GetResult(const std::string& result_id) {
    return runs_->GetResult(result_id);
  }
  Result<ResultPage> ListResults(int64_t limit, int64_t offset) {
    return runs_->ListResults(limit, offset);
  }
  Result<std::unique_ptr<ResultReader>> OpenResult(const ResultRecord& result) {
    return results_->OpenReader(result.path);
  }
  Result<std::string> ResultBytes(const ResultRecord& result) {
    return results_->ReadBytes(result.path);
  }
  Result<std::shared_ptr<RandomAccessSource>> ResultSource(const ResultRecord& result) {
    return results_->OpenBytes(result.path);
  }

  const QueryServiceOptions& options() const { return options_; }
  // Runs queued or executing here now.
  int64_t active() const;

 private:
  struct Active;
  void Work();
  void Execute(const std::shared_ptr<Active>& active);
  void Housekeep();

  catalog::LakeTables* tables_;
  sql::SchemaListing* listing_ = nullptr;
  RunStore* runs_;
  ResultStore* results_;
  const QueryServiceOptions options_;
  // The object stores and footer cache every statement's scans share.
  const std::shared_ptr<sql::LakeFiles> files_;

  mutable std::mutex mu_;
  std::condition_variable work_ready_;
  std::condition_variable finished_;
  std::condition_variable housekeeping_wake_;
  std::deque<std::shared_ptr<Active>> queue_;
  std::map<std::string, std::shared_ptr<Active>> active_;  // queued or executing here
  bool stopping_ = false;
  std::vector<std::thread> workers_;
  std::thread housekeeper_;
  std::vector<std::function<void()>> sweeps_;
};

}  // namespace hoglake::query
