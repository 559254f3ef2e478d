// The stored forms of a table-creation operation (internal to src/catalog):
// its definition and its published file list, as JSON text for the jsonb
// columns of hog_table_creation. Both writers are deterministic, so two
// requests that parse alike store alike; equality is then jsonb equality
// (object keys unordered, arrays ordered — the file list is order-sensitive).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "catalog/commit/commit_request.h"
#include "catalog/commit/table_creations.h"

namespace hoglake::catalog {

std::string DefinitionJson(const TableCreationDefinition& definition);
// kCorruptDefinition when the stored text does not read back as a definition.
Result<TableCreationDefinition> ParseDefinitionJson(std::string_view json);

// The file list as sent (bounds in base64), before any sanitizing.
std::string FilesJson(const std::vector<FileRegistration>& files);

}  // namespace hoglake::catalog
