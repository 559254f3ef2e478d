// CatalogService: the control plane's operations over PostgreSQL, one method
// per contract operation, each a single transaction (reads) or a single
// CommitScope (mutations). Errors carry the contract's codes (common/status.h)
// with messages naming what was wrong; the HTTP layer only translates.
//
// Thread-safe: each call borrows a connection from the pool.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "catalog/commit/commit_batcher.h"
#include "catalog/commit/commit_request.h"
#include "catalog/commit/commit_scope.h"
#include "catalog/commit/commit_state_cache.h"
#include "catalog/commit/table_creations.h"
#include "catalog/commit/table_replace.h"
#include "catalog/commit/uploads.h"
#include "catalog/ddl/alter_ops.h"
#include "catalog/maintenance/maintenance_info.h"
#include "catalog/maintenance/maintenance_status.h"
#include "catalog/model/feed_info.h"
#include "catalog/model/file_info.h"
#include "catalog/model/table_info.h"
#include "catalog/reads/partition_values.h"
#include "catalog/reads/snapshot_selector.h"
#include "pg/advisory_locks.h"
#include "pg/pg_pool.h"
#include "storage/data_path_policy.h"

namespace hoglake::catalog {

class BatchMember;  // commit_batch.h

struct CatalogServiceOptions {
  // Bound on waiting for a catalog's commit lock (0 = unbounded).
  int64_t commit_lock_timeout_ms = 30000;
  // How long a group-commit batch may wait for the catalog's recent writers
  // to come back before it starts (commit_batcher.h, "Gathering"); 0 = off.
  int64_t commit_gather_micros = 0;
  // Told about every request-path wait for a commit lock (commits, DDL,
  // namespace/table/view create and drop, catalog creation) that ends granted
  // or timed out; background maintenance (expiry, retirement) is not reported.
  // Lets the server layer keep metrics without the catalog depending on it.
  // May be empty.
  CommitLockObserver commit_lock_observer;
  // Told the number of commit requests of every group-commit batch run (a
  // batch is one PostgreSQL transaction). May be empty.
  std::function<void(size_t requests)> commit_batch_observer;
  // Whether a catalog's batches may write on the state its last batch left,
  // in one round trip (commit_state_cache.h); false: every batch reads
  // first.
  bool commit_state_cache = true;
  // How long a cleanup claim holds its rows before another worker may take
  // them over (a worker killed between claim and settle leaves them claimed).
  int64_t cleanup_claim_lease_seconds = 900;
  // Told how every group-commit batch ran: "cached" (one round trip on the
  // last batch's state), "read" (reads, then writes) or "fallback" (a cached
  // attempt abandoned before COMMIT, then read). May be empty.
  std::function<void(std::string_view path)> commit_path_observer;
  // Where catalogs may keep their data: CreateCatalog refuses a data_path
  // outside it (422 validation) and Cleanup never opens, reads or deletes
  // under a catalog whose data_path it no longer allows. Unrestricted by
  // default; `hoglake serve` always restricts (serve_command.cc).
  DataPathPolicy data_paths;
};

// Bounds of one group-commit batch (commit_batcher.h): requests, and files
// over all its requests (a first request is taken whatever its size). 64
// keeps each batch's subtransactions within PostgreSQL's per-backend cache.
inline constexpr size_t kCommitBatchMaxRequests = 64;
inline constexpr int64_t kCommitBatchMaxFiles = 20000;

struct CatalogInfo {
  std::string name;
  std::string data_path;
  int64_t head_snapshot_id = 0;
  int64_t schema_version = 0;
  // Present once expiry has advanced the floor.
  std::optional<int64_t> earliest_snapshot_time_micros;
  int64_t catalog_id = 0;  // internal; not on the wire
};

struct SnapshotChange {
  std::string kind;
  int64_t object_id = 0;
};

struct SnapshotInfo {
  int64_t snapshot_id = 0;
  int64_t snapshot_time_micros = 0;
  int64_t schema_version = 0;
  std::optional<std::string> author;
  std::optional<std::string> message;
  std::vector<SnapshotChange> changes;
};

struct SnapshotPage {
  std::vector<SnapshotInfo> snapshots;
  bool has_more = false;
};

// GET …/snapshots paging (contract §1.8): ids > after ascending, or ids <
// before descending; limit defaults to 1000 and is capped at 10,000.
struct SnapshotListing {
  std::optional<int64_t> after;
  std::optional<int64_t> before;
  std::optional<int64_t> limit;
};

struct CommitReceipt {
  std::string operation;
  int64_t snapshot_id = 0;
  int64_t schema_version = 0;
};

struct ViewInfo {
  std::string name;
  std::string namespace_name;
  std::string view_uuid;
  std::string dialect;
  std::string sql;
};

struct NamespaceInfo {
  std::string name;
  int64_t namespace_id = 0;
};

class CatalogService {
 public:
  CatalogService(pg::PgPool* pool, CatalogServiceOptions options);

