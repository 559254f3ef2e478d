// ParquetWriter: writes record batches of one schema as a Parquet file.
//
//   auto writer = ParquetWriter::OpenFile("/tmp/t.parquet", schema);
//   HOGLAKE_RETURN_IF_ERROR((*writer)->WriteBatch(batch));   // any number
//   auto summary = (*writer)->Close();  // footer metadata + footer_size
//
// The file: "PAR1", row groups of column chunks (optional dictionary page,
// then v1 data pages), the compact-Thrift FileMetaData, its length as a LE
// u32, "PAR1". Column types, annotations and field ids follow schema.h;
// every column chunk carries statistics (min/max in the type's sort order,
// exact and untruncated, plus null_count) and the footer lists TYPE_ORDER for
// every leaf. `created_by` is "hoglake version <version>".
//
// Row groups end after `max_row_group_rows` rows or once the buffered,
// compressed chunks reach `max_row_group_bytes` (checked every few thousand
// rows), so memory stays around one row group. A batch whose schema differs
// from the writer's is refused (InvalidArgument), as is one that fails
// columnar::ValidateBatch. After an error the writer should be abandoned.
//
// With several threads (WriterOptions::threads), the columns of a batch are
// encoded and compressed concurrently, one task per column, whenever the
// row-group byte limit provably cannot be reached before the batch or the
// row group ends (always, for realistic limits); chunks are also finished
// concurrently. Columns with nested types keep the one-thread path. Bytes
// are written to the sink from the calling thread, in order.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "columnar/array.h"
#include "parquet/column_writer.h"
#include "parquet/metadata.h"

namespace hoglake::parquet {

struct WriterOptions {
  Codec codec = Codec::kZstd;  // also SNAPPY, GZIP, LZ4_RAW, BROTLI, UNCOMPRESSED
  int compression_level = 0;   // 0: the codec's default
  bool dictionary = true;
  int64_t dictionary_page_size_limit = 1 << 20;
  int64_t data_page_size = 1 << 20;
  int64_t max_page_rows = 20000;
  int64_t max_row_group_rows = 1 << 20;
  int64_t max_row_group_bytes = int64_t{128} << 20;
  // Threads encoding and compressing the column chunks of a row group:
  // 0 = hardware concurrency (capped, parallel.h), 1 = all on the calling
  // thread. The file is byte-for-byte the same for any value.
  int threads = 0;
  // Extra footer key/value metadata (e.g. application tags).
  columnar::KeyValueMetadata key_value_metadata;
};

// What Close() reports about the finished file.
struct WriteSummary {
  FileMetaData metadata;
  // Length of the serialized FileMetaData: the LE u32 in bytes [-8, -4) of
  // the file, excluding the 8-byte suffix (reference/pyhoglake-writer.md §3.4).
  int64_t footer_size = 0;
  int64_t file_size = 0;
};

// The `created_by` string this build writes.
std::string CreatedBy();

class ParquetWriter {
 public:
  // Creates (truncates) the file at `path`.
  static Result<std::unique_ptr<ParquetWriter>> OpenFile(const std::string& path,
                                                         columnar::SchemaPtr schema,
                                                         WriterOptions options = {});
  // Appends the file's bytes to `*out`, which must outlive the writer.
  static Result<std::unique_ptr<ParquetWriter>> OpenBuffer(std::string* out,
                                                           columnar::SchemaPtr schema,
                                                           WriterOptions options = {});
  // Hands the file's bytes, in order, to `sink` (e.g. an object store's
  // streamed write); a sink error fails the write that produced the bytes.
  static Result<std::unique_ptr<ParquetWriter>> OpenSink(
      std::function<Status(std::string_view)> sink, columnar::SchemaPtr schema,
      WriterOptions options = {});
  ~ParquetWriter();
  ParquetWriter(const ParquetWriter&) = delete;
  ParquetWriter& operator=(const ParquetWriter&) = delete;

  Status WriteBatch(const columnar::RecordBatch& batch);
  // Ends the current row group now (no-op when it is empty).
  Status FlushRowGroup();
  // Flushes, writes the footer and closes the sink. Call once.
  Result<WriteSummary> Close();

  struct Impl;

 private:
  explicit ParquetWriter(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace hoglake::parquet
