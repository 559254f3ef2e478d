// information_schema in SQL: the views `schemata`, `tables` and `columns`
// with PostgreSQL's column names and types, their rows taken from a
// SchemaListing when a statement binds (so they are ordinary rows to the
// rest of the plan: filters, joins and aggregates apply as to any table).
//
//   schemata: catalog_name, schema_name
//   tables:   table_catalog, table_schema, table_name, table_type ('BASE TABLE')
//   columns:  table_catalog, table_schema, table_name, column_name,
//             ordinal_position (integer, from 1), column_default (always NULL),
//             is_nullable ('YES' | 'NO'), data_type
//
// Every other column is text. `information_schema` is a reserved schema
// name: `information_schema.x` and `<catalog>.information_schema.x` always
// mean these views (the latter restricted to that catalog's rows).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "common/status.h"
#include "sql/planner/logical_plan.h"
#include "sql/source/schema_listing.h"

namespace hoglake::sql {

inline constexpr std::string_view kInformationSchema = "information_schema";

// The rows of view `view` as a VALUES operator, only `catalog`'s when set.
// kUndefinedTable (42P01) naming an unknown view or an unknown catalog.
Result<LogicalOpPtr> InformationSchemaView(std::string_view view,
                                           const std::optional<std::string>& catalog,
                                           SchemaListing& listing);

}  // namespace hoglake::sql
