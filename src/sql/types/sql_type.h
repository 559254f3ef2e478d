// SQL types: the PostgreSQL types the engine computes with, how each is
// spelled (PostgreSQL's names, as information_schema and result schemas show
// them), which columnar type carries its values, and how the catalog's
// column types map onto them.
//
// Catalog column type → SQL type:
//   boolean → boolean; int8, int16, uint8 → smallint; int, uint16 → integer;
//   long, uint32 → bigint; uint64 → numeric(20,0); float → real;
//   double → double precision; decimal(p,s) → numeric(p,s); date → date;
//   time → time; timestamp_s/_ms/timestamp/_ns → timestamp;
//   timestamptz → timestamp with time zone; string → text; json, variant →
//   json; binary → bytea; uuid → uuid; list<T> → T[]; struct → a composite
//   (spelled "record" by PostgreSQL; we spell its fields); map → map.
//
// Values travel in columnar arrays: boolean→bool, smallint/integer/bigint→
// int16/32/64, real/double→float32/64, numeric(p,s)→decimal128(p,s) (an
// unconstrained numeric is carried as decimal128(38, s) with s chosen by the
// operation that made it), date→date32, time→time64[us], timestamp→
// timestamp[us], timestamptz→timestamp[us, UTC], interval→
// fixed_size_binary(16) (months int32, days int32, microseconds int64, little
// endian), text/json→utf8, bytea→binary, uuid→fixed_size_binary(16),
// arrays/composites/maps→list/struct/map of their members' carriers.
// `unknown` is the type of a string literal before context gives it one,
// and of a bare NULL (PostgreSQL resolves both to text when nothing else
// does).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "columnar/type.h"
#include "common/status.h"

namespace hoglake::sql {

enum class SqlTypeId : uint8_t {
  kUnknown,
  kBoolean,
  kSmallint,
  kInteger,
  kBigint,
  kReal,
  kDouble,
  kNumeric,
  kDate,
  kTime,
  kTimestamp,
  kTimestampTz,
  kInterval,
  kText,
  kBytea,
  kUuid,
  kJson,
  kArray,
  kComposite,
  kMap,
};

inline constexpr int kMaxNumericPrecision = 38;

struct SqlType {
  SqlTypeId id = SqlTypeId::kUnknown;
  // numeric: precision 1..38 and scale, or precision -1 for an unconstrained
  // numeric (values carried at `scale`).
  int precision = -1;
  int scale = 0;
  // array: one member (the element, name ""); composite: its fields; map:
  // key then value.
  std::vector<std::pair<std::string, SqlType>> members;

  static SqlType Of(SqlTypeId id) { return SqlType{id, -1, 0, {}}; }
  static SqlType Numeric(int precision, int scale) {
    return SqlType{SqlTypeId::kNumeric, precision, scale, {}};
  }
  static SqlType Array(SqlType element);

  bool operator==(const SqlType& other) const = default;

  bool is_integer() const {
    return id == SqlTypeId::kSmallint || id == SqlTypeId::kInteger || id == SqlTypeId::kBigint;
  }
  bool is_float() const { return id == SqlTypeId::kReal || id == SqlTypeId::kDouble; }
  bool is_numeric_kind() const { return is_integer() || is_float() || id == SqlTypeId::kNumeric; }
  bool is_temporal() const {
    return id == SqlTypeId::kDate || id == SqlTypeId::kTime || id == SqlTypeId::kTimestamp ||
           id == SqlTypeId::kTimestampTz || id == SqlTypeId::kInterval;
  }
  bool is_string() const { return id == SqlTypeId::kText || id == SqlTypeId::kJson; }
  bool is_nested() const {
    return id == SqlTypeId::kArray || id == SqlTypeId::kComposite || id == SqlTypeId::kMap;
  }
  const SqlType& element() const { return members[0].second; }
};

// PostgreSQL's spelling as format_type() gives it: "integer",
// "double precision", "numeric(10,2)", "numeric", "timestamp with time zone",
// "text[]", composites "record(a integer, b text)", maps "map(text, bigint)".
std::string PgTypeName(const SqlType& type);

// The columnar type that carries values of `type` (see above).
columnar::DataTypePtr CarrierType(const SqlType& type);

// The SQL type of a column stored as `field` (its Arrow type and extension
// metadata); kNotImplemented for types with no SQL counterpart.
Result<SqlType> SqlTypeOfField(const columnar::Field& field);

// The SQL type a name in a cast or a typed literal denotes: PostgreSQL's
// names and aliases ("int4", "integer", "int", "float8", "double precision",
// "varchar", "character varying", "bpchar", "timestamptz", "bool", …) with
// `modifiers` (numeric(p, s); varchar(n) is text here). Unknown names are a
// kUndefinedObject SQL error: type "x" does not exist.
Result<SqlType> SqlTypeFromName(const std::vector<std::string>& names,
                                const std::vector<int64_t>& modifiers, int array_dimensions);

}  // namespace hoglake::sql
