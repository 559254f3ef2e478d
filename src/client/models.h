// The SDK's view of the server's responses (contract §2, pyhoglake-writer
// §1.7). Parsing is lenient about what it does not need (unknown members are
// ignored) and strict about what it does: a missing required member or one of
// the wrong JSON type is a MalformedResponse error naming the model and the
// member. Optional members the server omits stay nullopt — never coerced to
// 0 (a table's totals are absent on unsampled head reads).
//
// Every top-level model keeps `json`, the object exactly as the server sent
// it (re-serialized compactly), so the CLI's --json output is the wire shape.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "iceberg/column_type.h"

namespace hoglake::client {

// A column of a table (contract §3.1), children sorted by ordinal.
struct Column {
  std::string name;
  iceberg::TypeSpec type;  // decimal precision/scale from type_params
  int32_t field_id = 0;
  int32_t ordinal = 0;
  bool nullable = true;
  std::optional<std::string> comment;
  std::vector<Column> children;  // list: element; map: key, value; struct: members
};

struct PartitionField {
  int32_t source_field_id = 0;
  std::string transform;  // identity, bucket, truncate, year, month, day, hour
  std::optional<int32_t> transform_param;
  std::optional<int32_t> key_index;
  std::optional<std::string> name;
};
struct PartitionSpec {
  int64_t spec_id = 0;
  std::vector<PartitionField> fields;
};
struct SortField {
  int32_t source_field_id = 0;
  std::string direction;   // asc | desc
  std::string null_order;  // nulls_first | nulls_last
};
struct SortSpec {
  int64_t sort_id = 0;
  std::vector<SortField> fields;
};

struct TableInfo {
  std::string name;
  std::string namespace_name;
  std::string table_uuid;
  std::vector<Column> columns;  // top level, sorted by ordinal
  std::optional<int64_t> record_count, file_count, file_size_bytes;
  std::optional<PartitionSpec> partition_spec;  // absent or with no fields: unpartitioned
  std::optional<SortSpec> sort_spec;
  std::optional<int64_t> snapshot_id;       // only on create/alter receipts
  std::optional<int64_t> read_snapshot_id;  // the snapshot the response was resolved at
  std::optional<std::string> comment;
  std::map<std::string, std::string> properties;
  std::string json;

