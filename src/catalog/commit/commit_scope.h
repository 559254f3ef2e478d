// CommitScope: the one way a mutation reaches the catalog.
//
// Begin() opens a transaction, bounds lock waits with `lock_timeout`, takes
// the catalog's commit lock (a transaction-scoped advisory lock, so commits
// to one catalog serialize and commits to different catalogs do not) and
// reads the head. The mutation then writes its rows, using snapshot_id() as
// its new snapshot, AllocateIds() for per-catalog ids and ReserveRows() for
// a table's row ids, and records what it changed with AddChange(). Finish()
// stamps the snapshot (clock_timestamp() under the lock, so snapshot_time is
// monotone with id), writes the change rows, advances the head (and the
// schema version for DDL), writes back the allocators kept in memory and
// commits.
// Destroying an unfinished scope rolls everything back: a refused request
// writes nothing.
//
// A lock wait longer than the bound fails with kCommitQueueTimeout. Every
// acquisition attempt that ends in the lock granted or in that timeout is
// reported to the optional CommitLockObserver (other failures are not).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "catalog/model/change_kind.h"
#include "catalog/reads/snapshot_selector.h"
#include "pg/pg_connection.h"

namespace hoglake::catalog {

struct CommitResult {
  int64_t snapshot_id = 0;
  int64_t schema_version = 0;
};

struct CommitMetadata {
  std::optional<std::string> author;
  std::optional<std::string> message;
};

// Told how long one wait for a commit lock took (seconds, measured around
// the lock statement) and whether it ended in the lock timeout. Called on the
// committing thread, so it must be thread-safe and cheap; may be empty.
using CommitLockObserver = std::function<void(double wait_seconds, bool timed_out)>;

class CommitScope {
 public:
  // kNotFound when the catalog does not exist.
  static Result<CommitScope> Begin(pg::PgConnection& conn, std::string_view catalog_name,
                                   int64_t lock_timeout_ms,
                                   const CommitLockObserver& observer = nullptr);
  // As Begin, for a caller that already looked the catalog's id up (saves a
  // round trip); `catalog_name` only names it in errors.
  static Result<CommitScope> BeginForId(pg::PgConnection& conn, int64_t catalog_id,
                                        std::string_view catalog_name, int64_t lock_timeout_ms,
                                        const CommitLockObserver& observer = nullptr);

  // As BeginForId, but sends nothing yet: BEGIN, the wait bound, the lock
  // and the head read go out in front of the first RunPipeline() call, so
  // they cost no round trip of their own. head() and everything that
  // depends on it are known only after that call.
  static CommitScope Deferred(pg::PgConnection& conn, int64_t catalog_id, std::string catalog_name,
                              int64_t lock_timeout_ms, CommitLockObserver observer = nullptr);

  CommitScope(CommitScope&&) = default;

  // For a deferred scope not yet begun: write on a head this process already
  // knows (commit_state_cache.h) instead of the one the first pipeline reads.
  // head(), the file-id allocator and the row-id allocators of
  // `next_row_ids`' tables are set now, and the head read with BEGIN does not
  // replace them; the caller sends AssumedHeadCheck() first in that pipeline.
  void AssumeHead(const CatalogHead& head, int64_t next_file_id,
                  const std::map<int64_t, int64_t>& next_row_ids);
  // A statement that fails (division by zero, SQLSTATE 22012) unless the
  // catalog row still holds the assumed head's last snapshot and schema
  // version and the assumed file-id allocator.
  pg::PgStatement AssumedHeadCheck() const;

  pg::PgConnection& conn() { return *conn_; }
  // RunPipeline on the connection, after the deferred beginning if it has
  // not been sent. A failure there (the lock not acquired in time, the
  // catalog gone) is reported as not one of `statements`' (failed_index =
  // statements.size()).
  pg::PgConnection::PipelineOutcome RunPipeline(const std::vector<pg::PgStatement>& statements);
  const CatalogHead& head() const { return head_; }
  int64_t catalog_id() const { return head_.catalog_id; }
  // The id the snapshot being built will get (head + 1).
  int64_t snapshot_id() const { return head_.head_snapshot_id + 1; }

  // Reserves `count` consecutive ids from one of the catalog's allocators
  // ("next_namespace_id", "next_table_id", "next_file_id", "next_view_id");
  // returns the first. File ids are handed out in memory from the value read
  // with the head (under the lock) and written back when the scope commits,
  // so the many file-publishing mutations of a batch do not each update the
  // catalog row.
  Result<int64_t> AllocateIds(std::string_view allocator, int64_t count);
  // Reserves `rows` row ids of table `table_id` and adds `files`, `rows` and
  // `bytes` to its live totals (hog_table_stats), in memory until the scope
  // commits. `next_row_id` is the table's allocator as read inside this
  // transaction; it is used the first time the scope sees the table (later
  // reservations continue from the earlier ones). Returns the first row id.
  // The caller has checked that the range does not overflow.
  int64_t ReserveRows(int64_t table_id, int64_t next_row_id, int64_t files, int64_t rows,
                      int64_t bytes);
  void AddChange(ChangeKind kind, int64_t object_id);

