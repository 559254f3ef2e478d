// JSON wire shapes of the contract (§2), rendered from catalog structs.
// Null-valued optional fields are omitted (contract §1.2).
#pragma once

#include <string>
#include <vector>

#include "catalog/catalog_service.h"
#include "common/json_writer.h"

namespace hoglake::server {

void WriteCatalog(const catalog::CatalogInfo& info, JsonWriter& w);
void WriteNamespace(const catalog::NamespaceInfo& info, JsonWriter& w);
void WriteSnapshotPage(const catalog::SnapshotPage& page, JsonWriter& w);
void WriteCommitResult(const catalog::CommitResult& result, JsonWriter& w);

// Capabilities advertised on Catalog (contract §1.9): only what is implemented.
const std::vector<std::string>& Capabilities();

}  // namespace hoglake::server
