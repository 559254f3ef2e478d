#include "catalog/commit/commit_batch.h"

#include <functional>
#include <optional>
#include <set>

#include "pg/statement_fusion.h"

namespace hoglake::catalog {
namespace {

constexpr const char* kSavepoint = "SAVEPOINT hog_commit";
constexpr const char* kReleaseSavepoint = "RELEASE SAVEPOINT hog_commit";
constexpr const char* kRollbackToSavepoint = "ROLLBACK TO SAVEPOINT hog_commit";

using Build = std::function<Result<std::vector<pg::PgStatement>>(BatchMember&)>;
using Take = std::function<Status(BatchMember&, std::span<const pg::PgResult>)>;
// Statements sent after the members' (their results unused), built once
// the members' are.
using Tail = std::function<std::vector<pg::PgStatement>()>;

// The member's statements at the scope's position; on a refusal the scope
// goes back, the member keeps its error and nothing is returned.
std::optional<std::vector<pg::PgStatement>> BuildMember(CommitScope& scope, BatchMember& m,
                                                        const Build& build) {
  const CommitScope::Position at = scope.position();
  Result<std::vector<pg::PgStatement>> built = build(m);
  if (built.ok()) return std::move(*built);
  scope.Restore(at);
  m.result = built.error();
  return std::nullopt;
}

// Sends members' statements in one pipeline, each member's after a savepoint
// of its own when `isolate`, and hands each member its results. A statement
// failing inside member k's statements: the members before k take their
// results, k is rolled back to its savepoint (the scope's head with it) and
// answered with the error, and the members after k are built and sent again.
// `tail`, when given, follows the members' statements in each pipeline that
// has any; `*tail_ran` tells whether it ran (in a pipeline that succeeded).
// With `fuse` (and more than one member) the members' statements are first
// tried fused (pg/statement_fusion.h) after one savepoint for them all; when a
// fused statement fails, that savepoint is rolled back to and the members
// go one savepoint each as above, which finds the one to refuse.
class IsolatedRunner {
 public:
  IsolatedRunner(CommitScope& scope, bool isolate) : scope_(scope), isolate_(isolate) {}

  Status Run(std::vector<BatchMember*> pending, const Build& build, const Take& take,
             const Tail& tail = nullptr, bool* tail_ran = nullptr, bool fuse = false);

 private:
  // The fused attempt: true when it ran and every member took its (empty)
  // results; false, with the scope and the transaction back where they
  // were, when nothing fused or a fused statement failed.
  Result<bool> RunFused(const std::vector<BatchMember*>& pending, const Build& build,
                        const Take& take, const Tail& tail, bool* tail_ran);

  struct Part {
    BatchMember* member;
    size_t begin, end;  // its statements
    CommitScope::Position at;
  };

