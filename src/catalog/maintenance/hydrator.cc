// Hydrator (hydrator.h): claims, settles and the ledger; the footer work is
// in hydrator_footer.cc.
#include "catalog/maintenance/hydrator.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <random>

#include "catalog/ddl/table_store.h"
#include "catalog/maintenance/hydrator_footer.h"
#include "catalog/maintenance/maintenance_ledger.h"
#include "catalog/model/packed_stats.h"
#include "common/clock.h"
#include "common/encoding.h"
#include "common/json_writer.h"
#include "common/log.h"
#include "common/uuid.h"

namespace hoglake::catalog {
namespace {

// The table's columns at `snapshot` (live columns: at head).
Result<std::vector<ColumnNode>> ColumnsAt(pg::PgConnection& conn, int64_t catalog_id,
                                          int64_t table_id, int64_t snapshot) {
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgTransaction txn, pg::PgTransaction::Begin(conn));
  HOGLAKE_RETURN_IF_ERROR(conn.Exec("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ"));
  HOGLAKE_ASSIGN_OR_RETURN(TableInfo info,
                           LoadTable(conn, catalog_id, table_id, "", snapshot, false));
  HOGLAKE_RETURN_IF_ERROR(txn.Commit());
  return std::move(info.columns);
}

// Marks the file provided and stores its stats, guarded by our claim.
// False when the file is no longer ours to settle.
Result<bool> StoreHydrated(pg::PgConnection& conn, const std::string& catalog_id,
                           const PendingFile& file, const std::string& token,
                           const FooterOutcome& outcome) {
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgTransaction txn, pg::PgTransaction::Begin(conn));
  HOGLAKE_ASSIGN_OR_RETURN(
      pg::PgResult flipped,
      conn.Exec("UPDATE hog_data_file SET stats_state = 'provided', stats_error = NULL, "
                "missing_field_ids = $4, split_offsets = $5::bigint[], stats_claimed_by = NULL, "
                "stats_claim_expires_at = NULL WHERE catalog_id = $1 AND data_file_id = $2 "
                "AND stats_state = 'pending' AND stats_claimed_by = $3",
                {catalog_id, std::to_string(file.data_file_id), token,
                 outcome.missing_field_ids ? "t" : "f",
                 outcome.split_offsets
                     ? std::optional<std::string>(pg::PgIntArray(*outcome.split_offsets))
                     : std::nullopt}));
  if (flipped.affected_rows() == 0) return false;  // rolled back by txn's destructor
  if (!outcome.stats.empty()) {
    HOGLAKE_RETURN_IF_ERROR(
        conn.Exec("INSERT INTO hog_file_stats (catalog_id, data_file_id, stats) "
                  "VALUES ($1, $2, decode($3, 'hex')) "
                  "ON CONFLICT (catalog_id, data_file_id) DO UPDATE SET stats = EXCLUDED.stats",
                  {catalog_id, std::to_string(file.data_file_id),
                   HexEncode(PackColumnStats(outcome.stats))}));
  }
  HOGLAKE_RETURN_IF_ERROR(txn.Commit());
  return true;
}

}  // namespace

HydratorResult& HydratorResult::operator+=(const HydratorResult& other) {
  claimed += other.claimed;
  hydrated += other.hydrated;
  failed += other.failed;
  transient += other.transient;
  skipped += other.skipped;
  return *this;
}

std::string HydratorResult::ToJson() const {
  JsonWriter w;
  w.BeginObject();
  w.Field("claimed", claimed);
  w.Field("hydrated", hydrated);
  w.Field("failed", failed);
  w.Field("transient", transient);
  if (skipped > 0) w.Field("skipped", skipped);
  w.EndObject();
  return w.Take();
}

Hydrator::Hydrator(pg::PgPool* pool, HydratorOptions options)
    : pool_(pool), options_(options), rotation_(std::random_device{}()) {}

