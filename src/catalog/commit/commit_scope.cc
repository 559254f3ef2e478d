#include "catalog/commit/commit_scope.h"

#include <chrono>

#include "pg/advisory_locks.h"

namespace hoglake::catalog {
namespace {

constexpr const char* kHeadColumns =
    "catalog_id, last_snapshot_id, schema_version, earliest_snapshot_id, "
    "(extract(epoch from earliest_snapshot_time) * 1000000)::bigint";

// Under the lock, the head and the file-id allocator (column 5).
const std::string& LockedHeadQuery() {
  static const std::string query =
      StrCat("SELECT ", kHeadColumns, ", next_file_id FROM hog_catalog WHERE catalog_id = $1");
  return query;
}
constexpr int kNextFileIdColumn = 5;

CatalogHead HeadFromRow(const pg::PgResult& r) {
  CatalogHead head;
  head.catalog_id = r.GetInt64(0, 0);
  head.head_snapshot_id = r.GetInt64(0, 1);
  head.schema_version = r.GetInt64(0, 2);
  head.earliest_snapshot_id = r.GetInt64(0, 3);
  head.earliest_snapshot_time_micros = r.GetOptionalInt64(0, 4);
  return head;
}

// Tells `observer` how long a commit-lock wait begun at `started` took, when
// it ended (`done`) granted or timed out (other failures are not waits).
// `granted`: when the lock was known granted, if not now.
void ReportLockWait(const Status& done, std::chrono::steady_clock::time_point started,
                    const CommitLockObserver& observer,
                    std::optional<std::chrono::steady_clock::time_point> granted = std::nullopt) {
  const bool timed_out = !done.ok() && done.error().code == ErrorCode::kCommitQueueTimeout;
  if (observer && (done.ok() || timed_out)) {
    const auto ended = granted.value_or(std::chrono::steady_clock::now());
    observer(std::chrono::duration<double>(ended - started).count(), timed_out);
  }
}

}  // namespace

Status AcquireCommitLock(pg::PgConnection& conn, int64_t key, const CommitLockObserver& observer) {
  const auto started = std::chrono::steady_clock::now();
  const Status locked =
      conn.ExecPrepared("SELECT pg_advisory_xact_lock($1)", {std::to_string(key)}).status();
  ReportLockWait(locked, started, observer);
  return locked;
}

Result<CatalogHead> ReadCatalogHead(pg::PgConnection& conn, std::string_view catalog_name) {
  HOGLAKE_ASSIGN_OR_RETURN(
      pg::PgResult r,
      conn.ExecPrepared(StrCat("SELECT ", kHeadColumns, " FROM hog_catalog WHERE name = $1"),
                        {std::string(catalog_name)}));
  if (r.rows() == 0) return NotFound("catalog '", catalog_name, "' not found");
  return HeadFromRow(r);
}

Result<CommitScope> CommitScope::Begin(pg::PgConnection& conn, std::string_view catalog_name,
                                       int64_t lock_timeout_ms,
                                       const CommitLockObserver& observer) {
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgResult id,
                           conn.ExecPrepared("SELECT catalog_id FROM hog_catalog WHERE name = $1",
                                             {std::string(catalog_name)}));
  if (id.rows() == 0) return NotFound("catalog '", catalog_name, "' not found");
  return BeginForId(conn, id.GetInt64(0, 0), catalog_name, lock_timeout_ms, observer);
}

namespace {

// After BEGIN: the wait bound (set left to right before the lock waits), the
// lock, and the head read under it.
std::vector<pg::PgStatement> LockAndHead(int64_t catalog_id, int64_t lock_timeout_ms) {
  return {{"SELECT set_config('lock_timeout', $1, true), pg_advisory_xact_lock($2)",
           {std::to_string(std::max<int64_t>(lock_timeout_ms, 0)),
            std::to_string(pg::AdvisoryLockKey(pg::LockClass::kCatalogCommit, catalog_id))}},
          {LockedHeadQuery(), {std::to_string(catalog_id)}}};
}

// The outcome of LockAndHead: the observer told, the timeout named.
Status LockOutcome(const Status& done, std::chrono::steady_clock::time_point started,
                   std::optional<std::chrono::steady_clock::time_point> granted,
                   std::string_view catalog_name, int64_t lock_timeout_ms,
                   const CommitLockObserver& observer) {
  ReportLockWait(done, started, observer, done.ok() ? granted : std::nullopt);
  if (!done.ok() && done.error().code == ErrorCode::kCommitQueueTimeout) {
    return MakeError(ErrorCode::kCommitQueueTimeout, "catalog '", catalog_name,
                     "' commit lock not acquired within ", lock_timeout_ms, " ms");
  }
  return done;
}

}  // namespace

