// Normalized sort keys: a row's ORDER BY keys encoded into at most
// kMaxSortKeyWords 64-bit words whose lexicographic unsigned order is the
// ORDER BY order, so a sort compares a few integers instead of dispatching
// on each key's type per comparison.
//
// Each key encodes as a null byte (only when some row of the key is NULL:
// 0 for NULL under NULLS FIRST, 2 under NULLS LAST, 1 for a value) and the
// value's bytes, big-endian, with the sign flipped so unsigned order is
// numeric order, every byte inverted when descending. The encoding keeps
// CompareValues' ordering exactly: NaN above every number, −0 = +0,
// numerics at the column's one scale (in 8 bytes when every value fits),
// intervals by their span, text and bytea byte-wise, zero-padded. Types
// CompareValues treats as equal (arrays, composites, maps) encode no value
// bytes.
//
// A byte string longer than the room left, or holding a zero byte, is
// encoded as a prefix: rows whose words tie are then compared from that key
// on by CompareSortKeysFrom, as are the keys that no longer fit in the
// words. The layout depends on the data (nulls present, longest string), so
// every run merged together must be encoded with one layout planned over
// all of them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "columnar/array.h"
#include "sql/planner/logical_plan.h"

namespace hoglake::sql {

inline constexpr int kMaxSortKeyWords = 4;

// What the layout needs to know of one key's values over all runs.
struct SortKeyStats {
  bool has_nulls = false;
  int64_t max_bytes = 0;       // byte strings: the longest value
  bool has_zero_byte = false;  // byte strings: some value holds a 0 byte
  bool fits_int64 = true;      // numeric and interval: every value fits in 64 bits
};

// Adds the values of `keys` (of `key`'s SQL type) to *stats.
void AddSortKeyStats(const SortKey& key, const columnar::ArrayData& keys, SortKeyStats* stats);

struct SortKeyLayout {
  enum class Kind : uint8_t {
    kNone,  // no value bytes: the type's values compare equal
    kBool,
    kInt16,
    kInt32,
    kInt64,
    kFloat32,
    kFloat64,
    kDecimal64,
    kDecimal128,
    kInterval64,
    kInterval128,
    kBytes,
  };
  struct Part {
    Kind kind = Kind::kNone;
    int offset = 0;  // byte of the key's first encoded byte within the words
    int width = 0;   // value bytes (after the null byte, if any)
    bool nullable = false;
    bool descending = false;
    bool nulls_first = false;
  };
  std::vector<Part> parts;  // keys 0 .. parts.size() − 1, encoded
  int words = 0;            // 0 .. kMaxSortKeyWords
  // The first key that words do not fully decide (keys.size(): none);
  // tied words are compared from it on with CompareSortKeysFrom.
  size_t compare_from = 0;
};

// The layout of `keys` given every run's stats.
SortKeyLayout PlanSortKeyLayout(const std::vector<SortKey>& keys,
                                const std::vector<SortKeyStats>& stats);

// Writes the words of rows [0, rows) of `key_arrays` (one per key): row i's
// layout.words native words at base + i * stride (uint64-aligned).
void EncodeSortKeys(const SortKeyLayout& layout, const std::vector<columnar::ArrayPtr>& key_arrays,
                    int64_t rows, uint8_t* base, size_t stride);

// Negative, zero or positive as row i of `a` sorts before, with or after
// row j of `b` on keys from..end (arrays one per key), as ORDER BY says
// (NULLS FIRST/LAST, DESC).
int CompareSortKeysFrom(size_t from, const std::vector<SortKey>& keys,
                        const std::vector<columnar::ArrayPtr>& a, int64_t i,
                        const std::vector<columnar::ArrayPtr>& b, int64_t j);

}  // namespace hoglake::sql
