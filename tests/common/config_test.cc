// EnvReader's one rule (unset/blank → default; set → valid or an error that
// names the variable) and EnvironmentVariables() against its other
// spellings: docs/operations.md and the names the source reads.
#include "common/config.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>

namespace hoglake {
namespace {

EnvReader ReaderOf(std::map<std::string, std::string> values) {
  return EnvReader([values](std::string_view name) -> std::optional<std::string> {
    const auto it = values.find(std::string(name));
    if (it == values.end()) return std::nullopt;
    return it->second;
  });
}

TEST(EnvReaderTest, UnsetAndBlankTakeTheDefault) {
  EnvReader env = ReaderOf({{"HOGLAKE_EXPIRY_INTERVAL_MS", "  "}});
  EXPECT_EQ(env.Integer("HOGLAKE_EXPIRY_INTERVAL_MS", 60000, 0, 100000), 60000);
  EXPECT_EQ(env.Integer("HOGLAKE_ANALYZE_INTERVAL_MS", 7, 0, 100), 7);
  EXPECT_TRUE(env.Boolean("HOGLAKE_COMMIT_STATE_CACHE", true));
  EXPECT_EQ(env.Text("HOGLAKE_INSTANCE_NAME", "x"), "x");
  EXPECT_TRUE(env.status().ok());
}

TEST(EnvReaderTest, ValidValuesAreTaken) {
  EnvReader env = ReaderOf({{"HOGLAKE_EXPIRY_INTERVAL_MS", " 250 "},
                            {"HOGLAKE_ANALYZE_INTERVAL_MS", "+0"},
                            {"HOGLAKE_COMMIT_STATE_CACHE", "Off"},
                            {"HOGLAKE_INSTANCE_NAME", "east-1"}});
  EXPECT_EQ(env.Integer("HOGLAKE_EXPIRY_INTERVAL_MS", 60000, 0, 100000), 250);
  EXPECT_EQ(env.Integer("HOGLAKE_ANALYZE_INTERVAL_MS", 7, 0, 100), 0);
  EXPECT_FALSE(env.Boolean("HOGLAKE_COMMIT_STATE_CACHE", true));
  EXPECT_EQ(env.Text("HOGLAKE_INSTANCE_NAME"), "east-1");
  EXPECT_TRUE(env.status().ok());
}

TEST(EnvReaderTest, EachBadValueIsRefusedWithItsName) {
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"abc", "is not an integer"},        {"5x", "is not an integer"},
      {"1.5", "is not an integer"},        {"-1", "is out of range (0..100)"},
      {"101", "is out of range (0..100)"}, {"99999999999999999999", "is out of range"},
      {"0x10", "is not an integer"}};
  for (const auto& [value, message] : bad) {
    SCOPED_TRACE(value);
    EnvReader env = ReaderOf({{"HOGLAKE_RETIREMENT_BATCH", value}});
    EXPECT_EQ(env.Integer("HOGLAKE_RETIREMENT_BATCH", 42, 0, 100), 42);
    const Status status = env.status();
    ASSERT_FALSE(status.ok());
    EXPECT_EQ(status.error().code, ErrorCode::kInvalidArgument);
    EXPECT_NE(status.error().message.find("HOGLAKE_RETIREMENT_BATCH"), std::string::npos)
        << status.error().message;
    EXPECT_NE(status.error().message.find(message), std::string::npos) << status.error().message;
  }
  EnvReader flags = ReaderOf({{"HOGLAKE_COMMIT_STATE_CACHE", "maybe"}});
  EXPECT_TRUE(flags.Boolean("HOGLAKE_COMMIT_STATE_CACHE", true));
  ASSERT_FALSE(flags.status().ok());
  EXPECT_NE(flags.status().error().message.find("HOGLAKE_COMMIT_STATE_CACHE='maybe' is not a "
                                                "boolean"),
            std::string::npos)
      << flags.status().error().message;
}

