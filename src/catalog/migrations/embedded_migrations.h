// The catalog database's schema: the files V<n>__<name>.sql beside this
// header, embedded into the library at build time (cmake/EmbedMigrations.cmake)
// and applied by pg::Migrate:
//
//   HOGLAKE_ASSIGN_OR_RETURN(int version, pg::Migrate(conn, EmbeddedMigrations()));
#pragma once

#include <vector>

#include "pg/migrations.h"

namespace hoglake::catalog {

// Every embedded migration, ordered by version.
const std::vector<pg::Migration>& EmbeddedMigrations();

}  // namespace hoglake::catalog
