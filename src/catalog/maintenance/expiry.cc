// CatalogService::Expire (server digest §5.1) and the maintenance ledger.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>
#include <unordered_map>
#include <vector>

#include "catalog/catalog_service.h"
#include "catalog/maintenance/file_children.h"
#include "catalog/maintenance/maintenance_ledger.h"
#include "catalog/reads/offset_lineage.h"
#include "common/clock.h"
#include "common/json_writer.h"
#include "common/parallel.h"

namespace hoglake::catalog {
namespace {

// File rows purged per transaction in phase B (outside the commit lock, so
// the page size does not lengthen any commit's wait).
constexpr int64_t kPurgePage = 10000;
// When more than a page is purgeable, the purge is split into kPurgeShards
// shards (data_file_id % kPurgeShards) purged concurrently, one connection
// each: the calling one plus helpers leased from the pool (a helper that
// cannot lease a connection leaves its shard to the others). Three on two
// cores: a shard waiting for its page's WAL flush leaves a core to another
// (backlog purge 505-660 ms with three vs 516-712 ms with two, five pairs).
constexpr int kPurgeShards = 3;
// Phase A: snapshots expired by the first transaction of a catalog's first
// call in this process (later calls start from the size the previous call of
// the same catalog ended on); later transactions are sized from the last
// one's commit-lock hold so that each holds the lock for about
// kTargetHoldMicros, between kMinAdvanceChunk and kMaxAdvanceChunk
// snapshots, growing at most kMaxChunkGrowth-fold per step. The target is
// under the 50 ms hold bound with room to spare: the hold is not exactly
// linear in the chunk (a commit's WAL flush, a checkpoint).
constexpr int64_t kAdvanceChunk = 2500;
constexpr int64_t kMinAdvanceChunk = 500;
constexpr int64_t kMaxAdvanceChunk = 10000;
constexpr int64_t kMaxChunkGrowth = 2;
constexpr int64_t kTargetHoldMicros = 30000;

// The next phase-A chunk after a chunk of `chunk` snapshots (planned as
// `planned`, which is larger only when the batch's remainder cut it) held the
// lock `held_micros`.
int64_t NextAdvanceChunk(int64_t planned, int64_t chunk, int64_t held_micros) {
  const int64_t scaled = chunk * kTargetHoldMicros / std::max<int64_t>(held_micros, 1);
  return std::clamp(std::min(scaled, planned * kMaxChunkGrowth), kMinAdvanceChunk,
                    kMaxAdvanceChunk);
}

// The phase-A chunk size each catalog's last call ended on, by catalog id
// (this process only; a catalog not seen yet starts at kAdvanceChunk).
class AdvanceChunkMemo {
 public:
  static AdvanceChunkMemo& Get() {
    static AdvanceChunkMemo memo;
    return memo;
  }
  int64_t Start(int64_t catalog_id) {
    std::lock_guard<std::mutex> lock(mu_);
    const auto it = sizes_.find(catalog_id);
    return it == sizes_.end() ? kAdvanceChunk : it->second;
  }
  void Remember(int64_t catalog_id, int64_t size) {
    std::lock_guard<std::mutex> lock(mu_);
    sizes_[catalog_id] = size;
  }

 private:
  std::mutex mu_;
  std::unordered_map<int64_t, int64_t> sizes_;
};

}  // namespace

std::string ExpiryResult::ToJson() const {
  JsonWriter w;
  w.BeginObject();
  w.Field("snapshots_expired", snapshots_expired);
  w.Field("data_files_queued", data_files_queued);
  w.Field("delete_files_queued", delete_files_queued);
  w.Field("new_earliest_snapshot_id", new_earliest_snapshot_id);
  w.OptionalField("floored_by_consumer", floored_by_consumer);
  if (data_files_queued > 0) w.Field("data_files_purged", data_files_queued);
  if (purge_pages > 0) w.Field("purge_pages", purge_pages);
  if (purge_failures > 0) w.Field("purge_failures", purge_failures);
  w.EndObject();
  return w.Take();
}

const std::vector<std::string>& MaintenanceTasks() {
  static const std::vector<std::string> kTasks = {"hydrator",   "expiry", "cleanup",
                                                  "compaction", "verify", "retirement"};
  return kTasks;
}

Result<ExpiryResult> CatalogService::Expire(std::string_view catalog, int64_t batch, bool manual) {
  if (batch <= 0) return Validation("batch must be positive, got ", batch);
  const int64_t started = NowMicros();
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgPool::Lease conn, pool_->Acquire());
  HOGLAKE_ASSIGN_OR_RETURN(CatalogHead head, ReadCatalogHead(*conn, catalog));
  const std::string catalog_id = std::to_string(head.catalog_id);
  ExpiryResult result;

