// The SQL engine's facade: a Session runs one PostgreSQL-dialect statement
// at a time over the lake and returns its result schema and batches.
//
//   sql::SessionOptions options;
//   options.tables = lake_tables.get();          // catalog::LakeTables
//   options.default_catalog = "main";
//   options.default_schema = "public";
//   sql::Session session(options);
//   auto result = session.Execute("SELECT count(*) FROM orders");
//
// Names: catalog.schema.table; shorter names use the session's default
// catalog and schema; information_schema.{schemata,tables,columns} list
// options.listing (sql/source/information_schema.h). Reads see one snapshot
// per table (the head when the statement starts, or options.at). Only
// queries run: any other statement fails with 42809 naming it. EXPLAIN
// returns the optimized plan as text in a one-column result; EXPLAIN
// ANALYZE runs the query and reports each operator's rows and time (scans:
// files and row groups read and pruned, bytes read, footers found in the
// footer cache).
//
// Data files are read through SessionOptions::files (sql/source/
// lake_files.h): sessions given one LakeFiles share its object stores and
// its cache of parsed Parquet footers, so a query does not re-read the
// footers an earlier one read. Without one a session makes its own, shared
// by its statements.
//
// Errors carry an SQLSTATE (sql_error.h). Execute may be called from any
// thread; a Session runs one statement at a time. Cancel() from another
// thread stops the running statement within a batch (57014), and
// RowsScannedSoFar() reports its progress while it runs.
#pragma once

#include <atomic>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "catalog/lake_tables.h"
#include "columnar/array.h"
#include "common/status.h"
#include "sql/source/schema_listing.h"
#include "sql/types/sql_type.h"
#include "storage/s3_config.h"

namespace hoglake::sql {

struct LakeFiles;

// A quarter of the machine's physical memory: the default per-query budget.
int64_t DefaultQueryMemoryBudget();

struct SessionOptions {
  catalog::LakeTables* tables = nullptr;  // must outlive the session
  std::string default_catalog;
  std::string default_schema = "public";
  // Catalog aliases (BinderOptions::catalog_aliases).
  std::map<std::string, std::string> catalog_aliases;
  // Resolve a name the defaults do not find to the one table of that name
  // anywhere in the lake (BinderOptions::search_lake).
  bool search_lake = false;
  catalog::SnapshotSelector at;  // empty: each statement reads the head
  // What information_schema lists (must outlive the session); null: the
  // catalogs of `tables`.
  SchemaListing* listing = nullptr;
  int threads = 0;               // decoding threads; 0 = the machine's
  // Bytes a statement's pipeline breakers (hash tables, sort and join
  // inputs) may hold; past it the statement fails with 53200.
  int64_t memory_budget_bytes = DefaultQueryMemoryBudget();
  S3Config s3;  // for s3:// data files (when `files` is null)
  // The stores and footer cache scans read through; null: the session's own
  // (MakeLakeFiles(s3)).
  std::shared_ptr<LakeFiles> files;
};

struct ResultColumn {
  std::string name;
  SqlType type;
};

// Receives a statement's result as it is produced: Start once with the
// result's columns and batch schema, then each batch in order. An error
// returned by the sink stops the statement and is Execute's error.
class ResultSink {
 public:
  virtual ~ResultSink() = default;
  virtual Status Start(const std::vector<ResultColumn>& columns,
                       const columnar::SchemaPtr& schema) = 0;
  virtual Status Batch(columnar::RecordBatch batch) = 0;
};

// What a statement did besides its rows.
struct ExecutionStats {
  int64_t rows = 0;
  int64_t rows_scanned = 0;   // rows decoded by table scans
  int64_t bytes_scanned = 0;  // data file bytes read by table scans
};

struct QueryResult {
  std::vector<ResultColumn> columns;
  columnar::SchemaPtr schema;  // the batches' schema (carrier types)
  std::vector<columnar::RecordBatch> batches;
  int64_t num_rows() const;
};

class Session {
 public:
  explicit Session(SessionOptions options);
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  // Runs `sql` and collects the whole result in memory (its batches count
  // against the memory budget).
  Result<QueryResult> Execute(std::string_view sql);
  // Runs `sql`, handing the result to `sink` batch by batch as the plan's
  // root produces it: nothing beyond one batch is held for the result.
  Result<ExecutionStats> Execute(std::string_view sql, ResultSink& sink);
  // Stops the statement running now (if any) at its next batch boundary.
  void Cancel();
  // Rows the running (or last) statement's table scans have decoded so far;
  // safe to call from any thread while Execute runs.
  int64_t RowsScannedSoFar() const { return rows_scanned_so_far_.load(); }

  const SessionOptions& options() const { return options_; }

 private:
  SessionOptions options_;
  std::shared_ptr<LakeFiles> files_;
  std::atomic<bool> cancelled_{false};
  std::atomic<int64_t> rows_scanned_so_far_{0};
};

}  // namespace hoglake::sql
