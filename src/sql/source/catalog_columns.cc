#include "sql/source/catalog_columns.h"

#include "iceberg/arrow_mapping.h"

namespace hoglake::sql {

Result<columnar::Field> CatalogColumnField(const catalog::ColumnNode& column) {
  using iceberg::ColumnType;
  columnar::Field field;
  switch (column.type.type) {
    case ColumnType::kList: {
      HOGLAKE_ASSIGN_OR_RETURN(columnar::Field element, CatalogColumnField(column.children.at(0)));
      field = columnar::Field{column.name, columnar::List(std::move(element)), column.nullable, {}};
      break;
    }
    case ColumnType::kStruct: {
      std::vector<columnar::Field> children;
      for (const catalog::ColumnNode& child : column.children) {
        HOGLAKE_ASSIGN_OR_RETURN(columnar::Field f, CatalogColumnField(child));
        children.push_back(std::move(f));
      }
      field =
          columnar::Field{column.name, columnar::Struct(std::move(children)), column.nullable, {}};
      break;
    }
    case ColumnType::kMap: {
      HOGLAKE_ASSIGN_OR_RETURN(columnar::Field key, CatalogColumnField(column.children.at(0)));
      HOGLAKE_ASSIGN_OR_RETURN(columnar::Field value, CatalogColumnField(column.children.at(1)));
      field = columnar::Field{
          column.name, columnar::Map(key.type, std::move(value)), column.nullable, {}};
      break;
    }
    case ColumnType::kVariant:
      field = columnar::JsonField(column.name, column.nullable);
      break;
    default: {
      HOGLAKE_ASSIGN_OR_RETURN(
          field, iceberg::WriterArrowField(column.name, column.type, column.nullable));
    }
  }
  return field.WithFieldId(column.field_id);
}

Result<SqlType> CatalogColumnSqlType(const catalog::ColumnNode& column) {
  HOGLAKE_ASSIGN_OR_RETURN(columnar::Field field, CatalogColumnField(column));
  return SqlTypeOfField(field);
}

}  // namespace hoglake::sql
