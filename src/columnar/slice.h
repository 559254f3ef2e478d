// Zero-copy slices: an array or batch narrowed to rows [offset, offset +
// length) of itself. The slice shares every buffer with its source (only
// `offset`, `length` and `null_count` change; children of structs are
// addressed through the parent's offset as everywhere in columnar), so
// cutting a decoded row group into morsels of a few thousand rows costs no
// copy. Every consumer of arrays (compare, take, the IPC and Parquet
// writers, the C Data Interface) honours the offset.
#pragma once

#include <cstdint>

#include "columnar/array.h"
#include "common/status.h"

namespace hoglake::columnar {

// kInvalidArgument when the window is not within the array's rows.
Result<ArrayPtr> Slice(const ArrayPtr& array, int64_t offset, int64_t length);

// Every column sliced alike; num_rows becomes `length`.
Result<RecordBatch> SliceBatch(const RecordBatch& batch, int64_t offset, int64_t length);

// Slice without the bounds check, for callers that computed the window
// from the array's own length.
ArrayPtr SliceUnchecked(const ArrayPtr& array, int64_t offset, int64_t length);

}  // namespace hoglake::columnar
