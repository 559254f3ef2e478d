// V12 packs the existing per-column statistics rows with SQL; the server
// packs new ones with PackColumnStats (packed_stats.h). The two spellings of
// the layout must give the same bytes: this runs V12's INSERT, verbatim from
// the embedded migration, over temporary tables that shadow the catalog's,
// and compares its output with PackColumnStats for the same statistics.
#include <string>
#include <vector>

#include "catalog/model/packed_stats.h"
#include "common/encoding.h"
#include "migration_text.h"
#include "pg_session.h"
#include "server_fixture.h"

namespace hoglake::testing {
namespace {

std::string SqlBytes(const std::optional<std::string>& bytes) {
  return bytes ? "'\\x" + HexEncode(*bytes) + "'::bytea" : "NULL";
}

std::string SqlInt(const std::optional<int64_t>& v) { return v ? std::to_string(*v) : "NULL"; }

TEST(PackedStatsMigrationTest, SqlPackingMatchesTheServersPacking) {
  using catalog::ColumnStatsInput;
  // Two files; every optional part present and absent, an empty bound, a
  // bound holding zero bytes, large counts, field ids out of order.
  const std::vector<std::vector<ColumnStatsInput>> files = {
      {{9, 1000, 3, 2, 4096, std::string("\x01\0\0\0\0\0\0\0", 8), std::string("\xff\x7f", 2)},
       {1, 5, 0, std::nullopt, std::nullopt, std::nullopt, std::nullopt},
       {4, int64_t{1} << 40, int64_t{1} << 33, 0, std::nullopt, std::string(), std::string("zz")},
       {2, 7, 7, std::nullopt, 12, std::nullopt, std::string("\0\0", 2)}},
      {{3, 1, 0, std::nullopt, std::nullopt, std::string("a"), std::nullopt}},
  };
  PgSession pg(TestPgConninfo("hoglake"));
  ASSERT_TRUE(pg.ok());
  pg.Exec(
      "CREATE TEMP TABLE hog_file_column_stats (catalog_id bigint, data_file_id bigint, "
      "field_id integer, value_count bigint, null_count bigint, nan_count bigint, "
      "size_bytes bigint, lower_bound bytea, upper_bound bytea)");
  pg.Exec("CREATE TEMP TABLE hog_file_stats (catalog_id bigint, data_file_id bigint, stats bytea)");
  for (size_t f = 0; f < files.size(); ++f) {
    for (const ColumnStatsInput& s : files[f]) {
      pg.Exec("INSERT INTO pg_temp.hog_file_column_stats VALUES (7, " + std::to_string(f + 1) +
              ", " + std::to_string(s.field_id) + ", " + std::to_string(s.value_count) + ", " +
              std::to_string(s.null_count) + ", " + SqlInt(s.nan_count) + ", " +
              SqlInt(s.size_bytes) + ", " + SqlBytes(s.lower_bound) + ", " +
              SqlBytes(s.upper_bound) + ")");
    }
  }
  const std::string insert = MigrationStatement(12, "INSERT INTO hog_file_stats");
  ASSERT_FALSE(insert.empty());
  pg.Exec(insert);
  const std::vector<std::string> packed = pg.Column(
      "SELECT encode(stats, 'hex') FROM pg_temp.hog_file_stats WHERE catalog_id = 7 "
      "ORDER BY data_file_id");
  ASSERT_EQ(packed.size(), files.size());
  for (size_t f = 0; f < files.size(); ++f) {
    EXPECT_EQ(packed[f], HexEncode(catalog::PackColumnStats(files[f]))) << "file " << f + 1;
  }
}

}  // namespace
}  // namespace hoglake::testing
