// CatalogService::Commit: footer-shipping appends (contract §4.2). The order
// of checks decides which error a client sees, and follows the contract:
// endpoint requirements, catalog, data paths (unkeyed), lock, receipt
// (keyed), group merge, request shape, table resolution, read_snapshot
// window, file validation, upload claims (uploads.h), row-id room, then the
// writes — one snapshot per request. Everything from the lock on runs in a
// group-commit batch (commit_batcher.h, commit_batch.h): concurrent commits
// to one catalog share one transaction and two round trips per segment (all
// their reads, then all their writes), each acknowledged after its COMMIT.
#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <span>

#include "catalog/catalog_service.h"
#include "catalog/commit/commit_batch.h"
#include "catalog/commit/commit_fingerprint.h"
#include "catalog/commit/data_file_writes.h"
#include "catalog/commit/file_registration.h"
#include "catalog/commit/uploads.h"
#include "catalog/commit/write_target.h"
#include "catalog/ddl/table_store.h"
#include "common/encoding.h"

namespace hoglake::catalog {
namespace {

// A table a commit appends to: the write target and its group.
struct ResolvedTable : WriteTarget {
  TableAppend* group = nullptr;
};

std::string Qualified(const TableAppend& g) { return g.namespace_name + "." + g.table; }

// Merges groups naming the same table (files concatenated in order).
Result<std::vector<TableAppend>> MergeGroups(std::vector<TableAppend> groups) {
  std::vector<TableAppend> merged;
  std::map<std::pair<std::string, std::string>, size_t> index;
  for (TableAppend& g : groups) {
    auto key = std::make_pair(g.namespace_name, g.table);
    auto it = index.find(key);
    if (it == index.end()) {
      index[key] = merged.size();
      merged.push_back(std::move(g));
      continue;
    }
    TableAppend& into = merged[it->second];
    if (g.expected_table_uuid) {
      if (into.expected_table_uuid && *into.expected_table_uuid != *g.expected_table_uuid) {
        return Validation("appends to ", Qualified(g),
                          " name different expected_table_uuid values");
      }
      into.expected_table_uuid = g.expected_table_uuid;
    }
    for (auto& f : g.files) into.files.push_back(std::move(f));
  }
  return merged;
}

pg::PgStatement ResolveStatement(const std::string& catalog_id, const TableAppend& g,
                                 const std::optional<int64_t>& read_snapshot) {
  return WriteTargetStatement(catalog_id, g.namespace_name, g.table, read_snapshot);
}

// The table `g` appends to from its resolution rows (write_target.h); a
// name never live is an unknown table.
Result<ResolvedTable> Resolve(pg::PgConnection& conn, const std::string& catalog, TableAppend& g,
                              const pg::PgResult& r, bool* ddl_since_read) {
  HOGLAKE_ASSIGN_OR_RETURN(
      std::optional<WriteTarget> target,
      ReadWriteTarget(conn, catalog, g.namespace_name, g.table, g.expected_table_uuid, r));
  if (!target) return Validation("unknown table ", Qualified(g));
  ResolvedTable out;
  static_cast<WriteTarget&>(out) = std::move(*target);
  out.group = &g;
  *ddl_since_read = out.ddl_since_read;
  return out;
}

Status ValidateFiles(ResolvedTable& t) {
  TableAppend& g = *t.group;
  if (g.files.empty()) return Validation("append to ", Qualified(g), " has no files");
  return ValidateRegistrations(g.files, t, StrCat("append to ", Qualified(g)));
}

// The checks of a commit request that need no reads, in contract order
// after the receipt: data paths (keyed requests; unkeyed ones were checked
// before the lock), group merge, request shape.
Status CheckRequest(CommitRequest& request, const std::function<Status()>& check_paths) {
  if (request.idempotency_key) HOGLAKE_RETURN_IF_ERROR(check_paths());
  HOGLAKE_ASSIGN_OR_RETURN(request.appends, MergeGroups(std::move(request.appends)));
  if (request.appends.empty() && request.deletes.empty()) {
    return Validation("commit has no appends or deletes");
  }
  if (request.read_snapshot && *request.read_snapshot < 0) {
    return Validation("read_snapshot ", *request.read_snapshot, " is negative");
  }
  if (!request.deletes.empty()) {
    if (!request.read_snapshot) return Validation("a commit with deletes requires read_snapshot");
    return NotImplemented("deletion vectors are not yet implemented by this server");
  }
  return Status::Ok();
}

// One commit request in a group-commit batch. Construction runs the checks
// that need no reads (on the request's own thread, before the lock); the
// batch (commit_batch.h) then reads, evaluates and writes it.
class PendingCommit final : public BatchMember {
 public:
  PendingCommit(CommitRequest& request, CommitEndpoint endpoint, int64_t catalog_id,
                const std::function<Status()>& check_paths)
      : request_(request), endpoint_(endpoint), catalog_id_(std::to_string(catalog_id)) {
    if (request_.idempotency_key) fingerprint_hex_ = HexEncode(CommitFingerprint(request_));
    for (const TableAppend& g : request_.appends) {
      for (const FileRegistration& f : g.files) tokens_.push_back("path " + f.path);
    }
    if (request_.idempotency_key) tokens_.push_back("key " + *request_.idempotency_key);
    request_ok_ = CheckRequest(request_, check_paths);
    if (!request_ok_.ok()) return;
    // Upload claims (§4.2 step 12): claimed paths must belong to this
    // operation.
    std::vector<PublishedPath> published;
    for (const TableAppend& g : request_.appends) {
      for (const FileRegistration& f : g.files) {
        published.push_back({f.path, "data", f.file_format.value_or("parquet")});
      }
    }
    guard_.emplace(catalog_id, request_.idempotency_key, std::move(published),
                   endpoint_ == CommitEndpoint::kUploads);
  }

