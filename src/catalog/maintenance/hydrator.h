// Deferred-stats hydration (server digest §7; contract §2.14 rehydrate).
//
// Files registered without column_stats are `pending`. A hydration run over
// one catalog:
//   1. claims up to `batch` pending, live files of non-dropped tables, in
//      data_file_id order, by stamping a per-run token and a lease
//      (hog_data_file.stats_claimed_by / stats_claim_expires_at, V6) in one
//      short statement (FOR UPDATE SKIP LOCKED). Files another run holds
//      under an unexpired lease are not claimed, so two servers never
//      hydrate the same file at once; a crashed run's claims lapse.
//   2. reads each footer from object storage with no transaction and no
//      catalog lock held (hydrator_footer.h: one ranged read when
//      footer_size is known).
//   3. settles each file in its own short transaction guarded by
//      `stats_state = 'pending' AND stats_claimed_by = <token>`: hydrated ⇒
//      stats rows upserted, `provided`, missing_field_ids, split_offsets;
//      structural problem ⇒ `failed` with stats_error (the FileStats
//      no_stats_reason); transient store error ⇒ claim released, file stays
//      pending. A file expired meanwhile (row gone), requeued or re-claimed
//      after a lapsed lease is skipped. Files ended by a later commit are
//      still settled (their stats serve time travel).
// Runs are recorded in the ledger as task `hydrator` with result {claimed,
// hydrated, failed, transient} (+ `skipped` when non-zero); claimed =
// hydrated + failed + transient + skipped.
//
// Thread-safe; object stores are opened once per catalog data path.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "pg/pg_pool.h"
#include "storage/data_path_policy.h"
#include "storage/object_store.h"

namespace hoglake::catalog {

// Files per sweep (server digest §7 "limit 1,000 files per sweep").
inline constexpr int64_t kDefaultHydratorBatch = 1000;

// `hoglake serve` reads them from HOGLAKE_HYDRATOR_BATCH,
// HOGLAKE_HYDRATOR_LEASE_SECONDS and HOGLAKE_HYDRATOR_CLAIM_TIMEOUT_MS (each
// at least 1).
struct HydratorOptions {
  int64_t batch = kDefaultHydratorBatch;  // default files per run / per sweep
  int64_t lease_seconds = 900;            // how long a claim keeps others off a file
  int64_t claim_timeout_ms = 10000;       // statement_timeout of one catalog's claim
  // A catalog whose data_path this refuses is never claimed from nor read
  // (its run fails naming the path). Unrestricted by default.
  DataPathPolicy data_paths;
};

struct HydratorResult {
  int64_t claimed = 0;
  int64_t hydrated = 0;   // marked provided
  int64_t failed = 0;     // marked failed
  int64_t transient = 0;  // left pending (store unavailable, table not loadable)
  int64_t skipped = 0;    // no longer ours to settle (expired, requeued, re-claimed)

  HydratorResult& operator+=(const HydratorResult& other);
  // {"claimed":…,"hydrated":…,"failed":…,"transient":…} (+ "skipped" when > 0).
  std::string ToJson() const;
};

class Hydrator {
 public:
  Hydrator(pg::PgPool* pool, HydratorOptions options);
  Hydrator(const Hydrator&) = delete;
  Hydrator& operator=(const Hydrator&) = delete;

  const HydratorOptions& options() const { return options_; }

  // One run over `catalog` claiming up to `batch` (≥ 1, else kValidation)
  // files; kNotFound for an unknown catalog. Records a ledger row (trigger
  // manual or loop; a loop run that claimed nothing records nothing).
  Result<HydratorResult> HydratePending(std::string_view catalog, int64_t batch, bool manual);

  // The background sweep: up to `limit` files over every catalog, a fair
  // share max(1, limit / catalogs) each starting from a rotating catalog,
  // then the leftover to catalogs that filled their share. One loop ledger
  // row per catalog that claimed anything; a catalog's error is recorded
  // (failed) and the sweep goes on. `cancel` (optional) stops between
  // catalogs. Returns the totals.
  Result<HydratorResult> Sweep(int64_t limit, const std::atomic<bool>* cancel = nullptr);

  // POST …/maintenance/rehydrate: failed → pending for live files of
  // non-dropped tables, of one table when both names are given (kNotFound
  // when it is not live at head), else of the whole catalog. kValidation
  // when only one of namespace/table is given. Records a manual ledger row
  // {requeued}. Returns the number of files requeued.
  Result<int64_t> Rehydrate(std::string_view catalog,
                            const std::optional<std::string>& namespace_name,
                            const std::optional<std::string>& table);

 private:
  struct CatalogRow {
    int64_t catalog_id = 0;
    std::string data_path;
  };
  // One catalog's claim/read/settle; no ledger row.
  Result<HydratorResult> RunCatalog(pg::PgConnection& conn, const CatalogRow& catalog,
                                    int64_t batch);
  Result<std::shared_ptr<ObjectStore>> StoreFor(const std::string& root);

  pg::PgPool* pool_;
  const HydratorOptions options_;
  std::atomic<uint64_t> rotation_;
  std::mutex stores_mutex_;
  std::map<std::string, std::shared_ptr<ObjectStore>> stores_;
};

}  // namespace hoglake::catalog
