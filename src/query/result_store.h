// ResultStore: query results as Parquet objects under one root URI
// (file:// or s3://), written while the query streams and read back for any
// format.
//
//   auto writer = store.Create(result_id, schema);   // <root>/<id>.parquet
//   writer->Write(batch) …; auto written = writer->Finish();
//   auto reader = store.OpenReader(written.path);          // batches again
//
// A writer's object appears only when Finish succeeds (the store's streamed
// write commits it); an abandoned writer leaves nothing. Memory: the Parquet
// writer's current row group (rows are flushed into the object in row
// groups of at most kRowGroupRows rows).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "columnar/array.h"
#include "common/random_access.h"
#include "common/status.h"
#include "storage/object_store.h"

namespace hoglake::parquet {
class ParquetReader;
class ParquetWriter;
}  // namespace hoglake::parquet

namespace hoglake::query {

struct WrittenResult {
  std::string path;
  int64_t rows = 0;
  int64_t bytes = 0;
};

class ResultWriter {
 public:
  ~ResultWriter();
  Status Write(const columnar::RecordBatch& batch);
  Result<WrittenResult> Finish();

 private:
  friend class ResultStore;
  ResultWriter() = default;
  std::string path_;
  std::unique_ptr<ObjectWriter> object_;
  std::unique_ptr<parquet::ParquetWriter> parquet_;
  int64_t rows_ = 0;
};

// Reads a stored result back in order.
class ResultReader {
 public:
  ~ResultReader();
  const columnar::SchemaPtr& schema() const;
  int64_t num_rows() const;
  // The next batch, or nullopt at the end.
  Result<std::optional<columnar::RecordBatch>> Next();

 private:
  friend class ResultStore;
  ResultReader() = default;
  std::unique_ptr<parquet::ParquetReader> reader_;
  int next_group_ = 0;
};

class ResultStore {
 public:
  static constexpr int64_t kRowGroupRows = 1 << 20;

  // `root_uri` such as "file:///var/lib/hoglake/results" or
  // "s3://bucket/results".
  static Result<std::unique_ptr<ResultStore>> Open(const std::string& root_uri,
                                                   const S3Config& s3 = {});

  const std::string& root() const { return root_; }
  Result<std::unique_ptr<ResultWriter>> Create(const std::string& result_id,
                                               const columnar::SchemaPtr& schema);
  Result<std::unique_ptr<ResultReader>> OpenReader(const std::string& path);
  // The stored object's bytes verbatim (format=parquet), whole or to be
  // read piece by piece (its size known up front).
  Result<std::string> ReadBytes(const std::string& path);
  Result<std::shared_ptr<RandomAccessSource>> OpenBytes(const std::string& path);
  // Removes stored results; absent objects are fine.
  void Remove(const std::vector<std::string>& paths);

 private:
  std::string root_;
  std::unique_ptr<ObjectStore> store_;
};

}  // namespace hoglake::query