  std::vector<std::string> Conflicts() const override { return tokens_; }

  std::vector<pg::PgStatement> Reads() const override {
    std::vector<pg::PgStatement> reads;
    if (request_.idempotency_key) {
      reads.push_back(
          {"SELECT encode(fingerprint, 'hex'), snapshot_id, schema_version FROM "
           "hog_commit_receipt WHERE catalog_id = $1 AND idempotency_key = $2",
           {catalog_id_, *request_.idempotency_key}});
    }
    if (request_ok_.ok()) {
      for (const TableAppend& g : request_.appends) {
        reads.push_back(ResolveStatement(catalog_id_, g, request_.read_snapshot));
      }
      if (!guard_->empty()) reads.push_back(guard_->statement());
    }
    return reads;
  }

  void Evaluate(CommitScope& scope, std::span<const pg::PgResult> reads,
                BatchLedger& ledger) override {
    Status decided = Decide(scope, reads, ledger);
    if (!decided.ok()) result = decided.error();
  }

  Result<std::vector<pg::PgStatement>> Writes(CommitScope& scope) override {
    const int64_t snapshot = scope.snapshot_id();
    std::vector<FileBatch> batches;
    for (const ResolvedTable& t : tables_) {
      batches.push_back(
          {t.table_id, Qualified(*t.group), t.spec_id, &t.group->files, t.next_row_id});
      scope.AddChange(ChangeKind::kTableInsertedInto, t.table_id);
    }
    // File and row ids come from the scope's allocators (the runner restores
    // them, with the changes, when this member is refused).
    Result<DataFileInsert> insert = DataFileInsert::Plan(scope, batches);
    if (!insert.ok()) return insert.error();
    std::vector<pg::PgStatement> writes;
    if (!insert->empty()) writes.push_back(insert->statement());
    if (mark_) writes.push_back(*mark_);
    if (request_.idempotency_key) {
      writes.push_back(
          {"INSERT INTO hog_commit_receipt (catalog_id, idempotency_key, fingerprint, "
           "snapshot_id, schema_version) VALUES ($1, $2, decode($3, 'hex'), $4, $5)",
           {catalog_id_, *request_.idempotency_key, fingerprint_hex_, std::to_string(snapshot),
            std::to_string(scope.head().schema_version)}});
    }
    writes.push_back(
        scope.StageStatement(/*ddl=*/false, CommitMetadata{request_.author, request_.message}));
    staged_ = CommitResult{scope.head().head_snapshot_id, scope.head().schema_version};
    return writes;
  }

  Status Written(std::span<const pg::PgResult>) override {
    result = staged_;
    return Status::Ok();
  }

