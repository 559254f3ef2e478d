// Each closed vocabulary is defined once in C++; the SQL CHECK constraints of
// the migrations must spell exactly the same members.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "catalog/migrations/embedded_migrations.h"
#include "catalog/model/change_kind.h"
#include "catalog/model/identifiers.h"
#include "catalog/model/stats_state.h"
#include "iceberg/column_type.h"

namespace hoglake::catalog {
namespace {

// The quoted members of the `IN (...)` list that follows `anchor` in the
// concatenated migration SQL.
std::vector<std::string> CheckMembers(const std::string& anchor) {
  std::string sql;
  for (const pg::Migration& m : EmbeddedMigrations()) sql += m.sql;
  const size_t at = sql.find(anchor);
  EXPECT_NE(at, std::string::npos) << anchor;
  const size_t open = sql.find("IN (", at);
  const size_t close = sql.find(')', open);
  const std::string list = sql.substr(open, close - open);
  std::vector<std::string> members;
  for (size_t quote = list.find('\''); quote != std::string::npos; quote = list.find('\'', quote)) {
    const size_t end = list.find('\'', quote + 1);
    members.push_back(list.substr(quote + 1, end - quote - 1));
    quote = end + 1;
  }
  return members;
}

TEST(VocabularyTest, ChangeKindsMatchTheSqlCheck) {
  std::vector<std::string> expected;
  for (ChangeKind kind : AllChangeKinds()) {
    expected.emplace_back(ChangeKindName(kind));
    EXPECT_EQ(ParseChangeKind(ChangeKindName(kind)), kind);
  }
  EXPECT_EQ(CheckMembers("kind        text NOT NULL CHECK"), expected);
  EXPECT_FALSE(ParseChangeKind("table_renamed").has_value());
}

TEST(VocabularyTest, StatsStatesMatchTheSqlCheck) {
  std::vector<std::string> expected;
  for (StatsState state : AllStatsStates()) {
    expected.emplace_back(StatsStateName(state));
    EXPECT_EQ(ParseStatsState(StatsStateName(state)), state);
  }
  EXPECT_EQ(CheckMembers("CHECK (stats_state"), expected);
  EXPECT_FALSE(ParseStatsState("hydrated").has_value());
}

TEST(VocabularyTest, ColumnTypesMatchTheSqlCheckInOrder) {
  std::vector<std::string> expected;
  for (iceberg::ColumnType type : iceberg::AllColumnTypes()) {
    expected.emplace_back(iceberg::ColumnTypeName(type));
  }
  EXPECT_EQ(CheckMembers("CONSTRAINT hog_column_col_type CHECK"), expected);
}

TEST(VocabularyTest, MigrationsAreNumberedFromOneWithoutGaps) {
  int expected = 1;
  for (const pg::Migration& m : EmbeddedMigrations()) EXPECT_EQ(m.version, expected++) << m.name;
  EXPECT_GT(expected, 1);
}

TEST(IdentifierTest, NamesFollowTheContract) {
  EXPECT_TRUE(ValidateIdentifier("table", "events_2026-09").ok());
  EXPECT_TRUE(ValidateIdentifier("table", "_private").ok());
  EXPECT_TRUE(ValidateIdentifier("table", std::string(128, 'a')).ok());
  EXPECT_FALSE(ValidateIdentifier("table", std::string(129, 'a')).ok());
  EXPECT_FALSE(ValidateIdentifier("table", "1st").ok());
  EXPECT_FALSE(ValidateIdentifier("table", "a.b").ok());
  EXPECT_FALSE(ValidateIdentifier("table", "").ok());
  Status s = ValidateIdentifier("namespace", "bad name");
  EXPECT_EQ(s.error().code, ErrorCode::kValidation);
  EXPECT_EQ(s.error().message,
            "invalid namespace name 'bad name' (must match ^[A-Za-z_][A-Za-z0-9_-]{0,127}$)");
  EXPECT_TRUE(ValidateCatalogName("0lake").ok());
  EXPECT_FALSE(ValidateCatalogName("Lake").ok());
  EXPECT_FALSE(ValidateCatalogName(std::string(64, 'a')).ok());
}

TEST(IdentifierTest, DataPaths) {
  EXPECT_EQ(*NormalizeDataPath("s3://bucket/prefix"), "s3://bucket/prefix/");
  EXPECT_EQ(*NormalizeDataPath("s3://bucket"), "s3://bucket/");
  EXPECT_EQ(*NormalizeDataPath("file:///srv/lake/"), "file:///srv/lake/");
  for (const char* bad : {"", "s3://", "s3:///x", "s3://b/./x", "s3://b/x/..", "s3://b//x",
                          "http://b/x", "file://rel", "s3://b/x\ty"}) {
    EXPECT_FALSE(NormalizeDataPath(bad).ok()) << bad;
  }
  EXPECT_TRUE(DataPathsOverlap("s3://b/a/", "s3://b/a/c/"));
  EXPECT_TRUE(DataPathsOverlap("s3://b/a/c/", "s3://b/a/"));
  EXPECT_FALSE(DataPathsOverlap("s3://b/a/", "s3://b/ab/"));
}

}  // namespace
}  // namespace hoglake::catalog
