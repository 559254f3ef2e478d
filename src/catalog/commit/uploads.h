// Upload claims (contract §2.11): server-generated object paths reserved for
// an external writer before it uploads, so cleanup never deletes an object a
// pending operation is about to publish, and a path can be published only by
// the operation that claimed it.
//
// A claim is keyed by a client-chosen upload id, owned by an operation id
// (the `owner`, which is the commit's idempotency_key), and leased for 24 h.
// States: active -> registered (a commit published it) or active ->
// abandoned (owner abandoned it, or the sweep fenced an expired lease).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "pg/pg_connection.h"

namespace hoglake::catalog {

// Lease of an active claim, renewed by POST …/uploads/renew.
inline constexpr int64_t kUploadLeaseSeconds = 24 * 3600;
// Most paths one abandon request may name.
inline constexpr size_t kMaxAbandonPaths = 10000;
// Bounds and default of POST …/uploads/schedule-expired `limit`.
inline constexpr int64_t kScheduleExpiredDefaultLimit = 1000;
inline constexpr int64_t kScheduleExpiredMaxLimit = 10000;

// The definition of a claim, as PUT …/uploads/{upload} sends it.
struct UploadClaimRequest {
  std::string owner;                       // uuid text (any case)
  std::string prefix;                      // under the catalog data_path; a trailing '/' is ignored
  std::string file_kind;                   // "data" | "delete"
  std::optional<std::string> file_format;  // data only: "parquet" | "clickhouse-mergetree-packed"
};

struct UploadClaim {
  std::string upload_id;  // canonical uuid text
  std::string owner;      // canonical uuid text
  std::string prefix;     // as normalized (no trailing '/')
  std::string path;       // <prefix>/trino-upload/<upload_id>.<parquet|packed|puffin>
  std::string file_kind;
  std::optional<std::string> file_format;
  std::string state;  // active | registered | abandoned
  int64_t expires_at_micros = 0;
};

// One path a commit publishes, with the kind and format it is published as.
struct PublishedPath {
  std::string path;
  std::string file_kind;    // "data" | "delete"
  std::string file_format;  // "parquet" for parquet data files
};

// The removal-queue guard, run inside a publishing transaction after the
// claims: a path with an undrained hog_file_removal row (claimed-but-
// unsettled ones included) is about to be deleted, so publishing it would
// leave a live file without its object → kCommitConflict naming the path.
Status RefuseQueuedPaths(pg::PgConnection& conn, int64_t catalog_id,
                         const std::vector<PublishedPath>& paths);

// The commit-time rule, run inside the commit's transaction after structural
// validation: locks the claim rows naming `paths` FOR UPDATE (upload_id
// order); every claim must be active, owned by `owner` (the idempotency_key;
// an unkeyed commit owns none) and of the same kind and format, else
// kCommitConflict ("upload is fenced, already registered, or belongs to
// another operation"). The claims are then marked registered. Paths with no
// claim row pass unchecked unless `require_claims` (POST …/commit/uploads),
// when they are kValidation.
Status RegisterUploadClaims(pg::PgConnection& conn, int64_t catalog_id,
                            const std::optional<std::string>& owner,
                            const std::vector<PublishedPath>& paths, bool require_claims);

// RegisterUploadClaims then RefuseQueuedPaths, with the same errors in the
// same order, reading the claims (locked) and the removal queue in one round
// trip (plus one to mark claims registered, when there are any).
Status RegisterAndGuardPaths(pg::PgConnection& conn, int64_t catalog_id,
                             const std::optional<std::string>& owner,
                             const std::vector<PublishedPath>& paths, bool require_claims);

// RegisterAndGuardPaths in two halves, for a caller that sends its reads and
// its writes in pipelines: statement() reads the claims (locking them) and
// the removal queue; Check() applies the rules to its result, in the same
// order with the same errors, and returns the statement that marks the
// claims registered (none when no claim was named).
class PathGuard {
 public:
  PathGuard(int64_t catalog_id, const std::optional<std::string>& owner,
            std::vector<PublishedPath> paths, bool require_claims);

  bool empty() const { return paths_.empty(); }  // nothing to read or check
  pg::PgStatement statement() const;
  Result<std::optional<pg::PgStatement>> Check(const pg::PgResult& read) const;

 private:
  std::string catalog_;
  std::optional<std::string> owner_;
  std::vector<PublishedPath> paths_;
  bool require_claims_;
};

}  // namespace hoglake::catalog
