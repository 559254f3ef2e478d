// libhoglake: the C++ SDK for a hoglake catalog (pyhoglake-writer §1).
//
//   hoglake::client::HoglakeClient client("http://127.0.0.1:8080");
//   HOGLAKE_ASSIGN_OR_RETURN(auto catalog, client.CreateCatalog("lake", "file:///srv/lake/"));
//   HOGLAKE_ASSIGN_OR_RETURN(auto ns, catalog.CreateNamespace("analytics"));
//   HOGLAKE_ASSIGN_OR_RETURN(auto table, ns.CreateTable("events", columns));
//   HOGLAKE_ASSIGN_OR_RETURN(auto appended, table.Append(batch));
//
// Handles (Catalog, Namespace, Table, View) are cheap values sharing the
// client's connection pool and object stores; they talk to the server only
// over the REST contract. All calls are safe from several threads, except
// that one Table handle's pinned identity should not be mutated (Alter,
// Drop, Append adopting a pre-flight read) from two threads at once.
//
// Errors: see errors.h. Every refusal of caller input made on this side
// (reserved `_hog` names, a batch that does not match the table, travel
// parameters given twice) happens before any request or upload.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "client/errors.h"
#include "client/models.h"
#include "client/transport.h"
#include "columnar/array.h"
#include "common/status.h"
#include "storage/s3_config.h"

struct ArrowArrayStream;

namespace hoglake {
class ObjectStore;
}

