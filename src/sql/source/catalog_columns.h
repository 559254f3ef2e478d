// How a catalog column appears in SQL: the columnar field its values are
// read into (field id attached) and, from that, its SQL type. The one
// mapping the binder, information_schema and the query service share.
#pragma once

#include "catalog/model/table_schema.h"
#include "columnar/array.h"
#include "common/status.h"
#include "sql/types/sql_type.h"

namespace hoglake::sql {

Result<columnar::Field> CatalogColumnField(const catalog::ColumnNode& column);
// kNotImplemented for a type with no SQL counterpart.
Result<SqlType> CatalogColumnSqlType(const catalog::ColumnNode& column);

}  // namespace hoglake::sql
