// Shredding: walks Arrow-layout arrays and emits, for every leaf column, the
// definition/repetition level stream and the present values that Parquet
// stores (the Dremel encoding).
//
// For each top-level row the walk descends the SchemaNode tree: a null slot
// of an optional node emits one entry at the parent's definition level to
// every leaf below it; an empty list or map emits one entry at the
// container's definition level; the k-th element of a list or map repeats at
// the container's element repetition level (the first keeps the level the
// container started at). Struct children are read at the struct's offset.
#pragma once

#include <memory>
#include <vector>

#include "columnar/array.h"
#include "parquet/column_writer.h"
#include "parquet/schema.h"

namespace hoglake::parquet {

// Emits rows [offset, offset + length) of `column` (the Arrow array of the
// top-level field `node`) into writers[node.leaf_begin .. node.leaf_end).
Status ShredColumn(const SchemaNode& node, const columnar::ArrayData& column, int64_t offset,
                   int64_t length, const std::vector<std::unique_ptr<ColumnChunkWriter>>& writers);

}  // namespace hoglake::parquet
