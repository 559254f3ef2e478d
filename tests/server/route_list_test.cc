// The routes the server registers (Router::Routes() after RegisterRoutes)
// against the documents that list them: docs/openapi.yaml describes exactly
// the implemented routes, and docs/compatibility.md ("Not implemented yet
// (501)") lists exactly the contract's routes that answer 501
// (NotYetImplementedRoutes()). Each failure names the route and the side it
// is missing from.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "server/openapi.h"
#include "server/routes.h"

namespace hoglake::server {
namespace {

using RouteSet = std::set<std::pair<std::string, std::string>>;  // (METHOD, pattern)

std::string ReadFile(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string Upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

// (METHOD, path) of every operation under `paths:` in the OpenAPI text:
// a path is a two-space-indented key starting with '/', its operations the
// four-space-indented HTTP method keys below it.
RouteSet OpenApiOperations(std::string_view yaml) {
  RouteSet out;
  std::istringstream in{std::string(yaml)};
  std::string line, path;
  const std::regex path_key(R"(  (/\S*):\s*)");
  const std::regex method_key(R"(    (get|put|post|delete|patch|head|options):\s*)");
  std::smatch m;
  while (std::getline(in, line)) {
    if (std::regex_match(line, m, path_key)) {
      path = m[1];
    } else if (!line.empty() && line[0] != ' ') {
      path.clear();  // a top-level key: the paths are over
    } else if (line.size() > 2 && line[2] != ' ' && line[0] == ' ' && line[1] == ' ') {
      path.clear();  // another two-space key
    } else if (!path.empty() && std::regex_match(line, m, method_key)) {
      out.emplace(Upper(m[1]), path);
    }
  }
  return out;
}

RouteSet RegisteredRoutes() {
  Router router;
  RegisterRoutes(router, ServerContext{});  // handlers are not called
  RouteSet routes;
  for (const auto& route : router.Routes()) {
    EXPECT_TRUE(routes.insert(route).second)
        << route.first << " " << route.second << " is registered twice";
  }
  return routes;
}

RouteSet NotYetImplemented() {
  return RouteSet(NotYetImplementedRoutes().begin(), NotYetImplementedRoutes().end());
}

TEST(RouteListTest, OpenApiDescribesExactlyTheImplementedRoutes) {
  const RouteSet unimplemented = NotYetImplemented();
  RouteSet implemented;
  for (const auto& route : RegisteredRoutes()) {
    if (!unimplemented.contains(route)) implemented.insert(route);
  }
  const RouteSet documented = OpenApiOperations(OpenApiYaml());
  for (const auto& [method, path] : implemented) {
    EXPECT_TRUE(documented.contains({method, path}))
        << method << " " << path << " is served but not described in docs/openapi.yaml";
  }
  for (const auto& [method, path] : documented) {
    if (implemented.contains({method, path})) continue;
    ADD_FAILURE() << method << " " << path << " is described in docs/openapi.yaml but "
                  << (unimplemented.contains({method, path})
                          ? "answers 501 (NotYetImplementedRoutes())"
                          : "no route is registered for it");
  }
  EXPECT_GT(implemented.size(), 50u);
}

// docs/compatibility.md lists them as "- `METHOD /path`" lines in its
// "Not implemented yet (501)" section.
TEST(RouteListTest, CompatibilityListsExactlyTheRoutesAnswering501) {
  const std::string doc =
      ReadFile(std::filesystem::path(HOGLAKE_SOURCE_DIR) / "docs/compatibility.md");
  const size_t start = doc.find("\n## Not implemented yet (501)\n");
  ASSERT_NE(start, std::string::npos) << "docs/compatibility.md has no 501 section";
  size_t end = doc.find("\n## ", start + 1);
  if (end == std::string::npos) end = doc.size();
  const std::string section = doc.substr(start, end - start);
  RouteSet documented;
  const std::regex item(R"(\n- `([A-Z]+) (/[^`\s]*)`)");
  for (auto it = std::sregex_iterator(section.begin(), section.end(), item);
       it != std::sregex_iterator(); ++it) {
    EXPECT_TRUE(documented.emplace((*it)[1], (*it)[2]).second)
        << (*it)[1] << " " << (*it)[2] << " is listed twice in docs/compatibility.md";
  }
  const RouteSet registered = RegisteredRoutes();
  const RouteSet unimplemented = NotYetImplemented();
  for (const auto& [method, path] : unimplemented) {
    EXPECT_TRUE(registered.contains({method, path})) << method << " " << path;
    EXPECT_TRUE(documented.contains({method, path}))
        << method << " " << path << " answers 501 but is not listed in docs/compatibility.md";
  }
  for (const auto& [method, path] : documented) {
    EXPECT_TRUE(unimplemented.contains({method, path}))
        << method << " " << path << " is listed as 501 in docs/compatibility.md but "
        << (registered.contains({method, path}) ? "is implemented" : "is not a registered route");
  }
}

}  // namespace
}  // namespace hoglake::server
