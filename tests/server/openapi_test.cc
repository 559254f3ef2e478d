// docs/openapi.yaml must describe every route this server implements, and
// spell the closed vocabularies exactly as their single C++ definitions do.
#include <gtest/gtest.h>

#include <set>
#include <sstream>

#include "catalog/model/change_kind.h"
#include "iceberg/column_type.h"
#include "server/openapi.h"
#include "server/routes.h"

namespace hoglake::server {
namespace {

// The members listed under `<schema>:` → `enum:` in the YAML.
std::vector<std::string> EnumOf(const std::string& schema) {
  std::istringstream in{std::string(OpenApiYaml())};
  std::string line;
  std::vector<std::string> members;
  bool in_schema = false, in_enum = false;
  while (std::getline(in, line)) {
    if (line == "    " + schema + ":") {
      in_schema = true;
      continue;
    }
    if (in_schema && line == "      enum:") {
      in_enum = true;
      continue;
    }
    if (in_enum) {
      if (line.rfind("        - ", 0) != 0) break;
      members.push_back(line.substr(10));
    }
  }
  return members;
}

TEST(OpenApiTest, VocabulariesMatchTheirDefinitions) {
  std::vector<std::string> codes;
  for (const ErrorCodeInfo& info : AllErrorCodes()) {
    if (info.name == info.wire_name) codes.emplace_back(info.wire_name);  // wire codes only
  }
  EXPECT_EQ(EnumOf("ErrorCode"), codes);
  std::vector<std::string> types;
  for (auto t : iceberg::AllColumnTypes()) types.emplace_back(iceberg::ColumnTypeName(t));
  EXPECT_EQ(EnumOf("ColumnType"), types);
  std::vector<std::string> kinds;
  for (auto k : catalog::AllChangeKinds()) kinds.emplace_back(catalog::ChangeKindName(k));
  EXPECT_EQ(EnumOf("ChangeKind"), kinds);
}

TEST(OpenApiTest, EveryImplementedRouteIsDescribed) {
  Router router;
  RegisterRoutes(router, ServerContext{});  // handlers are not called
  std::set<std::pair<std::string, std::string>> unimplemented(NotYetImplementedRoutes().begin(),
                                                              NotYetImplementedRoutes().end());
  const std::string yaml(OpenApiYaml());
  int described = 0;
  for (const auto& [method, pattern] : router.Routes()) {
    if (unimplemented.contains({method, pattern})) continue;
    const size_t at = yaml.find("\n  " + pattern + ":\n");
    ASSERT_NE(at, std::string::npos) << pattern << " is not in docs/openapi.yaml";
    std::string lower = method;
    for (char& c : lower) c = static_cast<char>(std::tolower(c));
    const size_t next_path = yaml.find("\n  /", at + 1);
    const size_t op = yaml.find("\n    " + lower + ":", at);
    EXPECT_TRUE(op != std::string::npos && (next_path == std::string::npos || op < next_path))
        << method << " " << pattern << " is not described";
    ++described;
  }
  EXPECT_GT(described, 20);
}

}  // namespace
}  // namespace hoglake::server
