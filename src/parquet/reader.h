// ParquetReader: reads Parquet files into record batches, one per row group.
//
//   auto reader = ParquetReader::OpenFile("/tmp/t.parquet");
//   (*reader)->schema();                     // columnar schema, field ids in metadata
//   HOGLAKE_RETURN_IF_ERROR((*reader)->SelectColumns({"id", "tags"}));
//   auto batch = (*reader)->ReadRowGroup(0);
//
// Opening checks the "PAR1" magic at both ends, that the footer length fits
// inside the file, parses the FileMetaData (metadata.h) and the schema
// (schema.h), and checks every row group against the schema: one chunk per
// leaf, matching physical types, chunk byte ranges inside the file. Errors
// are InvalidData naming what was wrong (encrypted footers: NotImplemented).
//
// Projection keeps top-level columns, chosen by name or by field id, in the
// order given. Bytes come from a RandomAccessSource (common/random_access.h):
// a local file (pread; only the selected chunks of one row group are in
// memory at a time), a caller's buffer (viewed, not copied), or an object in
// a store (storage/object_source.h: ranged GETs). Opening reads the file's
// last 16 KiB and parses the footer from them when it fits (one more read
// when it does not); each row group tells the source the byte ranges of its
// selected column chunks before reading them (a remote source fetches them
// in a few coalesced requests). The leading magic is checked with the tail
// read when that covers it, else with the first row group read.
// The selected columns of a row group are read and decoded concurrently on
// up to ReaderOptions::threads threads (one column per task, largest first);
// the calling thread takes part and the call returns the finished batch. A
// reader is still used from one thread at a time.
// Decoding limits (ReaderLimits) bound what a corrupt file can make us
// allocate.
// The parsed footer is a shareable ParquetFooter (footer.h): a reader opened
// with one a caller kept (a cache of footers) reads no footer bytes at all.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "columnar/array.h"
#include "common/random_access.h"
#include "parquet/column_reader.h"
#include "parquet/metadata.h"

namespace hoglake::parquet {

class ParquetFooter;

struct ReaderOptions {
  ReaderLimits limits;
  int64_t max_footer_bytes = int64_t{64} << 20;
  // Column chunks of a row group decoded at once: 0 = hardware concurrency
  // (capped, parallel.h), 1 = everything on the calling thread. The batches
  // are the same either way.
  int threads = 0;
};

class ParquetReader {
 public:
  static Result<std::unique_ptr<ParquetReader>> Open(std::shared_ptr<RandomAccessSource> source,
                                                     ReaderOptions options = {});
  // Over a footer read earlier from the same file (`footer->file_size()`
  // must equal the source's size, else InvalidArgument); reads no footer.
  static Result<std::unique_ptr<ParquetReader>> Open(std::shared_ptr<RandomAccessSource> source,
                                                     std::shared_ptr<const ParquetFooter> footer,
                                                     ReaderOptions options = {});
  // A local file; errors are prefixed with its path.
  static Result<std::unique_ptr<ParquetReader>> OpenFile(const std::string& path,
                                                         ReaderOptions options = {});
  // Reads from `bytes`, which the reader shares.
  static Result<std::unique_ptr<ParquetReader>> OpenBuffer(std::shared_ptr<const std::string> bytes,
                                                           ReaderOptions options = {});
  ~ParquetReader();
  ParquetReader(const ParquetReader&) = delete;
  ParquetReader& operator=(const ParquetReader&) = delete;

  const FileMetaData& metadata() const;
  // The parsed footer, shareable with other readers of the same file.
  const std::shared_ptr<const ParquetFooter>& footer() const;
  // The serialized FileMetaData length (bytes [-8, -4) of the file).
  int64_t footer_size() const;
  int64_t file_size() const;
  int64_t num_rows() const;
  int num_row_groups() const;
  // The whole file's schema.
  const columnar::SchemaPtr& schema() const;

  // Projection (top-level columns). Unknown names/ids are InvalidArgument.
  Status SelectColumns(const std::vector<std::string>& names);
  Status SelectFieldIds(const std::vector<int32_t>& field_ids);
  void SelectAllColumns();
  // The schema of the batches ReadRowGroup returns.
  const columnar::SchemaPtr& projected_schema() const;

  Result<columnar::RecordBatch> ReadRowGroup(int index);

  // Iteration over row groups (all, or those given to SelectRowGroups).
  Status SelectRowGroups(const std::vector<int>& indices);
  // The next row group's batch, or nullopt after the last one.
  Result<std::optional<columnar::RecordBatch>> Next();

  struct Impl;

 private:
  explicit ParquetReader(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace hoglake::parquet
