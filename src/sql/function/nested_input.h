// Nested values from text, PostgreSQL's input functions for them:
//
//   array_in   "{1,2,NULL}", "{\"a b\",c}", "{}": braces around elements
//              separated by commas; an element is double-quoted whole (with
//              '\' escaping any character; text after the closing quote is
//              malformed) or bare (white space around it
//              trimmed, '\' escaping); a bare NULL (any case) is NULL. Each
//              element is read by its type's own input function. For an
//              array of arrays, an element may itself be a braced list.
//              A multidimensional literal for a one-dimensional type
//              ("{{1,2}}" as integer[]) is kFeatureNotSupported; anything
//              else malformed is kInvalidTextRepresentation
//              'malformed array literal: "…"'.
//   record_in  "(1,,\"a b\")": parentheses around one field per member; an
//              empty field is NULL; quotes as above, '""' inside quotes a
//              quote. Wrong field counts or stray text: 'malformed record
//              literal: "…"'.
//   maps       "{k=v, k2=v2}" (ValueToString's form; quoting as in arrays,
//              bare NULL values are NULL, keys may not be NULL).
#pragma once

#include <string_view>

#include "common/status.h"
#include "sql/types/value.h"

namespace hoglake::sql {

// Reads `text` as a value of the nested `type` (array, composite or map).
Result<Value> ParseNestedText(std::string_view text, const SqlType& type);

}  // namespace hoglake::sql
