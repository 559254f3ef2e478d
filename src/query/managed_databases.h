// ManagedDatabases: the Hotdata API's managed databases over the catalog
// (hotdata-api.md §2.6, §2.9, §2.10).
//
// Creating one creates an ordinary hoglake catalog whose data lives under
// `<data_root><catalog>/`, its declared schemas as namespaces (names
// lower-cased; declared tables are only a hint: a table exists once a load
// writes it), and its registry row (managed_registry.h):
//   * a managed connection (kind connection): catalog = id = the name, which
//     must be a valid catalog name; default schema = the first declared
//     ("public" when none);
//   * a database (kind database): catalog = id = "db" + 26 random [0-9a-z]
//     characters; schema "main" is always declared; the default schema is
//     `default_schema` when given, else the one schema declared when exactly
//     one is, else "main".
// Deleting one drops its tables and then its namespaces through ordinary
// catalog drops (each its own snapshot) and tombstones its row. There is no
// catalog drop: the empty catalog stays, hidden from the connection listing.
//
// Managed(id) is how loads and table drops find their target: kNotFound for
// an id that names neither a managed database nor a catalog, kBadRequest for
// a catalog that is not managed.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "catalog/catalog_service.h"
#include "query/managed_registry.h"

namespace hoglake::query {

struct DeclaredSchema {
  std::string name;
  std::vector<std::string> tables;  // a hint only
};

class ManagedDatabases {
 public:
  // `catalogs` and `registry` must outlive this; `data_root` ends with "/"
  // (empty: creation answers kUnavailable).
  ManagedDatabases(catalog::CatalogService* catalogs, ManagedRegistry* registry,
                   std::string data_root)
      : catalogs_(catalogs), registry_(registry), data_root_(std::move(data_root)) {}

  ManagedRegistry& registry() { return *registry_; }
  catalog::CatalogService& catalogs() { return *catalogs_; }

  // kValidation for a bad name; kAlreadyExists for a taken one.
  Result<ManagedDatabase> CreateConnection(const std::string& name,
                                           const std::vector<DeclaredSchema>& schemas);
  Result<ManagedDatabase> CreateDatabase(const std::string& name,
                                         const std::vector<DeclaredSchema>& schemas,
                                         const std::optional<std::string>& default_schema);
  // Drops every table and namespace, then tombstones the row. kNotFound for
  // an unknown (or already deleted) id, or one of another kind when `kind`
  // is given.
  Status Delete(const std::string& id, std::optional<ManagedKind> kind);
  // The live managed database `id` (see the header comment's errors).
  Result<ManagedDatabase> Managed(const std::string& id);
  // kNotFound for an unknown table.
  Status DropTable(const std::string& id, const std::string& schema, const std::string& table);

 private:
  Result<ManagedDatabase> Create(ManagedDatabase row, const std::vector<DeclaredSchema>& schemas);

  catalog::CatalogService* catalogs_;
  ManagedRegistry* registry_;
  std::string data_root_;
};

// ASCII lower case (managed identifiers are lower-cased).
std::string LowerIdentifier(std::string_view name);

}  // namespace hoglake::query