  // ---- catalogs ----
  // Creates the catalog and its snapshot 0. kAlreadyExists, kValidation (name,
  // data_path, overlap with another catalog's data_path).
  Result<CatalogInfo> CreateCatalog(std::string_view name, std::string_view data_path);
  Result<std::vector<CatalogInfo>> ListCatalogs();
  Result<CatalogInfo> GetCatalog(std::string_view name);

  // ---- namespaces ----
  // Namespaces live at the selected snapshot, ordered by name.
  Result<std::vector<NamespaceInfo>> ListNamespaces(std::string_view catalog,
                                                    const SnapshotSelector& at);
  Result<NamespaceInfo> CreateNamespace(std::string_view catalog, std::string_view name);
  Result<NamespaceInfo> GetNamespace(std::string_view catalog, std::string_view name);
  // kNamespaceNotEmpty while it holds live tables or views; kCommitConflict
  // when `expected_namespace_id` names another incarnation.
  Result<CommitResult> DropNamespace(std::string_view catalog, std::string_view name,
                                     std::optional<int64_t> expected_namespace_id);

  // ---- tables ----
  // Tables live at the selected snapshot in the namespace, ordered by name.
  Result<std::vector<TableSummary>> ListTables(std::string_view catalog,
                                               std::string_view namespace_name,
                                               const SnapshotSelector& at);
  // Creates the table (one snapshot, table_created); the result is the table
  // at the new snapshot with `snapshot_id` set.
  Result<TableInfo> CreateTable(std::string_view catalog, std::string_view namespace_name,
                                CreateTableRequest request);
  // `with_totals` adds exact record/file counts at the resolved snapshot.
  Result<TableInfo> GetTable(const TableRef& table, const SnapshotSelector& at, bool with_totals);
  // kCommitConflict when `expected_table_uuid` names another incarnation.
  Result<CommitResult> DropTable(const TableRef& table,
                                 std::optional<std::string> expected_table_uuid);
  // Applies the ops in order, atomically, in one snapshot with one
  // table_altered change and a schema-version bump (alter_ops.h lists the
  // op errors); the result is the table at the new snapshot with
  // `snapshot_id` set. kCommitConflict on an `expected_table_uuid` mismatch;
  // read_snapshot: kValidation outside [0, head], kExpired below the floor,
  // kDdlSinceReadSnapshot after an alter/drop of this table.
  Result<TableInfo> AlterTable(const TableRef& table, AlterTableRequest request);
  // Ends every live data file of the table in one snapshot (table_altered +
  // table_deleted_from, schema-version bump); keeps uuid, schema, specs,
  // properties and the row-id allocator. kCommitConflict on a uuid mismatch.
  Result<CommitResult> TruncateTable(const TableRef& table, const std::string& expected_table_uuid);
  // Replaces the table's data in one snapshot (table_replace.h): every live
  // data file ended, `files` registered (validated as a commit's), change
  // rows table_altered + table_deleted_from (+ table_inserted_into with
  // files), schema-version bump. Zero files empties the table.
  Result<CommitResult> ReplaceTableData(const TableRef& table, std::vector<FileRegistration> files,
                                        const ReplaceOptions& options);

  // ---- read planning ----
  // Every data file visible at the snapshot, by (row_id_start, id).
  Result<std::vector<DataFileInfo>> Scan(const TableRef& table, const SnapshotSelector& at,
                                         const ScanOptions& options);
  // The same files, handed to `sink` one at a time in plan order (each with
  // its column_stats when asked), so a large plan never holds every file's
  // statistics at once. The stats cap is checked before the first call; an
  // error (the sink's or a later read's) ends the scan and is returned, so a
  // caller must discard what the sink already received.
  Status ScanEach(const TableRef& table, const SnapshotSelector& at, const ScanOptions& options,
                  const std::function<Status(const DataFileInfo&)>& sink);
  Result<std::vector<DataFileInfo>> ListFiles(const TableRef& table, const SnapshotSelector& at,
                                              const FileListing& listing);
  Result<FileStats> GetFileStats(const TableRef& table, const SnapshotSelector& at,
                                 int64_t data_file_id);
  // The distinct partition values over the table's live files at the
  // snapshot, per field of the spec in force then (partition_values.h);
  // only files registered under that spec count. Unpartitioned at the
  // snapshot: no spec_id, no fields. kNotFound when the table is not visible
  // at the snapshot; time-travel errors as ResolveSnapshot.
  Result<PartitionValues> ListPartitionValues(const TableRef& table, const SnapshotSelector& at);
  // Every partition spec of the table begun at or before the selected
  // snapshot that the catalog still holds — the current one and the older
  // ones files may have been written under (expiry removes ended specs) —
  // by ascending spec_id. Errors as ListPartitionValues.
  Result<std::vector<PartitionSpecInfo>> ListPartitionSpecs(const TableRef& table,
                                                            const SnapshotSelector& at);

