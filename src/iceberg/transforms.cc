#include "iceberg/transforms.h"

#include <cstring>

#include "common/time_text.h"
#include "iceberg/bounds.h"

namespace hoglake::iceberg {
namespace {

using T = ColumnType;

constexpr std::string_view kBucketTypes =
    "int8, int16, int, long, uint8, uint16, date, time, timestamp, timestamptz, string, uuid, "
    "binary, decimal";
constexpr std::string_view kTruncateTypes =
    "int8, int16, int, long, uint8, uint16, uint32, uint64, string, binary, decimal";

int64_t FloorDiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

uint32_t RotateLeft(uint32_t x, int r) { return (x << r) | (x >> (32 - r)); }

uint32_t MixK(uint32_t k) {
  k *= 0xcc9e2d51u;
  k = RotateLeft(k, 15);
  return k * 0x1b873593u;
}

}  // namespace

std::string_view TransformName(TransformKind kind) {
  switch (kind) {
    case TransformKind::kIdentity:
      return "identity";
    case TransformKind::kBucket:
      return "bucket";
    case TransformKind::kTruncate:
      return "truncate";
    case TransformKind::kYear:
      return "year";
    case TransformKind::kMonth:
      return "month";
    case TransformKind::kDay:
      return "day";
    case TransformKind::kHour:
      return "hour";
  }
  return "?";
}

std::string Transform::ToString() const {
  std::string out(TransformName(kind));
  if (kind == TransformKind::kBucket || kind == TransformKind::kTruncate) {
    out += "[" + std::to_string(param) + "]";
  }
  return out;
}

Result<Transform> ParseTransform(std::string_view name, std::optional<int64_t> param) {
  static constexpr TransformKind kKinds[] = {TransformKind::kIdentity, TransformKind::kBucket,
                                             TransformKind::kTruncate, TransformKind::kYear,
                                             TransformKind::kMonth,    TransformKind::kDay,
                                             TransformKind::kHour};
  for (TransformKind kind : kKinds) {
    if (name != TransformName(kind)) continue;
    Transform transform{kind, 0};
    if (kind == TransformKind::kBucket || kind == TransformKind::kTruncate) {
      const bool bucket = kind == TransformKind::kBucket;
      if (!param) {
        return Validation(name, " transform requires transform_param (", bucket ? "N" : "W", ")");
      }
      if (*param < 1) {
        return Validation(bucket ? "bucket requires a positive bucket count"
                                 : "truncate requires a positive width");
      }
      if (*param > INT32_MAX) {
        return Validation(name, " transform_param ", *param, " exceeds 2147483647");
      }
      transform.param = static_cast<int32_t>(*param);
    } else if (param) {
      return Validation(name, " transform takes no transform_param");
    }
    return transform;
  }
  return Validation("unknown partition transform '", name, "'");
}

bool TransformAccepts(TransformKind kind, ColumnType type) {
  if (!HasBounds(type)) return false;  // containers and variant have no single value per row
  switch (kind) {
    case TransformKind::kIdentity:
      return true;
    case TransformKind::kBucket:
      switch (type) {
        case T::kInt8:
        case T::kInt16:
        case T::kInt:
        case T::kLong:
        case T::kUInt8:
        case T::kUInt16:
        case T::kDate:
        case T::kTime:
        case T::kTimestamp:
        case T::kTimestamptz:
        case T::kString:
        case T::kUuid:
        case T::kBinary:
        case T::kDecimal:
          return true;
        default:
          return false;
      }
    case TransformKind::kTruncate:
      return IsIntegerType(type) || type == T::kString || type == T::kBinary || type == T::kDecimal;
    case TransformKind::kYear:
    case TransformKind::kMonth:
    case TransformKind::kDay:
      return type == T::kDate || IsTimestampType(type);
    case TransformKind::kHour:
      return IsTimestampType(type);
  }
  return false;
}

Status CheckTransformSource(const Transform& transform, ColumnType type) {
  if (TransformAccepts(transform.kind, type)) return Status::Ok();
  const std::string_view t = ColumnTypeName(type);
  switch (transform.kind) {
    case TransformKind::kBucket:
      return Validation("bucket cannot be applied to column type '", t,
                        "' (bucketable types: ", kBucketTypes, ")");
    case TransformKind::kTruncate:
      return Validation("truncate cannot be applied to column type '", t,
                        "' (truncatable types: ", kTruncateTypes, ")");
    case TransformKind::kIdentity:
      return Validation("identity transform cannot be applied to column type '", t,
                        "': it has no single value per row");
    case TransformKind::kHour:
      return Validation("hour transform cannot be applied to column type '", t,
                        "' (it needs a timestamp type)");
    default:
      return Validation(TransformName(transform.kind),
                        " transform cannot be applied to column type '", t,
                        "' (it needs date or a timestamp type)");
  }
}

uint32_t Murmur3X86_32(std::string_view bytes, uint32_t seed) {
  const auto* data = reinterpret_cast<const uint8_t*>(bytes.data());
  const size_t n = bytes.size();
  uint32_t h = seed;
  size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    const uint32_t k = static_cast<uint32_t>(data[i]) | (static_cast<uint32_t>(data[i + 1]) << 8) |
                       (static_cast<uint32_t>(data[i + 2]) << 16) |
                       (static_cast<uint32_t>(data[i + 3]) << 24);
    h ^= MixK(k);
    h = RotateLeft(h, 13);
    h = h * 5 + 0xe6546b64u;
  }
  uint32_t tail = 0;
  for (size_t shift = 0; i < n; ++i, shift += 8) tail |= static_cast<uint32_t>(data[i]) << shift;
  if ((n & 3) != 0) h ^= MixK(tail);
  h ^= static_cast<uint32_t>(n);
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  h ^= h >> 16;
  return h;
}

