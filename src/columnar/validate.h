// Full structural validation of arrays and batches that came from outside
// (C Data Interface imports, IPC streams, later Parquet pages).
//
// Validate() proves that every accessor in array.h stays inside its buffers:
// buffer count matches the type; validity, values and offsets buffers are long
// enough for offset + length; offsets start ≥ 0, never decrease and end inside
// the data buffer or child; struct children are long enough; fixed-size
// widths agree; null_count equals the validity bitmap's count; decimal
// precision/scale are legal; nesting is at most 64 deep. The error message
// names the path to the offending child ("column 'tags' > element: offsets
// decrease at slot 3"). Cost: O(length) for offsets and null counts.
#pragma once

#include "columnar/array.h"

namespace hoglake::columnar {

Status Validate(const ArrayData& array);
Status ValidateBatch(const RecordBatch& batch);

}  // namespace hoglake::columnar
