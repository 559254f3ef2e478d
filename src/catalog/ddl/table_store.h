// Row-level reads and writes of tables shared by the table operations
// (create, drop, alter, commit, reads). Internal to src/catalog. Every
// function runs on the caller's connection (and so inside its transaction)
// and sees rows as of the given snapshot (versioned-row visibility:
// begin_snapshot <= S AND (end_snapshot IS NULL OR S < end_snapshot)).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "catalog/model/table_info.h"
#include "pg/pg_connection.h"

namespace hoglake::catalog {

// The namespace named `name` live at `snapshot`; kNotFound otherwise.
Result<int64_t> NamespaceIdAt(pg::PgConnection& conn, int64_t catalog_id, std::string_view catalog,
                              std::string_view name, int64_t snapshot);

// The table named `name` in the namespace at `snapshot`, if any.
Result<std::optional<int64_t>> TableIdAt(pg::PgConnection& conn, int64_t catalog_id,
                                         int64_t namespace_id, std::string_view name,
                                         int64_t snapshot);

// Everything a Table response needs, at `snapshot`.
Result<TableInfo> LoadTable(pg::PgConnection& conn, int64_t catalog_id, int64_t table_id,
                            std::string_view namespace_name, int64_t snapshot, bool with_totals);

// Inserts the rows of a column forest (field ids and ordinals assigned)
// beginning at `snapshot`; `parent_field_id` for grafts under a struct.
Status InsertColumns(pg::PgConnection& conn, int64_t catalog_id, int64_t table_id, int64_t snapshot,
                     const std::vector<ColumnNode>& columns,
                     std::optional<int32_t> parent_field_id = std::nullopt);

// JSON object text of properties, for the jsonb column.
std::string PropertiesJson(const Properties& properties);

}  // namespace hoglake::catalog