  // Only blind appends (no read snapshot, no key) to tables in the state; the
  // path guard's read is answered as empty, which the batch checks.
  std::optional<std::vector<pg::PgResult>> CachedReads(
      const CommitStateCache& state) const override {
    if (endpoint_ != CommitEndpoint::kPlain || request_.idempotency_key || request_.read_snapshot) {
      return std::nullopt;
    }
    std::vector<pg::PgResult> reads;
    if (!request_ok_.ok()) return reads;  // refused before reading
    for (const TableAppend& g : request_.appends) {
      auto known = state.resolutions.find({g.namespace_name, g.table});
      if (known == state.resolutions.end()) return std::nullopt;
      reads.push_back(known->second);
    }
    if (!guard_->empty()) reads.emplace_back();
    return reads;
  }

  std::vector<std::string> PublishedPaths() const override {
    std::vector<std::string> paths;
    if (!request_ok_.ok()) return paths;
    for (const TableAppend& g : request_.appends) {
      for (const FileRegistration& f : g.files) paths.push_back(f.path);
    }
    return paths;
  }

  void Reset() override {
    result.reset();
    tables_.clear();
    mark_.reset();
    staged_ = CommitResult{};
  }

  // Resolutions read without a read snapshot (their DDL column is false).
  void Remember(std::span<const pg::PgResult> reads, CommitStateCache& state) const override {
    if (request_.read_snapshot || !request_ok_.ok()) return;
    size_t next = request_.idempotency_key ? 1 : 0;
    if (reads.size() < next + request_.appends.size()) return;
    for (const TableAppend& g : request_.appends) {
      const pg::PgResult& r = reads[next++];
      if (r.rows() > 0) state.resolutions.insert_or_assign({g.namespace_name, g.table}, r);
    }
  }

 private:
  // The checks that need the reads, in the contract's order.
  Status Decide(CommitScope& scope, std::span<const pg::PgResult> reads, BatchLedger& ledger) {
    const int64_t head = scope.head().head_snapshot_id;
    size_t next = 0;
    if (request_.idempotency_key) {
      const pg::PgResult& receipt = reads[next++];
      if (receipt.rows() > 0) {
        if (receipt.GetText(0, 0) != fingerprint_hex_) {
          return Validation("idempotency_key ", *request_.idempotency_key,
                            " reused with a different request");
        }
        result = CommitResult{receipt.GetInt64(0, 1), receipt.GetInt64(0, 2)};
        return Status::Ok();
      }
    }
    HOGLAKE_RETURN_IF_ERROR(request_ok_);
    std::vector<std::string> ddl_since_read;
    for (TableAppend& g : request_.appends) {
      bool ddl = false;
      HOGLAKE_ASSIGN_OR_RETURN(ResolvedTable t,
                               Resolve(scope.conn(), catalog_id_, g, reads[next++], &ddl));
      if (ddl) ddl_since_read.push_back(Qualified(g));
      tables_.push_back(std::move(t));
    }
    if (request_.read_snapshot) {
      const int64_t read_at = *request_.read_snapshot;
      if (read_at > head) return Validation("read_snapshot ", read_at, " is beyond head ", head);
      if (read_at < scope.head().earliest_snapshot_id) {
        return BelowFloorError(scope.head(), StrCat("read_snapshot ", read_at));
      }
      if (!ddl_since_read.empty()) {
        std::vector<std::string>& names = ddl_since_read;
        std::sort(names.begin(), names.end());
        Error e =
            MakeError(ErrorCode::kDdlSinceReadSnapshot, "DDL on ", names[0],
                      names.size() > 1 ? " and others" : "", " since read_snapshot ", read_at);
        e.detail.tables = names;
        e.detail.read_snapshot = read_at;
        e.detail.re_prepare = true;
        return e;
      }
    }
    for (ResolvedTable& t : tables_) HOGLAKE_RETURN_IF_ERROR(ValidateFiles(t));
    if (!guard_->empty()) {
      HOGLAKE_ASSIGN_OR_RETURN(mark_, guard_->Check(reads[next++]));
    }
    // Room for the row ids, after the rows of the batch's earlier members.
    std::map<int64_t, int64_t> after;
    for (const ResolvedTable& t : tables_) {
      auto known = ledger.next_row_id.find(t.table_id);
      int64_t next_row = known != ledger.next_row_id.end() ? known->second : t.next_row_id;
      for (const FileRegistration& f : t.group->files) {
        if (next_row > INT64_MAX - f.record_count) {
          return Validation("row ids of ", Qualified(*t.group), " would overflow");
        }
        next_row += f.record_count;
      }
      after[t.table_id] = next_row;
    }
    for (const auto& [table, next_row] : after) ledger.next_row_id[table] = next_row;
    return Status::Ok();
  }

