// Who may call which route (README "Authentication"):
//   - /healthz, /livez, /metrics, /openapi.yaml and the token exchange
//     (POST /v1/auth/jwt) are always open;
//   - without configured API tokens everything is open (hoglake serve then
//     listens on loopback only, unless --allow-unauthenticated);
//   - with tokens, the query API (Hotdata routes) needs a valid bearer
//     token; the catalog routes (hoglake contract, whose clients such as
//     pyhoglake send no credentials) stay open while the server listens on
//     loopback, and need the token too when it listens elsewhere.
//   - a presigned upload PUT (kPresignedPutPattern) carries no token: it
//     passes when `presigned` accepts its URL signature.
// A refused request is 401 with the route's error body and
// `WWW-Authenticate: Bearer`.
#pragma once

#include <functional>
#include <string_view>

#include "server/http/router.h"

namespace hoglake::query {
class ApiTokens;
}  // namespace hoglake::query

namespace hoglake::server {

inline constexpr std::string_view kPresignedPutPattern = "/v1/uploads/{upload_id}/data";

struct AuthPolicy {
  const query::ApiTokens* tokens = nullptr;  // null or empty = nothing checked
  bool catalog_routes_open = true;           // listening on loopback
  // Whether a request to kPresignedPutPattern carries a valid signature;
  // empty = no exemption.
  std::function<bool(const HttpRequest&)> presigned;
};

Guard MakeAuthGuard(AuthPolicy policy);

}  // namespace hoglake::server
