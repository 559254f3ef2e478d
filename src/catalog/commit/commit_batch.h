// RunCommitBatch: the mutations of one group-commit batch (commit_batcher.h)
// written in one PostgreSQL transaction with as few round trips as the
// mutations allow.
//
// Contract:
//  * A batch is cut into segments, in arrival order: a member whose
//    Conflicts() share a token with an earlier member of the segment (the
//    same idempotency key, the same path) starts a new segment, so it reads
//    what the earlier one wrote.
//  * RunCachedCommitBatch, below, writes a batch in one round trip when the
//    catalog's last batch left a state to write on; otherwise:
//  * Per segment, two round trips: every member's Reads() in one pipeline,
//    then, after each member's Evaluate() decided whether it writes, every
//    writing member's Writes() in another. Members evaluate and write in
//    arrival order; each Writes() builds on the scope's head as the earlier
//    members left it (snapshot ids stay dense).
//  * With more than one member, each member's statements run after a
//    savepoint of their own: a statement that fails rolls back only its
//    member (which is answered with that error, its staged snapshot undone),
//    and the members after it are built and sent again. Alone, a member's
//    failure aborts the transaction, which the caller then rolls back.
//  * The writes of several members are first sent fused: each statement
//    text marked fusable (the file insert, the staged snapshot) runs once
//    for all of them (pg/statement_fusion.h), after one savepoint. Only when one
//    of the members' statements in that pipeline fails (fused or not) are
//    the members written one savepoint each, as above, to find and refuse
//    the one that fails.
//  * Commits when any member wrote: the last segment's writes carry the
//    head update and the COMMIT in their pipeline. When no member wrote,
//    nothing is committed and the caller rolls the transaction back.
//  * Returns an error when the batch cannot go on (a savepoint, the commit
//    or the connection failed, or a member's Written() refused what it got):
//    the caller must then answer every member that wrote with it (nothing
//    of the batch is known to have committed).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "catalog/commit/commit_scope.h"
#include "catalog/commit/commit_state_cache.h"
#include "pg/pg_connection.h"

namespace hoglake::catalog {

// What the members of one batch learn from each other: each table's next
// row id after the rows of the members accepted so far (read values are
// from before the segment's writes).
struct BatchLedger {
  std::map<int64_t, int64_t> next_row_id;
};

class BatchMember {
 public:
  virtual ~BatchMember() = default;

  // Tokens no two members of one segment may share.
  virtual std::vector<std::string> Conflicts() const = 0;
  // The member's reads (none: it decides without reading).
  virtual std::vector<pg::PgStatement> Reads() const = 0;
  // Decides from the reads' results: sets `result` for a member that is
  // answered without writing (refused, or replayed from a receipt), or
  // leaves it unset to write.
  virtual void Evaluate(CommitScope& scope, std::span<const pg::PgResult> reads,
                        BatchLedger& ledger) = 0;
  // The member's writes at the scope's current head, staging its snapshot;
  // an error refuses the member.
  virtual Result<std::vector<pg::PgStatement>> Writes(CommitScope& scope) = 0;
  // Takes the writes' results (none when they ran fused with other
  // members') and sets `result`; an error breaks the batch.
  virtual Status Written(std::span<const pg::PgResult> writes) = 0;

  // The one-round-trip path (RunCachedCommitBatch). What Reads() would
  // return, answered from `state` (a path-guard read as finding nothing), or
  // nothing when the member must read (a table not in the state, a read
  // snapshot, an idempotency key, uploads to claim).
  virtual std::optional<std::vector<pg::PgResult>> CachedReads(const CommitStateCache&) const {
    return std::nullopt;
  }
  // The paths the member publishes: the batch checks that none is claimed
  // by an upload or queued for removal, which its path-guard read would
  // otherwise have found.
  virtual std::vector<std::string> PublishedPaths() const { return {}; }
  // Back to before Evaluate(), the cached attempt abandoned.
  virtual void Reset() { result.reset(); }
  // After a two-phase batch that committed: the table resolutions among its
  // reads (as Evaluate() got them), kept in `state`.
  virtual void Remember(std::span<const pg::PgResult>, CommitStateCache&) const {}

  std::optional<Result<CommitResult>> result;
};

// `learned`, when given, receives the head and file-id allocator the batch
// began on and what the members' reads taught (BatchMember::Remember).
Status RunCommitBatch(CommitScope& scope, std::span<BatchMember* const> members,
                      CommitStateCache* learned = nullptr);

// The batch in one round trip, on `state` (commit_state_cache.h), for a
// deferred `scope` not yet begun: every member's reads are answered from the
// state, every writing member's writes built on the state's head and fused,
// and one pipeline sends BEGIN, the lock, the head read, the check that the
// catalog row still holds the state's head (CommitScope::AssumedHeadCheck),
// the check that no published path is claimed or queued for removal, the
// writes, the head update and COMMIT.
//  * kCommitted: the batch is answered (written members committed, refused
//    ones refused exactly as after reading).
//  * kNeedsReads: nothing was sent — a member needs to read, two members'
//    tokens clash, or no member writes.
//  * kAbandoned: something in the pipeline before COMMIT failed (a check: the
//    state is stale; or a write) and nothing was committed.
//  After either of those the scope must be dropped (its transaction rolls
//  back) and the members Reset() and run through RunCommitBatch on a new
//  scope.
//  * An error: the COMMIT or the connection failed; as for RunCommitBatch,
//    nothing of the batch is known to have committed.
enum class CachedBatch { kCommitted, kNeedsReads, kAbandoned };
Result<CachedBatch> RunCachedCommitBatch(CommitScope& scope, std::span<BatchMember* const> members,
                                         const CommitStateCache& state);

}  // namespace hoglake::catalog
