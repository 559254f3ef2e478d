// The router answers each route's errors in its API's shape, and unmatched
// paths in the shape of the longest registered prefix.
#include "server/http/router.h"

#include <gtest/gtest.h>

#include <string>

namespace hoglake::server {
namespace {

HttpResponse Call(const Router& router, const std::string& method, const std::string& path) {
  HttpRequest request;
  request.method = method;
  request.path = path;
  std::string route;
  return router.Dispatch(request, &route);
}

Router TwoApis() {
  Router router;
  router.Add("GET", "/v1/catalogs/{catalog}", [](HttpRequest&) -> Result<HttpResponse> {
    return NotFound("catalog 'x' not found");
  });
  router.Add(
      "GET", "/v1/query-runs/{id}",
      [](HttpRequest&) -> Result<HttpResponse> { return NotFound("query run 'q' not found"); },
      ErrorBodyStyle::kHotdata);
  router.SetPrefixStyle("/v1/query-runs", ErrorBodyStyle::kHotdata);
  return router;
}

TEST(RouterTest, EachRouteAnswersInItsApisErrorShape) {
  const Router router = TwoApis();
  const HttpResponse hoglake = Call(router, "GET", "/v1/catalogs/x");
  EXPECT_EQ(hoglake.status, 404);
  EXPECT_EQ(hoglake.body, R"({"error":"not_found","detail":"catalog 'x' not found"})");
  const HttpResponse hotdata = Call(router, "GET", "/v1/query-runs/q");
  EXPECT_EQ(hotdata.status, 404);
  EXPECT_EQ(hotdata.body, R"({"error":{"code":"NOT_FOUND","message":"query run 'q' not found"}})");
}

TEST(RouterTest, UnmatchedPathsTakeTheirPrefixsShape) {
  const Router router = TwoApis();
  const HttpResponse hotdata = Call(router, "GET", "/v1/query-runs/q/extra");
  EXPECT_EQ(hotdata.status, 404);
  EXPECT_NE(hotdata.body.find(R"({"error":{"code":"NOT_FOUND")"), std::string::npos)
      << hotdata.body;
  const HttpResponse method = Call(router, "DELETE", "/v1/query-runs/q");
  EXPECT_EQ(method.status, 405);
  EXPECT_NE(method.body.find(R"("code":"BAD_REQUEST")"), std::string::npos) << method.body;
  const HttpResponse hoglake = Call(router, "GET", "/v1/nowhere");
  EXPECT_EQ(hoglake.status, 404);
  EXPECT_NE(hoglake.body.find(R"({"error":"not_found")"), std::string::npos) << hoglake.body;
}

}  // namespace
}  // namespace hoglake::server
