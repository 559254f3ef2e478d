// LoadFiles: the data files of one load, written as the rows stream in.
//
// Batches (already in the table's writer schema, field ids included) go
// through the Parquet writer straight into a streamed object write
// (ObjectStore::OpenWriter) under `<catalog data path>data/<ns>/<table>/`,
// so memory stays at the writer's current row group (rows_per_row_group
// rows or its byte limit, parquet/writer.h). A file is closed and a new one
// started once it has taken `target_file_bytes`; Finish closes the last one
// and returns every file's registration (path, counts, sizes, footer
// statistics from parquet::ExtractColumnStats) for ONE catalog commit. No
// rows → no files.
//
// A file's object appears only when it is closed. Abandon (or destroying
// LoadFiles before Finish) aborts the open write and deletes the files
// already closed, so a load that fails leaves no object behind; should the
// process die first, a closed file no snapshot references stays behind
// (the catalog has no orphan-file sweep; docs/query-api.md says so).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "catalog/commit/commit_request.h"
#include "catalog/model/table_info.h"
#include "columnar/array.h"
#include "common/status.h"
#include "storage/object_store.h"

namespace hoglake::parquet {
class ParquetWriter;
}

namespace hoglake::query {

struct LoadFileOptions {
  int64_t target_file_bytes = int64_t{512} << 20;
  int64_t rows_per_row_group = int64_t{1} << 20;
};

class LoadFiles {
 public:
  // `directory`: the table's data directory URI, ending in '/'; `store`
  // serves it and must outlive this.
  LoadFiles(ObjectStore* store, std::string directory, const catalog::TableInfo& table,
            columnar::SchemaPtr writer_schema, LoadFileOptions options);
  ~LoadFiles();
  LoadFiles(const LoadFiles&) = delete;
  LoadFiles& operator=(const LoadFiles&) = delete;

  Status Write(const columnar::RecordBatch& batch);
  Result<std::vector<catalog::FileRegistration>> Finish();
  void Abandon();

  int64_t rows() const { return rows_; }

 private:
  Status OpenFile();
  Status CloseFile();

  ObjectStore* store_;
  std::string directory_;
  std::vector<std::pair<int32_t, iceberg::TypeSpec>> leaves_;
  columnar::SchemaPtr schema_;
  LoadFileOptions options_;
  std::unique_ptr<ObjectWriter> object_;
  std::unique_ptr<parquet::ParquetWriter> writer_;
  std::string open_path_;
  int64_t open_rows_ = 0;
  int64_t rows_ = 0;
  std::vector<catalog::FileRegistration> closed_;
  bool finished_ = false;
};

}  // namespace hoglake::query
