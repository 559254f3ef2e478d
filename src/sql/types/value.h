// Value: one SQL value outside an array — a literal, a folded constant, a
// statistics bound — with its SQL type. Null is a value of any type.
//
// Payload by type: boolean → b; smallint/integer/bigint/date (days)/time
// (µs)/timestamp(tz) (µs since the epoch) → i; real/double → d; numeric →
// n (unscaled at type.scale); text/json/bytea/uuid (16 bytes)/interval (16
// bytes, see sql_type.h) → s; array → elements (in order, each of the
// element type); composite → elements (one per field, in field order); map
// → elements as key, value, key, value, … (entries in stored order).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "columnar/array.h"
#include "sql/types/sql_type.h"

namespace hoglake::columnar {
class ArrayBuilder;
}  // namespace hoglake::columnar

namespace hoglake::sql {

struct Value {
  Value() = default;
  explicit Value(SqlType t) : type(std::move(t)) {}

  SqlType type;
  bool is_null = true;
  bool b = false;
  int64_t i = 0;
  double d = 0;
  __int128 n = 0;
  std::string s;
  std::vector<Value> elements;

  static Value Null(SqlType type) { return Value{std::move(type)}; }
  static Value Boolean(bool v);
  static Value Integer(SqlTypeId id, int64_t v);  // smallint, integer, bigint, date, time, timestamps
  static Value Double(SqlTypeId id, double v);    // real, double
  static Value Numeric(int precision, int scale, __int128 unscaled);
  static Value Text(std::string v, SqlTypeId id = SqlTypeId::kText);
};

// Appends `value` to a builder made by MakeBuilder(CarrierType(value.type)).
Status AppendValue(columnar::ArrayBuilder* builder, const Value& value);

// An array of `rows` copies of `value`, in the carrier of value.type.
Result<columnar::ArrayPtr> BroadcastValue(const Value& value, int64_t rows);

// Row `row` of `array` (whose SQL type is `type`) as a Value.
Value ValueAt(const columnar::ArrayData& array, int64_t row, const SqlType& type);

// Orders two non-null values of one SQL type (numerics across scales; NaN
// above every other float; text and bytes byte-wise): negative, 0, positive.
int CompareValue(const Value& a, const Value& b);

// PostgreSQL's text output of a value ("t", "1.50", "2024-01-05",
// "2024-01-05 10:00:00+00"); "NULL" for null. Arrays as array_out writes
// them ("{1,NULL,\"a b\"}"), composites as record_out ("(1,,\"a b\")");
// maps, which PostgreSQL lacks, as "{k=>v, …}" with hstore's quoting.
// Used for result text (CSV, the wire's text values) and messages.
std::string ValueToString(const Value& value);

}  // namespace hoglake::sql