  // Commits the transaction without writing a snapshot (maintenance work
  // that needs the lock but is not a catalog change).
  Status CommitWithoutSnapshot() { return CommitWith(Flushes()); }

  // Writes the snapshot and commits. `ddl` bumps the schema version.
  Result<CommitResult> Finish(bool ddl, const CommitMetadata& metadata = {});

  // Group commit (commit_batch.h): several mutations in one transaction.
  // Stage() writes the snapshot of the changes recorded so far (as Finish
  // does) and advances the scope's head to it without touching the catalog
  // row or committing; the next mutation builds snapshot_id() + 1.
  // StageStatement() does the same but returns the statement instead of
  // running it, for the caller to send in a pipeline: the scope's head
  // advances as if it had run. CommitStaged() advances the catalog row to
  // the last staged snapshot (if any) and commits, in one round trip (or,
  // with CommitStatements(), in the caller's last pipeline).
  Result<CommitResult> Stage(bool ddl, const CommitMetadata& metadata = {});
  pg::PgStatement StageStatement(bool ddl, const CommitMetadata& metadata = {});
  Status CommitStaged();
  // CommitStaged() as statements, for the caller to send at the end of a
  // pipeline; Committed() once they succeeded.
  std::vector<pg::PgStatement> CommitStatements() const;
  void Committed() { txn_->Committed(); }
  bool staged() const { return staged_; }

  // One table's reservations (ReserveRows) since the scope began.
  struct TableTally {
    int64_t first_row_id = 0;  // the allocator as read
    int64_t next_row_id = 0;
    int64_t files = 0;
    int64_t bytes = 0;
  };

  // Where the scope's head and in-memory allocators stand, to go back to
  // after rolling back to a savepoint taken there: Restore() also forgets
  // recorded changes.
  struct Position {
    CatalogHead head;
    bool staged = false;
    int64_t next_file_id = 0;
    bool file_ids_taken = false;
    std::map<int64_t, TableTally> tallies;
  };
  Position position() const { return {head_, staged_, next_file_id_, file_ids_taken_, tallies_}; }
  void Restore(const Position& at);

 private:
  CommitScope(pg::PgConnection* conn, pg::PgTransaction txn) : conn_(conn), txn_(std::move(txn)) {}
  explicit CommitScope(pg::PgConnection* conn) : conn_(conn) {}
  // Advances the catalog row to the scope's head and writes the in-memory
  // allocators back; empty when there is nothing to write.
  std::vector<pg::PgStatement> Flushes() const;
  // COMMIT after `statements` (in one round trip), or alone.
  Status CommitWith(const std::vector<pg::PgStatement>& statements) {
    return statements.empty() ? txn_->Commit() : txn_->Commit(statements);
  }

  // What a deferred scope sends first.
  struct DeferredBegin {
    std::string catalog_name;
    int64_t lock_timeout_ms = 0;
    CommitLockObserver observer;
  };

  pg::PgConnection* conn_;
  std::optional<pg::PgTransaction> txn_;   // absent until a deferred scope began
  std::optional<DeferredBegin> deferred_;  // not sent yet
  bool assumed_ = false;                   // AssumeHead: the read head is not taken
  CatalogHead assumed_head_;
  int64_t assumed_next_file_id_ = 0;
  CatalogHead head_;
  bool staged_ = false;          // a snapshot was staged since Begin
  int64_t next_file_id_ = 0;     // read with the head
  bool file_ids_taken_ = false;  // next_file_id_ moved since then
  std::map<int64_t, TableTally> tallies_;
  std::vector<std::pair<ChangeKind, int64_t>> changes_;
};

// Takes the transaction-scoped advisory lock `key` inside the open
// transaction on `conn` (whose lock_timeout the caller has set), reporting
// the wait to `observer` when it ends granted or timed out (kCommitQueueTimeout).
Status AcquireCommitLock(pg::PgConnection& conn, int64_t key, const CommitLockObserver& observer);

// Reads a catalog's head outside any lock (reads and time travel).
Result<CatalogHead> ReadCatalogHead(pg::PgConnection& conn, std::string_view catalog_name);

}  // namespace hoglake::catalog
