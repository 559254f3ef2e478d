// LoadRows: the rows of a load's source, read as a stream of record batches
// with bounded memory (one batch, or one Parquet row group, at a time).
//
// The source is a RandomAccessSource: an upload or a result object read by
// ranged reads, or inline CSV in memory. Its format is the one asked, else
// Parquet when the bytes start with "PAR1", else Parquet or JSON lines when
// the content type says so, else CSV (DetectLoadFormat).
//
//   * Parquet: read row group by row group through ranged reads of the
//     column chunks (parquet/reader.h over the source); the schema is the
//     file's, names lower-cased.
//   * CSV: the columns are inferred from the header and the first
//     kInferenceSampleRows rows (columnar::text::InferCsvSchema: a bounded
//     sample, the same inference a load has always made); the stream is then
//     rewound and parsed incrementally from ranged chunks of
//     kTextChunkBytes (common/random_access_stream.h), so records, quoted
//     fields and UTF-8 sequences spanning chunks are whole to the parser.
//     Into an existing table the header's columns the table has are read at
//     the table's types, new ones at their inferred types, and table
//     columns the header lacks as NULL.
//   * JSON lines: parsed incrementally the same way at the table's types;
//     it needs an existing table (kBadRequest otherwise).
// A bad row fails Next() with the parser's error (line and column named);
// a failed ranged read fails it with the store's error.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "columnar/array.h"
#include "common/random_access.h"
#include "common/status.h"

namespace hoglake::query {

enum class LoadFormat { kAuto, kParquet, kCsv, kJsonLines };

// What a load reads: its bytes and the content type they were uploaded with.
struct LoadSourceBytes {
  std::shared_ptr<RandomAccessSource> bytes;
  std::optional<std::string> content_type;
};

class LoadRows {
 public:
  static constexpr int64_t kInferenceSampleRows = 1000;
  static constexpr int64_t kTextChunkBytes = int64_t{4} << 20;
  static constexpr int64_t kTextBatchRows = 65536;

  // `table`: the existing table's writer schema, or null when the load
  // creates the table.
  static Result<std::unique_ptr<LoadRows>> Open(const LoadSourceBytes& source, LoadFormat asked,
                                                const columnar::SchemaPtr& table);
  virtual ~LoadRows() = default;

  // The rows' schema (lower-cased names); every batch has it.
  virtual const columnar::SchemaPtr& schema() const = 0;
  // The next batch, nullopt at the end.
  virtual Result<std::optional<columnar::RecordBatch>> Next() = 0;
};

// The format `asked`, or the one the bytes and content type say (above).
Result<LoadFormat> DetectLoadFormat(RandomAccessSource& bytes,
                                    const std::optional<std::string>& content_type,
                                    LoadFormat asked);

}  // namespace hoglake::query
