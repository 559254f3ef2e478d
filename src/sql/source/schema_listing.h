// SchemaListing: the catalogs, schemas, tables and columns a session's
// information_schema shows (information_schema.h) — a narrow interface so
// the engine does not depend on who keeps the list. SchemaListingOver lists
// the lake itself (every catalog of catalog::LakeTables); the query service
// implements it with its connections (managed databases, federated sources)
// so SQL and `GET /v1/information_schema` answer the same.
//
// Schemata and Tables return rows in (catalog, schema[, table]) order;
// columns in table order. data_type is PostgreSQL's type name
// (sql::PgTypeName for lake columns; the source's own name for a federated
// table).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "catalog/lake_tables.h"
#include "common/status.h"

namespace hoglake::sql {

struct ListingColumn {
  std::string name;
  std::string data_type;
  bool nullable = true;
};

struct ListingSchema {
  std::string catalog;
  std::string schema;
};

struct ListingTable {
  std::string catalog;
  std::string schema;
  std::string table;
  std::vector<ListingColumn> columns;  // only when asked for
};

class SchemaListing {
 public:
  virtual ~SchemaListing() = default;
  virtual Result<std::vector<ListingSchema>> Schemata() = 0;
  virtual Result<std::vector<ListingTable>> Tables(bool with_columns) = 0;
  // Called when a catalog the lake does not know is named in FROM: an error
  // saying why it cannot be read (a connection the engine cannot read yet),
  // or OK for the usual "does not exist".
  virtual Status CheckReadable(const std::string& /*catalog*/) { return Status::Ok(); }
};

// A lake table's columns as information_schema shows them (a type with no
// SQL counterpart is listed as "text").
std::vector<ListingColumn> ListingColumnsOf(const catalog::TableInfo& info);

// The lake's catalogs, namespaces and tables (`tables` must outlive it). A
// table dropped between listing and resolving is left out.
std::unique_ptr<SchemaListing> SchemaListingOver(catalog::LakeTables* tables);

}  // namespace hoglake::sql