  // ---- changefeed and consumers ----
  // Files appended to the table in (from, to]; `to` defaults to head.
  Result<ChangePlan> Changes(const TableRef& table, int64_t from, std::optional<int64_t> to);
  Result<std::vector<ConsumerOffset>> ListConsumerOffsets(std::string_view catalog,
                                                          std::optional<std::string_view> consumer);
  Result<ConsumerOffset> GetConsumerOffset(std::string_view catalog, std::string_view consumer,
                                           std::string_view table_uuid);
  // Monotone: kOffsetRegression below the stored offset (equal is fine).
  Result<ConsumerOffset> PutConsumerOffset(std::string_view catalog, std::string_view consumer,
                                           std::string_view table_uuid, int64_t snapshot);

  // ---- options ----
  Result<CatalogOptions> GetOptions(std::string_view catalog);
  Result<CatalogOptions> PatchOptions(std::string_view catalog, const OptionsPatch& patch);

  // ---- commits ----
  // Registers appended files in one snapshot (contract §4). Deletion vectors
  // answer kNotImplemented for now.
  Result<CommitResult> Commit(std::string_view catalog, CommitRequest request,
                              CommitEndpoint endpoint);
  Result<CommitReceipt> GetReceipt(std::string_view catalog, std::string_view operation);

  // ---- views ----
  Result<std::vector<ViewInfo>> ListViews(std::string_view catalog,
                                          std::string_view namespace_name);
  // `dialect` defaults to "trino"; sql must not be blank.
  Result<ViewInfo> CreateView(std::string_view catalog, std::string_view namespace_name,
                              std::string_view name, std::string_view sql,
                              std::optional<std::string> dialect);
  Result<ViewInfo> GetView(std::string_view catalog, std::string_view namespace_name,
                           std::string_view name);
  Result<CommitResult> DropView(std::string_view catalog, std::string_view namespace_name,
                                std::string_view name);

  // ---- maintenance ----
  // Advances the expiry floor by the retention cutoff (never past head, nor
  // past the lowest consumer offset when consumer_floor is on) under the
  // commit lock, then purges unreachable file rows in pages outside it,
  // queueing their paths for cleanup. Every run is recorded in the ledger.
  Result<ExpiryResult> Expire(std::string_view catalog, int64_t batch, bool manual);
  // Drains the removal queue: claims rows (SKIP LOCKED, with a lease), keeps
  // every path a data-file row (live or historical) or an active upload claim
  // still names, deletes the others from object storage and settles the rows,
  // fenced by the claim so two servers never settle the same row. No catalog
  // lock is taken.
  Result<CleanupResult> Cleanup(std::string_view catalog, int64_t batch, bool manual);
  // Retires the live data files of tables dropped at or below the expiry
  // floor (no retained snapshot can read them): per table, batches under the
  // commit lock re-check the floor, delete up to `batch` file rows and queue
  // their paths for cleanup (reason table_drop_gc). Single flight per catalog
  // through a session try-lock (a held lock answers skipped = "lock_held"
  // and records nothing); every other run is recorded in the ledger as task
  // `retirement`. A catalog whose floor never moved retires nothing.
  Result<RetirementResult> Retire(std::string_view catalog, const RetirementOptions& options,
                                  bool manual);
  // Runs newest first, for one catalog or (catalog empty) all of them.
  Result<RunPage> ListRuns(std::string_view catalog, const RunListing& listing);
  // GET …/maintenance/status: every task's cadence, newest run and live
  // backlog (maintenance_status.h), read in one repeatable-read snapshot.
  // kNotFound for an unknown catalog.
  Result<MaintenanceStatusReport> MaintenanceStatus(std::string_view catalog,
                                                    const MaintenanceStatusOptions& options);