namespace hoglake::client {

struct ClientContext;  // shared state: transport, S3 config, object stores

// Time travel for reads: at most one of the two (both → kValidation, no request).
struct TimeTravel {
  std::optional<int64_t> snapshot;
  std::optional<std::string> at_timestamp;  // ISO-8601, sent verbatim
};

// A column to create (CreateTable, add_column). Containers carry children:
// list → one child (renamed "element" on the wire), map → key then value
// (renamed "key"/"value", key sent non-null), struct → ≥ 1 member.
struct ColumnDef {
  std::string name;
  iceberg::TypeSpec type;
  bool nullable = true;
  std::optional<std::string> comment;
  std::vector<ColumnDef> children;
  // variant only: the shredding declaration (JSON text), sent as
  // type_params {"shredding": …}; unset sends no type_params.
  std::optional<std::string> shredding_json;
};

// Column definitions inferred from an Arrow-layout schema (§2.1): refused
// types are kValidation errors whose message contains "supported types".
Result<std::vector<ColumnDef>> ColumnDefsFromSchema(const columnar::Schema& schema);

// One alter op as it goes on the wire: {"op": name, …body}.
struct AlterOp {
  std::string op;
  std::string body_json;  // the members after "op", as JSON text without braces
};
AlterOp AddColumn(const ColumnDef& column, std::optional<std::string> parent = std::nullopt);
AlterOp DropColumn(std::string_view name);
AlterOp RenameColumn(std::string_view from, std::string_view to);
AlterOp PromoteColumn(std::string_view name, iceberg::ColumnType to);
AlterOp RenameTable(std::string_view new_name);
struct PartitionFieldDef {
  int32_t source_field_id = 0;
  std::string transform;  // identity, bucket, truncate, year, month, day, hour
  std::optional<int32_t> transform_param;
};
AlterOp SetPartitionSpec(const std::vector<PartitionFieldDef>& fields);
struct SortFieldDef {
  int32_t source_field_id = 0;
  std::string direction = "asc";          // asc | desc
  std::string null_order = "nulls_last";  // nulls_first | nulls_last
};
AlterOp SetSortOrder(const std::vector<SortFieldDef>& fields);
AlterOp SetTableComment(std::optional<std::string> comment);
AlterOp SetColumnComment(std::string_view name, std::optional<std::string> comment);
AlterOp SetProperties(const std::map<std::string, std::string>& properties);

// The columns a table created from `columns` will have, with the field ids
// and ordinals the server assigns (depth-first pre-order from 1, contract
// §2.5; list/map children named "element"/"key"/"value", a map key not
// null). A table does not exist before CreateTable returns, so partition
// and sort fields for it name their sources by these promised ids.
std::vector<Column> PromisedColumns(const std::vector<ColumnDef>& columns);
// The promised field id of the column at dotted `path` (top-level names,
// struct members); kValidation naming the path when there is none.
Result<int32_t> PromisedFieldId(const std::vector<ColumnDef>& columns, std::string_view path);

// The guard of an atomic replacement (contract §2.10): at `read_snapshot`
// the target name held `expected_table_uuid` (nullopt: no live table), and
// it sees no DDL after it until the replacement publishes.
struct TableReplacement {
  std::optional<std::string> expected_table_uuid;
  int64_t read_snapshot = 0;
};

// Namespace::CreateTable's options. The declared constructor keeps this
// from being an aggregate, so `CreateTable(n, cols, {{"k", "v"}})` still
// means the properties overload.
struct CreateTableOptions {
  CreateTableOptions() = default;
  // Source ids are promised ids (PromisedColumns / PromisedFieldId).
  std::vector<PartitionFieldDef> partition_by;
  std::vector<SortFieldDef> sort_by;
  std::optional<std::string> comment;
  std::map<std::string, std::string> properties;
  // Set: replace the table of that name atomically (ReplaceTable).
  std::optional<TableReplacement> replacement;
  // The table-creation operation id (a UUID). Empty: a fresh random v4.
  // Give the id an earlier failed call reported (ErrorCreationOperation) to
  // resume that operation instead of starting another.
  std::string operation_id;
};

// Table::Append's options (pyhoglake-writer §7–§9).
struct AppendOptions {
  std::optional<std::string> author;
  std::optional<std::string> message;
  // Register files without column_stats; the server hydrates them later.
  bool deferred_stats = false;
  // The incarnation guard: unset → the handle's table_uuid; a uuid → that
  // value; `unguarded` → no pre-flight check and no expected_table_uuid sent.
  std::optional<std::string> expected_table_uuid;
  bool unguarded = false;
  // Conflict basis; unset: none for unpartitioned tables, the pre-flight
  // read's read_snapshot_id for partitioned ones.
  std::optional<int64_t> read_snapshot;
  // Parquet row-group size in rows (0: the writer's default).
  int64_t row_group_rows = 0;
};

struct AppendedFile {
  std::string path;
  int64_t record_count = 0;
  int64_t file_size_bytes = 0;
  std::optional<std::vector<std::optional<std::string>>> partition_values;
};
struct AppendResult {
  int64_t snapshot_id = 0;
  std::optional<int64_t> schema_version;
  std::vector<AppendedFile> files;
};

// One caller-written Parquet file for PrepareAppendFiles: uploaded byte for
// byte, registered with the partition tuple the caller vouches for
// (nullopt for an unpartitioned destination).
struct PreparedFile {
  std::string local_path;
  std::optional<std::vector<std::optional<std::string>>> partition_values;
};
struct PrepareOptions {
  std::string idempotency_key;  // a UUID; the payload's receipt key
  // The incarnation the files were written for (default: the handle's).
  std::optional<std::string> expected_table_uuid;
  // When set, the destination's columns, partition spec and sort spec must
  // still equal these ("prepared append destination layout changed").
  std::optional<TableInfo> expected_table_info;
  // Accept OPTIONAL Parquet fields for NOT NULL columns when every row
  // group's statistics prove zero nulls (DuckDB writes every field OPTIONAL).
  bool allow_optional_fields = false;
  int concurrency = 0;  // parallel uploads; 0: min(files, 16)
};
// What PrepareAppendFiles did: the commit payload to persist and publish
// with CommitPrepared (replay it verbatim on uncertainty), its conflict
// basis, and the URIs it uploaded (input order).
struct PreparedAppend {
  std::string payload_json;
  int64_t read_snapshot = 0;
  std::vector<std::string> uploaded_uris;
};
// One group for PrepareAppendTables: rows the caller vouches belong to one
// partition tuple (nullopt for an unpartitioned destination), written as
// one Parquet file.
struct PreparedBatches {
  std::vector<columnar::RecordBatch> batches;
  std::optional<std::vector<std::optional<std::string>>> partition_values;
};

class Table {
 public:
  const TableInfo& info() const { return info_; }
  const std::string& name() const { return info_.name; }
  const std::string& namespace_name() const { return info_.namespace_name; }
  const std::string& catalog_name() const { return catalog_; }
  const std::string& table_uuid() const { return info_.table_uuid; }
  // "ns.t"
  std::string qualified_name() const;
  // The DDL pin: the snapshot this handle's create/alter made (reads without
  // travel pin to it); moved forward by this handle's appends so that it
  // reads its own writes; cleared by Drop.
  std::optional<int64_t> ddl_snapshot() const { return ddl_snapshot_; }