Result<CommitScope> CommitScope::BeginForId(pg::PgConnection& conn, int64_t catalog_id,
                                            std::string_view catalog_name, int64_t lock_timeout_ms,
                                            const CommitLockObserver& observer) {
  // One round trip: BEGIN, the lock, the head.
  std::vector<pg::PgResult> results;
  const auto started = std::chrono::steady_clock::now();
  Result<pg::PgTransaction> txn =
      pg::PgTransaction::Begin(conn, LockAndHead(catalog_id, lock_timeout_ms), &results);
  HOGLAKE_RETURN_IF_ERROR(
      LockOutcome(txn.status(), started, std::nullopt, catalog_name, lock_timeout_ms, observer));
  const pg::PgResult& head = results[1];
  if (head.rows() == 0) return NotFound("catalog '", catalog_name, "' not found");
  CommitScope scope(&conn, std::move(*txn));
  scope.head_ = HeadFromRow(head);
  scope.next_file_id_ = head.GetInt64(0, kNextFileIdColumn);
  return scope;
}

CommitScope CommitScope::Deferred(pg::PgConnection& conn, int64_t catalog_id,
                                  std::string catalog_name, int64_t lock_timeout_ms,
                                  CommitLockObserver observer) {
  CommitScope scope(&conn);
  scope.head_.catalog_id = catalog_id;
  scope.deferred_ = DeferredBegin{std::move(catalog_name), lock_timeout_ms, std::move(observer)};
  return scope;
}

pg::PgConnection::PipelineOutcome CommitScope::RunPipeline(
    const std::vector<pg::PgStatement>& statements) {
  if (!deferred_) return conn_->RunPipeline(statements);
  const DeferredBegin begin = std::move(*deferred_);
  deferred_.reset();
  std::vector<pg::PgStatement> all = {{"BEGIN", {}}};
  for (pg::PgStatement& s : LockAndHead(head_.catalog_id, begin.lock_timeout_ms)) {
    all.push_back(std::move(s));
  }
  const size_t prefix = all.size();
  all.insert(all.end(), statements.begin(), statements.end());
  txn_.emplace(pg::PgTransaction::Begun(*conn_));  // rolled back unless committed
  const auto started = std::chrono::steady_clock::now();
  // The lock statement's result is flushed as soon as the lock is granted,
  // so the wait reported is the lock's, not the whole pipeline's.
  constexpr size_t kLockIndex = 1;
  pg::PgConnection::PipelineOutcome outcome = conn_->RunPipeline(all, kLockIndex);
  const bool in_prefix = outcome.error && outcome.failed_index < prefix;
  const Status locked = LockOutcome(in_prefix ? Status(*outcome.error) : Status::Ok(), started,
                                    outcome.flushed_result_at, begin.catalog_name,
                                    begin.lock_timeout_ms, begin.observer);
  // The head was read unless the pipeline failed before it ran — in the
  // prefix, or as a whole (failed_index past the last statement: the
  // connection broke and no statement's result is known).
  const bool head_read =
      !outcome.error || (outcome.failed_index >= prefix && outcome.failed_index < all.size());
  std::optional<Error> failed;
  if (!locked.ok()) {
    failed = locked.error();
  } else if (head_read && outcome.results[prefix - 1].rows() == 0) {
    failed = NotFound("catalog '", begin.catalog_name, "' not found");
  } else if (head_read && !assumed_) {
    head_ = HeadFromRow(outcome.results[prefix - 1]);
    next_file_id_ = outcome.results[prefix - 1].GetInt64(0, kNextFileIdColumn);
  }
  outcome.results.erase(outcome.results.begin(),
                        outcome.results.begin() + static_cast<std::ptrdiff_t>(prefix));
  if (failed) {
    outcome.error = failed;
    outcome.failed_index = statements.size();
  } else if (outcome.error) {
    outcome.failed_index =
        outcome.failed_index >= prefix ? outcome.failed_index - prefix : statements.size();
  }
  return outcome;
}

