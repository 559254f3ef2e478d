# cmake -DSQL_DIR=... -DOUT=... -P EmbedMigrations.cmake
# Writes a C++ source defining hoglake::catalog::EmbeddedMigrations(): every
# V<n>__<name>.sql file in SQL_DIR as {n, name, text}, ordered by n.
file(GLOB files "${SQL_DIR}/V*__*.sql")
set(entries "")
set(versions "")
foreach(f IN LISTS files)
  get_filename_component(base "${f}" NAME_WE)
  string(REGEX MATCH "^V([0-9]+)__(.*)$" _ "${base}")
  set(version "${CMAKE_MATCH_1}")
  set(name "${CMAKE_MATCH_2}")
  file(READ "${f}" text)
  list(APPEND versions "${version}")
  set(entry_${version} "    {${version}, \"${name}\", R\"hoglake_sql(${text})hoglake_sql\"},\n")
endforeach()
list(SORT versions COMPARE NATURAL)
foreach(v IN LISTS versions)
  string(APPEND entries "${entry_${v}}")
endforeach()
file(WRITE "${OUT}.tmp" "// Generated from src/catalog/migrations/*.sql; do not edit.
#include \"catalog/migrations/embedded_migrations.h\"

namespace hoglake::catalog {

const std::vector<pg::Migration>& EmbeddedMigrations() {
  static const std::vector<pg::Migration> kMigrations = {
${entries}  };
  return kMigrations;
}

}  // namespace hoglake::catalog
")
file(COPY_FILE "${OUT}.tmp" "${OUT}" ONLY_IF_DIFFERENT)