  // ---- upload claims (uploads.h, contract §2.11) ----
  // Claims `upload_id` (kBadRequest unless a uuid; owner likewise). Idempotent
  // for the same id and definition; the same id with another definition is
  // kCommitConflict. kValidation: file_kind not data/delete, file_format on a
  // delete claim or unknown, or a generated path not under the data_path
  // (whitespace, dot segments).
  Result<UploadClaim> ClaimUpload(std::string_view catalog, std::string_view upload_id,
                                  const UploadClaimRequest& request);
  // Extends every active claim of `owner` to now + 24 h; returns how many.
  Result<int64_t> RenewUploads(std::string_view catalog, std::string_view owner);
  // Abandons the owner's active claims on `paths` (registered claims are left
  // alone); returns how many. kValidation over kMaxAbandonPaths paths.
  Result<int64_t> AbandonUploads(std::string_view catalog, std::string_view owner,
                                 const std::vector<std::string>& paths);
  // Fences up to `limit` claims that are active with a lapsed lease, or
  // abandoned and never queued (or queued longer than the removal-ledger
  // retention ago), to abandoned and queues their paths for cleanup (reason
  // trino_upload) unless a file row names the path; returns the rows queued.
  // kValidation for a limit outside 1..kScheduleExpiredMaxLimit.
  Result<int64_t> ScheduleExpiredUploads(std::string_view catalog, int64_t limit);

  // ---- atomic table creation (table_creations.h, contract §2.10) ----
  // `operation` is a canonical uuid. Prepare: kValidation (endpoint fields,
  // definition), kNotFound (catalog, namespace), kCommitConflict (another
  // definition under the id; replacement snapshot not retained or target
  // mismatch). Get/Abort: kNotFound when the operation is unknown. Publish:
  // kValidation (file rules), kCommitConflict (another file list replayed,
  // foreign upload claims); durable refusals answer a `rejected` operation.
  // Row and commit lock waits past the bound are kCommitQueueTimeout.
  Result<TableCreation> PrepareTableCreation(std::string_view catalog, std::string_view operation,
                                             TableCreationEndpoint endpoint,
                                             const TableCreationDefinition& definition);
  Result<TableCreation> GetTableCreation(std::string_view catalog, std::string_view operation);
  Result<TableCreation> PublishTableCreation(std::string_view catalog, std::string_view operation,
                                             std::vector<FileRegistration> files,
                                             TableCreationPublish endpoint);
  Result<TableCreation> AbortTableCreation(std::string_view catalog, std::string_view operation);

  // ---- snapshots ----
  // kValidation: limit < 1, or both `before` and a non-zero `after`.
  Result<SnapshotPage> ListSnapshots(std::string_view catalog, const SnapshotListing& listing);
  // The snapshot a read at `at_timestamp_micros` sees (GET …/snapshots/
  // resolve): the newest with snapshot_time <= t, head after head,
  // kExpired before the earliest retained one. Only its id and time are set.
  Result<SnapshotInfo> ResolveSnapshotAt(std::string_view catalog, int64_t at_timestamp_micros);

  // A trivial query on a fresh connection: is the database reachable?
  Status Ping();

 private:
  Result<CatalogInfo> GetCatalogOn(pg::PgConnection& conn, std::string_view name);
  // What never changes about a catalog once created (catalog rows are never
  // deleted, their name and data path never updated): looked up once per
  // process, then answered from memory.
  struct CatalogIdentity {
    int64_t catalog_id = 0;
    std::string data_path;
  };
  Result<CatalogIdentity> IdentifyCatalog(std::string_view name);
  // Opens a read-only repeatable-read transaction on `conn` and resolves the
  // table at the selected snapshot.
  struct TableAt;
  Result<TableAt> OpenTableAt(pg::PgConnection& conn, const TableRef& table,
                              const SnapshotSelector& at);
  // One group-commit batch of a catalog's commits (commit.cc): on the state
  // its last batch left when there is one (RunCachedCommitBatch), else — or
  // when that attempt falls back — reading first (RunCommitBatch).
  Status RunBatch(int64_t catalog_id, const std::string& catalog, pg::PgConnection& conn,
                  std::span<BatchMember* const> members);
  // The catalog's state, unless there is none or the cached path is paused.
  std::optional<CommitStateCache> CommitState(int64_t catalog_id);
  // Replaces the catalog's state (nullopt: forgets it); `pause` > 0 skips
  // the cached path for that many batches.
  void KeepCommitState(int64_t catalog_id, std::optional<CommitStateCache> state, int pause = 0);

  pg::PgPool* pool_;
  CatalogServiceOptions options_;
  std::mutex identities_mutex_;
  std::map<std::string, CatalogIdentity, std::less<>> identities_;
  struct CommitStateSlot {
    std::optional<CommitStateCache> state;
    int pause = 0;
  };
  std::mutex commit_states_mutex_;
  std::map<int64_t, CommitStateSlot> commit_states_;  // by catalog id
  // Group commit of concurrent appends to one catalog (commit.cc).
  std::unique_ptr<CommitBatcher> commit_batcher_ = std::make_unique<CommitBatcher>(
      kCommitBatchMaxRequests, kCommitBatchMaxFiles, options_.commit_gather_micros);
};

}  // namespace hoglake::catalog
