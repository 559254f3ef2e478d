// The bridge between the column-type vocabulary and columnar (Arrow-layout)
// types, as the writer path uses it (pyhoglake-writer §2.1, §2.2).
//
// Catalog → Arrow (the writer schema, §2.2), scalars only:
//   boolean→bool  int8/int16/int→int8/int16/int32  long→int64
//   uint8/uint16→uint8/uint16  uint32→INT64 (asymmetric on purpose: a uint32
//   Parquet INT32 reads back negative above 2^31 through Iceberg)
//   uint64→uint64  float/double→float32/float64  decimal→decimal128(p,s)
//   date→date32  time→time64[us]  timestamp_s/_ms/timestamp/timestamp_ns→
//   timestamp[s/ms/us/ns]  timestamptz→timestamp[us, tz=UTC]  string→utf8
//   json→utf8 + "ARROW:extension:name"="arrow.json"  binary→binary
//   uuid→fixed_size_binary(16) + "ARROW:extension:name"="arrow.uuid"
// Containers are built from their children by the caller (List/Struct/Map
// factories); asking for "list" by name is an error ("nested container"), as
// is variant (not buildable from Arrow).
//
// Arrow → catalog (DDL inference, §2.1): the inverse, plus
// fixed_size_binary(16) without the extension → uuid, timestamp[us] with any
// time zone → timestamptz, utf8 is never inferred as json unless it carries
// the arrow.json extension, and a json field whose metadata holds
// "pyhoglake:variant" → variant (the caller reads the shredding declaration
// from that metadata). Refused, with a kInvalidArgument error whose message
// contains "supported types": time64 in units other than us, timestamps
// with a time zone in units other than us, fixed_size_binary(n≠16), empty
// structs, extension names on the wrong storage. Nesting deeper than
// kMaxColumnNestingDepth (top level = 1) is refused ("nesting depth N exceeds
// the maximum 8"). Containers are validated recursively.
#pragma once

#include <string>
#include <string_view>

#include "columnar/type.h"
#include "common/status.h"
#include "iceberg/column_type.h"

namespace hoglake::iceberg {

inline constexpr int kMaxColumnNestingDepth = 8;
// Field metadata key that marks a json-extension field as a variant column.
inline constexpr std::string_view kVariantMetadataKey = "pyhoglake:variant";

// The Arrow type the writer uses for a scalar catalog type. json and uuid
// return their storage types (utf8, fixed_size_binary(16)); use
// WriterArrowField to get the extension metadata too. A decimal needs
// precision 1..38 and scale 0..precision.
Result<columnar::DataTypePtr> WriterArrowType(const TypeSpec& type);

// A writer field for a scalar column: WriterArrowType plus the arrow.json /
// arrow.uuid extension name for json / uuid. No field id is set.
Result<columnar::Field> WriterArrowField(std::string name, const TypeSpec& type, bool nullable);

// The catalog type of an Arrow field (its top level), after validating the
// whole subtree. Decimals carry precision and scale.
Result<TypeSpec> ColumnTypeFromArrow(const columnar::Field& field);

}  // namespace hoglake::iceberg
