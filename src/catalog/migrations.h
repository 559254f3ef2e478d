// Versioned schema migrations of the catalog database.
//
// Migrations are the files src/catalog/migrations/V<n>__<name>.sql, embedded
// at build time, applied in version order, each in its own transaction, and
// recorded in hog_schema_migration. Migrate() holds a session advisory lock
// while it runs, so several servers starting at once apply each migration
// exactly once; a server that finds a version newer than it knows refuses to
// start (it would misread the schema). Append-only: never edit a released
// migration.
#pragma once

#include <string_view>
#include <vector>

#include "catalog/pg_connection.h"

namespace hoglake::catalog {

struct Migration {
  int version;
  std::string_view name;
  std::string_view sql;
};

// Every embedded migration, ordered by version.
const std::vector<Migration>& EmbeddedMigrations();

// Applies the pending migrations; returns the schema version now in force.
Result<int> Migrate(PgConnection& conn);

}  // namespace hoglake::catalog
