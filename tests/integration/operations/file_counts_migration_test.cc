// V14 backfills each table's live file count (hog_table_stats.file_count)
// from its data-file rows. This runs V14's UPDATE, verbatim from the
// embedded migration, over temporary tables that shadow the catalog's, and
// checks the counts: live files only, per table, tables without files left
// at zero.
#include <string>
#include <vector>

#include "migration_text.h"
#include "pg_session.h"
#include "server_fixture.h"

namespace hoglake::testing {
namespace {

TEST(FileCountsMigrationTest, BackfillCountsLiveFilesPerTable) {
  PgSession pg(TestPgConninfo("hoglake"));
  ASSERT_TRUE(pg.ok());
  pg.Exec(
      "CREATE TEMP TABLE hog_table_stats (catalog_id bigint, table_id bigint, "
      "file_count bigint NOT NULL DEFAULT 0)");
  pg.Exec(
      "CREATE TEMP TABLE hog_data_file (catalog_id bigint, table_id bigint, "
      "data_file_id bigint, end_snapshot bigint)");
  // Catalog 7: table 1 has three live files and one ended, table 2 only an
  // ended one, table 3 none; catalog 8's table 1 has one live file.
  pg.Exec(
      "INSERT INTO pg_temp.hog_table_stats (catalog_id, table_id) VALUES (7, 1), (7, 2), "
      "(7, 3), (8, 1)");
  pg.Exec(
      "INSERT INTO pg_temp.hog_data_file VALUES (7, 1, 1, NULL), (7, 1, 2, NULL), "
      "(7, 1, 3, NULL), (7, 1, 4, 5), (7, 2, 5, 6), (8, 1, 1, NULL)");
  const std::string update = MigrationStatement(14, "UPDATE hog_table_stats");
  ASSERT_FALSE(update.empty());
  pg.Exec(update);
  EXPECT_EQ(pg.Column("SELECT catalog_id || '/' || table_id || ':' || file_count FROM "
                      "pg_temp.hog_table_stats ORDER BY catalog_id, table_id"),
            (std::vector<std::string>{"7/1:3", "7/2:0", "7/3:0", "8/1:1"}));
}

}  // namespace
}  // namespace hoglake::testing