  // Phase A: advance the floor under the commit lock, one transaction per
  // chunk (several short lock holds instead of one long one; each
  // transaction is a complete, consistent floor advance), until `batch`
  // snapshots are gone or the floor stops. Chunks are sized by the hold of
  // the previous one (NextAdvanceChunk); the first starts from where the
  // catalog's previous call left off (AdvanceChunkMemo).
  int64_t hold_started = 0;  // when the current chunk got the lock
  auto advance = [&](int64_t chunk) -> Status {
    HOGLAKE_ASSIGN_OR_RETURN(CommitScope scope,
                             CommitScope::Begin(*conn, catalog, options_.commit_lock_timeout_ms));
    hold_started = NowMicros();
    const CatalogHead& h = scope.head();
    result.new_earliest_snapshot_id = h.earliest_snapshot_id;
    HOGLAKE_ASSIGN_OR_RETURN(
        pg::PgResult options,
        conn->Exec("SELECT snapshot_retention_seconds, consumer_floor FROM hog_catalog "
                   "WHERE catalog_id = $1",
                   {catalog_id}));
    // Offsets on dropped incarnations a consumer has moved past go first,
    // whatever the retention: they would otherwise hold the floor.
    HOGLAKE_RETURN_IF_ERROR(ReleaseSupersededOffsets(*conn, h.catalog_id).status());
    if (options.IsNull(0, 0)) return scope.CommitWithoutSnapshot();  // expiry disabled
    const int64_t retention = options.GetInt64(0, 0);
    const bool consumer_floor = options.GetBool(0, 1);
    int64_t unfloored = std::min(h.head_snapshot_id, h.earliest_snapshot_id + chunk);
    // The first retained-by-time snapshot matters only inside the chunk, so
    // the probe reads at most `chunk` rows, not the whole expirable backlog.
    HOGLAKE_ASSIGN_OR_RETURN(
        pg::PgResult fresh,
        conn->Exec("SELECT min(snapshot_id) FROM hog_snapshot WHERE catalog_id = $1 "
                   "AND snapshot_id >= $2 AND snapshot_id <= $4 AND snapshot_time >= "
                   "clock_timestamp() - $3 * interval '1 second'",
                   {catalog_id, std::to_string(h.earliest_snapshot_id), std::to_string(retention),
                    std::to_string(unfloored)}));
    if (!fresh.IsNull(0, 0)) unfloored = std::min(unfloored, fresh.GetInt64(0, 0));
    int64_t new_earliest = unfloored;
    if (consumer_floor) {
      HOGLAKE_ASSIGN_OR_RETURN(
          pg::PgResult offsets,
          conn->Exec(
              "SELECT o.committed_snapshot, o.consumer_id FROM hog_consumer_offset o "
              "JOIN hog_table t ON t.catalog_id = o.catalog_id AND t.table_uuid = o.table_uuid "
              "WHERE o.catalog_id = $1 ORDER BY o.committed_snapshot, o.consumer_id LIMIT 1",
              {catalog_id}));
      if (offsets.rows() > 0 && offsets.GetInt64(0, 0) < unfloored) {
        new_earliest = offsets.GetInt64(0, 0);
        if (unfloored > h.earliest_snapshot_id)
          result.floored_by_consumer = offsets.GetString(0, 1);
      }
    }
    if (new_earliest <= h.earliest_snapshot_id) return scope.CommitWithoutSnapshot();
    const std::vector<pg::PgParam> range = {catalog_id, std::to_string(h.earliest_snapshot_id),
                                            std::to_string(new_earliest)};
    // Change rows first, by range (no per-snapshot cascade: V10).
    HOGLAKE_RETURN_IF_ERROR(
        conn->Exec("DELETE FROM hog_snapshot_change WHERE catalog_id = $1 AND snapshot_id >= $2 "
                   "AND snapshot_id < $3",
                   range)
            .status());
    HOGLAKE_ASSIGN_OR_RETURN(
        pg::PgResult deleted,
        conn->Exec("DELETE FROM hog_snapshot WHERE catalog_id = $1 AND snapshot_id >= $2 "
                   "AND snapshot_id < $3",
                   range));
    result.snapshots_expired += deleted.affected_rows();
    HOGLAKE_RETURN_IF_ERROR(
        conn->Exec("UPDATE hog_catalog SET earliest_snapshot_id = $3, earliest_snapshot_time = "
                   "(SELECT snapshot_time "
                   "FROM hog_snapshot WHERE catalog_id = $1 AND snapshot_id = $3) WHERE catalog_id "
                   "= $1 AND $2::bigint >= 0",
                   range));
    for (const char* table :
         {"hog_table_version", "hog_column", "hog_partition_spec", "hog_sort_spec", "hog_view"}) {
      HOGLAKE_RETURN_IF_ERROR(
          conn->Exec(StrCat("DELETE FROM ", table,
                            " WHERE catalog_id = $1 AND end_snapshot "
                            "IS NOT NULL AND end_snapshot <= $3 AND $2::bigint >= 0"),
                     range));
    }
    result.new_earliest_snapshot_id = new_earliest;
    return scope.CommitWithoutSnapshot();
  };
  Status advanced = Status::Ok();
  AdvanceChunkMemo& memo = AdvanceChunkMemo::Get();
  for (int64_t remaining = batch, size = memo.Start(head.catalog_id); remaining > 0;) {
    const int64_t chunk = std::min(remaining, size);
    const int64_t expired_before = result.snapshots_expired;
    advanced = advance(chunk);
    if (!advanced.ok()) break;
    remaining -= chunk;
    // Stopped short of the chunk: retention, a consumer, or the head.
    if (result.snapshots_expired - expired_before < chunk) break;
    size = NextAdvanceChunk(size, chunk, NowMicros() - hold_started);
    memo.Remember(head.catalog_id, size);
  }

