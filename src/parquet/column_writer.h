// ColumnChunkWriter: turns the level/value stream of one leaf column in one
// row group into a Parquet column chunk (an optional dictionary page followed
// by v1 data pages) and its ColumnMetaData.
//
// Levels arrive one entry at a time from the shredder (shred.h). Pages are
// cut only where a new row starts (repetition level 0) once the page holds
// `data_page_size` bytes or `max_page_rows` rows. Values are dictionary-
// encoded (RLE_DICTIONARY indices, PLAIN dictionary page) while the
// dictionary stays under `dictionary_page_size_limit` bytes; when it grows
// past that, the current page is closed and the rest of the chunk is PLAIN.
// Booleans are always PLAIN. Levels use the RLE/bit-packed hybrid with the
// 4-byte length prefix of data page v1. Compressed pages are kept in memory
// until Finish(), so memory is bounded by one row group's compressed chunk.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "columnar/array.h"
#include "parquet/metadata.h"
#include "parquet/schema.h"

namespace hoglake::parquet {

struct ColumnWriterOptions {
  Codec codec = Codec::kZstd;
  int compression_level = 0;  // 0: the codec's default
  bool dictionary = true;
  int64_t dictionary_page_size_limit = 1 << 20;
  int64_t data_page_size = 1 << 20;
  int64_t max_page_rows = 20000;
};

class ColumnChunkWriter {
 public:
  ColumnChunkWriter(const LeafColumn& leaf, const ColumnWriterOptions& options);
  ~ColumnChunkWriter();
  ColumnChunkWriter(const ColumnChunkWriter&) = delete;
  ColumnChunkWriter& operator=(const ColumnChunkWriter&) = delete;

  // One level entry. When def == max_def, slot `index` of `array` (the leaf's
  // Arrow array) is the value; otherwise `array` is ignored.
  Status Add(int16_t def, int16_t rep, const columnar::ArrayData* array, int64_t index);

  // Bytes this chunk holds so far (compressed pages + the open page).
  int64_t buffered_bytes() const;

  // Closes the chunk: `*bytes` receives the pages (dictionary first) and
  // `*meta` their metadata, with offsets relative to the start of `*bytes`.
  Status Finish(std::string* bytes, ColumnMetaData* meta);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace hoglake::parquet