  CommitRequest& request_;
  const CommitEndpoint endpoint_;
  const std::string catalog_id_;
  std::string fingerprint_hex_;
  std::vector<std::string> tokens_;
  Status request_ok_;
  std::optional<PathGuard> guard_;
  std::vector<ResolvedTable> tables_;
  std::optional<pg::PgStatement> mark_;
  CommitResult staged_;
};

}  // namespace

namespace {

// The state a committed batch left: its scope's head and allocators, with
// `resolutions` kept for the tables whose row-id allocator it knows.
CommitStateCache StateAfter(const CommitScope& scope, CommitStateCache known) {
  const CommitScope::Position at = scope.position();
  CommitStateCache state;
  state.head = at.head;
  state.next_file_id = at.next_file_id;
  state.next_row_id = std::move(known.next_row_id);
  for (const auto& [table, tally] : at.tallies) state.next_row_id[table] = tally.next_row_id;
  for (auto& [name, rows] : known.resolutions) {
    if (state.next_row_id.contains(rows.GetInt64(0, 0))) {
      state.resolutions.emplace(name, std::move(rows));
    }
  }
  return state;
}

// Batches a catalog skips the cached path for after a cached attempt fell
// back (another writer is probably committing to it too).
constexpr int kCachedPathPauseBatches = 16;

}  // namespace

std::optional<CommitStateCache> CatalogService::CommitState(int64_t catalog_id) {
  if (!options_.commit_state_cache) return std::nullopt;
  std::lock_guard<std::mutex> guard(commit_states_mutex_);
  CommitStateSlot& slot = commit_states_[catalog_id];
  if (slot.pause > 0) {
    --slot.pause;
    return std::nullopt;
  }
  return slot.state;
}

void CatalogService::KeepCommitState(int64_t catalog_id, std::optional<CommitStateCache> state,
                                     int pause) {
  if (!options_.commit_state_cache) return;
  std::lock_guard<std::mutex> guard(commit_states_mutex_);
  CommitStateSlot& slot = commit_states_[catalog_id];
  slot.state = std::move(state);
  if (pause > 0) slot.pause = pause;
}

Status CatalogService::RunBatch(int64_t catalog_id, const std::string& catalog,
                                pg::PgConnection& conn, std::span<BatchMember* const> members) {
  const auto observe = [&](std::string_view path) {
    if (options_.commit_path_observer) options_.commit_path_observer(path);
  };
  bool fell_back = false;
  std::optional<CommitStateCache> state = CommitState(catalog_id);
  if (state) {
    CommitScope scope = CommitScope::Deferred(
        conn, catalog_id, catalog, options_.commit_lock_timeout_ms, options_.commit_lock_observer);
    Result<CachedBatch> cached = RunCachedCommitBatch(scope, members, *state);
    if (!cached.ok()) {
      KeepCommitState(catalog_id, std::nullopt);
      observe("cached");
      return cached.status();
    }
    if (*cached == CachedBatch::kCommitted) {
      KeepCommitState(catalog_id, StateAfter(scope, std::move(*state)));
      observe("cached");
      return Status::Ok();
    }
    // Nothing committed; the scope rolls back as it goes.
    for (BatchMember* m : members) m->Reset();
    if (*cached == CachedBatch::kAbandoned) {
      KeepCommitState(catalog_id, std::nullopt, kCachedPathPauseBatches);
      state.reset();
      fell_back = true;
    }
  }
  CommitScope scope = CommitScope::Deferred(
      conn, catalog_id, catalog, options_.commit_lock_timeout_ms, options_.commit_lock_observer);
  CommitStateCache learned;
  // Commits what the members wrote; when none did, the transaction is
  // rolled back as the scope goes.
  const Status ran = RunCommitBatch(scope, members, &learned);
  if (!ran.ok()) {
    KeepCommitState(catalog_id, std::nullopt);
  } else if (scope.staged()) {
    // Tables of the previous state this batch did not touch keep their
    // entries when the batch began where that state left the catalog.
    if (state && state->head.head_snapshot_id == learned.head.head_snapshot_id &&
        state->head.schema_version == learned.head.schema_version &&
        state->next_file_id == learned.next_file_id) {
      learned.next_row_id = std::move(state->next_row_id);
      learned.resolutions.merge(state->resolutions);  // the batch's own reads win
    }
    KeepCommitState(catalog_id, StateAfter(scope, std::move(learned)));
  }
  observe(fell_back ? "fallback" : "read");
  return ran;
}

Result<CommitResult> CatalogService::Commit(std::string_view catalog, CommitRequest request,
                                            CommitEndpoint endpoint) {
  if (endpoint == CommitEndpoint::kPrepared && !request.idempotency_key) {
    return Validation("/commit/prepared requires an idempotency_key");
  }
  if (endpoint == CommitEndpoint::kUploads &&
      (!request.idempotency_key || !request.read_snapshot)) {
    return Validation("/commit/uploads requires an idempotency_key and a read_snapshot");
  }
  if (endpoint == CommitEndpoint::kUploads) {
    // Every group guarded: a publication of claimed uploads must name the
    // incarnation it was written for.
    for (const TableAppend& g : request.appends) {
      if (!g.expected_table_uuid) {
        return Validation("/commit/uploads requires expected_table_uuid on every table group; ",
                          g.namespace_name, ".", g.table, " has none");
      }
    }
    for (const TableDeleteGroup& g : request.deletes) {
      if (!g.expected_table_uuid) {
        return Validation("/commit/uploads requires expected_table_uuid on every table group; ",
                          g.namespace_name, ".", g.table, " has none");
      }
    }
  }
  HOGLAKE_ASSIGN_OR_RETURN(const CatalogIdentity info, IdentifyCatalog(catalog));
  std::string data_path = info.data_path;
  if (!data_path.ends_with('/')) data_path += '/';
  const std::function<Status()> check_paths = [&]() -> Status {
    std::vector<std::string_view> paths;
    for (const auto& g : request.appends) {
      for (const auto& f : g.files) paths.push_back(f.path);
    }
    return CheckDataPaths(paths, data_path, "commit");
  };
  if (!request.idempotency_key) HOGLAKE_RETURN_IF_ERROR(check_paths());

  // Group commit: the lock and everything after it run in a batch led by
  // whichever request of this catalog got there first (commit_batcher.h).
  PendingCommit pending(request, endpoint, info.catalog_id, check_paths);
  CommitBatcher::Request queued;
  queued.member = &pending;
  for (const TableAppend& g : request.appends) {
    queued.weight += static_cast<int64_t>(g.files.size());
  }
  const auto runner = [&](const CommitBatcher::Drain& drain) {
    const auto fail_all = [&](const Error& error) {
      for (CommitBatcher::Request* r : drain()) r->result = error;
    };
    Result<pg::PgPool::Lease> conn = pool_->Acquire();
    if (!conn.ok()) return fail_all(conn.error());
    // The batch is drained before the lock is asked for: BEGIN, the lock
    // and the head read travel with the first segment's reads.
    const std::vector<CommitBatcher::Request*> batch = drain();
    if (options_.commit_batch_observer) options_.commit_batch_observer(batch.size());
    std::vector<BatchMember*> members;
    for (CommitBatcher::Request* r : batch) members.push_back(r->member);
    const Status ran = RunBatch(info.catalog_id, std::string(catalog), **conn, members);
    for (CommitBatcher::Request* r : batch) {
      // Nothing of the batch committed (or it is unknown whether it did):
      // every writing member fails; keyed ones find their receipt if they
      // retry.
      if (!ran.ok() && (!r->member->result || r->member->result->ok())) {
        r->result = ran.error();
      } else if (r->member->result) {
        r->result = std::move(*r->member->result);
      }  // else the batcher answers it as a batch that ended without a result
    }
  };
  return commit_batcher_->Submit(info.catalog_id, queued, runner);
}

Result<CommitReceipt> CatalogService::GetReceipt(std::string_view catalog,
                                                 std::string_view operation) {
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgPool::Lease conn, pool_->Acquire());
  HOGLAKE_ASSIGN_OR_RETURN(CatalogHead head, ReadCatalogHead(*conn, catalog));
  HOGLAKE_ASSIGN_OR_RETURN(
      pg::PgResult r,
      conn->ExecPrepared("SELECT snapshot_id, schema_version FROM hog_commit_receipt "
                         "WHERE catalog_id = $1 AND idempotency_key = $2",
                         {std::to_string(head.catalog_id), std::string(operation)}));
  if (r.rows() == 0) return NotFound("no receipt for operation ", operation);
  return CommitReceipt{std::string(operation), r.GetInt64(0, 0), r.GetInt64(0, 1)};
}

}  // namespace hoglake::catalog