Result<std::shared_ptr<ObjectStore>> Hydrator::StoreFor(const std::string& root) {
  std::lock_guard<std::mutex> lock(stores_mutex_);
  auto it = stores_.find(root);
  if (it != stores_.end()) return it->second;
  HOGLAKE_ASSIGN_OR_RETURN(std::unique_ptr<ObjectStore> store, OpenObjectStore(root));
  std::shared_ptr<ObjectStore> shared(std::move(store));
  stores_.emplace(root, shared);
  return shared;
}

Result<HydratorResult> Hydrator::RunCatalog(pg::PgConnection& conn, const CatalogRow& catalog,
                                            int64_t batch) {
  const std::string catalog_id = std::to_string(catalog.catalog_id);
  const std::string token = NewUuid();
  HydratorResult result;
  // Nothing is claimed from a catalog whose data_path is not allowed.
  HOGLAKE_RETURN_IF_ERROR(options_.data_paths.Check(catalog.data_path));

  // 1. Claim (a short transaction bounded by the claim timeout).
  pg::PgResult claimed;
  {
    HOGLAKE_ASSIGN_OR_RETURN(pg::PgTransaction txn, pg::PgTransaction::Begin(conn));
    HOGLAKE_RETURN_IF_ERROR(
        conn.Exec(StrCat("SET LOCAL statement_timeout = ", options_.claim_timeout_ms)));
    HOGLAKE_ASSIGN_OR_RETURN(
        claimed,
        conn.Exec(
            "UPDATE hog_data_file f SET stats_claimed_by = $2, stats_claim_expires_at = "
            "clock_timestamp() + $3 * interval '1 second' WHERE f.catalog_id = $1 AND "
            "f.data_file_id IN (SELECT p.data_file_id FROM hog_data_file p JOIN hog_table t ON "
            "t.catalog_id = p.catalog_id AND t.table_id = p.table_id WHERE p.catalog_id = $1 AND "
            "p.stats_state = 'pending' AND p.end_snapshot IS NULL AND t.dropped_snapshot IS NULL "
            "AND (p.stats_claim_expires_at IS NULL OR p.stats_claim_expires_at < "
            "clock_timestamp()) ORDER BY p.data_file_id LIMIT $4 FOR UPDATE OF p SKIP LOCKED) "
            "RETURNING f.data_file_id, f.table_id, f.begin_snapshot, f.path, f.record_count, "
            "f.file_size_bytes, f.footer_size",
            {catalog_id, token, std::to_string(options_.lease_seconds), std::to_string(batch)}));
    HOGLAKE_RETURN_IF_ERROR(txn.Commit());
  }
  result.claimed = claimed.rows();
  if (result.claimed == 0) return result;
  std::vector<PendingFile> files;
  for (int i = 0; i < claimed.rows(); ++i) {
    files.push_back(PendingFile{claimed.GetInt64(i, 0), claimed.GetInt64(i, 1),
                                claimed.GetInt64(i, 2), claimed.GetString(i, 3),
                                claimed.GetInt64(i, 4), claimed.GetInt64(i, 5),
                                claimed.GetOptionalInt64(i, 6)});
  }
  std::sort(files.begin(), files.end(), [](const PendingFile& a, const PendingFile& b) {
    return a.data_file_id < b.data_file_id;
  });

  // 2. The live columns of every table involved, as of head.
  HOGLAKE_ASSIGN_OR_RETURN(
      pg::PgResult head,
      conn.Exec("SELECT last_snapshot_id FROM hog_catalog WHERE catalog_id = $1", {catalog_id}));
  const int64_t head_snapshot = head.GetInt64(0, 0);
  std::map<int64_t, Result<std::vector<ColumnNode>>> live;
  for (const PendingFile& f : files) {
    if (!live.contains(f.table_id)) {
      live.emplace(f.table_id, ColumnsAt(conn, catalog.catalog_id, f.table_id, head_snapshot));
    }
  }
  HOGLAKE_ASSIGN_OR_RETURN(std::shared_ptr<ObjectStore> store, StoreFor(catalog.data_path));

  // 3. Read each footer (nothing held), then settle it.
  for (const PendingFile& f : files) {
    const Result<std::vector<ColumnNode>>& columns = live.at(f.table_id);
    FooterOutcome outcome;
    if (!columns.ok()) {  // dropped (or otherwise unloadable) since the claim
      outcome.kind = FooterOutcome::Kind::kTransient;
      outcome.reason = columns.error().message;
    } else {
      outcome = HydrateFile(*store, f, *columns, [&]() {
        return ColumnsAt(conn, catalog.catalog_id, f.table_id, f.begin_snapshot);
      });
    }
    const std::string file_id = std::to_string(f.data_file_id);
    switch (outcome.kind) {
      case FooterOutcome::Kind::kHydrated: {
        HOGLAKE_ASSIGN_OR_RETURN(bool stored, StoreHydrated(conn, catalog_id, f, token, outcome));
        ++(stored ? result.hydrated : result.skipped);
        break;
      }
      case FooterOutcome::Kind::kFailed: {
        HOGLAKE_ASSIGN_OR_RETURN(
            pg::PgResult marked,
            conn.Exec("UPDATE hog_data_file SET stats_state = 'failed', stats_error = $4, "
                      "missing_field_ids = $5, stats_claimed_by = NULL, "
                      "stats_claim_expires_at = NULL WHERE catalog_id = $1 AND data_file_id = $2 "
                      "AND stats_state = 'pending' AND stats_claimed_by = $3",
                      {catalog_id, file_id, token, outcome.reason,
                       outcome.missing_field_ids ? "t" : "f"}));
        ++(marked.affected_rows() > 0 ? result.failed : result.skipped);
        break;
      }
      case FooterOutcome::Kind::kTransient: {
        LogInfo("hydrator: ", f.path, " stays pending: ", outcome.reason);
        HOGLAKE_RETURN_IF_ERROR(conn.Exec(
            "UPDATE hog_data_file SET stats_claimed_by = NULL, stats_claim_expires_at = NULL "
            "WHERE catalog_id = $1 AND data_file_id = $2 AND stats_claimed_by = $3",
            {catalog_id, file_id, token}));
        ++result.transient;
        break;
      }
    }
  }
  return result;
}

