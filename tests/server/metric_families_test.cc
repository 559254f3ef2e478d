// The metric families /metrics can show: AllMetricFamilies() (metric_families.h)
// is the code's one list; docs/operations.md ("Metrics") must list exactly the
// same names with the same types, no "hoglake_…" name may be spelled in src/
// outside the list, and what Metrics renders takes its HELP and TYPE lines
// from it.
#include "server/observability/metric_families.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "server/observability/metrics.h"

namespace hoglake::server {
namespace {

std::string ReadFile(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::map<std::string, std::string> ListedTypes() {
  std::map<std::string, std::string> types;
  for (const MetricFamily& family : AllMetricFamilies()) {
    types.emplace(family.name, family.type);
  }
  return types;
}

TEST(MetricFamiliesTest, NamesAreUniqueAndFollowTheConventions) {
  std::set<std::string> names;
  const std::regex name(R"(hoglake_[a-z0-9_]+)");
  for (const MetricFamily& family : AllMetricFamilies()) {
    const std::string n(family.name);
    EXPECT_TRUE(names.insert(n).second) << n << " is listed twice";
    EXPECT_TRUE(std::regex_match(n, name)) << n;
    EXPECT_TRUE(family.type == "counter" || family.type == "gauge" || family.type == "histogram")
        << n << ": " << family.type;
    EXPECT_TRUE(family.type != "counter" || n.ends_with("_total")) << n << ": a counter";
    EXPECT_FALSE(family.help.empty()) << n;
    EXPECT_EQ(family.help.find('\n'), std::string_view::npos) << n;
  }
  EXPECT_GT(names.size(), 40u);
}

// docs/operations.md has one table row per family: | `name` | type | … |.
TEST(MetricFamiliesTest, DocumentedInOperationsGuide) {
  const std::string doc =
      ReadFile(std::filesystem::path(HOGLAKE_SOURCE_DIR) / "docs/operations.md");
  ASSERT_FALSE(doc.empty());
  const std::map<std::string, std::string> listed = ListedTypes();
  std::map<std::string, std::string> documented;
  const std::regex row(R"(\n\| `(hoglake_[a-z0-9_]+)` \| ([a-z]+) \|)");
  for (auto it = std::sregex_iterator(doc.begin(), doc.end(), row); it != std::sregex_iterator();
       ++it) {
    const std::string name = (*it)[1], type = (*it)[2];
    EXPECT_TRUE(documented.emplace(name, type).second)
        << name << " has two rows in docs/operations.md";
    const auto found = listed.find(name);
    if (found == listed.end()) {
      ADD_FAILURE() << name
                    << " is documented in docs/operations.md but the code has no such metric "
                       "(AllMetricFamilies(), src/server/observability/metric_families.h)";
      continue;
    }
    EXPECT_EQ(type, found->second) << name << "'s type in docs/operations.md";
  }
  for (const auto& [name, type] : listed) {
    EXPECT_TRUE(documented.contains(name))
        << name << " (" << type << ") is in AllMetricFamilies() but has no row in "
        << "docs/operations.md";
  }
}

// Every metric name the product's source spells is one of the list.
TEST(MetricFamiliesTest, EveryNameInTheSourceIsListed) {
  const std::map<std::string, std::string> listed = ListedTypes();
  const std::regex name(R"re("(hoglake_[a-z0-9_]+)")re");
  int files = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(
           std::filesystem::path(HOGLAKE_SOURCE_DIR) / "src")) {
    const std::string ext = entry.path().extension().string();
    if (ext != ".cc" && ext != ".h") continue;
    ++files;
    const std::string text = ReadFile(entry.path());
    for (auto it = std::sregex_iterator(text.begin(), text.end(), name);
         it != std::sregex_iterator(); ++it) {
      EXPECT_TRUE(listed.contains((*it)[1]))
          << (*it)[1] << " in " << entry.path() << " is not in AllMetricFamilies()";
    }
  }
  EXPECT_GT(files, 100);
}

// What RenderPrometheus writes is announced with the list's HELP and TYPE.
TEST(MetricFamiliesTest, RenderedFamiliesComeFromTheList) {
  Metrics metrics;
  metrics.RecordRequest("/livez", "GET", 200, 0.001);
  metrics.RecordCommit("append");
  metrics.RecordCommitLockWait(0.01, true);
  metrics.RecordCommitBatch(3);
  metrics.RecordRequestQueueWait(0.002);
  metrics.RecordRequestShed();
  metrics.AddToCounter(metric::kFilesRemoved, {{"catalog", "lake"}}, 2);
  metrics.PublishGauges({{std::string(metric::kLiveRows.name),
                          std::string(metric::kLiveRows.help),
                          {{"catalog", "lake"}},
                          10}});
  const std::string text = metrics.RenderPrometheus();
  std::map<std::string, const MetricFamily*> listed;
  for (const MetricFamily& family : AllMetricFamilies()) listed[std::string(family.name)] = &family;
  std::set<std::string> rendered;
  std::istringstream lines(text);
  std::string line;
  const std::regex header(R"(# (HELP|TYPE) (\S+) (.*))");
  while (std::getline(lines, line)) {
    std::smatch m;
    if (!std::regex_match(line, m, header)) continue;
    const auto found = listed.find(m[2]);
    if (found == listed.end()) {
      ADD_FAILURE() << m[2] << " is rendered but not in AllMetricFamilies()";
      continue;
    }
    rendered.insert(m[2]);
    EXPECT_EQ(m[3].str(), m[1] == "HELP" ? found->second->help : found->second->type) << line;
  }
  for (const MetricFamily* family :
       {&metric::kHttpRequests, &metric::kHttpRequestDuration, &metric::kCommits,
        &metric::kCommitLockWait, &metric::kCommitQueueTimeouts, &metric::kCommitBatchRequests,
        &metric::kRequestQueueWait, &metric::kRequestsShed, &metric::kFilesRemoved,
        &metric::kLiveRows}) {
    EXPECT_TRUE(rendered.contains(std::string(family->name))) << family->name;
  }
}

}  // namespace
}  // namespace hoglake::server