TEST(EnvReaderTest, EveryErrorIsReportedAtOnce) {
  EnvReader env = ReaderOf({{"HOGLAKE_HYDRATOR_BATCH", "0"}, {"HOGLAKE_RETIREMENT_BATCH", "x"}});
  env.Integer("HOGLAKE_HYDRATOR_BATCH", 1000, 1, 100000);
  env.Integer("HOGLAKE_RETIREMENT_BATCH", 8000, 1, 100000);
  env.AddError("HOGLAKE_EMBEDDED_PG_SETTINGS", ": 'fsync' is not name=value");
  const std::string message = env.status().error().message;
  EXPECT_NE(message.find("HOGLAKE_HYDRATOR_BATCH=0 is out of range (1..100000)"), std::string::npos)
      << message;
  EXPECT_NE(message.find("HOGLAKE_RETIREMENT_BATCH='x' is not an integer"), std::string::npos)
      << message;
  EXPECT_NE(message.find("HOGLAKE_EMBEDDED_PG_SETTINGS: 'fsync' is not name=value"),
            std::string::npos)
      << message;
}

TEST(EnvReaderTest, AnUnlistedNameIsAnError) {
  EnvReader env = ReaderOf({{"HOGLAKE_NO_SUCH_THING", "1"}});
  EXPECT_EQ(env.Integer("HOGLAKE_NO_SUCH_THING", 3, 0, 10), 3);
  ASSERT_FALSE(env.status().ok());
  EXPECT_NE(env.status().error().message.find("HOGLAKE_NO_SUCH_THING"), std::string::npos);
}

std::string ReadFile(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(EnvironmentVariablesTest, SortedAndUnique) {
  std::vector<std::string> names;
  for (const EnvVariable& v : EnvironmentVariables()) names.emplace_back(v.name);
  EXPECT_TRUE(std::is_sorted(names.begin(), names.end()));
  EXPECT_EQ(std::set<std::string>(names.begin(), names.end()).size(), names.size());
}

// docs/operations.md has one table row per variable, with its default.
TEST(EnvironmentVariablesTest, DocumentedInOperationsGuide) {
  const std::string doc =
      ReadFile(std::filesystem::path(HOGLAKE_SOURCE_DIR) / "docs/operations.md");
  ASSERT_FALSE(doc.empty());
  std::set<std::string> documented;
  const std::regex row(R"(\n\| `((?:HOGLAKE|AWS)_[A-Z0-9_]+)` \| `([^`]*)` \|)");
  for (auto it = std::sregex_iterator(doc.begin(), doc.end(), row); it != std::sregex_iterator();
       ++it) {
    documented.insert((*it)[1]);
    bool listed = false;
    for (const EnvVariable& v : EnvironmentVariables()) {
      if (v.name == (*it)[1].str()) {
        listed = true;
        EXPECT_EQ(v.default_value, (*it)[2].str()) << v.name << "'s default in docs/operations.md";
      }
    }
    EXPECT_TRUE(listed) << (*it)[1] << " is documented but not in EnvironmentVariables()";
  }
  for (const EnvVariable& v : EnvironmentVariables()) {
    EXPECT_TRUE(documented.contains(std::string(v.name)))
        << v.name << " has no row in docs/operations.md";
  }
}

// Every variable name the product's source spells is in the list.
TEST(EnvironmentVariablesTest, EveryNameInTheSourceIsListed) {
  std::set<std::string> listed;
  for (const EnvVariable& v : EnvironmentVariables()) listed.emplace(v.name);
  const std::regex name(R"re("((?:HOGLAKE|AWS)_[A-Z0-9_]+)")re");
  int files = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(
           std::filesystem::path(HOGLAKE_SOURCE_DIR) / "src")) {
    const std::string ext = entry.path().extension().string();
    if (ext != ".cc" && ext != ".h") continue;
    ++files;
    const std::string text = ReadFile(entry.path());
    for (auto it = std::sregex_iterator(text.begin(), text.end(), name);
         it != std::sregex_iterator(); ++it) {
      EXPECT_TRUE(listed.contains((*it)[1])) << (*it)[1] << " in " << entry.path();
    }
  }
  EXPECT_GT(files, 100);
}

}  // namespace
}  // namespace hoglake
