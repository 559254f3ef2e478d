#include "sql/source/schema_listing.h"

#include <algorithm>

#include "sql/source/catalog_columns.h"

namespace hoglake::sql {
namespace {

class LakeSchemaListing : public SchemaListing {
 public:
  explicit LakeSchemaListing(catalog::LakeTables* tables) : tables_(tables) {}

  Result<std::vector<ListingSchema>> Schemata() override {
    std::vector<ListingSchema> out;
    HOGLAKE_ASSIGN_OR_RETURN(std::vector<std::string> catalogs, SortedCatalogs());
    for (const std::string& catalog : catalogs) {
      HOGLAKE_ASSIGN_OR_RETURN(std::vector<std::string> schemas, SortedSchemas(catalog));
      for (std::string& schema : schemas) out.push_back(ListingSchema{catalog, std::move(schema)});
    }
    return out;
  }

  Result<std::vector<ListingTable>> Tables(bool with_columns) override {
    std::vector<ListingTable> out;
    HOGLAKE_ASSIGN_OR_RETURN(std::vector<ListingSchema> schemata, Schemata());
    for (const ListingSchema& s : schemata) {
      Result<std::vector<std::string>> names = tables_->ListTableNames(s.catalog, s.schema);
      if (!names.ok()) {
        if (names.error().code == ErrorCode::kNotFound) continue;  // dropped meanwhile
        return names.error();
      }
      std::sort(names->begin(), names->end());
      for (std::string& name : *names) {
        ListingTable table{s.catalog, s.schema, std::move(name), {}};
        if (with_columns) {
          Result<catalog::ResolvedTable> resolved =
              tables_->Resolve(s.catalog, s.schema, table.table, {});
          if (!resolved.ok()) {
            if (resolved.error().code == ErrorCode::kNotFound) continue;
            return resolved.error();
          }
          table.columns = ListingColumnsOf(resolved->info);
        }
        out.push_back(std::move(table));
      }
    }
    return out;
  }

 private:
  Result<std::vector<std::string>> SortedCatalogs() {
    HOGLAKE_ASSIGN_OR_RETURN(std::vector<std::string> names, tables_->ListCatalogNames());
    std::sort(names.begin(), names.end());
    return names;
  }

  Result<std::vector<std::string>> SortedSchemas(const std::string& catalog) {
    Result<std::vector<std::string>> names = tables_->ListNamespaceNames(catalog);
    if (!names.ok()) {
      if (names.error().code == ErrorCode::kNotFound) return std::vector<std::string>{};
      return names.error();
    }
    std::sort(names->begin(), names->end());
    return std::move(*names);
  }

  catalog::LakeTables* tables_;
};

}  // namespace

std::vector<ListingColumn> ListingColumnsOf(const catalog::TableInfo& info) {
  std::vector<ListingColumn> columns;
  for (const catalog::ColumnNode& column : info.columns) {
    Result<SqlType> type = CatalogColumnSqlType(column);
    columns.push_back(ListingColumn{
        column.name, type.ok() ? PgTypeName(*type) : std::string("text"), column.nullable});
  }
  return columns;
}

std::unique_ptr<SchemaListing> SchemaListingOver(catalog::LakeTables* tables) {
  return std::make_unique<LakeSchemaListing>(tables);
}

}  // namespace hoglake::sql
