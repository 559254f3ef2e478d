// ParquetFooter: a Parquet file's parsed and checked footer — its
// FileMetaData, its schema (schema.h) and the sizes it was read against —
// immutable once read, so one footer may back any number of readers of the
// same file on any threads (ParquetReader::Open with a footer).
//
// Read checks what ParquetReader::Open promises (reader.h): the trailing
// magic, a footer length inside the file and under the limit, a parseable
// FileMetaData and schema, and every row group against the schema and the
// file's size. It reads the file's last 16 KiB (one more read when the
// footer does not fit in them); when that read covers the whole file the
// leading magic is checked too, else the first reader to read a row group
// checks it and records that here (the one mutable fact, atomic).
//
// memory_bytes() estimates the heap the parsed footer holds: the structs,
// their vectors and the strings' heap buffers, the schema's nodes, leaves
// and columnar fields — what a cache of footers should charge for it.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>

#include "columnar/type.h"
#include "common/random_access.h"
#include "common/status.h"
#include "parquet/metadata.h"

namespace hoglake::parquet {

struct ParquetSchema;

class ParquetFooter {
 public:
  // Reads and checks the footer of `source`; footers longer than
  // `max_footer_bytes` are InvalidData.
  static Result<std::shared_ptr<const ParquetFooter>> Read(RandomAccessSource& source,
                                                           int64_t max_footer_bytes);
  ~ParquetFooter();
  ParquetFooter(const ParquetFooter&) = delete;
  ParquetFooter& operator=(const ParquetFooter&) = delete;

  const FileMetaData& metadata() const { return metadata_; }
  const ParquetSchema& schema() const { return *schema_; }
  const columnar::SchemaPtr& arrow_schema() const;
  // The serialized FileMetaData length and the file size it was read from.
  int64_t footer_size() const { return footer_size_; }
  int64_t file_size() const { return file_size_; }
  int64_t memory_bytes() const { return memory_bytes_; }

  // Whether the file's leading "PAR1" has been seen by any reader.
  bool leading_magic_checked() const { return leading_magic_checked_.load(); }
  void MarkLeadingMagicChecked() const { leading_magic_checked_.store(true); }

 private:
  ParquetFooter();

  FileMetaData metadata_;
  std::unique_ptr<ParquetSchema> schema_;
  int64_t footer_size_ = 0;
  int64_t file_size_ = 0;
  int64_t memory_bytes_ = 0;
  mutable std::atomic<bool> leading_magic_checked_{false};
};

// Where a column chunk's bytes begin: its dictionary page when it has one,
// else its first data page.
int64_t ColumnChunkStart(const ColumnMetaData& m);

}  // namespace hoglake::parquet