void CommitScope::AssumeHead(const CatalogHead& head, int64_t next_file_id,
                             const std::map<int64_t, int64_t>& next_row_ids) {
  head_ = head;
  next_file_id_ = next_file_id;
  assumed_head_ = head;
  assumed_next_file_id_ = next_file_id;
  assumed_ = true;
  for (const auto& [table, next_row] : next_row_ids) {
    tallies_.insert_or_assign(table, TableTally{next_row, next_row});
  }
}

pg::PgStatement CommitScope::AssumedHeadCheck() const {
  return {
      "SELECT 1 / (count(*) = 1)::int FROM hog_catalog WHERE catalog_id = $1 "
      "AND last_snapshot_id = $2 AND schema_version = $3 AND next_file_id = $4",
      {std::to_string(assumed_head_.catalog_id), std::to_string(assumed_head_.head_snapshot_id),
       std::to_string(assumed_head_.schema_version), std::to_string(assumed_next_file_id_)}};
}

Result<int64_t> CommitScope::AllocateIds(std::string_view allocator, int64_t count) {
  if (allocator != "next_namespace_id" && allocator != "next_table_id" &&
      allocator != "next_file_id" && allocator != "next_view_id") {
    return Internal("unknown id allocator ", allocator);
  }
  if (allocator == "next_file_id") {
    const int64_t first = next_file_id_;
    next_file_id_ += count;
    file_ids_taken_ = true;
    return first;
  }
  HOGLAKE_ASSIGN_OR_RETURN(
      pg::PgResult r,
      conn_->ExecPrepared(StrCat("UPDATE hog_catalog SET ", allocator, " = ", allocator,
                                 " + $2 WHERE catalog_id = $1 RETURNING ", allocator, " - $2"),
                          {std::to_string(head_.catalog_id), std::to_string(count)}));
  return r.GetInt64(0, 0);
}

int64_t CommitScope::ReserveRows(int64_t table_id, int64_t next_row_id, int64_t files, int64_t rows,
                                 int64_t bytes) {
  TableTally& tally =
      tallies_.try_emplace(table_id, TableTally{next_row_id, next_row_id}).first->second;
  const int64_t first = tally.next_row_id;
  tally.next_row_id += rows;
  tally.files += files;
  tally.bytes += bytes;
  return first;
}

void CommitScope::AddChange(ChangeKind kind, int64_t object_id) {
  for (const auto& [k, id] : changes_) {
    if (k == kind && id == object_id) return;  // one row per (object, kind)
  }
  changes_.emplace_back(kind, object_id);
}

Result<CommitResult> CommitScope::Finish(bool ddl, const CommitMetadata& metadata) {
  HOGLAKE_ASSIGN_OR_RETURN(CommitResult result, Stage(ddl, metadata));
  HOGLAKE_RETURN_IF_ERROR(CommitStaged());
  return result;
}

Result<CommitResult> CommitScope::Stage(bool ddl, const CommitMetadata& metadata) {
  const Position before = position();
  const pg::PgStatement statement = StageStatement(ddl, metadata);
  Result<pg::PgResult> done = conn_->ExecPrepared(statement.sql, statement.params);
  if (!done.ok()) {
    Restore(before);  // not staged after all
    return done.error();
  }
  return CommitResult{head_.head_snapshot_id, head_.schema_version};
}

