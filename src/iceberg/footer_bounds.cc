#include "iceberg/footer_bounds.h"

#include <cmath>
#include <cstring>

#include "common/time_text.h"

namespace hoglake::iceberg {
namespace {

using columnar::TimeUnit;
using P = ParquetPhysical;
using A = ParquetAnnotation;
using T = ColumnType;

constexpr int64_t kMicrosPerDay = 86'400'000'000;

bool IsUnsignedLeaf(const FooterLeaf& leaf) {
  return leaf.annotation == A::kInteger && !leaf.is_signed;
}

// The widest unsigned leaf a type may read (§4.4's unsigned-domain rule).
int MaxUnsignedWidth(ColumnType type) {
  switch (type) {
    case T::kUInt64:
      return 64;
    case T::kUInt32:
    case T::kLong:
    case T::kTime:
      return 32;
    case T::kUInt16:
    case T::kInt:
    case T::kDate:
      return 16;
    case T::kUInt8:
    case T::kInt16:
      return 8;
    default:
      return IsTimestampType(type) ? 32 : 0;
  }
}

template <typename V>
V Load(std::string_view bytes) {
  V value;
  std::memcpy(&value, bytes.data(), sizeof(V));
  return value;
}

// The integer an INT32 / INT64 statistic holds, honouring an unsigned
// annotation; nullopt when the statistic has the wrong width.
std::optional<__int128> IntegerStatistic(const FooterLeaf& leaf, std::string_view stat) {
  if (leaf.physical == P::kInt32) {
    if (stat.size() != 4) return std::nullopt;
    if (IsUnsignedLeaf(leaf)) return static_cast<__int128>(Load<uint32_t>(stat));
    return static_cast<__int128>(Load<int32_t>(stat));
  }
  if (leaf.physical == P::kInt64) {
    if (stat.size() != 8) return std::nullopt;
    if (IsUnsignedLeaf(leaf)) return static_cast<__int128>(Load<uint64_t>(stat));
    return static_cast<__int128>(Load<int64_t>(stat));
  }
  return std::nullopt;
}

// The value range of the integer-like catalog types.
bool InDomain(ColumnType type, __int128 v) {
  switch (type) {
    case T::kInt8:
      return v >= INT8_MIN && v <= INT8_MAX;
    case T::kInt16:
      return v >= INT16_MIN && v <= INT16_MAX;
    case T::kInt:
    case T::kDate:
      return v >= INT32_MIN && v <= INT32_MAX;
    case T::kLong:
      return v >= INT64_MIN && v <= INT64_MAX;
    case T::kUInt8:
      return v >= 0 && v <= UINT8_MAX;
    case T::kUInt16:
      return v >= 0 && v <= UINT16_MAX;
    case T::kUInt32:
      return v >= 0 && v <= UINT32_MAX;
    case T::kUInt64:
      return v >= 0 && v <= UINT64_MAX;
    default:
      return false;
  }
}

bool MultiplyChecked(int64_t v, int64_t factor, int64_t* out) {
  return !__builtin_mul_overflow(v, factor, out);
}

int64_t FloorDiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

// A TIMESTAMP statistic in the catalog type's unit: nanos for timestamp_ns,
// micros for the others.
std::optional<int64_t> TimestampStatistic(ColumnType column, const FooterLeaf& leaf, int64_t raw,
                                          BoundRole role, FooterPolicy policy) {
  int64_t out = 0;
  if (column == T::kTimestampNs) {
    switch (leaf.unit) {
      case TimeUnit::kSecond:
        return MultiplyChecked(raw, 1'000'000'000, &out) ? std::optional(out) : std::nullopt;
      case TimeUnit::kMilli:
        return MultiplyChecked(raw, 1'000'000, &out) ? std::optional(out) : std::nullopt;
      case TimeUnit::kMicro:
        return MultiplyChecked(raw, 1'000, &out) ? std::optional(out) : std::nullopt;
      case TimeUnit::kNano:
        return raw;
    }
    return std::nullopt;
  }
  switch (leaf.unit) {
    case TimeUnit::kSecond:
      if (!MultiplyChecked(raw, 1'000'000, &out)) return std::nullopt;
      break;
    case TimeUnit::kMilli:
      if (!MultiplyChecked(raw, 1'000, &out)) return std::nullopt;
      break;
    case TimeUnit::kMicro:
      out = raw;
      break;
    case TimeUnit::kNano:
      if (policy == FooterPolicy::kWriter) {
        if (raw % 1000 != 0) return std::nullopt;
        out = raw / 1000;
      } else {
        out = FloorDiv(raw, 1000);
        if (role == BoundRole::kUpper && out * 1000 != raw) ++out;
      }
      break;
  }
  if (policy == FooterPolicy::kWriter) {
    // pyarrow renders the statistic as a Python datetime: years 1..9999.
    static const int64_t kMin = DaysFromCivil(1, 1, 1) * kMicrosPerDay;
    static const int64_t kEnd = DaysFromCivil(10000, 1, 1) * kMicrosPerDay;
    if (out < kMin || out >= kEnd) return std::nullopt;
  }
  return out;
}

std::string Int4(int64_t v) {
  const auto narrow = static_cast<int32_t>(v);
  std::string out(4, '\0');
  std::memcpy(out.data(), &narrow, 4);
  return out;
}

std::string Int8(int64_t v) {
  std::string out(8, '\0');
  std::memcpy(out.data(), &v, 8);
  return out;
}

// 10^precision for decimal precision checks.
__int128 PowerOfTen(int32_t exponent) {
  __int128 p = 1;
  for (int32_t i = 0; i < exponent; ++i) p *= 10;
  return p;
}

std::optional<std::string> Convert(const TypeSpec& column, const FooterLeaf& leaf,
                                   std::string_view stat, BoundRole role, FooterPolicy policy) {
  const ColumnType type = column.type;
  switch (type) {
    case T::kBoolean:
      if (stat.size() != 1) return std::nullopt;
      return std::string(1, stat[0] != 0 ? '\x01' : '\x00');
    case T::kInt8:
    case T::kInt16:
    case T::kInt:
    case T::kUInt8:
    case T::kUInt16:
    case T::kDate: {
      const auto v = IntegerStatistic(leaf, stat);
      if (!v || !InDomain(type, *v)) return std::nullopt;
      return Int4(static_cast<int64_t>(*v));
    }
    case T::kLong:
    case T::kUInt32: {
      const auto v = IntegerStatistic(leaf, stat);
      if (!v || !InDomain(type, *v)) return std::nullopt;
      return Int8(static_cast<int64_t>(*v));
    }
    case T::kUInt64: {
      const auto v = IntegerStatistic(leaf, stat);
      if (!v || !InDomain(type, *v)) return std::nullopt;
      return MinimalTwosComplement(*v);
    }
    case T::kFloat: {
      if (stat.size() != 4) return std::nullopt;
      const auto v = Load<float>(stat);
      if (std::isnan(v)) return std::nullopt;
      return NormalizeZeroBound(type, stat, role);
    }
    case T::kDouble: {
      double v;
      if (leaf.physical == P::kFloat) {
        if (stat.size() != 4) return std::nullopt;
        v = static_cast<double>(Load<float>(stat));
      } else {
        if (stat.size() != 8) return std::nullopt;
        v = Load<double>(stat);
      }
      if (std::isnan(v)) return std::nullopt;
      std::string bytes(8, '\0');
      std::memcpy(bytes.data(), &v, 8);
      return NormalizeZeroBound(type, bytes, role);
    }
    case T::kTime: {
      const auto v = IntegerStatistic(leaf, stat);
      if (!v) return std::nullopt;
      const int64_t micros = static_cast<int64_t>(*v) * (leaf.unit == TimeUnit::kMilli ? 1000 : 1);
      return Int8(micros);
    }
    case T::kTimestampS:
    case T::kTimestampMs:
    case T::kTimestamp:
    case T::kTimestampNs:
    case T::kTimestamptz: {
      if (stat.size() != 8) return std::nullopt;
      const auto v = TimestampStatistic(type, leaf, Load<int64_t>(stat), role, policy);
      if (!v) return std::nullopt;
      return Int8(*v);
    }
    case T::kString:
    case T::kJson:
    case T::kBinary:
      return std::string(stat);
    case T::kUuid:
      if (stat.size() != 16) return std::nullopt;
      return std::string(stat);
    case T::kDecimal: {
      std::optional<__int128> v;
      if (leaf.physical == P::kFixedLenByteArray) {
        auto parsed = ParseTwosComplement(stat);
        if (parsed.ok()) v = *parsed;
      } else {
        v = IntegerStatistic(leaf, stat);
      }
      if (!v) return std::nullopt;
      if (column.precision >= 1 && column.precision <= 38) {
        const __int128 limit = PowerOfTen(column.precision);
        if (*v >= limit || *v <= -limit) return std::nullopt;
      }
      return MinimalTwosComplement(*v);
    }
    default:
      return std::nullopt;
  }
}

}  // namespace

bool FooterLeafReadable(const TypeSpec& column, const FooterLeaf& leaf) {
  const ColumnType type = column.type;
  if (IsUnsignedLeaf(leaf) && leaf.bit_width > MaxUnsignedWidth(type)) return false;
  if (leaf.annotation == A::kDecimal) {
    return type == T::kDecimal && leaf.scale == column.scale &&
           (leaf.physical == P::kInt32 || leaf.physical == P::kInt64 ||
            leaf.physical == P::kFixedLenByteArray);
  }
  switch (type) {
    case T::kBoolean:
      return leaf.physical == P::kBoolean;
    case T::kInt8:
    case T::kInt16:
    case T::kInt:
    case T::kUInt8:
    case T::kUInt16:
    case T::kDate:
      return leaf.physical == P::kInt32;
    case T::kUInt32:
      return leaf.physical == P::kInt64 ||
             (leaf.physical == P::kInt32 && IsUnsignedLeaf(leaf) && leaf.bit_width == 32);
    case T::kUInt64:
      return leaf.physical == P::kInt64 && IsUnsignedLeaf(leaf) && leaf.bit_width == 64;
    case T::kLong:
      return leaf.physical == P::kInt32 || leaf.physical == P::kInt64;
    case T::kFloat:
      return leaf.physical == P::kFloat;
    case T::kDouble:
      return leaf.physical == P::kDouble || leaf.physical == P::kFloat;
    case T::kTime:
      return leaf.annotation == A::kTime &&
             ((leaf.physical == P::kInt64 && leaf.unit == TimeUnit::kMicro) ||
              (leaf.physical == P::kInt32 && leaf.unit == TimeUnit::kMilli));
    case T::kTimestampS:
    case T::kTimestampMs:
    case T::kTimestamp:
    case T::kTimestampNs:
    case T::kTimestamptz:
      return leaf.annotation == A::kTimestamp && leaf.physical == P::kInt64;
    case T::kString:
    case T::kJson:
      return leaf.physical == P::kByteArray;
    case T::kBinary:
      return leaf.physical == P::kByteArray || leaf.physical == P::kFixedLenByteArray;
    case T::kUuid:
      return leaf.physical == P::kFixedLenByteArray && leaf.type_length == 16;
    default:
      return false;  // decimal without a DECIMAL leaf, variant, containers
  }
}

std::optional<std::string> FooterValueToBound(const TypeSpec& column, const FooterLeaf& leaf,
                                              std::string_view statistic, BoundRole role,
                                              FooterPolicy policy) {
  if (!FooterLeafReadable(column, leaf)) return std::nullopt;
  auto bound = Convert(column, leaf, statistic, role, policy);
  // Whatever the server could not decode (a time outside one day, a string
  // that is not UTF-8, …) is not worth sending.
  if (bound && !DecodeBound(column, *bound).ok()) return std::nullopt;
  return bound;
}

}  // namespace hoglake::iceberg
