// CatalogService::Cleanup (server digest §5.2): the removal-queue drain.
#include <unistd.h>

#include <cstdlib>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "catalog/catalog_service.h"
#include "catalog/maintenance/maintenance_ledger.h"
#include "common/clock.h"
#include "common/json_writer.h"
#include "common/uuid.h"
#include "storage/object_store.h"

namespace hoglake::catalog {
namespace {

// This process's worker id for claims: "<host>/<process uuid>".
const std::string& WorkerId() {
  static const std::string kId = [] {
    char host[256] = {0};
    gethostname(host, sizeof(host) - 1);
    return std::string(host) + "/" + NewUuid();
  }();
  return kId;
}

}  // namespace

std::string CleanupResult::ToJson() const {
  JsonWriter w;
  w.BeginObject();
  w.Field("removed", removed);
  w.Field("missing", missing);
  w.Field("still_referenced", still_referenced);
  if (removed > 0) w.Field("objects_removed", removed);
  if (failed > 0) w.Field("delete_failures", failed);
  w.EndObject();
  return w.Take();
}

Result<CleanupResult> CatalogService::Cleanup(std::string_view catalog, int64_t batch,
                                              bool manual) {
  if (batch <= 0) return Validation("batch must be positive, got ", batch);
  const int64_t started = NowMicros();
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgPool::Lease conn, pool_->Acquire());
  HOGLAKE_ASSIGN_OR_RETURN(CatalogInfo info, GetCatalogOn(*conn, catalog));
  const std::string catalog_id = std::to_string(info.catalog_id);
  CleanupResult result;

