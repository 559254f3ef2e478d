// The query service's vocabularies against their other spellings: the
// status CHECK constraints of migrations V19 and V20 (and V20's managed
// kinds, V22's federated source types and discovery outcomes), the wire names the Hotdata
// clients accept, the formats' content types, and identifier shapes.
#include "query/query_vocabulary.h"

#include "query/federated_connections.h"
#include "query/managed_registry.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace hoglake::query {
namespace {

std::string ReadMigration(const char* file = "V19__query_runs.sql") {
  std::ifstream in(std::filesystem::path(HOGLAKE_SOURCE_DIR) / "src/catalog/migrations" / file);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The quoted names inside "<column> text NOT NULL CHECK (<column> IN (…))"
// of the CREATE TABLE statement for `table`.
std::set<std::string> CheckedNames(const std::string& sql, const std::string& table,
                                   const std::string& column = "status") {
  size_t at = sql.find("CREATE TABLE " + table);
  EXPECT_NE(at, std::string::npos) << table;
  at = sql.find("CHECK (" + column + " IN (", at);
  const size_t end = sql.find("))", at);
  std::set<std::string> names;
  for (size_t q = sql.find('\'', at); q < end; q = sql.find('\'', q + 1)) {
    const size_t close = sql.find('\'', q + 1);
    names.insert(sql.substr(q + 1, close - q - 1));
    q = close;
  }
  return names;
}

TEST(QueryVocabularyTest, RunStatesMatchTheStoredCheck) {
  std::set<std::string> stored;
  for (const RunStateSpelling& s : RunStates()) {
    stored.insert(std::string(s.stored));
    EXPECT_EQ(RunStateFromStored(s.stored), s.state);
    EXPECT_EQ(StoredName(s.state), s.stored);
  }
  EXPECT_EQ(stored, CheckedNames(ReadMigration(), "hog_query_run"));
}

TEST(QueryVocabularyTest, ResultStatesMatchTheStoredCheck) {
  std::set<std::string> names;
  for (const ResultStateSpelling& s : ResultStates()) {
    names.insert(std::string(s.name));
    EXPECT_EQ(ResultStateFromName(s.name), s.state);
  }
  EXPECT_EQ(names, CheckedNames(ReadMigration(), "hog_query_result"));
}

TEST(QueryVocabularyTest, UploadStatesAndManagedKindsMatchTheStoredChecks) {
  std::set<std::string> names;
  for (UploadState state : kUploadStates) {
    names.insert(std::string(UploadStateName(state)));
    EXPECT_EQ(UploadStateFromName(UploadStateName(state)), state);
  }
  const std::string v20 = ReadMigration("V20__managed_databases.sql");
  EXPECT_EQ(names, CheckedNames(v20, "hog_query_upload"));
  EXPECT_EQ((std::set<std::string>{std::string(ManagedKindName(ManagedKind::kConnection)),
                                   std::string(ManagedKindName(ManagedKind::kDatabase))}),
            CheckedNames(v20, "hog_managed_database", "kind"));
}

TEST(QueryVocabularyTest, FederatedSourceTypesAndDiscoveryOutcomesMatchTheStoredChecks) {
  const std::string v22 = ReadMigration("V22__federated_connections.sql");
  EXPECT_EQ((std::set<std::string>{std::string(kPostgresSourceType)}),
            CheckedNames(v22, "hog_federated_connection", "source_type"));
  EXPECT_EQ(
      (std::set<std::string>{std::string(kDiscoverySucceeded), std::string(kDiscoveryFailed)}),
      CheckedNames(v22, "hog_federated_connection", "discovery_status"));
}

TEST(QueryVocabularyTest, WireStatusesAreTheOnesHotdataClientsAccept) {
  // hotdata-ibis polls on "running" and knows only these (hotdata-api.md §2.4).
  const std::set<std::string> accepted = {"running", "succeeded", "failed", "cancelled"};
  for (const RunStateSpelling& s : RunStates()) {
    EXPECT_TRUE(accepted.contains(std::string(s.wire))) << s.wire;
    EXPECT_EQ(s.wire == "running", !s.terminal) << s.stored;
  }
  EXPECT_EQ(RunStatesForWireName("running").size(), 2u);  // queued and running
  EXPECT_TRUE(RunStatesForWireName("queued").empty());
}

TEST(QueryVocabularyTest, FormatsAndTheirContentTypes) {
  EXPECT_EQ(ContentType(ResultFormat::kArrow), "application/vnd.apache.arrow.stream");
  EXPECT_EQ(ResultFormatFromName("markdown"), ResultFormat::kMarkdown);
  for (const ResultFormatSpelling& f : ResultFormats()) {
    EXPECT_EQ(ResultFormatFromName(f.name), f.format);
  }
  EXPECT_FALSE(ResultFormatFromName("xml"));
}

TEST(QueryVocabularyTest, IdentifiersHaveTheirPrefixAndShape) {
  std::set<std::string> seen;
  for (IdKind kind : {IdKind::kRun, IdKind::kResult, IdKind::kUpload}) {
    const std::string id = NewId(kind);
    EXPECT_EQ(id.size(), 30u);
    EXPECT_EQ(id.substr(0, 4), IdPrefix(kind));
    EXPECT_TRUE(IsId(kind, id));
    EXPECT_TRUE(seen.insert(id).second);
  }
  EXPECT_FALSE(IsId(IdKind::kRun, NewId(IdKind::kResult)));
  EXPECT_FALSE(IsId(IdKind::kRun, "qrun"));
  EXPECT_FALSE(IsId(IdKind::kRun, "qrunABCDEFGHIJKLMNOPQRSTUVWXYZ"));
}

}  // namespace
}  // namespace hoglake::query