int32_t IcebergHashLong(int64_t value) {
  char le[8];
  std::memcpy(le, &value, 8);  // little-endian host
  return static_cast<int32_t>(Murmur3X86_32(std::string_view(le, 8)));
}

int32_t IcebergHashBytes(std::string_view bytes) {
  return static_cast<int32_t>(Murmur3X86_32(bytes));
}

int32_t IcebergHashDecimal(__int128 unscaled) {
  return IcebergHashBytes(MinimalTwosComplement(unscaled));
}

int32_t BucketOf(int32_t hash, int32_t buckets) { return (hash & INT32_MAX) % buckets; }

int64_t YearsFromDays(int64_t days) { return CivilFromDays(days).year - 1970; }

int64_t MonthsFromDays(int64_t days) {
  const CivilDate date = CivilFromDays(days);
  return (date.year - 1970) * 12 + (date.month - 1);
}

int64_t DaysFromMicros(int64_t micros) { return FloorDiv(micros, 86'400'000'000); }
int64_t HoursFromMicros(int64_t micros) { return FloorDiv(micros, 3'600'000'000); }

Result<int64_t> TicksToMicros(int64_t ticks, columnar::TimeUnit unit) {
  int64_t out = ticks;
  switch (unit) {
    case columnar::TimeUnit::kSecond:
      if (__builtin_mul_overflow(ticks, int64_t{1'000'000}, &out)) break;
      return out;
    case columnar::TimeUnit::kMilli:
      if (__builtin_mul_overflow(ticks, int64_t{1'000}, &out)) break;
      return out;
    case columnar::TimeUnit::kMicro:
      return ticks;
    case columnar::TimeUnit::kNano:
      return FloorDiv(ticks, 1000);
  }
  return InvalidArgument("timestamp value ", ticks, " ", columnar::TimeUnitName(unit),
                         " overflows int64 microseconds");
}

Result<int64_t> TicksToNanos(int64_t ticks, columnar::TimeUnit unit) {
  const int64_t factor = 1'000'000'000 / columnar::TicksPerSecond(unit);
  int64_t out;
  if (__builtin_mul_overflow(ticks, factor, &out)) {
    return InvalidArgument("timestamp value ", ticks, " ", columnar::TimeUnitName(unit),
                           " overflows int64 nanoseconds");
  }
  return out;
}

__int128 TruncateInteger(__int128 value, int64_t width) {
  __int128 mod = value % width;
  if (mod < 0) mod += width;
  return value - mod;
}

std::string_view TruncateUtf8(std::string_view text, int64_t width) {
  size_t i = 0;
  for (int64_t points = 0; i < text.size() && points < width; ++points) {
    const auto lead = static_cast<uint8_t>(text[i]);
    i += lead < 0x80 ? 1 : (lead >> 5) == 0x6 ? 2 : (lead >> 4) == 0xE ? 3 : 4;
  }
  return text.substr(0, i < text.size() ? i : text.size());
}

std::string_view TruncateBinary(std::string_view bytes, int64_t width) {
  return bytes.substr(
      0, static_cast<size_t>(width) < bytes.size() ? static_cast<size_t>(width) : bytes.size());
}

}  // namespace hoglake::iceberg
