// Rows as JSON: the human- and machine-readable rendering `hoglake` prints
// for Arrow streams and Parquet files (and what interop tests compare).
//
// One JSON object per row, keys are column names in schema order:
//   bool → true/false; ints → exact JSON numbers (uint64 too);
//   float/double → ECMAScript-style numbers, "NaN"/"Infinity"/"-Infinity"
//   as strings, -0.0 kept; decimal → string at the column's scale ("-0.05");
//   utf8 → string; binary → base64 string; fixed_size_binary(16) → canonical
//   uuid; other fixed sizes → base64; date32 → "YYYY-MM-DD"; time64 →
//   "HH:MM:SS.ffffff" (digits by unit); timestamp → ISO-8601 with fraction
//   digits by unit and "Z" when it has a time zone; list → array; struct →
//   object; map → array of {"key": …, "value": …}; month_day_nano interval
//   → {"months": m, "days": d, "nanoseconds": n}; null → null.
#pragma once

#include <string>

#include "columnar/array.h"

namespace hoglake::columnar {

// Appends slot i of `array` rendered as one JSON value.
void AppendJsonValue(const ArrayData& array, int64_t i, std::string* out);
// Appends one JSON object per row of `batch`, each followed by '\n'.
void AppendJsonLines(const RecordBatch& batch, std::string* out);

// The decimal text of an unscaled value at `scale`: (-5, 2) → "-0.05".
std::string FormatDecimal(__int128 unscaled, int32_t scale);

}  // namespace hoglake::columnar
