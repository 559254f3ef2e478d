// Decodes one column chunk (all its pages) into level streams and dense
// present values.
//
// Pages: an optional dictionary page (PLAIN or PLAIN_DICTIONARY values), then
// DATA_PAGE (v1: repetition and definition levels each with a 4-byte length
// prefix, RLE hybrid, inside the compressed body) and DATA_PAGE_V2 (levels
// uncompressed before the optionally compressed values). Index pages are
// skipped. Values decode per decoding.h.
//
// Limits against corrupt or hostile files: a page's declared uncompressed
// size is capped by ReaderLimits::max_page_bytes, the chunk's level count by
// its declared num_values and ReaderLimits::max_values_per_chunk, and every
// page must lie inside the chunk's bytes.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "parquet/decoding.h"
#include "parquet/metadata.h"
#include "parquet/pod_buffer.h"
#include "parquet/schema.h"

namespace hoglake::parquet {

struct ReaderLimits {
  int64_t max_page_bytes = int64_t{256} << 20;
  int64_t max_values_per_chunk = int64_t{1} << 27;
};

// The decoded content of one leaf column chunk.
struct LeafData {
  int64_t num_levels = 0;
  // Empty when every entry is present (def == max_def for all of them,
  // which includes max_def == 0); otherwise one level per entry.
  std::vector<int16_t> def;
  std::vector<int16_t> rep;  // empty when max_rep == 0 (every entry starts a row)
  PhysicalValues values;     // the present values, in order
};

// Scratch memory for decompressed pages, reused from chunk to chunk.
using PageBuffer = PodBuffer<char>;

// Decodes `chunk` (the chunk's bytes, from its first page) described by
// `meta` for leaf `leaf`. `page_buffer`, when given, holds decompressed pages
// and is reused from call to call.
Status ReadColumnChunk(const LeafColumn& leaf, const ColumnMetaData& meta, std::string_view chunk,
                       const ReaderLimits& limits, LeafData* out,
                       PageBuffer* page_buffer = nullptr);

}  // namespace hoglake::parquet
