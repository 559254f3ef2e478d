// ConcatArrays: one array holding the rows of several arrays of one type, in
// order — how the engine gathers a build side or a sort's input into one
// array before indexing it. Works for every columnar type, nested ones
// included; honours each input's offset and nulls. The output owns fresh
// buffers (offset 0), except that a single input is returned as it is. Types must be equal (kInvalidArgument otherwise).
#pragma once

#include <vector>

#include "columnar/array.h"
#include "common/status.h"

namespace hoglake::columnar {

Result<ArrayPtr> ConcatArrays(const std::vector<ArrayPtr>& arrays);
// Column by column; schemas must be equal; an empty input is an error.
Result<RecordBatch> ConcatBatches(const std::vector<RecordBatch>& batches);

}  // namespace hoglake::columnar
