#include "sql/execution/sort_key_encoding.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <string_view>

#include "sql/execution/vector_ops.h"
#include "sql/function/compare_values.h"

namespace hoglake::sql {
namespace {

using Kind = SortKeyLayout::Kind;

constexpr int kRoomBytes = kMaxSortKeyWords * 8;
// A prefix shorter than this tells too few strings apart to be worth words.
constexpr int kMinPrefixBytes = 4;
// The prefix a long byte string is given when there is room.
constexpr int kPrefixBytes = 14;

constexpr uint64_t kSign64 = uint64_t{1} << 63;

bool IsByteString(SqlTypeId id) {
  switch (id) {
    case SqlTypeId::kUnknown:
    case SqlTypeId::kText:
    case SqlTypeId::kJson:
    case SqlTypeId::kBytea:
    case SqlTypeId::kUuid:
      return true;
    default:
      return false;
  }
}

// Writes the low `width` bytes of v at p, most significant first.
inline void PutBigEndian(uint8_t* p, uint64_t v, int width) {
  for (int b = width - 1; b >= 0; --b) {
    p[b] = static_cast<uint8_t>(v);
    v >>= 8;
  }
}

// Order-preserving unsigned images of signed and floating values.
inline uint64_t SignedImage(int64_t v) { return static_cast<uint64_t>(v) ^ kSign64; }

inline uint64_t DoubleImage(double d) {
  uint64_t bits;
  if (std::isnan(d)) {
    bits = 0x7ff8000000000000ULL;  // every NaN alike, above +inf
  } else if (d == 0) {
    bits = 0;  // −0 = +0
  } else {
    bits = std::bit_cast<uint64_t>(d);
  }
  return (bits & kSign64) ? ~bits : bits | kSign64;
}

inline uint32_t FloatImage(float f) {
  uint32_t bits;
  if (std::isnan(f)) {
    bits = 0x7fc00000U;
  } else if (f == 0) {
    bits = 0;
  } else {
    bits = std::bit_cast<uint32_t>(f);
  }
  return (bits & 0x80000000U) ? ~bits : bits | 0x80000000U;
}

bool FitsInt64(__int128 v) { return v == static_cast<int64_t>(v); }

// The value bytes of row i of `a` under `part` (width bytes at p, zeroed).
void EncodeValue(const SortKeyLayout::Part& part, const columnar::ArrayData& a, int64_t i,
                 uint8_t* p) {
  switch (part.kind) {
    case Kind::kNone:
      return;
    case Kind::kBool:
      p[0] = a.GetBool(i) ? 1 : 0;
      return;
    case Kind::kInt16:
      PutBigEndian(p, static_cast<uint16_t>(a.values<int16_t>()[i]) ^ 0x8000U, 2);
      return;
    case Kind::kInt32:
      PutBigEndian(p, static_cast<uint32_t>(a.values<int32_t>()[i]) ^ 0x80000000U, 4);
      return;
    case Kind::kInt64:
      PutBigEndian(p, SignedImage(a.values<int64_t>()[i]), 8);
      return;
    case Kind::kFloat32:
      PutBigEndian(p, FloatImage(a.values<float>()[i]), 4);
      return;
    case Kind::kFloat64:
      PutBigEndian(p, DoubleImage(a.values<double>()[i]), 8);
      return;
    case Kind::kDecimal64:
    case Kind::kDecimal128:
    case Kind::kInterval64:
    case Kind::kInterval128: {
      const bool decimal = part.kind == Kind::kDecimal64 || part.kind == Kind::kDecimal128;
      const __int128 v = decimal ? LoadDecimal(a, i) : IntervalSpan(a.GetView(i));
      if (part.width == 8) {
        PutBigEndian(p, SignedImage(static_cast<int64_t>(v)), 8);
      } else {
        PutBigEndian(p, static_cast<uint64_t>(v >> 64) ^ kSign64, 8);
        PutBigEndian(p + 8, static_cast<uint64_t>(v), 8);
      }
      return;
    }
    case Kind::kBytes: {
      std::string_view s = a.GetView(i);
      std::memcpy(p, s.data(), std::min<size_t>(s.size(), static_cast<size_t>(part.width)));
      return;
    }
  }
}

}  // namespace

void AddSortKeyStats(const SortKey& key, const columnar::ArrayData& keys, SortKeyStats* stats) {
  if (keys.null_count > 0) stats->has_nulls = true;
  const SqlTypeId id = key.expr->type.id;
  const int64_t n = keys.length;
  if (id == SqlTypeId::kNumeric || id == SqlTypeId::kInterval) {
    for (int64_t i = 0; i < n && stats->fits_int64; ++i) {
      if (keys.IsNull(i)) continue;
      __int128 v = id == SqlTypeId::kNumeric ? LoadDecimal(keys, i) : IntervalSpan(keys.GetView(i));
      stats->fits_int64 = FitsInt64(v);
    }
  } else if (IsByteString(id)) {
    for (int64_t i = 0; i < n; ++i) {
      if (keys.IsNull(i)) continue;
      std::string_view s = keys.GetView(i);
      stats->max_bytes = std::max<int64_t>(stats->max_bytes, static_cast<int64_t>(s.size()));
      // Zero bytes matter only while every value could be encoded whole.
      if (!stats->has_zero_byte && stats->max_bytes <= kRoomBytes &&
          std::memchr(s.data(), 0, s.size()) != nullptr) {
        stats->has_zero_byte = true;
      }
    }
  }
}

SortKeyLayout PlanSortKeyLayout(const std::vector<SortKey>& keys,
                                const std::vector<SortKeyStats>& stats) {
  SortKeyLayout layout;
  layout.compare_from = keys.size();
  int used = 0;
  for (size_t k = 0; k < keys.size(); ++k) {
    SortKeyLayout::Part part;
    part.nullable = stats[k].has_nulls;
    part.descending = keys[k].descending;
    part.nulls_first = keys[k].nulls_first;
    const int null_bytes = part.nullable ? 1 : 0;
    const int room = kRoomBytes - used - null_bytes;
    bool whole = true;  // the words decide this key completely
    switch (keys[k].expr->type.id) {
      case SqlTypeId::kBoolean:
        part.kind = Kind::kBool, part.width = 1;
        break;
      case SqlTypeId::kSmallint:
        part.kind = Kind::kInt16, part.width = 2;
        break;
      case SqlTypeId::kInteger:
      case SqlTypeId::kDate:
        part.kind = Kind::kInt32, part.width = 4;
        break;
      case SqlTypeId::kBigint:
      case SqlTypeId::kTime:
      case SqlTypeId::kTimestamp:
      case SqlTypeId::kTimestampTz:
        part.kind = Kind::kInt64, part.width = 8;
        break;
      case SqlTypeId::kReal:
        part.kind = Kind::kFloat32, part.width = 4;
        break;
      case SqlTypeId::kDouble:
        part.kind = Kind::kFloat64, part.width = 8;
        break;
      case SqlTypeId::kNumeric:
        part.kind = stats[k].fits_int64 ? Kind::kDecimal64 : Kind::kDecimal128;
        part.width = stats[k].fits_int64 ? 8 : 16;
        break;
      case SqlTypeId::kInterval:
        part.kind = stats[k].fits_int64 ? Kind::kInterval64 : Kind::kInterval128;
        part.width = stats[k].fits_int64 ? 8 : 16;
        break;
      case SqlTypeId::kUnknown:
      case SqlTypeId::kText:
      case SqlTypeId::kJson:
      case SqlTypeId::kBytea:
      case SqlTypeId::kUuid:
        part.kind = Kind::kBytes;
        if (stats[k].max_bytes <= room && !stats[k].has_zero_byte) {
          part.width = static_cast<int>(stats[k].max_bytes);
        } else {
          // A prefix of about two words, ending on a word boundary.
          int width = (8 - (used + null_bytes) % 8) % 8;
          while (width < kPrefixBytes) width += 8;
          part.width = std::min(width, room);
          whole = false;
        }
        break;
      default:
        part.kind = Kind::kNone, part.width = 0;
        break;
    }
    if (part.width > room || (!whole && part.width < kMinPrefixBytes)) {
      layout.compare_from = k;
      break;
    }
    part.offset = used;
    used += null_bytes + part.width;
    layout.parts.push_back(part);
    if (!whole) {
      layout.compare_from = k;
      break;
    }
  }
  layout.words = (used + 7) / 8;
  return layout;
}

void EncodeSortKeys(const SortKeyLayout& layout, const std::vector<columnar::ArrayPtr>& key_arrays,
                    int64_t rows, uint8_t* base, size_t stride) {
  const size_t bytes = static_cast<size_t>(layout.words) * 8;
  if (bytes == 0) return;
  for (int64_t i = 0; i < rows; ++i) std::memset(base + i * stride, 0, bytes);
  for (size_t k = 0; k < layout.parts.size(); ++k) {
    const SortKeyLayout::Part& part = layout.parts[k];
    const columnar::ArrayData& a = *key_arrays[k];
    const bool has_nulls = part.nullable && a.null_count > 0;
    const int value_at = part.offset + (part.nullable ? 1 : 0);
    const uint8_t null_byte = part.nulls_first ? 0 : 2;
    for (int64_t i = 0; i < rows; ++i) {
      uint8_t* row = base + i * stride;
      if (has_nulls && a.IsNull(i)) {
        row[part.offset] = null_byte;
        continue;
      }
      if (part.nullable) row[part.offset] = 1;
      uint8_t* p = row + value_at;
      EncodeValue(part, a, i, p);
      if (part.descending) {
        for (int b = 0; b < part.width; ++b) p[b] = static_cast<uint8_t>(~p[b]);
      }
    }
  }
  // Big-endian bytes to native words: unsigned word order = byte order.
  if constexpr (std::endian::native == std::endian::little) {
    for (int64_t i = 0; i < rows; ++i) {
      uint8_t* row = base + i * stride;
      for (int w = 0; w < layout.words; ++w) {
        uint64_t word;
        std::memcpy(&word, row + w * 8, 8);
        word = __builtin_bswap64(word);
        std::memcpy(row + w * 8, &word, 8);
      }
    }
  }
}

int CompareSortKeysFrom(size_t from, const std::vector<SortKey>& keys,
                        const std::vector<columnar::ArrayPtr>& a, int64_t i,
                        const std::vector<columnar::ArrayPtr>& b, int64_t j) {
  for (size_t k = from; k < keys.size(); ++k) {
    const columnar::ArrayData& x = *a[k];
    const columnar::ArrayData& y = *b[k];
    const bool xn = x.IsNull(i), yn = y.IsNull(j);
    if (xn || yn) {
      if (xn == yn) continue;
      // nulls_first: a null sorts before a value.
      return xn == keys[k].nulls_first ? -1 : 1;
    }
    const SqlType& type = keys[k].expr->type;
    const int c = CompareValues(x, i, type, y, j, type);
    if (c != 0) return keys[k].descending ? -c : c;
  }
  return 0;
}

}  // namespace hoglake::sql