  CommitScope& scope_;
  const bool isolate_;
  bool savepoint_exists_ = false;  // RELEASE it before taking the next
};

Result<bool> IsolatedRunner::RunFused(const std::vector<BatchMember*>& pending, const Build& build,
                                      const Take& take, const Tail& tail, bool* tail_ran) {
  const CommitScope::Position start = scope_.position();
  std::vector<BatchMember*> writing, refused;
  std::vector<std::vector<pg::PgStatement>> per_member;
  for (BatchMember* m : pending) {
    std::optional<std::vector<pg::PgStatement>> built = BuildMember(scope_, *m, build);
    if (!built) {
      refused.push_back(m);
      continue;
    }
    writing.push_back(m);
    per_member.push_back(std::move(*built));
  }
  auto give_up = [&] {
    scope_.Restore(start);
    for (BatchMember* m : refused) m->result.reset();  // refused again when rebuilt
    return false;
  };
  pg::FusedStatements fused = pg::FuseStatements(std::move(per_member));
  if (!fused.fused) return give_up();
  std::vector<pg::PgStatement> statements;
  if (savepoint_exists_) statements.push_back({kReleaseSavepoint, {}});
  statements.push_back({kSavepoint, {}});
  const size_t begin = statements.size();
  for (pg::PgStatement& s : fused.statements) statements.push_back(std::move(s));
  const size_t end = statements.size();
  const bool with_tail = static_cast<bool>(tail);
  if (with_tail) {
    for (pg::PgStatement& s : tail()) statements.push_back(std::move(s));
  }
  pg::PgConnection::PipelineOutcome outcome = scope_.RunPipeline(statements);
  if (outcome.error) {
    // Not a fused statement: a savepoint, the tail or the connection.
    if (outcome.failed_index < begin || outcome.failed_index >= end) return *outcome.error;
    savepoint_exists_ = true;
    HOGLAKE_RETURN_IF_ERROR(scope_.conn().ExecScript(kRollbackToSavepoint));
    return give_up();
  }
  savepoint_exists_ = true;
  for (BatchMember* m : writing) HOGLAKE_RETURN_IF_ERROR(take(*m, {}));
  if (with_tail) *tail_ran = true;
  return true;
}

Status IsolatedRunner::Run(std::vector<BatchMember*> pending, const Build& build, const Take& take,
                           const Tail& tail, bool* tail_ran, bool fuse) {
  if (fuse && isolate_ && pending.size() > 1) {
    HOGLAKE_ASSIGN_OR_RETURN(const bool ran, RunFused(pending, build, take, tail, tail_ran));
    if (ran) return Status::Ok();
  }
  while (!pending.empty()) {
    std::vector<Part> parts;
    std::vector<pg::PgStatement> statements;
    bool sends_savepoint = false;
    for (BatchMember* m : pending) {
      const CommitScope::Position at = scope_.position();
      std::optional<std::vector<pg::PgStatement>> built = BuildMember(scope_, *m, build);
      if (!built) continue;
      if (isolate_ && !built->empty()) {
        if (savepoint_exists_ || sends_savepoint) statements.push_back({kReleaseSavepoint, {}});
        statements.push_back({kSavepoint, {}});
        sends_savepoint = true;
      }
      const size_t begin = statements.size();
      for (pg::PgStatement& s : *built) statements.push_back(std::move(s));
      parts.push_back({m, begin, statements.size(), at});
    }
    const bool with_tail = tail && !parts.empty();
    if (with_tail) {
      for (pg::PgStatement& s : tail()) statements.push_back(std::move(s));
    }
    pg::PgConnection::PipelineOutcome outcome = scope_.RunPipeline(statements);
    const std::span<const pg::PgResult> results(outcome.results);
    size_t failed = parts.size();
    if (outcome.error) {
      for (size_t k = 0; k < parts.size(); ++k) {
        if (parts[k].begin <= outcome.failed_index && outcome.failed_index < parts[k].end) {
          failed = k;
          break;
        }
      }
      // Not one member's statement: a savepoint, or the connection.
      if (failed == parts.size()) return *outcome.error;
    }
    // The members' own savepoints ran up to the failing one (included).
    if (sends_savepoint) savepoint_exists_ = true;
    for (size_t k = 0; k < failed; ++k) {
      const Part& p = parts[k];
      HOGLAKE_RETURN_IF_ERROR(take(*p.member, results.subspan(p.begin, p.end - p.begin)));
    }
    if (failed == parts.size()) {
      if (with_tail) *tail_ran = true;
      return Status::Ok();
    }
    if (isolate_) {
      HOGLAKE_RETURN_IF_ERROR(scope_.conn().ExecScript(kRollbackToSavepoint));
    }
    scope_.Restore(parts[failed].at);
    parts[failed].member->result = *outcome.error;
    pending.clear();
    for (size_t k = failed + 1; k < parts.size(); ++k) pending.push_back(parts[k].member);
    // Alone, a failure aborted the transaction: nobody else may go on in it.
    if (!isolate_ && !pending.empty()) return *outcome.error;
  }
  return Status::Ok();
}

}  // namespace

Status RunCommitBatch(CommitScope& scope, std::span<BatchMember* const> members,
                      CommitStateCache* learned) {
  bool committed = false;
  const Tail commit = [&] { return scope.CommitStatements(); };
  IsolatedRunner runner(scope, members.size() > 1);
  BatchLedger ledger;
  const Build reads = [](BatchMember& m) -> Result<std::vector<pg::PgStatement>> {
    return m.Reads();
  };
  const Take evaluate = [&](BatchMember& m, std::span<const pg::PgResult> results) {
    m.Evaluate(scope, results, ledger);
    if (learned) m.Remember(results, *learned);
    return Status::Ok();
  };
  const Build writes = [&](BatchMember& m) { return m.Writes(scope); };
  const Take written = [](BatchMember& m, std::span<const pg::PgResult> results) {
    return m.Written(results);
  };
  size_t next = 0;
  while (next < members.size()) {
    // The segment: up to the first member sharing a token with an earlier
    // one of it.
    std::set<std::string> taken;
    size_t end = next;
    for (; end < members.size(); ++end) {
      const std::vector<std::string> tokens = members[end]->Conflicts();
      bool clash = false;
      for (const std::string& t : tokens) clash = clash || taken.contains(t);
      if (clash && end > next) break;
      taken.insert(tokens.begin(), tokens.end());
    }
    const std::vector<BatchMember*> segment(members.begin() + static_cast<std::ptrdiff_t>(next),
                                            members.begin() + static_cast<std::ptrdiff_t>(end));
    HOGLAKE_RETURN_IF_ERROR(runner.Run(segment, reads, evaluate));
    if (learned && next == 0) {
      // The head and file-id allocator the batch began on (read with BEGIN).
      learned->head = scope.head();
      learned->next_file_id = scope.position().next_file_id;
    }
    std::vector<BatchMember*> writing;
    for (BatchMember* m : segment) {
      if (!m->result) writing.push_back(m);
    }
    // The last segment's writes carry the COMMIT.
    const Tail& tail = end == members.size() ? commit : Tail();
    HOGLAKE_RETURN_IF_ERROR(runner.Run(writing, writes, written, tail, &committed, /*fuse=*/true));
    next = end;
  }
  if (committed) {
    scope.Committed();
    return Status::Ok();
  }
  // Written in an earlier segment only, or not at all (then nothing is
  // committed: the caller rolls back).
  if (scope.staged()) return scope.CommitStaged();
  return Status::Ok();
}

namespace {

// Fails (division by zero) when an upload claims one of the paths ($2), one
// is queued for removal and not yet drained, or one is already a live data
// file of a table not dropped: what a path-guard read (uploads.h) would have
// found (the batch then reads, and the guard names the refusal). Live files
// are looked up by hog_live_path (V18), as the guard does.
constexpr const char* kUnguardedPathsCheck =
    "SELECT 1 / (NOT EXISTS (SELECT 1 FROM hog_upload WHERE catalog_id = $1 "
    "AND path = ANY($2::text[])) AND NOT EXISTS (SELECT 1 FROM hog_file_removal "
    "WHERE catalog_id = $1 AND drained_at IS NULL AND path = ANY($2::text[])) AND NOT EXISTS "
    "(SELECT 1 FROM hog_live_path($1::bigint, $2::text[])))::int";

}  // namespace

Result<CachedBatch> RunCachedCommitBatch(CommitScope& scope, std::span<BatchMember* const> members,
                                         const CommitStateCache& state) {
  std::set<std::string> taken;
  std::vector<std::vector<pg::PgResult>> reads;
  std::vector<std::optional<std::string>> paths;
  for (BatchMember* m : members) {
    for (const std::string& token : m->Conflicts()) {
      // A second segment would read what the first wrote.
      if (!taken.insert(token).second) return CachedBatch::kNeedsReads;
    }
    std::optional<std::vector<pg::PgResult>> cached = m->CachedReads(state);
    if (!cached) return CachedBatch::kNeedsReads;
    reads.push_back(std::move(*cached));
    for (std::string& path : m->PublishedPaths()) paths.emplace_back(std::move(path));
  }
  scope.AssumeHead(state.head, state.next_file_id, state.next_row_id);
  BatchLedger ledger;
  ledger.next_row_id = state.next_row_id;
  for (size_t k = 0; k < members.size(); ++k) members[k]->Evaluate(scope, reads[k], ledger);
  const Build writes = [&](BatchMember& m) { return m.Writes(scope); };
  std::vector<BatchMember*> writing;
  std::vector<std::vector<pg::PgStatement>> per_member;
  for (BatchMember* m : members) {
    if (m->result) continue;  // refused (or answered) without writing
    std::optional<std::vector<pg::PgStatement>> built = BuildMember(scope, *m, writes);
    if (!built) continue;
    writing.push_back(m);
    per_member.push_back(std::move(*built));
  }
  if (writing.empty()) return CachedBatch::kNeedsReads;
  std::vector<pg::PgStatement> statements = {scope.AssumedHeadCheck()};
  if (!paths.empty()) {
    statements.push_back(
        {kUnguardedPathsCheck, {std::to_string(scope.catalog_id()), pg::PgTextArray(paths)}});
  }
  for (pg::PgStatement& s : pg::FuseStatements(std::move(per_member)).statements) {
    statements.push_back(std::move(s));
  }
  for (pg::PgStatement& s : scope.CommitStatements()) statements.push_back(std::move(s));
  const size_t commit_index = statements.size() - 1;
  const pg::PgConnection::PipelineOutcome outcome = scope.RunPipeline(statements);
  if (outcome.error) {
    // Before COMMIT: the transaction is aborted, nothing of it committed.
    if (outcome.failed_index < commit_index) return CachedBatch::kAbandoned;
    return *outcome.error;
  }
  for (BatchMember* m : writing) HOGLAKE_RETURN_IF_ERROR(m->Written({}));
  scope.Committed();
  return CachedBatch::kCommitted;
}

}  // namespace hoglake::catalog