  // GET the table (a head read without travel refreshes this handle).
  Result<TableInfo> Info(const TimeTravel& travel = {}, bool totals = true);
  struct FilesQuery {
    std::optional<int64_t> limit;
    std::optional<int64_t> offset;
    std::optional<std::string> sort;   // id, path, record_count, size, stats, begin_snapshot
    std::optional<std::string> order;  // asc, desc
  };
  Result<std::vector<DataFile>> Files(const TimeTravel& travel = {}, const FilesQuery& query = {});
  Result<std::vector<ScanFile>> ScanPlan(const TimeTravel& travel = {});
  Result<FileStats> GetFileStats(int64_t data_file_id, const TimeTravel& travel = {});
  Result<ChangesPlan> Changes(int64_t from_snapshot, std::optional<int64_t> to_snapshot = {});
  // Applies ops atomically as one DDL snapshot; adopts the receipt.
  Result<TableInfo> Alter(const std::vector<AlterOp>& ops);
  Result<CommitResult> Drop();

  // The writer path: validate `batch` against the table's columns, write
  // Parquet with field ids (one file per partition tuple), upload under
  // `<data_path>/data/<ns>/<table>/`, register everything in one commit.
  Result<AppendResult> Append(const columnar::RecordBatch& batch,
                              const AppendOptions& options = {});
  // Several batches of one schema as one append (files split per partition).
  Result<AppendResult> Append(const std::vector<columnar::RecordBatch>& batches,
                              const AppendOptions& options = {});
  // Drains an Arrow C stream (which it releases) into one append.
  Result<AppendResult> Append(ArrowArrayStream* stream, const AppendOptions& options = {});
  // Prepared commits (pyhoglake-writer §10): validates every file against
  // the destination (schema and field ids, arity, rows, native VARIANT
  // storage) before the first upload, uploads them under
  // `<data_path>/data/<ns>/<table>/<idempotency_key>/<uuid>-<i>.parquet`,
  // and returns the payload. On an upload failure the error is returned and
  // `*uploaded` (when given) lists the URIs that landed, in input order —
  // sweep those by URI, never by prefix.
  Result<PreparedAppend> PrepareAppendFiles(const std::vector<PreparedFile>& files,
                                            const PrepareOptions& options,
                                            std::vector<std::string>* uploaded = nullptr);
  // PrepareAppendFiles for in-memory rows (pyhoglake prepare_append_tables):
  // each group is aligned to the table (AlignBatch, as Append) and encoded
  // to an in-memory Parquet buffer (no temp file), then validated,
  // registered and uploaded exactly as a file would be — the registrations
  // equal PrepareAppendFiles' for the same rows except `path`. A
  // destination with a variant column is refused before any upload
  // ("cannot prepare Arrow tables for a destination with variant columns:
  // …"). Every group is encoded before the first upload (all buffers are
  // held in memory). `*uploaded` as PrepareAppendFiles.
  Result<PreparedAppend> PrepareAppendTables(const std::vector<PreparedBatches>& groups,
                                             const PrepareOptions& options,
                                             std::vector<std::string>* uploaded = nullptr);
  // POST …/commit/prepared with a payload from PrepareAppendFiles (safe to
  // replay: the idempotency key returns the stored receipt). On an error
  // the writer cache is dropped when the error is RePrepare(), or when it
  // is not Retryable() and the payload's read_snapshot is the cached one; a
  // 410 also forgets the catalog's cached retention.
  Result<CommitResult> CommitPrepared(std::string_view payload_json);

