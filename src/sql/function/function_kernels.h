// The scalar kernels by family, for the binding code that picks among them.
// Internal to src/sql/function.
#pragma once

#include <string>
#include <string_view>

#include "sql/function/scalar_function.h"

namespace hoglake::sql {

// string_functions.cc
extern const ScalarFunction kLower, kUpper, kLength, kOctetLength, kStrpos, kSubstring, kBtrim,
    kLtrim, kRtrim, kReplace, kLeft, kRight;
// math_functions.cc
extern const ScalarFunction kAbs, kRound, kFloor, kCeil, kSqrt;
// datetime_functions.cc
// A unit of EXTRACT/date_part/date_trunc by its canonical name: lower case,
// PostgreSQL's abbreviations and plurals resolved ("hrs" → "hour",
// "milliseconds" → "milliseconds", "secs" → "second"); unknown names come
// back lowered.
std::string CanonicalDatetimeUnit(std::string_view unit);
// Whether `canonical` names a unit PostgreSQL knows (for any type).
bool IsDatetimeUnit(std::string_view canonical);
extern const ScalarFunction kDatePlusDays, kDateMinusDate, kTimestampMinusTimestamp,
    kTimestampPlusInterval, kExtractField, kDateTrunc;

}  // namespace hoglake::sql
