// Column bounds as Iceberg single values (pyhoglake-writer §5, contract
// §3.1/§3.4): the binary codec of each column type's MAPPED Iceberg type,
// the zero canonicalisation every door that stores a bound applies, the
// 4→8 byte re-encoding on promotion, the type order bounds compare in, and
// the decoded-bound JSON the read endpoints show.
//
// Layout per catalog type (little-endian unless stated):
//   boolean                      1 byte 00 / 01 (decoding: any nonzero = true)
//   int8 int16 int uint8 uint16  Iceberg int: 4 bytes signed
//   uint32 long                  Iceberg long: 8 bytes signed
//   uint64                       decimal(20,0): minimal big-endian two's
//                                complement (9 bytes, leading 00, at ≥ 2^63)
//   float / double               4 / 8 bytes IEEE-754
//   decimal(p,s)                 minimal big-endian two's complement of the
//                                unscaled value, at least 1 byte
//   date                         4 bytes: days since 1970-01-01
//   time                         8 bytes: micros since midnight
//   timestamp_s/_ms/timestamp    8 bytes: MICROS since the epoch (the declared
//   timestamptz                  precision is metadata only; tz: UTC)
//   timestamp_ns                 8 bytes: NANOS since the epoch
//   string / json                the UTF-8 bytes verbatim
//   uuid                         16 bytes, canonical (big-endian) order
//   binary                       the bytes
//   variant, list, struct, map   no bounds, ever
//
// Encoding performs no domain checks beyond the layout (a uint8 of 300
// encodes; keeping values in range is the writer's job) and preserves NaN
// payloads bit for bit. Decoding is the server's strict reading: wrong width,
// an empty or over-wide decimal, a NaN, a time outside [0, 24h), a uint64
// outside [0, 2^64) or a string/json that is not UTF-8 is undecodable.
// For every decodable b: EncodeBound(t, DecodeBound(t, b)) == b, except that
// a non-minimal decimal or a boolean byte other than 00/01 comes back
// canonical.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "common/status.h"
#include "iceberg/column_type.h"

namespace hoglake::iceberg {

// One bound value in the representation its type decodes to:
//   kBool     boolean
//   kInt      int8..uint16, int, uint32, long; date (days); time (micros);
//             timestamp_s/_ms/timestamp/timestamptz (micros); timestamp_ns (nanos)
//   kDecimal  decimal (unscaled at the column scale) and uint64 (the value)
//   kFloat    float;  kDouble  double
//   kBytes    string/json (UTF-8), uuid (16 bytes), binary
struct BoundValue {
  enum class Kind : uint8_t { kBool, kInt, kDecimal, kFloat, kDouble, kBytes };
  Kind kind = Kind::kInt;
  bool b = false;
  int64_t i = 0;
  __int128 unscaled = 0;
  float f = 0;
  double d = 0;
  std::string bytes;

  static BoundValue Bool(bool v);
  static BoundValue Int(int64_t v);
  static BoundValue Decimal(__int128 unscaled);
  static BoundValue Float(float v);
  static BoundValue Double(double v);
  static BoundValue Bytes(std::string v);
};

// The bound bytes of `value` for a column of `type`. Errors (kInvalidArgument)
// when the value's kind does not fit the type (e.g. uuid from an integer),
// an int-mapped value does not fit 32 bits, a uint64 is outside [0, 2^64), a
// uuid is not 16 bytes, or the type has no bounds.
Result<std::string> EncodeBound(const TypeSpec& type, const BoundValue& value);

// The value of stored bound bytes. Errors (kInvalidData) name the reason the
// bytes are undecodable under `type` (see the header comment). Only the
// decimal scale of `type` matters; precision is not checked.
Result<BoundValue> DecodeBound(const TypeSpec& type, std::string_view bytes);

// Appends the decoded-bound JSON of contract §3.4, or `null` when the bytes
// are undecodable: booleans; integers, uint64 and decimals as exact number
// tokens (decimals at the column scale, plain notation: 1.50); float/double
// as numbers with "-0.0", and "Infinity"/"-Infinity" as strings; date
// "2026-09-05"; time "13:37:42.123456"; timestamps
// "2026-09-05T12:00:00.123456" (9 digits for timestamp_ns, "Z" for
// timestamptz, "+YYYYY" past year 9999); string/json as strings; uuid
// canonical; binary base64.
void AppendBoundJson(const TypeSpec& type, std::string_view bytes, std::string* out);
std::string BoundJson(const TypeSpec& type, std::string_view bytes);

enum class BoundRole : uint8_t { kLower, kUpper };

// The stored form of a bound: for float (4 bytes) and double (8 bytes) a zero
// of either sign becomes -0.0 as a LOWER bound and +0.0 as an UPPER bound.
// Everything else (non-zero, NaN, wrong width, other types) is returned as is.
std::string NormalizeZeroBound(ColumnType type, std::string_view bytes, BoundRole role);

// Re-encodes a stored bound for promote_column. When the mapped Iceberg type
// widens (int→long, which covers int8/int16/int→long and uint8/uint16→uint32;
// float→double) the 4-byte bound becomes the 8-byte one; otherwise the bytes
// are unchanged. Errors when CanPromote(from, to) is false or the bytes do not
// decode under `from`.
Result<std::string> PromoteBound(ColumnType from, ColumnType to, std::string_view bytes);

// Three-way comparison of two bounds in the type's order: numbers and
// temporals by value; float/double by IEEE total order (Java Double.compare:
// -0.0 < +0.0); string/json/uuid/binary bytewise unsigned (= code point order
// for UTF-8). Errors when either side is undecodable.
Result<int> CompareBounds(const TypeSpec& type, std::string_view a, std::string_view b);

// Minimal big-endian two's complement, as Java BigInteger.toByteArray():
// 0 → 00, 127 → 7f, 128 → 0080, -128 → 80, -129 → ff7f.
std::string MinimalTwosComplement(__int128 value);
// The value of big-endian two's complement bytes. Errors (kInvalidData) when
// empty or when the value does not fit 128 bits (redundant sign bytes beyond
// 16 are accepted).
Result<__int128> ParseTwosComplement(std::string_view big_endian);

}  // namespace hoglake::iceberg