Result<HydratorResult> Hydrator::HydratePending(std::string_view catalog, int64_t batch,
                                                bool manual) {
  if (batch <= 0) return Validation("batch must be positive, got ", batch);
  const int64_t started = NowMicros();
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgPool::Lease conn, pool_->Acquire());
  HOGLAKE_ASSIGN_OR_RETURN(
      pg::PgResult row, conn->Exec("SELECT catalog_id, data_path FROM hog_catalog WHERE name = $1",
                                   {std::string(catalog)}));
  if (row.rows() == 0) return NotFound("catalog '", catalog, "' not found");
  const CatalogRow info{row.GetInt64(0, 0), row.GetString(0, 1)};
  Result<HydratorResult> run = RunCatalog(*conn, info, batch);
  if (!manual && run.ok() && run->claimed == 0) return run;
  Result<std::string> outcome =
      run.ok() ? Result<std::string>(run->ToJson()) : Result<std::string>(run.error());
  HOGLAKE_RETURN_IF_ERROR(
      RecordMaintenanceRun(*conn, info.catalog_id, "hydrator", manual, started, outcome));
  return run;
}

Result<HydratorResult> Hydrator::Sweep(int64_t limit, const std::atomic<bool>* cancel) {
  if (limit <= 0) return Validation("limit must be positive, got ", limit);
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgPool::Lease conn, pool_->Acquire());
  HOGLAKE_ASSIGN_OR_RETURN(
      pg::PgResult rows,
      conn->Exec("SELECT catalog_id, data_path FROM hog_catalog ORDER BY catalog_id"));
  const int64_t n = rows.rows();
  if (n == 0) return HydratorResult{};
  const int64_t share = std::max<int64_t>(1, limit / n);
  const uint64_t start = rotation_.fetch_add(static_cast<uint64_t>(n)) % static_cast<uint64_t>(n);
  struct Served {
    CatalogRow catalog;
    int64_t started = 0;
    Result<HydratorResult> run = HydratorResult{};
    bool filled = false;
  };
  std::vector<Served> served;
  HydratorResult total;
  int64_t left = limit;
  auto run_one = [&](Served& s, int64_t batch) {
    Result<HydratorResult> r = RunCatalog(*conn, s.catalog, batch);
    if (!r.ok()) {
      LogInfo("hydrator: catalog ", s.catalog.catalog_id, ": ", r.error().message);
      s.run = r.error();
      return;
    }
    s.filled = r->claimed >= batch;
    left -= r->claimed;
    total += *r;
    HydratorResult sum = *s.run;
    s.run = (sum += *r);
  };
  for (int64_t i = 0; i < n && left > 0; ++i) {
    if (cancel && cancel->load()) break;
    const int row = static_cast<int>((start + static_cast<uint64_t>(i)) % static_cast<uint64_t>(n));
    served.push_back(
        Served{CatalogRow{rows.GetInt64(row, 0), rows.GetString(row, 1)}, NowMicros()});
    run_one(served.back(), std::min(share, left));
  }
  for (Served& s : served) {  // the leftover to catalogs that filled their share
    if (left <= 0 || (cancel && cancel->load())) break;
    if (s.filled && s.run.ok()) run_one(s, left);
  }
  for (Served& s : served) {
    if (s.run.ok() && s.run->claimed == 0) continue;
    Result<std::string> outcome =
        s.run.ok() ? Result<std::string>(s.run->ToJson()) : Result<std::string>(s.run.error());
    HOGLAKE_RETURN_IF_ERROR(
        RecordMaintenanceRun(*conn, s.catalog.catalog_id, "hydrator", false, s.started, outcome));
  }
  return total;
}

