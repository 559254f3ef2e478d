// A schema as JSON, for `hoglake arrow schema --json` and interop checks:
//   {"fields":[FIELD...],"metadata":{"k":"v",...}}
//   FIELD = {"name":…,"type":…,"nullable":bool,"metadata":{…}[,"children":[FIELD...]]}
// "type" is DataType::ToString() for scalar types ("int64",
// "timestamp[us, tz=UTC]", "decimal128(38, 10)", "fixed_size_binary[16]") and
// "list", "struct" or "map" for nested ones, whose children follow the Arrow
// layout (a map has one "entries" struct child holding key and value).
// Metadata keys keep their stored order.
#pragma once

#include <string>

#include "columnar/type.h"

namespace hoglake::columnar {

void AppendFieldJson(const Field& field, std::string* out);
void AppendSchemaJson(const Schema& schema, std::string* out);

}  // namespace hoglake::columnar
