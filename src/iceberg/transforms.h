// Partition transforms (pyhoglake-writer §6): their spec form, the type
// gates, and the scalar semantics the array driver (partition_keys.h) and
// any other caller share.
//
//   identity     the value                                    every scalar but variant
//   bucket[N]    (murmur3_x86_32(hash input) & INT32_MAX) % N  int8 int16 int long
//                                                             uint8 uint16 date time
//                                                             timestamp timestamptz
//                                                             string uuid binary decimal
//   truncate[W]  ints: v - floor_mod(v, W); decimal: the       int8 int16 int long uint8
//                unscaled value likewise; string: first W      uint16 uint32 uint64
//                code points; binary: first W bytes            string binary decimal
//   year/month   years / months since 1970-01                 date, every timestamp type
//   day          days since 1970-01-01                        date, every timestamp type
//   hour         hours since the epoch                        every timestamp type
// Temporal results use floor division (pre-1970 values are negative). json
// allows identity only; variant and containers allow nothing (no single value
// per row; the server refuses them as sources too). The five withheld bucket
// types (uint32, uint64, timestamp_s, timestamp_ms, timestamp_ns) have no
// cross-language vectors yet; the bucket set equals the server's
// BUCKETABLE_TYPES.
//
// Bucket hash inputs (Iceberg spec Appendix B, not the bounds codec): every
// integer width, date (days), time (micros) and timestamps (micros) as an
// 8-byte little-endian long; string as UTF-8; uuid as its 16 big-endian
// bytes; binary raw; decimal as the minimal big-endian two's complement of
// the unscaled value.
//
// Errors are kValidation (HTTP 422) with the rulebook's messages.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "columnar/type.h"
#include "common/status.h"
#include "iceberg/column_type.h"

namespace hoglake::iceberg {

enum class TransformKind : uint8_t { kIdentity, kBucket, kTruncate, kYear, kMonth, kDay, kHour };

// "identity", "bucket", "truncate", "year", "month", "day", "hour".
std::string_view TransformName(TransformKind kind);

// One partition field's transform: kind plus N (bucket) or W (truncate).
struct Transform {
  TransformKind kind = TransformKind::kIdentity;
  int32_t param = 0;  // bucket count or width; 0 for the others

  bool operator==(const Transform& other) const = default;
  // "identity", "bucket[16]", "truncate[10]".
  std::string ToString() const;
};

// The transform of a partition spec field (`transform`, `transform_param`).
// Errors: "unknown partition transform 'x'", "bucket transform requires
// transform_param (N)", "truncate transform requires transform_param (W)",
// "bucket requires a positive bucket count", "truncate requires a positive
// width", "<t> transform takes no transform_param", and a parameter beyond
// 2147483647.
Result<Transform> ParseTransform(std::string_view name, std::optional<int64_t> param);

// The §6.2 gate: whether `kind` may be applied to a column of `type`.
bool TransformAccepts(TransformKind kind, ColumnType type);
// As TransformAccepts, with the rulebook's refusal messages:
// "bucket cannot be applied to column type 'x' …", "truncate cannot be
// applied to column type 'x' …", "year transform cannot be applied to column
// type 'x' …".
Status CheckTransformSource(const Transform& transform, ColumnType type);

// ---- scalar semantics ------------------------------------------------------

// MurmurHash3 x86_32 of `bytes` (all arithmetic mod 2^32).
uint32_t Murmur3X86_32(std::string_view bytes, uint32_t seed = 0);

// Iceberg's 32-bit hashes (signed, as Java reports them).
int32_t IcebergHashLong(int64_t value);            // ints, date, time, timestamps
int32_t IcebergHashBytes(std::string_view bytes);  // string, uuid, binary
int32_t IcebergHashDecimal(__int128 unscaled);     // decimal

// (hash & INT32_MAX) % buckets — never negative. `buckets` ≥ 1.
int32_t BucketOf(int32_t hash, int32_t buckets);

// Temporal transforms. Inputs are days since 1970-01-01 or microseconds
// since the epoch (UTC instant for timestamptz).
int64_t YearsFromDays(int64_t days);      // year - 1970
int64_t MonthsFromDays(int64_t days);     // (year - 1970) * 12 + month - 1
int64_t DaysFromMicros(int64_t micros);   // floor(micros / 86_400_000_000)
int64_t HoursFromMicros(int64_t micros);  // floor(micros / 3_600_000_000)

// Ticks of `unit` → microseconds: seconds and millis multiply with overflow
// checking (kInvalidArgument, never a wrap), nanos floor-divide by 1000 (so
// -1 ns is -1 µs).
Result<int64_t> TicksToMicros(int64_t ticks, columnar::TimeUnit unit);
// Ticks of `unit` → nanoseconds, overflow-checked.
Result<int64_t> TicksToNanos(int64_t ticks, columnar::TimeUnit unit);

// truncate[W] on integers and decimal unscaled values: v - floor_mod(v, W).
// Exact (no wrap): int -2147483648 truncates to -2147483650 at W = 10.
__int128 TruncateInteger(__int128 value, int64_t width);
// The first `width` code points of valid UTF-8 text (all of it when shorter).
std::string_view TruncateUtf8(std::string_view text, int64_t width);
// The first `width` bytes.
std::string_view TruncateBinary(std::string_view bytes, int64_t width);

}  // namespace hoglake::iceberg