  // The writer cache (pyhoglake-writer §8.4): the read_snapshot_id and
  // steady-clock time of this handle's last head read (GetTable, Info()
  // without travel, a prepare pre-flight, an Alter receipt; none when the
  // server sent no read_snapshot_id). While younger than half the
  // catalog's snapshot_retention_seconds a prepare without
  // expected_table_info makes no GET and uses it as the payload's
  // read_snapshot. Invalidate() drops it (the next prepare reads the head
  // and the table again).
  void Invalidate() { writer_cache_.reset(); }
  std::optional<int64_t> cached_read_snapshot() const {
    return writer_cache_ ? std::optional<int64_t>(writer_cache_->read_snapshot) : std::nullopt;
  }

  // Pulls batches until nullopt (or an error, which abandons the append) —
  // one commit for all of them. The first batch is read before any request.
  using BatchSource = std::function<Result<std::optional<columnar::RecordBatch>>()>;
  Result<AppendResult> Append(const BatchSource& next, const AppendOptions& options = {});

 private:
  friend class Namespace;
  friend class Catalog;
  friend struct AppendPath;
  friend struct PreparePath;
  Table(std::shared_ptr<ClientContext> context, std::string catalog, std::string data_path,
        TableInfo info);
  std::string Route() const;  // "/catalogs/c/namespaces/n/tables/t", encoded
  // Seeds the writer cache from a head read of this table (resets it when
  // the read carries no read_snapshot_id).
  void SeedWriterCache(const TableInfo& head);

  struct WriterCache {
    int64_t read_snapshot = 0;
    std::chrono::steady_clock::time_point read_at;
    std::string table_uuid;
  };

  std::shared_ptr<ClientContext> context_;
  std::string catalog_;
  std::string data_path_;
  TableInfo info_;
  std::optional<int64_t> ddl_snapshot_;
  std::optional<WriterCache> writer_cache_;
};

class View {
 public:
  const ViewInfo& info() const { return info_; }
  Result<CommitResult> Drop();

 private:
  friend class Namespace;
  View(std::shared_ptr<ClientContext> context, std::string route, ViewInfo info)
      : context_(std::move(context)), route_(std::move(route)), info_(std::move(info)) {}
  std::shared_ptr<ClientContext> context_;
  std::string route_;
  ViewInfo info_;
};

class Namespace {
 public:
  const std::string& name() const { return name_; }
  const std::string& catalog_name() const { return catalog_; }

