// Ordering and equality of SQL values inside arrays, as PostgreSQL defines
// them for our types: numbers by value (NaN equal to itself and above every
// other float, −0 = +0), numerics across scales, text and bytea byte-wise
// (the C collation), intervals by their span with a month as 30 days.
// Nulls are not handled here; callers check validity first.
#pragma once

#include <cstdint>
#include <string_view>

#include "columnar/array.h"
#include "sql/types/sql_type.h"

namespace hoglake::sql {

// Negative, zero or positive as a[i] <, =, > b[j]; a is of SQL type `ta`,
// b of `tb`, which must be the same type except for numeric scales.
int CompareValues(const columnar::ArrayData& a, int64_t i, const SqlType& ta,
                  const columnar::ArrayData& b, int64_t j, const SqlType& tb);

// The span an interval's 16 bytes (months, days, microseconds) order by:
// microseconds with a month as 30 days.
__int128 IntervalSpan(std::string_view bytes);

// The 64-bit finalizer every SQL value and key hash ends with (murmur3's
// fmix64).
inline uint64_t MixHash(uint64_t h) {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ULL;
  h ^= h >> 33;
  return h;
}

// A hash of a[i] consistent with CompareValues == 0 within one type.
uint64_t HashValue(const columnar::ArrayData& a, int64_t i, const SqlType& type);

}  // namespace hoglake::sql
