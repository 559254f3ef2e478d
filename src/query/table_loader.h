// TableLoader: loads into managed tables (hotdata-api.md §2.8,
// POST …/schemas/{s}/tables/{t}/loads).
//
// The source is exactly one of an upload (claimed atomically: a second load
// of it is kCommitConflict, 409), a persisted query result, or inline CSV.
// Its format is `format`, else Parquet when the bytes start with "PAR1",
// else JSON lines when the upload's Content-Type says json, else CSV. Parquet
// and CSV (columns inferred from the header and a sample) can create a
// table; JSON lines needs the table's columns.
//
// Identifiers are lower-cased. A missing namespace/table is created from
// the data's Arrow schema (scalar columns only). An existing table must not
// be partitioned; its columns meet the data's as load_columns.h says: data
// narrower than a column is widened while loading, a wider (promotable)
// column type and a new column (nullable) change the table through the
// catalog's alter (its own snapshot, just before the load's), a nullable
// table column the data lacks is loaded as NULL, anything else is
// kCommitConflict naming the column (and both types). A CSV into an
// existing table reads the table's columns at their types, infers new ones
// and reads absent ones as NULL. The rows are written as one Parquet file
// with the table's field ids under the catalog's data path, its footer
// statistics taken with parquet::ExtractColumnStats, and registered in ONE
// snapshot: ReplaceTableData for replace (zero rows: the table is emptied),
// a commit for append (zero rows: nothing). A load that fails leaves the
// table as it was: a table it created is dropped again, its file removed,
// the upload released for another try. (The one exception: when the data
// commit itself fails after a schema change was applied, the widened or
// added columns stay; the rows do not change.)
//
// The answer names the table, its row count after the load and the Arrow
// schema of its columns as JSON text ({"fields":[{"name","type","nullable"}]}).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "common/status.h"
#include "query/managed_databases.h"
#include "query/result_store.h"
#include "query/run_store.h"
#include "query/upload_store.h"
#include "storage/s3_config.h"

namespace hoglake::query {

enum class LoadMode { kReplace, kAppend };
enum class LoadFormat { kAuto, kParquet, kCsv, kJsonLines };

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
              S3Config s3)
      : managed_(managed), uploads_(uploads), runs_(runs), results_(results), s3_(std::move(s3)) {}

  Result<LoadResult> Load(const LoadRequest& request);

 private:
  struct Source;
  Result<Source> ReadSource(const LoadRequest& request);

  ManagedDatabases* managed_;
  UploadStore* uploads_;
  RunStore* runs_;
  ResultStore* results_;
  S3Config s3_;
};

}  // namespace hoglake::query
