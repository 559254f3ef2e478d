// The text of one statement of an embedded migration, for tests that run a
// migration's data conversion verbatim over shadow tables.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "catalog/migrations/embedded_migrations.h"

namespace hoglake::testing {

// The statement of migration `version` that starts with `starts_with` (up
// to its ';'); "" and a test failure when there is none.
inline std::string MigrationStatement(int version, std::string_view starts_with) {
  for (const pg::Migration& m : catalog::EmbeddedMigrations()) {
    if (m.version != version) continue;
    const size_t begin = m.sql.find(starts_with);
    const size_t end = m.sql.find(';', begin);
    if (begin == std::string_view::npos || end == std::string_view::npos) break;
    return std::string(m.sql.substr(begin, end - begin));
  }
  ADD_FAILURE() << "V" << version << " has no statement starting " << starts_with;
  return "";
}

}  // namespace hoglake::testing
