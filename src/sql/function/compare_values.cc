#include "sql/function/compare_values.h"

#include "sql/execution/vector_ops.h"

#include <cmath>
#include <cstring>
#include <string_view>

#include "sql/types/value_text.h"

namespace hoglake::sql {
namespace {

template <typename T>
int Cmp(T x, T y) {
  return x < y ? -1 : (x > y ? 1 : 0);
}

template <typename F>
int CmpFloat(F x, F y) {
  bool nx = std::isnan(x), ny = std::isnan(y);
  if (nx || ny) return nx == ny ? 0 : (nx ? 1 : -1);
  return Cmp(x, y);
}

int CmpDecimal(__int128 x, int sx, __int128 y, int sy) {
  if (sx == sy) return Cmp(x, y);
  if (sx < sy) {
    __int128 xs;
    if (!__builtin_mul_overflow(x, PowerOfTen(sy - sx), &xs)) return Cmp(xs, y);
    return x < 0 ? -1 : 1;
  }
  __int128 ys;
  if (!__builtin_mul_overflow(y, PowerOfTen(sx - sy), &ys)) return Cmp(x, ys);
  return y < 0 ? 1 : -1;
}

uint64_t HashBytes(std::string_view s) {
  uint64_t h = 1469598103934665603ULL;
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ULL;
  return MixHash(h);
}

}  // namespace

__int128 IntervalSpan(std::string_view bytes) {
  int32_t months, days;
  int64_t micros;
  std::memcpy(&months, bytes.data(), 4);
  std::memcpy(&days, bytes.data() + 4, 4);
  std::memcpy(&micros, bytes.data() + 8, 8);
  constexpr __int128 kDay = __int128{86400} * 1000000;
  return (static_cast<__int128>(months) * 30 + days) * kDay + micros;
}

int CompareValues(const columnar::ArrayData& a, int64_t i, const SqlType& ta,
                  const columnar::ArrayData& b, int64_t j, const SqlType& tb) {
  switch (ta.id) {
    case SqlTypeId::kBoolean:
      return Cmp<int>(a.GetBool(i), b.GetBool(j));
    case SqlTypeId::kSmallint:
      return Cmp(a.values<int16_t>()[i], b.values<int16_t>()[j]);
    case SqlTypeId::kInteger:
    case SqlTypeId::kDate:
      return Cmp(a.values<int32_t>()[i], b.values<int32_t>()[j]);
    case SqlTypeId::kBigint:
    case SqlTypeId::kTime:
    case SqlTypeId::kTimestamp:
    case SqlTypeId::kTimestampTz:
      return Cmp(a.values<int64_t>()[i], b.values<int64_t>()[j]);
    case SqlTypeId::kReal:
      return CmpFloat(a.values<float>()[i], b.values<float>()[j]);
    case SqlTypeId::kDouble:
      return CmpFloat(a.values<double>()[i], b.values<double>()[j]);
    case SqlTypeId::kNumeric:
      return CmpDecimal(LoadDecimal(a, i), ta.scale, LoadDecimal(b, j), tb.scale);
    case SqlTypeId::kInterval:
      return Cmp(IntervalSpan(a.GetView(i)), IntervalSpan(b.GetView(j)));
    case SqlTypeId::kUnknown:
    case SqlTypeId::kText:
    case SqlTypeId::kJson:
    case SqlTypeId::kBytea:
    case SqlTypeId::kUuid: {
      int c = a.GetView(i).compare(b.GetView(j));
      return c < 0 ? -1 : (c > 0 ? 1 : 0);
    }
    default:
      return 0;
  }
}

uint64_t HashValue(const columnar::ArrayData& a, int64_t i, const SqlType& type) {
  switch (type.id) {
    case SqlTypeId::kBoolean:
      return MixHash(a.GetBool(i) ? 1 : 2);
    case SqlTypeId::kSmallint:
      return MixHash(static_cast<uint64_t>(a.values<int16_t>()[i]));
    case SqlTypeId::kInteger:
    case SqlTypeId::kDate:
      return MixHash(static_cast<uint64_t>(a.values<int32_t>()[i]));
    case SqlTypeId::kBigint:
    case SqlTypeId::kTime:
    case SqlTypeId::kTimestamp:
    case SqlTypeId::kTimestampTz:
      return MixHash(static_cast<uint64_t>(a.values<int64_t>()[i]));
    case SqlTypeId::kReal:
    case SqlTypeId::kDouble: {
      double d = type.id == SqlTypeId::kReal ? a.values<float>()[i] : a.values<double>()[i];
      if (std::isnan(d)) return MixHash(0x7ff8000000000000ULL);
      if (d == 0) d = 0;  // −0 hashes as +0
      uint64_t bits;
      std::memcpy(&bits, &d, 8);
      return MixHash(bits);
    }
    case SqlTypeId::kNumeric: {
      // Normalize away trailing zeros so equal values at one scale agree.
      __int128 v = LoadDecimal(a, i);
      return MixHash(static_cast<uint64_t>(v) ^ MixHash(static_cast<uint64_t>(v >> 64)));
    }
    case SqlTypeId::kInterval: {
      __int128 span = IntervalSpan(a.GetView(i));
      return MixHash(static_cast<uint64_t>(span) ^ MixHash(static_cast<uint64_t>(span >> 64)));
    }
    default:
      return HashBytes(a.GetView(i));
  }
}

}  // namespace hoglake::sql
