// TableLoader: loads into managed tables (hotdata-api.md §2.8,
// POST …/schemas/{s}/tables/{t}/loads).
//
// The source is exactly one of an upload (claimed atomically: a second load
// of it is kCommitConflict, 409), a persisted query result, or inline CSV.
// Uploads and results are read from the object store by ranged reads and
// never held whole; the rows stream through as load_rows.h says (format
// detection, CSV inference on a bounded sample, Parquet row group by row
// group) and are written as they arrive (load_files.h: one or several
// Parquet files, memory bounded by one row group). Parquet and CSV can
// create a table; JSON lines needs the table's columns. A Parquet source is
// re-encoded, not registered verbatim: the table's files carry the table's
// field ids, lower-cased names, its column order and types (widened,
// NULL-filled) and statistics the catalog trusts, none of which a client's
// file can be relied on to have.
//
// Identifiers are lower-cased. A missing namespace/table is created from
// the data's Arrow schema (scalar columns only). An existing table must not
// be partitioned; its columns meet the data's as load_columns.h says: data
// narrower than a column is widened while loading, a wider (promotable)
// column type — decimal precision of the same scale included — and a new
// column (nullable) change the table through the catalog's alter (its own
// snapshot, just before the load's), a nullable table column the data
// lacks is loaded as NULL, anything else is kCommitConflict naming the
// column (and both types). A load that changes the table's schema reads its
// source twice: a first pass parses every row (keeping none) before the
// alter, so a bad row anywhere fails the load before the table changes.
// The data is registered in ONE snapshot: ReplaceTableData for replace
// (zero rows: the table is emptied), a commit for append (zero rows:
// nothing). A load that fails leaves the table as it was: a table it
// created is dropped again, its files removed, the upload released for
// another try. (The one exception: when the data commit itself fails after
// a schema change was applied, the widened or added columns stay; the rows
// do not change.)
//
// The answer names the table, its row count after the load and the Arrow
// schema of its columns as JSON text ({"fields":[{"name","type","nullable"}]}).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "common/status.h"
#include "query/load/load_files.h"
#include "query/load/load_rows.h"
#include "query/managed_databases.h"
#include "query/result_store.h"
#include "query/run_store.h"
#include "query/upload_store.h"
#include "storage/s3_config.h"

namespace hoglake::query {

enum class LoadMode { kReplace, kAppend };

struct LoadRequest {
  std::string connection_id;
  std::string schema;
  std::string table;
  LoadMode mode = LoadMode::kReplace;
  std::optional<std::string> upload_id;
  std::optional<std::string> result_id;
  std::optional<std::string> data;  // inline CSV
  LoadFormat format = LoadFormat::kAuto;
};

struct LoadResult {
  std::string connection_id;
  std::string schema_name;
  std::string table_name;
  int64_t row_count = 0;
  std::string arrow_schema_json;
};

class TableLoader {
 public:
  // Inline `data` above this many bytes is refused (413 INLINE_DATA_TOO_LARGE).
  static constexpr size_t kMaxInlineBytes = size_t{2} << 20;

  TableLoader(ManagedDatabases* managed, UploadStore* uploads, RunStore* runs, ResultStore* results,
              S3Config s3, LoadFileOptions files = {})
      : managed_(managed),
        uploads_(uploads),
        runs_(runs),
        results_(results),
        s3_(std::move(s3)),
        files_(files) {}

  Result<LoadResult> Load(const LoadRequest& request);

 private:
  struct Source;
  Result<Source> OpenSource(const LoadRequest& request);

  ManagedDatabases* managed_;
  UploadStore* uploads_;
  RunStore* runs_;
  ResultStore* results_;
  S3Config s3_;
  LoadFileOptions files_;
};

}  // namespace hoglake::query