  // Phase B: purge file rows no retained snapshot can see, a page per
  // transaction, outside the commit lock; their paths go to the removal queue.
  // A page of shard `shard` of `shards` takes only rows with data_file_id %
  // shards = shard, so concurrent shards never touch the same file row; a
  // shard is done when a page comes back short.
  struct PurgeTally {
    int64_t queued = 0;
    int64_t pages = 0;
  };
  auto purge_page = [&](pg::PgConnection& c, int64_t earliest, int shard, int shards,
                        PurgeTally& tally) -> Result<bool> {
    // A page per transaction: its file rows and queue rows in one
    // statement, then their stats and partition values set-based (V11: no
    // per-row cascade). The page is deleted by TID, with no other qual on
    // the outer DELETE so the plan is a TID scan whatever the statistics
    // say (not a join or an index walk over every ended row). The TIDs
    // come from this statement's snapshot, so each names the row version
    // picked; the only concurrent writer of an ended row (the hydrator)
    // never changes catalog_id, end_snapshot or data_file_id.
    HOGLAKE_ASSIGN_OR_RETURN(pg::PgTransaction txn, pg::PgTransaction::Begin(c));
    HOGLAKE_ASSIGN_OR_RETURN(
        pg::PgResult page,
        c.Exec(StrCat("WITH gone AS (DELETE FROM hog_data_file d WHERE d.ctid = ANY(ARRAY("
                      "SELECT ctid FROM hog_data_file WHERE catalog_id = $1 AND "
                      "end_snapshot <= $2 AND data_file_id % $4 = $5 LIMIT $3)) "
                      "RETURNING d.data_file_id, d.path)",
                      QueueGoneFilesSql("snapshot_expiry")),
               {catalog_id, std::to_string(earliest), std::to_string(kPurgePage),
                std::to_string(shards), std::to_string(shard)}));
    const int64_t queued = page.GetInt64(0, 1);
    if (queued > 0)
      HOGLAKE_RETURN_IF_ERROR(DeleteFileChildren(c, catalog_id, page.GetString(0, 0)));
    HOGLAKE_RETURN_IF_ERROR(txn.Commit());
    tally.queued += queued;
    ++tally.pages;
    return queued == kPurgePage;
  };
  auto purge_shard = [&](pg::PgConnection& c, int64_t earliest, int shard, int shards,
                         PurgeTally& tally) -> Status {
    while (true) {
      HOGLAKE_ASSIGN_OR_RETURN(bool full, purge_page(c, earliest, shard, shards, tally));
      if (!full) return Status::Ok();
    }
  };
  auto purge = [&]() -> Status {
    HOGLAKE_ASSIGN_OR_RETURN(
        pg::PgResult floor,
        conn->Exec("SELECT earliest_snapshot_id FROM hog_catalog WHERE catalog_id = $1",
                   {catalog_id}));
    const int64_t earliest = floor.GetInt64(0, 0);
    if (earliest <= 0) return Status::Ok();
    // More than a page purgeable (counted on the ended-rows index, at most
    // kPurgePage + 1 rows read): shard it across connections; else one
    // page on this one.
    HOGLAKE_ASSIGN_OR_RETURN(
        pg::PgResult backlog,
        conn->Exec("SELECT count(*) FROM (SELECT 1 FROM hog_data_file WHERE catalog_id = $1 AND "
                   "end_snapshot <= $2 LIMIT $3) b",
                   {catalog_id, std::to_string(earliest), std::to_string(kPurgePage + 1)}));
    const int shards = backlog.GetInt64(0, 0) > kPurgePage ? kPurgeShards : 1;
    // Each shard runs on whichever caller takes it next: this connection
    // (slot 0) or a pooled one per helper (fewer helpers when the pool has
    // no connection to spare).
    std::vector<PurgeTally> tallies(static_cast<size_t>(shards));
    std::vector<Status> outcomes(static_cast<size_t>(shards), Status::Ok());
    std::vector<pg::PgPool::Lease> helpers;
    for (int h = 1; h < shards; ++h) {
      Result<pg::PgPool::Lease> lease = pool_->Acquire();
      if (!lease.ok()) break;
      helpers.push_back(std::move(*lease));
    }
    ParallelFor(shards, 1 + static_cast<int>(helpers.size()), [&](int64_t shard, int slot) {
      const size_t s = static_cast<size_t>(shard);
      pg::PgConnection& c = slot == 0 ? *conn : *helpers[static_cast<size_t>(slot - 1)];
      outcomes[s] = purge_shard(c, earliest, static_cast<int>(shard), shards, tallies[s]);
    });
    Status status = Status::Ok();
    for (int s = 0; s < shards; ++s) {
      result.data_files_queued += tallies[static_cast<size_t>(s)].queued;
      result.purge_pages += tallies[static_cast<size_t>(s)].pages;
      if (status.ok() && !outcomes[static_cast<size_t>(s)].ok())
        status = outcomes[static_cast<size_t>(s)];
    }
    return status;
  };
  Status purged = purge();
  if (!purged.ok()) ++result.purge_failures;

