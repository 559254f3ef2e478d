// Wire shapes of tables (contract §2.5, §3.1): ColumnDef requests parsed into
// the catalog's column tree, and Table / TableSummary / Column responses.
#pragma once

#include <vector>

#include "catalog/model/table_info.h"
#include "common/json_writer.h"
#include "server/http/json_body.h"

namespace hoglake::server {

// Parses a ColumnDef {name, type, type_params?, nullable?, children?,
// comment?}. Shape errors (missing name, wrong JSON types, unknown fields)
// are 400; unknown or refused type names and bad type_params are 422.
Result<catalog::ColumnNode> ParseColumnDef(JsonObject def);
Result<std::vector<catalog::ColumnNode>> ParseColumnDefs(JsonArray defs);

void WriteColumn(const catalog::ColumnNode& column, JsonWriter& w);
void WriteTable(const catalog::TableInfo& table, JsonWriter& w);
void WriteTableSummary(const catalog::TableSummary& table, JsonWriter& w);

}  // namespace hoglake::server
