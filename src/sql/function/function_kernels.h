// The scalar kernels by family, for the binding code that picks among them.
// Internal to src/sql/function.
#pragma once

#include "sql/function/scalar_function.h"

namespace hoglake::sql {

// string_functions.cc
extern const ScalarFunction kLower, kUpper, kLength, kOctetLength, kStrpos, kSubstring, kBtrim,
    kLtrim, kRtrim, kReplace, kLeft, kRight;
// math_functions.cc
extern const ScalarFunction kAbs, kRound, kFloor, kCeil, kSqrt;
// datetime_functions.cc
extern const ScalarFunction kDatePlusDays, kDateMinusDate, kTimestampMinusTimestamp,
    kTimestampPlusInterval, kExtractField, kDateTrunc;

}  // namespace hoglake::sql
