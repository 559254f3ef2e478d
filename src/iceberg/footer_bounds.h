// Parquet footer statistics → Iceberg bounds, without a Parquet reader
// (pyhoglake-writer §4.4, §4.6, §4.7, §4.9, §4.10; hoglake-server §7
// FooterStats for the hydrator's variant).
//
// The Parquet code describes one footer leaf with a FooterLeaf (its physical
// type and logical annotation, legacy converted types folded in) and hands
// each row group's plain-encoded `min_value` / `max_value` statistic bytes to
// FooterValueToBound together with the column's catalog type. The answer is
// the bound bytes (the mapped Iceberg single value, bounds.h) or nullopt:
// "drop the bound". Per §4.5 a dropped value drops the column's bounds but
// never its counts; selection across row groups then compares the converted
// bounds with CompareBounds (float total order, bytes unsigned, values).
//
// Readability (§4.4): a leaf only yields bounds when its shape can honestly
// mean the catalog type:
//   boolean                          BOOLEAN
//   int8 int16 uint8 uint16 int date any INT32 (date/time annotations count)
//   uint32                           INT64, or INT32 annotated unsigned 32
//   uint64                           INT64 annotated unsigned 64 only
//   long                             INT32 or INT64
//   float / double                   FLOAT / DOUBLE or FLOAT
//   time                             INT64 TIME(MICROS), INT32 TIME(MILLIS)
//   every timestamp type             TIMESTAMP (unit read from the leaf)
//   string, json                     BYTE_ARRAY
//   binary                           BYTE_ARRAY or FIXED_LEN_BYTE_ARRAY
//   uuid                             FIXED_LEN_BYTE_ARRAY(16)
//   decimal                          DECIMAL (INT32, INT64, FIXED_LEN_BYTE_ARRAY)
//                                    whose scale equals the column's
// A DECIMAL annotation is only readable as a decimal. Unsigned-domain rule:
// an unsigned integer leaf of width w is only readable by a type whose
// widest unsigned width is ≥ w: uint64 64; uint32, long, time, timestamps
// 32; uint16, int, date 16; uint8, int16 8; anything else none.
//
// Conversion: INT32 → the same 4 bytes (value must lie in the catalog type's
// domain, e.g. int8 in -128..127) or sign/zero-extended to 8 for long/uint32;
// INT64 → long / uint32 (uint32 in [0, 2^32)); unsigned INT64 → uint64 as a
// minimal big-endian two's complement; FLOAT → float, or widened for double;
// TIME(MILLIS) ×1000; TIMESTAMP → micros (ms ×1000 checked, us, ns ÷1000) or,
// for timestamp_ns, nanos (ms ×1e6, us ×1e3 checked); byte arrays raw;
// decimals re-encoded minimally; BOOLEAN 00/01. Float zeros are normalised
// by role (lower -0.0, upper +0.0); a NaN is dropped.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "columnar/type.h"
#include "iceberg/bounds.h"
#include "iceberg/column_type.h"

namespace hoglake::iceberg {

enum class ParquetPhysical : uint8_t {
  kBoolean,
  kInt32,
  kInt64,
  kInt96,
  kFloat,
  kDouble,
  kByteArray,
  kFixedLenByteArray,
};

// The leaf's logical annotation (LogicalType, or the equivalent legacy
// ConvertedType: UINT_8..UINT_64/INT_8..INT_64 → kInteger, DATE → kDate,
// TIME_MILLIS/MICROS → kTime, TIMESTAMP_MILLIS/MICROS → kTimestamp, UTF8 →
// kString, JSON → kJson, DECIMAL → kDecimal). Annotations that do not matter
// here (ENUM, BSON, INTERVAL, …) are kOther.
enum class ParquetAnnotation : uint8_t {
  kNone,
  kInteger,
  kDecimal,
  kDate,
  kTime,
  kTimestamp,
  kString,
  kJson,
  kUuid,
  kOther,
};

// What the statistics conversion needs to know about one footer leaf.
struct FooterLeaf {
  ParquetPhysical physical = ParquetPhysical::kInt32;
  int32_t type_length = 0;  // FIXED_LEN_BYTE_ARRAY width
  ParquetAnnotation annotation = ParquetAnnotation::kNone;
  int bit_width = 0;                                     // kInteger: 8, 16, 32 or 64
  bool is_signed = true;                                 // kInteger
  columnar::TimeUnit unit = columnar::TimeUnit::kMicro;  // kTime, kTimestamp
  bool utc_adjusted = false;  // kTimestamp (informational: instants are UTC either way)
  int32_t precision = 0;      // kDecimal
  int32_t scale = 0;          // kDecimal
};

// Which reader's rules apply where the client and the server hydrator
// differ (sub-microsecond NANOS statistics under a micros catalog type):
//   kWriter    pyhoglake: only whole microseconds convert, and only within
//              years 1..9999 (the range pyarrow can render); else drop.
//   kHydrator  the server's FooterStats: floor for a lower bound, ceiling
//              for an upper bound, any year.
enum class FooterPolicy : uint8_t { kWriter, kHydrator };

// §4.4: whether `leaf` can carry bounds for a column of `column`'s type.
bool FooterLeafReadable(const TypeSpec& column, const FooterLeaf& leaf);

// One plain-encoded statistic (`min_value` for kLower, `max_value` for
// kUpper) → the bound bytes, or nullopt to drop the bound: unreadable leaf,
// wrong statistic width, value outside the catalog type's domain or 128 bits,
// overflow while scaling, a NaN, an inexact or out-of-range timestamp under
// kWriter, a decimal whose scale differs.
std::optional<std::string> FooterValueToBound(const TypeSpec& column, const FooterLeaf& leaf,
                                              std::string_view statistic, BoundRole role,
                                              FooterPolicy policy = FooterPolicy::kWriter);

}  // namespace hoglake::iceberg