Result<int64_t> Hydrator::Rehydrate(std::string_view catalog,
                                    const std::optional<std::string>& namespace_name,
                                    const std::optional<std::string>& table) {
  if (namespace_name.has_value() != table.has_value()) {
    return Validation("namespace and table must be given together");
  }
  const int64_t started = NowMicros();
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgPool::Lease conn, pool_->Acquire());
  HOGLAKE_ASSIGN_OR_RETURN(
      pg::PgResult row,
      conn->Exec("SELECT catalog_id, last_snapshot_id FROM hog_catalog WHERE name = $1",
                 {std::string(catalog)}));
  if (row.rows() == 0) return NotFound("catalog '", catalog, "' not found");
  const int64_t catalog_id = row.GetInt64(0, 0);
  std::optional<std::string> table_id;
  if (table) {
    const int64_t head = row.GetInt64(0, 1);
    HOGLAKE_ASSIGN_OR_RETURN(int64_t ns_id,
                             NamespaceIdAt(*conn, catalog_id, catalog, *namespace_name, head));
    HOGLAKE_ASSIGN_OR_RETURN(std::optional<int64_t> id,
                             TableIdAt(*conn, catalog_id, ns_id, *table, head));
    if (!id) return NotFound("table '", *namespace_name, ".", *table, "' not found");
    table_id = std::to_string(*id);
  }
  Result<pg::PgResult> requeued = conn->Exec(
      "UPDATE hog_data_file f SET stats_state = 'pending', stats_error = NULL, "
      "stats_claimed_by = NULL, stats_claim_expires_at = NULL FROM hog_table t "
      "WHERE f.catalog_id = $1 AND f.stats_state = 'failed' AND f.end_snapshot IS NULL "
      "AND t.catalog_id = f.catalog_id AND t.table_id = f.table_id AND t.dropped_snapshot IS NULL "
      "AND ($2::bigint IS NULL OR f.table_id = $2::bigint)",
      {std::to_string(catalog_id), table_id});
  int64_t count = requeued.ok() ? requeued->affected_rows() : 0;
  Result<std::string> outcome = requeued.ok()
                                    ? Result<std::string>(StrCat("{\"requeued\":", count, "}"))
                                    : Result<std::string>(requeued.error());
  HOGLAKE_RETURN_IF_ERROR(
      RecordMaintenanceRun(*conn, catalog_id, "hydrator", true, started, outcome));
  if (!requeued.ok()) return requeued.error();
  return count;
}

}  // namespace hoglake::catalog