  Result<std::string> outcome =
      advanced.ok() ? Result<std::string>(result.ToJson()) : Result<std::string>(advanced.error());
  HOGLAKE_RETURN_IF_ERROR(
      RecordMaintenanceRun(*conn, head.catalog_id, "expiry", manual, started, outcome));
  if (!advanced.ok()) return advanced.error();
  if (!purged.ok()) return purged.error();
  return result;
}

Result<RunPage> CatalogService::ListRuns(std::string_view catalog, const RunListing& listing) {
  const int64_t limit = listing.limit.value_or(50);
  if (limit < 1) return Validation("limit must be at least 1, got ", limit);
  if (listing.task) {
    const auto& tasks = MaintenanceTasks();
    if (std::find(tasks.begin(), tasks.end(), *listing.task) == tasks.end()) {
      return Validation("unknown maintenance task '", *listing.task, "'");
    }
  }
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgPool::Lease conn, pool_->Acquire());
  std::vector<pg::PgParam> params;
  std::string where = "TRUE";
  if (!catalog.empty()) {
    HOGLAKE_ASSIGN_OR_RETURN(CatalogHead head, ReadCatalogHead(*conn, catalog));
    params.emplace_back(std::to_string(head.catalog_id));
    where += StrCat(" AND r.catalog_id = $", params.size());
  }
  if (listing.task) {
    params.emplace_back(*listing.task);
    where += StrCat(" AND r.task = $", params.size());
  }
  if (listing.before) {
    params.emplace_back(std::to_string(*listing.before));
    where += StrCat(" AND r.run_id < $", params.size());
  }
  const int64_t capped = std::min<int64_t>(limit, 500);
  HOGLAKE_ASSIGN_OR_RETURN(
      pg::PgResult r,
      conn->Exec(StrCat("SELECT r.run_id, c.name, r.task, r.run_trigger, "
                        "(extract(epoch from r.started_at) * 1000000)::bigint, "
                        "(extract(epoch from r.finished_at) * 1000000)::bigint, r.status, r.error, "
                        "r.result::text "
                        "FROM hog_maintenance_run r JOIN hog_catalog c USING (catalog_id) WHERE ",
                        where, " ORDER BY r.run_id DESC LIMIT ", capped + 1),
                 params));
  RunPage page;
  page.has_more = r.rows() > capped;
  for (int i = 0; i < r.rows() && i < capped; ++i) {
    page.runs.push_back(MaintenanceRun{
        r.GetInt64(i, 0), r.GetString(i, 1), r.GetString(i, 2), r.GetString(i, 3), r.GetInt64(i, 4),
        r.GetInt64(i, 5), r.GetString(i, 6), r.GetOptionalString(i, 7), r.GetOptionalString(i, 8)});
  }
  return page;
}

}  // namespace hoglake::catalog
