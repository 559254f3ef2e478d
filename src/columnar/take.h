// TakeRows: a new array (or batch) holding the given rows of another, in the
// order given — how the writer splits a batch into one file per partition.
//
// Works for every columnar type, nested ones included (a list/map row takes
// its whole element range; struct members are taken row by row). Respects
// `offset` and nulls of the input. The output owns fresh buffers (offset 0)
// and does not share memory with the input except where a child is taken
// whole. Rows must be in [0, length); an index outside is kInvalidArgument.
// Cost: O(rows + bytes of the selected values).
#pragma once

#include <cstdint>
#include <span>

#include "columnar/array.h"
#include "common/status.h"

namespace hoglake::columnar {

Result<ArrayPtr> TakeRows(const ArrayData& array, std::span<const int64_t> rows);
Result<RecordBatch> TakeRows(const RecordBatch& batch, std::span<const int64_t> rows);

}  // namespace hoglake::columnar
