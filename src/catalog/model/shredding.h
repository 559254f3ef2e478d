// The grammar and limits of a variant column's `type_params.shredding`
// declaration (the layout shredding writers give the column's Parquet
// files), checked before one is stored, so no table carries a declaration
// its readers cannot walk.
//
// A declaration is a tree of JSON objects, each with a string `type`:
//   {"type":"object","fields":[{"name":"a", <node keys>}, …]}   ≥ 1 field
//   {"type":"array","element":<node>}
//   {"type":"variant"}
//   {"type":"decimal4|decimal8|decimal16","precision":p,"scale":s}
//        p in 1..9 / 1..18 / 1..38, s in 0..p
//   {"type":"<primitive>"}: boolean, int8, int16, int32, int64, float,
//        double, date, time, timestamp, timestamp_ns, timestamptz,
//        timestamptz_ns, binary, string, uuid
// Limits: objects and arrays nest at most kMaxShreddingDepth deep (the root
// at depth 0); at most kMaxShreddingFields object fields and arrays in all;
// the UTF-8 bytes of the field names on the way to any field at most
// kMaxShreddingPathNameBytes; field names unique within an object; no other
// keys. JSON null declares nothing and is not passed here.
#pragma once

#include <string_view>

#include "common/status.h"

namespace hoglake::catalog {

inline constexpr int kMaxShreddingDepth = 16;
inline constexpr int kMaxShreddingFields = 1000;
inline constexpr int kMaxShreddingPathNameBytes = 1024;

// kValidation naming `column` and the node at fault ($, $.a, $.tags[*]).
Status ValidateShredding(std::string_view json, std::string_view column);

}  // namespace hoglake::catalog