  // POST …/tables: columns (with their comments) and properties, one
  // snapshot.
  Result<Table> CreateTable(std::string_view name, const std::vector<ColumnDef>& columns,
                            const std::map<std::string, std::string>& properties);
  // Creates the table with its partition spec, sort order, comment and
  // properties in one snapshot (contract §2.5, §2.10; create_table.cc):
  //  - nothing but comment/properties/column comments and no replacement:
  //    the plain POST …/tables above (it takes all of them);
  //  - otherwise an atomic table creation under options.operation_id:
  //    PUT …/table-creations/{op} on the one endpoint that accepts the
  //    definition (/sorted when sort fields are given, partition fields
  //    riding along; /partitioned for partition fields alone; /metadata for
  //    comment/properties/column comments alone; the plain one otherwise),
  //    POST …/{op}/commit with no files, then GET the table as of the
  //    committed snapshot. The ids the prepare promised must equal
  //    PromisedColumns (else the operation is aborted: kInternal).
  //  - No endpoint accepts a spec together with comment/properties/column
  //    comments. Such a create publishes the table with its spec atomically
  //    and then applies the rest with one Alter: TWO snapshots, but the
  //    table is never visible without its spec. A comment inside a list or
  //    map cannot be altered later, so that combination is refused
  //    (kValidation) before any request.
  // Retries: an identical re-prepare or re-publish answers the stored
  // operation, so the PUT and the publish are retried (transport failures,
  // 503) with the same op id. A publish that still fails on the transport
  // is fenced with POST …/abort: `committed` there means it went through;
  // `aborted` means nothing was created and the error is returned.
  // Refusals: a `rejected`/`aborted` answer is an error whose code follows
  // its reason (errors.h: target_exists → kAlreadyExists, …); every error
  // after the op id was chosen names it (ErrorCreationOperation).
  Result<Table> CreateTable(std::string_view name, const std::vector<ColumnDef>& columns,
                            const CreateTableOptions& options = CreateTableOptions());
  // CreateTable with options.replacement = `replacement` (always the
  // atomic path): drops the table `replacement` names and creates this one
  // in one snapshot; a target that changed is kTableRecreated
  // (target_changed) or a 409 at prepare.
  Result<Table> ReplaceTable(std::string_view name, const std::vector<ColumnDef>& columns,
                             const TableReplacement& replacement,
                             CreateTableOptions options = CreateTableOptions());
  Result<Table> GetTable(std::string_view name);
  Result<std::vector<TableSummary>> ListTables(const TimeTravel& travel = {});
  Result<View> CreateView(std::string_view name, std::string_view sql,
                          std::string_view dialect = "trino");
  Result<View> GetView(std::string_view name);
  Result<std::vector<ViewInfo>> ListViews();
  Result<CommitResult> Drop();

 private:
  friend class Catalog;
  Namespace(std::shared_ptr<ClientContext> context, std::string catalog, std::string data_path,
            std::string name)
      : context_(std::move(context)),
        catalog_(std::move(catalog)),
        data_path_(std::move(data_path)),
        name_(std::move(name)) {}
  std::string Route() const;
  // POST …/tables with optional comment and properties.
  Result<Table> PostTable(std::string_view name, const std::vector<ColumnDef>& columns,
                          const std::optional<std::string>& comment,
                          const std::map<std::string, std::string>& properties);
  // GET …/tables/{name}?snapshot=S after an atomic create (the DDL pin).
  Result<Table> CreatedTable(std::string_view name, int64_t snapshot, std::string_view table_uuid);

  std::shared_ptr<ClientContext> context_;
  std::string catalog_;
  std::string data_path_;
  std::string name_;
};

// Pages through GET …/snapshots by itself: ascending from `after`, or
// descending from `before` when that is set.
class SnapshotIterator {
 public:
  // The next snapshot; nullopt once exhausted.
  Result<std::optional<Snapshot>> Next();

 private:
  friend class Catalog;
  SnapshotIterator(std::shared_ptr<ClientContext> context, std::string route,
                   std::optional<int64_t> after, std::optional<int64_t> before, int64_t limit)
      : context_(std::move(context)),
        route_(std::move(route)),
        after_(after),
        before_(before),
        limit_(limit) {}
  std::shared_ptr<ClientContext> context_;
  std::string route_;
  std::optional<int64_t> after_, before_;
  int64_t limit_;
  std::vector<Snapshot> page_;
  size_t next_ = 0;
  bool exhausted_ = false;
};

class Catalog {
 public:
  const CatalogInfo& info() const { return info_; }
  const std::string& name() const { return info_.name; }
  const std::string& data_path() const { return info_.data_path; }

