#include "sql/source/information_schema.h"

#include <algorithm>

#include "sql/sql_error.h"

namespace hoglake::sql {
namespace {

Value TextValue(const std::string& text) { return Value::Text(text); }

void AddColumn(LogicalOp& op, std::string name, SqlTypeId type = SqlTypeId::kText) {
  op.output.push_back(OutputColumn{std::move(name), SqlType::Of(type)});
}

Status CheckCatalog(const std::optional<std::string>& catalog,
                    const std::vector<ListingSchema>& schemata, std::string_view view) {
  if (!catalog) return Status::Ok();
  for (const ListingSchema& s : schemata) {
    if (s.catalog == *catalog) return Status::Ok();
  }
  return SqlError(SqlErrorKind::kUndefinedTable, "relation \"", *catalog, ".", kInformationSchema,
                  ".", view, "\" does not exist (no catalog \"", *catalog, "\")");
}

}  // namespace

Result<LogicalOpPtr> InformationSchemaView(std::string_view view,
                                           const std::optional<std::string>& catalog,
                                           SchemaListing& listing) {
  auto op = std::make_shared<LogicalOp>();
  op->kind = LogicalKind::kValues;
  auto wanted = [&](const std::string& c) { return !catalog || c == *catalog; };
  if (view == "schemata") {
    AddColumn(*op, "catalog_name");
    AddColumn(*op, "schema_name");
    HOGLAKE_ASSIGN_OR_RETURN(std::vector<ListingSchema> schemata, listing.Schemata());
    HOGLAKE_RETURN_IF_ERROR(CheckCatalog(catalog, schemata, view));
    for (const ListingSchema& s : schemata) {
      if (wanted(s.catalog)) op->rows.push_back({TextValue(s.catalog), TextValue(s.schema)});
    }
    return op;
  }
  if (view == "tables" || view == "columns") {
    const bool columns = view == "columns";
    if (catalog) {
      HOGLAKE_ASSIGN_OR_RETURN(std::vector<ListingSchema> schemata, listing.Schemata());
      HOGLAKE_RETURN_IF_ERROR(CheckCatalog(catalog, schemata, view));
    }
    for (const char* name : {"table_catalog", "table_schema", "table_name"}) AddColumn(*op, name);
    if (columns) {
      AddColumn(*op, "column_name");
      AddColumn(*op, "ordinal_position", SqlTypeId::kInteger);
      AddColumn(*op, "column_default");
      AddColumn(*op, "is_nullable");
      AddColumn(*op, "data_type");
    } else {
      AddColumn(*op, "table_type");
    }
    HOGLAKE_ASSIGN_OR_RETURN(std::vector<ListingTable> tables, listing.Tables(columns));
    for (const ListingTable& t : tables) {
      if (!wanted(t.catalog)) continue;
      std::vector<Value> key = {TextValue(t.catalog), TextValue(t.schema), TextValue(t.table)};
      if (!columns) {
        key.push_back(TextValue("BASE TABLE"));
        op->rows.push_back(std::move(key));
        continue;
      }
      for (size_t i = 0; i < t.columns.size(); ++i) {
        const ListingColumn& c = t.columns[i];
        std::vector<Value> row = key;
        row.push_back(TextValue(c.name));
        row.push_back(Value::Integer(SqlTypeId::kInteger, static_cast<int64_t>(i) + 1));
        row.push_back(Value::Null(SqlType::Of(SqlTypeId::kText)));
        row.push_back(TextValue(c.nullable ? "YES" : "NO"));
        row.push_back(TextValue(c.data_type));
        op->rows.push_back(std::move(row));
      }
    }
    return op;
  }
  return SqlError(SqlErrorKind::kUndefinedTable, "relation \"", kInformationSchema, ".", view,
                  "\" does not exist (information_schema has schemata, tables and columns)");
}

}  // namespace hoglake::sql
