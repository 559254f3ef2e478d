// LakeDirectory: the lake as the Hotdata API's connections and its
// information_schema listing (hotdata-api.md §2.1, §2.2, §5).
//
// Every hoglake catalog is a connection whose id and name are the catalog's
// name, so the id a client lists is also the catalog in SQL
// ("<id>"."<namespace>"."<table>"); its source_type is "hoglake". Tables are
// listed in (connection, schema, table) order with SQL `%`/`_` patterns on
// schema and table, keyset cursors, and each table's partition fields and
// sort order; column types are PostgreSQL's names (sql::PgTypeName).
//
// With a ManagedRegistry, a catalog the query API manages is listed with
// source_type "managed" and its registry name, and the emptied catalog of a
// deleted one is not listed at all.
//
// With FederatedConnections, each federated source is a connection too
// (source_type "postgres") whose tables are its stored discovery.
//
// It is also the query service's sql::SchemaListing, so SQL's
// information_schema lists exactly these connections, schemas and tables.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "catalog/lake_tables.h"
#include "common/status.h"
#include "sql/source/schema_listing.h"

namespace hoglake::query {

inline constexpr std::string_view kLakeSourceType = "hoglake";
inline constexpr std::string_view kManagedSourceType = "managed";

class ManagedRegistry;
class FederatedConnections;

struct Connection {
  std::string id;
  std::string name;
  std::string source_type;
};

struct TableListing {
  std::optional<std::string> connection_id;
  std::optional<std::string> schema_pattern;  // SQL LIKE: % and _
  std::optional<std::string> table_pattern;
  bool include_columns = false;
  int64_t limit = 100;
  std::optional<std::string> cursor;
};

using ListedColumn = sql::ListingColumn;

struct ListedSortField {
  std::string column;
  std::string direction;  // asc | desc
  std::string nulls;      // first | last
};

struct ListedTable {
  std::string connection;
  std::string schema;
  std::string table;
  bool synced = true;
  std::vector<ListedColumn> columns;                              // only when asked
  std::vector<std::pair<std::string, std::string>> partition_by;  // (column, transform)
  std::vector<ListedSortField> sorted_by;
};

struct TablePage {
  std::vector<ListedTable> tables;
  std::optional<std::string> next_cursor;
};

// Whether `text` matches the SQL LIKE `pattern` (% any run, _ one character;
// no escapes).
bool LikeMatch(std::string_view pattern, std::string_view text);

class LakeDirectory : public sql::SchemaListing {
 public:
  // `managed` may be null (every catalog is then a "hoglake" connection);
  // `federated` may be null (no federated connections).
  explicit LakeDirectory(catalog::LakeTables* tables, ManagedRegistry* managed = nullptr,
                         FederatedConnections* federated = nullptr)
      : tables_(tables), managed_(managed), federated_(federated) {}

  Result<std::vector<Connection>> ListConnections();
  // kNotFound naming the id.
  Result<Connection> GetConnection(const std::string& id);
  // kNotFound for an unknown connection_id; kBadRequest for a bad cursor.
  Result<TablePage> ListTables(const TableListing& listing);

  // sql::SchemaListing: every connection's schemas; every table (unpaged).
  Result<std::vector<sql::ListingSchema>> Schemata() override;
  Result<std::vector<sql::ListingTable>> Tables(bool with_columns) override;
  // 0A000 for a federated connection's catalog (its rows cannot be read yet).
  Status CheckReadable(const std::string& catalog) override;

 private:
  catalog::LakeTables* tables_;
  // One connection's (schema, table) names in order, lake or federated.
  Result<std::vector<sql::ListingTable>> ConnectionTables(const Connection& connection);

  ManagedRegistry* managed_;
  FederatedConnections* federated_;
};

}  // namespace hoglake::query
