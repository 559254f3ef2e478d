// ColumnChunkWriter: turns the level/value stream of one leaf column in one
// row group into a Parquet column chunk (an optional dictionary page followed
// by v1 data pages) and its ColumnMetaData.
//
// Levels arrive one entry at a time from the shredder (shred.h), or a batch
// of rows at a time for a top-level leaf (AddLeafBatch, same result). Pages are
// cut only where a new row starts (repetition level 0) once the page holds
// `data_page_size` bytes or `max_page_rows` rows. Values are dictionary-
// encoded (RLE_DICTIONARY indices, PLAIN dictionary page) while the
// dictionary stays under `dictionary_page_size_limit` bytes; when it grows
// past that, the current page is closed and the rest of the chunk is PLAIN.
// Booleans are always PLAIN. Levels use the RLE/bit-packed hybrid with the
// 4-byte length prefix of data page v1. Compressed pages are kept in memory
// until Finish(), so memory is bounded by one row group's compressed chunk;
// Reset() reuses the buffers for the next row group. The dictionary is a
// hash index without per-key allocation (dictionary_builder.h).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

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

  // Rows [offset, offset + length) of a top-level leaf column (`array` is the
  // whole column): the same entries as one Add per row, with definition level
  // `present_def` for a value and 0 for a null slot (nulls count only when
  // present_def > 0), handled a batch at a time.
  Status AddLeafBatch(const columnar::ArrayData& array, int64_t offset, int64_t length,
                      int16_t present_def);

  // Bytes this chunk holds so far (compressed pages + the open page).
  int64_t buffered_bytes() const;
  // An upper bound on buffered_bytes() at any point while `entries` more
  // level entries are added whose present values hold at most `value_bytes`
  // bytes in physical form (BYTE_ARRAY: without length prefixes). Loose, but
  // cheap: it lets the file writer prove that no row-group size check can
  // fire within a stretch of rows and hand that stretch to a column at once.
  int64_t BufferedBytesBound(int64_t entries, int64_t value_bytes) const;

  // Closes the chunk: its bytes are `*dictionary_page` (empty when there is
  // none) followed by `*data_pages`, views valid until Reset(); `*meta`
  // describes them with offsets relative to the start of the first.
  Status Finish(ColumnMetaData* meta, std::string_view* dictionary_page,
                std::string_view* data_pages);
  // Starts a new, empty chunk (the next row group), keeping the buffers.
  void Reset();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace hoglake::parquet
