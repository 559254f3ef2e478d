// Logical equality of arrays and batches: same type, length, null positions
// and values slot by slot, whatever the offsets, buffer padding or bytes under
// null slots. Floats compare by bit pattern, so NaN equals the same NaN and
// -0.0 differs from +0.0. On a difference, `why` (if given) names the first
// one: "column 'tags' > element: slot 4: \"b\" vs \"c\"".
#pragma once

#include <string>

#include "columnar/array.h"

namespace hoglake::columnar {

bool ArrayEquals(const ArrayData& a, const ArrayData& b, std::string* why = nullptr);
// Schemas equal (names, types, nullability, metadata) and every column equal.
bool BatchEquals(const RecordBatch& a, const RecordBatch& b, std::string* why = nullptr);

}  // namespace hoglake::columnar