  bool partitioned() const { return partition_spec && !partition_spec->fields.empty(); }
};

struct TableSummary {
  std::string name;
  std::string table_uuid;
  std::optional<std::string> comment;
  std::optional<int64_t> record_count, file_count, file_size_bytes, snapshot_count,
      earliest_snapshot_id;
  std::string json;
};

struct CatalogInfo {
  std::string name;
  std::string data_path;
  int64_t head_snapshot_id = 0;
  int64_t schema_version = 0;
  std::vector<std::string> capabilities;
  std::string json;
};

struct DataFile {
  int64_t data_file_id = 0;
  std::string path;
  std::string file_format = "parquet";
  int64_t record_count = 0;
  int64_t file_size_bytes = 0;
  std::optional<int64_t> footer_size;
  int64_t row_id_start = 0;
  std::string stats_state;  // provided | pending | failed
  int64_t begin_snapshot = 0;
  std::optional<int64_t> spec_id;
  // By key_index; nullopt entries are JSON nulls. Absent when unpartitioned.
  std::optional<std::vector<std::optional<std::string>>> partition_values;
  bool explicit_row_ids = false;
  std::string json;
};

struct DeleteFile {
  int64_t delete_file_id = 0;
  int64_t data_file_id = 0;
  std::string path;
  int64_t delete_count = 0;
  int64_t file_size_bytes = 0;
  int64_t begin_snapshot = 0;
  std::string json;
};

struct ScanFile {
  DataFile data_file;
  std::optional<DeleteFile> delete_file;
  std::string json;
};

struct ChangesPlan {
  std::string table_uuid;
  int64_t from_snapshot = 0;
  int64_t to_snapshot = 0;
  std::vector<DataFile> files;
  std::vector<DeleteFile> delete_files;
  std::string json;
};

struct SnapshotChange {
  std::string kind;  // table_created, table_inserted_into, …
  std::optional<int64_t> object_id;
};
struct Snapshot {
  int64_t snapshot_id = 0;
  std::string snapshot_time;  // ISO-8601 as the server sent it
  int64_t schema_version = 0;
  std::optional<std::string> author, message;
  std::vector<SnapshotChange> changes;
  std::string json;
};
// One page of GET …/snapshots.
struct SnapshotPage {
  std::vector<Snapshot> snapshots;
  bool has_more = false;
};

struct ConsumerOffset {
  std::string consumer_id;
  std::string table_uuid;
  int64_t committed_snapshot = 0;
  std::string updated_at;
  std::string json;
};

struct CatalogOptions {
  bool consumer_floor = false;
  int64_t earliest_snapshot_id = 0;
  std::optional<int64_t> snapshot_retention_seconds;  // absent: infinite
  std::string json;
};

struct ExpiryResult {
  int64_t snapshots_expired = 0;
  int64_t data_files_queued = 0;
  int64_t delete_files_queued = 0;
  int64_t new_earliest_snapshot_id = 0;
  std::optional<bool> floored_by_consumer;
  int64_t offsets_released = 0;
  std::string json;
};

struct CleanupResult {
  int64_t removed = 0;
  int64_t missing = 0;
  int64_t still_referenced = 0;
  std::string json;
};

struct CommitResult {
  int64_t snapshot_id = 0;
  std::optional<int64_t> schema_version;
  std::string json;
};

struct ViewInfo {
  std::string name;
  std::string namespace_name;
  std::string view_uuid;
  std::string sql;
  std::string dialect;
  std::optional<int64_t> snapshot_id;
  std::string json;
};

// GET …/files/{id}/stats, bounds decoded by the server (kept as JSON text).
struct FileColumnStats {
  int32_t field_id = 0;
  std::string name, path, type;
  int64_t value_count = 0, null_count = 0;
  std::optional<int64_t> nan_count, size_bytes;
  std::string lower_bound_json = "null", upper_bound_json = "null";
};
struct FileStats {
  int64_t data_file_id = 0;
  std::string stats_state;
  std::vector<FileColumnStats> columns;
  std::optional<std::string> no_stats_reason;
  std::string json;
};

// An atomic table creation (contract §2.10): the answer of every
// …/table-creations/{op} route. `state` is prepared | committed | rejected |
// aborted; `reason` (target_exists, namespace_changed, target_changed,
// definition_invalid, client_abort, expired) explains rejected/aborted;
// snapshot_id/schema_version are set once committed. `columns` carry the
// field ids promised at prepare.
struct TableCreation {
  std::string operation_id;
  std::string table_uuid;
  std::string namespace_name;
  std::string name;
  std::vector<Column> columns;
  std::string write_path;
  std::string state;
  std::string expires_at;
  std::optional<int64_t> snapshot_id, schema_version;
  std::optional<std::string> reason;
  std::string json;
};

// Parsers: `text` is the whole response body.
Result<TableInfo> ParseTableInfo(std::string_view text);
Result<std::vector<TableSummary>> ParseTableSummaries(std::string_view text);
Result<CatalogInfo> ParseCatalogInfo(std::string_view text);
Result<std::vector<CatalogInfo>> ParseCatalogInfos(std::string_view text);
Result<std::vector<std::string>> ParseNamespaceNames(std::string_view text);
Result<std::vector<DataFile>> ParseDataFiles(std::string_view text);
Result<std::vector<ScanFile>> ParseScanFiles(std::string_view text);
Result<ChangesPlan> ParseChangesPlan(std::string_view text);
Result<SnapshotPage> ParseSnapshotPage(std::string_view text);
Result<ConsumerOffset> ParseConsumerOffset(std::string_view text);
Result<std::vector<ConsumerOffset>> ParseConsumerOffsets(std::string_view text);
Result<CatalogOptions> ParseCatalogOptions(std::string_view text);
Result<ExpiryResult> ParseExpiryResult(std::string_view text);
Result<CleanupResult> ParseCleanupResult(std::string_view text);
Result<CommitResult> ParseCommitResult(std::string_view text);
Result<ViewInfo> ParseViewInfo(std::string_view text);
Result<std::vector<ViewInfo>> ParseViewInfos(std::string_view text);
Result<FileStats> ParseFileStats(std::string_view text);
Result<TableCreation> ParseTableCreation(std::string_view text);

}  // namespace hoglake::client
