// Versioned schema migrations of a database.
//
// Migrate() applies the migrations it is given (the catalog's are the files
// src/catalog/migrations/V<n>__<name>.sql, embedded at build time) in version
// order, each in its own transaction, and records them in
// hog_schema_migration. It holds a session advisory lock while it runs, so
// several servers starting at once apply each migration exactly once; a
// server that finds a version newer than it knows refuses to start (it would
// misread the schema). Append-only: never edit a released migration.
#pragma once

#include <string_view>
#include <vector>

#include "pg/pg_connection.h"

namespace hoglake::pg {

struct Migration {
  int version;
  std::string_view name;
  std::string_view sql;
};

// Applies the pending ones of `migrations` (ordered by version); returns the
// schema version now in force.
Result<int> Migrate(PgConnection& conn, const std::vector<Migration>& migrations);

}  // namespace hoglake::pg
