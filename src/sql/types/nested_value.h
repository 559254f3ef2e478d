// Nested values (arrays, composites, maps) one at a time: reading a row of a
// list/struct/map array into a Value's elements, appending such a Value to
// a builder, and their text forms. value.h's ValueAt, AppendValue
// and ValueToString come here for nested types; nothing else should.
//
// Text forms follow PostgreSQL's output functions:
//   array      array_out: "{1,2,NULL}"; an element is double-quoted when it
//              is empty, spells NULL (any case), or holds '{', '}', ',',
//              '"', '\' or white space, with '"' and '\' backslash-escaped;
//              an element that is itself an array is written bare
//              ("{{1,2},{3}}").
//   composite  record_out: "(1,,\"a b\")"; a NULL field is empty; a field
//              is quoted when it is empty or holds '(', ')', ',', '"', '\'
//              or white space, with '"' and '\' doubled.
//   map        PostgreSQL has none; written "{k=v, k2=v2}" (keys and values
//              in their own text forms, NULL values as NULL).
#pragma once

#include <cstdint>
#include <string>

#include "columnar/array.h"
#include "columnar/builder.h"
#include "common/status.h"
#include "sql/types/value.h"

namespace hoglake::sql {

// Fills out->elements from row `row` of `array` (non-null, of out->type).
void NestedValueAt(const columnar::ArrayData& array, int64_t row, Value* out);

// Appends a non-null nested value to a builder of CarrierType(value.type).
Status AppendNestedValue(columnar::ArrayBuilder* builder, const Value& value);

// The text form of a non-null nested value (see above).
void AppendNestedText(const Value& value, std::string* out);

}  // namespace hoglake::sql