  Result<CatalogInfo> Refresh();
  Result<Namespace> CreateNamespace(std::string_view name);
  // No GET exists for one namespace: lists and answers kNotFound when absent.
  Result<Namespace> GetNamespace(std::string_view name);
  // A handle without a request (for callers that know it exists).
  Namespace NamespaceHandle(std::string_view name) const;
  Result<std::vector<std::string>> ListNamespaces(const TimeTravel& travel = {});
  // "ns.table" convenience.
  Result<Table> GetTable(std::string_view namespace_name, std::string_view table_name);

  // `before` set → descending (after must then be 0, else kValidation).
  Result<SnapshotIterator> Snapshots(int64_t after = 0, std::optional<int64_t> before = {},
                                     int64_t limit = 1000);

  Result<CatalogOptions> Options();
  // seconds: nullopt disables expiry; consumer_floor: nullopt leaves it.
  // Also forgets the retention the writer cache read for this catalog.
  Result<CatalogOptions> SetRetention(std::optional<int64_t> seconds,
                                      std::optional<bool> consumer_floor = {});
  Result<ExpiryResult> Expire(std::optional<int64_t> batch = {});
  Result<CleanupResult> Cleanup(std::optional<int64_t> batch = {});

  Result<ConsumerOffset> CommitOffset(std::string_view consumer_id, std::string_view table_uuid,
                                      int64_t snapshot_id);
  Result<std::vector<ConsumerOffset>> Offsets(std::string_view consumer_id);
  // nullopt when none is stored (404 is "none", not an error).
  Result<std::optional<ConsumerOffset>> Offset(std::string_view consumer_id,
                                               std::string_view table_uuid);

  // POST …/commit with a caller-built CommitRequest body (contract §4.1).
  // Keyed bodies (idempotency_key) are retried safely.
  Result<CommitResult> Commit(std::string_view request_json, bool keyed = false);

 private:
  friend class HoglakeClient;
  Catalog(std::shared_ptr<ClientContext> context, CatalogInfo info)
      : context_(std::move(context)), info_(std::move(info)) {}
  std::string Route() const;

  std::shared_ptr<ClientContext> context_;
  CatalogInfo info_;
};

class HoglakeClient {
 public:
  // `base_url` like "http://127.0.0.1:8080". `s3` configures s3:// data
  // paths (completed from the AWS environment); file:// needs nothing.
  explicit HoglakeClient(std::string base_url, S3Config s3 = {}, ClientOptions options = {});
  ~HoglakeClient();

  Result<Catalog> CreateCatalog(std::string_view name, std::string_view data_path);
  Result<Catalog> GetCatalog(std::string_view name);
  Result<std::vector<CatalogInfo>> ListCatalogs();

  const std::shared_ptr<ClientContext>& context() const { return context_; }

 private:
  std::shared_ptr<ClientContext> context_;
};

// The shared state behind every handle.
struct ClientContext {
  ClientContext(std::string base_url, S3Config s3, ClientOptions options);
  ~ClientContext();
  Transport transport;
  S3Config s3;
  // The object store serving `data_path` (opened once per root, cached).
  Result<ObjectStore*> StoreFor(std::string_view data_path);

  // The writer cache's clock (tests may replace it before any handle uses
  // it; not synchronized).
  std::function<std::chrono::steady_clock::time_point()> now = [] {
    return std::chrono::steady_clock::now();
  };
  // The snapshot_retention_seconds of `catalog` for the writer cache
  // (§8.4): read once via GET /catalogs/{c}/options and cached per catalog
  // name; nullopt = no retention (infinite). When the options cannot be
  // read it answers 1800 and retries the read at most once per 60 s.
  std::optional<int64_t> WriterRetention(const std::string& catalog);
  // Forgets the cached retention of `catalog` (SetRetention, a commit 410).
  void ForgetRetention(const std::string& catalog);

  struct Stores;
  std::unique_ptr<Stores> stores;
  struct Retentions;
  std::unique_ptr<Retentions> retentions;
};

}  // namespace hoglake::client