  // Every statement below names the catalog and an undrained row: the queue
  // has no index on removal_id alone (V13), the partial drain index
  // (catalog_id, removal_id) WHERE drained_at IS NULL serves them.
  auto drain = [&]() -> Status {
    // A catalog whose data_path the server does not allow (created before
    // the policy, or by a server with another one) is never touched.
    HOGLAKE_RETURN_IF_ERROR(options_.data_paths.Check(info.data_path));
    HOGLAKE_ASSIGN_OR_RETURN(std::unique_ptr<ObjectStore> store, OpenObjectStore(info.data_path));
    // 1. Claim (autocommit): rows nobody holds, or whose lease lapsed. The
    // locked rows are collected once (ARRAY(…), an init plan; an IN
    // (subquery) may be planned as a semi join that re-runs the locking
    // subquery per undrained row) and the outer UPDATE names them by TID,
    // with no other qual, so its plan is a TID scan whatever the statistics
    // say. (Looked up by removal_id instead, the plan depended on them: right
    // after an expiry queued 100K paths, before the queue was analyzed, the
    // drain index was walked over every undrained row, filtering each
    // against the claimed ids: ~650 ms per 2,000-path claim instead of
    // ~15 ms.) The TIDs come from the locking subquery, so each names the
    // row version this statement locked; a version that changed since the
    // statement's snapshot matches nothing and stays for a later claim.
    HOGLAKE_ASSIGN_OR_RETURN(
        pg::PgResult claimed,
        conn->Exec(
            "UPDATE hog_file_removal SET claimed_at = clock_timestamp(), claimed_by = $2 "
            "WHERE ctid = ANY(ARRAY(SELECT "
            "ctid FROM hog_file_removal WHERE catalog_id = $1 "
            "AND drained_at IS NULL AND (claimed_at IS NULL OR claimed_at < clock_timestamp() - "
            "$3 * interval '1 second') ORDER BY removal_id LIMIT $4 FOR UPDATE SKIP LOCKED)) "
            "RETURNING removal_id, path",
            {catalog_id, WorkerId(), std::to_string(options_.cleanup_claim_lease_seconds),
             std::to_string(batch)}));
    if (claimed.rows() == 0) return Status::Ok();
    std::vector<std::optional<std::string>> paths;
    for (int i = 0; i < claimed.rows(); ++i) paths.push_back(claimed.GetString(i, 1));
    // 2. Reference check at drain time: any data-file row, live or historical,
    // or an active upload claim (a writer may still publish the path).
    HOGLAKE_ASSIGN_OR_RETURN(
        pg::PgResult referenced,
        conn->Exec("SELECT path FROM hog_data_file WHERE catalog_id = $1 AND path = "
                   "ANY($2::text[]) UNION SELECT path FROM hog_upload WHERE catalog_id = $1 AND "
                   "state = 'active' AND path = ANY($2::text[])",
                   {catalog_id, pg::PgTextArray(paths)}));
    std::set<std::string> keep;
    for (int i = 0; i < referenced.rows(); ++i) keep.insert(referenced.GetString(i, 0));
    // 3. Work: delete what nothing references (no transaction held), in
    // bulk: the store spreads the deletes over a few threads (file://) or
    // sends them 1,000 keys per request (S3, where a key that was already
    // gone reads as deleted).
    enum Outcome : uint8_t { kKept, kDeleted, kAbsent, kFailed };
    const int rows = claimed.rows();
    std::vector<Outcome> outcomes(static_cast<size_t>(rows), kKept);
    std::vector<std::string> to_delete;
    std::vector<size_t> deleted_row;  // to_delete[j] is claimed row deleted_row[j]
    for (int i = 0; i < rows; ++i) {
      const std::string& path = *paths[static_cast<size_t>(i)];
      if (keep.contains(path)) continue;
      to_delete.push_back(path);
      deleted_row.push_back(static_cast<size_t>(i));
    }
    std::vector<Result<bool>> removed = store->DeleteMany(to_delete);
    for (size_t j = 0; j < removed.size(); ++j) {
      outcomes[deleted_row[j]] = !removed[j].ok() ? kFailed : *removed[j] ? kDeleted : kAbsent;
    }
    std::vector<int64_t> deleted, absent, kept, failed;
    for (int i = 0; i < rows; ++i) {
      const int64_t id = claimed.GetInt64(i, 0);
      switch (outcomes[static_cast<size_t>(i)]) {
        case kKept:
          kept.push_back(id);
          break;
        case kDeleted:
          deleted.push_back(id);
          break;
        case kAbsent:
          absent.push_back(id);
          break;
        case kFailed:
          failed.push_back(id);
          break;
      }
    }
    // 4. Settle, fenced by our claim.
    HOGLAKE_ASSIGN_OR_RETURN(pg::PgTransaction txn, pg::PgTransaction::Begin(*conn));
    for (auto [ids, outcome] : {std::pair{&deleted, "deleted"}, std::pair{&absent, "absent"}}) {
      if (ids->empty()) continue;
      HOGLAKE_ASSIGN_OR_RETURN(
          pg::PgResult settled,
          conn->Exec(
              "UPDATE hog_file_removal SET drained_at = clock_timestamp(), drained_outcome = $3, "
              "last_attempt_at = clock_timestamp(), attempts = attempts + 1, claimed_at = NULL, "
              "claimed_by = NULL WHERE catalog_id = $4 AND removal_id = ANY($1::bigint[]) AND "
              "drained_at IS NULL AND claimed_by = $2",
              {pg::PgIntArray(*ids), WorkerId(), outcome, catalog_id}));
      (std::string(outcome) == "deleted" ? result.removed : result.missing) +=
          settled.affected_rows();
    }
    std::vector<int64_t> retry = kept;
    retry.insert(retry.end(), failed.begin(), failed.end());
    if (!retry.empty()) {
      HOGLAKE_ASSIGN_OR_RETURN(
          pg::PgResult released,
          conn->Exec("UPDATE hog_file_removal SET attempts = attempts + 1, last_attempt_at = "
                     "clock_timestamp(), "
                     "claimed_at = NULL, claimed_by = NULL WHERE catalog_id = $3 AND "
                     "removal_id = ANY($1::bigint[]) AND drained_at IS NULL AND claimed_by = $2 "
                     "RETURNING removal_id",
                     {pg::PgIntArray(retry), WorkerId(), catalog_id}));
      std::set<int64_t> touched;
      for (int i = 0; i < released.rows(); ++i) touched.insert(released.GetInt64(i, 0));
      for (int64_t id : kept) result.still_referenced += touched.contains(id);
      for (int64_t id : failed) result.failed += touched.contains(id);
    }
    return txn.Commit();
  };
  Status drained = drain();
  Result<std::string> outcome =
      drained.ok() ? Result<std::string>(result.ToJson()) : Result<std::string>(drained.error());
  HOGLAKE_RETURN_IF_ERROR(
      RecordMaintenanceRun(*conn, info.catalog_id, "cleanup", manual, started, outcome));
  if (!drained.ok()) return drained.error();
  return result;
}

}  // namespace hoglake::catalog
