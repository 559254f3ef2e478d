// Assembly: the inverse of shredding. Rebuilds the Arrow-layout array of one
// top-level column from its leaves' level streams and dense values.
//
// Each node reads the levels of the first leaf below it. A level entry is a
// slot of the node when its repetition level is ≤ the node's rep_level and
// its definition level ≥ the node's slot_def; the slot is valid when the
// definition level reaches the node's def_level. A list/map counts an element
// for every entry with repetition ≤ rep_level + 1 and definition ≥
// repeated_def. Leaves take the next dense value for each valid slot and
// convert it from the physical type to the Arrow storage type (INT32 → int8/
// int16/uint8/uint16/uint32/date32/time64[ms]; INT96 → timestamp[ns];
// decimals from INT32/INT64/FIXED_LEN_BYTE_ARRAY/BYTE_ARRAY big-endian).
// Slots of non-nullable fields under a null parent get zero/empty values.
// Inconsistent streams (too few values, children of different lengths, a
// decimal wider than 16 bytes) are InvalidData.
#pragma once

#include <vector>

#include "columnar/array.h"
#include "parquet/column_reader.h"
#include "parquet/schema.h"

namespace hoglake::parquet {

// `leaves` is indexed by leaf number (LeafColumn order) and must hold the
// leaves of `node`'s subtree; their decoded values may be moved into the
// result (the leaves are spent afterwards).
Result<columnar::ArrayPtr> AssembleColumn(const SchemaNode& node,
                                          const std::vector<LeafColumn>& leaf_info,
                                          std::vector<LeafData>& leaves);

}  // namespace hoglake::parquet
