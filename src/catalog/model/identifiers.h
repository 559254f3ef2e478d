// Name rules of the contract (§1.10) and the data_path rules of catalog
// creation (§2.3), each refusal a kValidation error whose text names the
// offending value.
//   namespace / table / view / column: ^[A-Za-z_][A-Za-z0-9_-]{0,127}$
//   catalog:                            ^[a-z0-9][a-z0-9_-]{0,62}$
//   data_path: s3://bucket[/prefix] or (our extension) file:///absolute/path,
//              ≤ 512 characters, no whitespace or control characters, no "."
//              or ".." segments.
#pragma once

#include <string>
#include <string_view>

#include "common/status.h"

namespace hoglake::catalog {

// `kind` names the thing in the message: "namespace", "table", "view", "column".
Status ValidateIdentifier(std::string_view kind, std::string_view name);
Status ValidateCatalogName(std::string_view name);
// Returns the path normalized to end with exactly one "/".
Result<std::string> NormalizeDataPath(std::string_view data_path);
// True when one normalized path is a prefix of the other (the catalogs'
// trees would overlap).
bool DataPathsOverlap(std::string_view a, std::string_view b);

}  // namespace hoglake::catalog