pg::PgStatement CommitScope::StageStatement(bool ddl, const CommitMetadata& metadata) {
  const int64_t snapshot = snapshot_id();
  const int64_t schema_version = head_.schema_version + (ddl ? 1 : 0);
  std::vector<int64_t> change_snapshots(changes_.size(), snapshot), objects;
  std::vector<std::optional<std::string>> kinds;
  for (const auto& [kind, object] : changes_) {
    kinds.emplace_back(ChangeKindName(kind));
    objects.push_back(object);
  }
  changes_.clear();
  head_.head_snapshot_id = snapshot;
  head_.schema_version = schema_version;
  staged_ = true;
  // One statement, every parameter but the catalog an array with a row per
  // element: the staged snapshots of a batch's commits fuse into one.
  // clock_timestamp() is evaluated row by row in id order, so snapshot_time
  // stays monotone with id.
  pg::PgStatement statement{
      "WITH s AS (INSERT INTO hog_snapshot (catalog_id, snapshot_id, snapshot_time, "
      "schema_version, author, commit_message) SELECT $1, u.s, clock_timestamp(), u.v, u.a, u.m "
      "FROM unnest($2::bigint[], $3::bigint[], $4::text[], $5::text[]) AS u(s, v, a, m)) "
      "INSERT INTO hog_snapshot_change (catalog_id, snapshot_id, kind, object_id) "
      "SELECT $1, c.s, c.k, c.o FROM unnest($6::bigint[], $7::text[], $8::bigint[]) AS c(s, k, o)",
      {std::to_string(head_.catalog_id), pg::PgIntArray({snapshot}),
       pg::PgIntArray({schema_version}), pg::PgTextArray({metadata.author}),
       pg::PgTextArray({metadata.message}), pg::PgIntArray(change_snapshots),
       pg::PgTextArray(kinds), pg::PgIntArray(objects)}};
  statement.fusable = true;
  return statement;
}

std::vector<pg::PgStatement> CommitScope::Flushes() const {
  std::vector<pg::PgStatement> statements;
  const std::string catalog = std::to_string(head_.catalog_id);
  if (staged_ || file_ids_taken_) {
    statements.push_back(
        {"UPDATE hog_catalog SET last_snapshot_id = $2, schema_version = $3, next_file_id = $4 "
         "WHERE catalog_id = $1",
         {catalog, std::to_string(head_.head_snapshot_id), std::to_string(head_.schema_version),
          std::to_string(next_file_id_)}});
  }
  if (!tallies_.empty()) {
    std::vector<int64_t> tables, files, rows, bytes;
    for (const auto& [table, tally] : tallies_) {
      // An allocator AssumeHead set that nothing reserved from.
      if (tally.files == 0 && tally.next_row_id == tally.first_row_id && tally.bytes == 0) continue;
      tables.push_back(table);
      files.push_back(tally.files);
      rows.push_back(tally.next_row_id - tally.first_row_id);
      bytes.push_back(tally.bytes);
    }
    if (!tables.empty()) {
      statements.push_back(
          {"UPDATE hog_table_stats s SET file_count = s.file_count + u.f, "
           "record_count = s.record_count + u.r, file_size_bytes = s.file_size_bytes + u.b, "
           "next_row_id = s.next_row_id + u.r "
           "FROM unnest($2::bigint[], $3::bigint[], $4::bigint[], $5::bigint[]) AS u(t, f, r, b) "
           "WHERE s.catalog_id = $1 AND s.table_id = u.t",
           {catalog, pg::PgIntArray(tables), pg::PgIntArray(files), pg::PgIntArray(rows),
            pg::PgIntArray(bytes)}});
    }
  }
  return statements;
}

Status CommitScope::CommitStaged() { return CommitWith(Flushes()); }

std::vector<pg::PgStatement> CommitScope::CommitStatements() const {
  std::vector<pg::PgStatement> statements = Flushes();
  statements.push_back({"COMMIT", {}});
  return statements;
}

void CommitScope::Restore(const Position& at) {
  head_ = at.head;
  staged_ = at.staged;
  next_file_id_ = at.next_file_id;
  file_ids_taken_ = at.file_ids_taken;
  tallies_ = at.tallies;
  changes_.clear();
}

}  // namespace hoglake::catalog
