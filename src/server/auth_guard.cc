#include "server/auth_guard.h"

#include <chrono>

#include "common/json_text.h"
#include "query/api_tokens.h"

namespace hoglake::server {
namespace {

bool AlwaysOpen(std::string_view pattern) {
  return pattern == "/healthz" || pattern == "/livez" || pattern == "/metrics" ||
         pattern == "/openapi.yaml" || pattern == "/v1/auth/jwt";
}

HttpResponse Unauthorized(ErrorBodyStyle style, std::string_view message) {
  std::string body;
  if (style == ErrorBodyStyle::kHotdata) {
    body = "{\"error\":{\"code\":\"UNAUTHORIZED\",\"message\":";
    AppendJsonString(message, &body);
    body += "}}";
  } else {
    body = "{\"error\":\"unauthorized\",\"detail\":";
    AppendJsonString(message, &body);
    body += "}";
  }
  HttpResponse response = HttpResponse::Json(401, std::move(body));
  response.headers.emplace_back("WWW-Authenticate", "Bearer");
  return response;
}

}  // namespace

Guard MakeAuthGuard(AuthPolicy policy) {
  return [policy](const HttpRequest& request, std::string_view pattern,
                  ErrorBodyStyle style) -> std::optional<HttpResponse> {
    if (policy.tokens == nullptr || !policy.tokens->enabled() || AlwaysOpen(pattern)) {
      return std::nullopt;
    }
    if (style == ErrorBodyStyle::kHoglake && policy.catalog_routes_open) return std::nullopt;
    if (pattern == kPresignedPutPattern && policy.presigned && policy.presigned(request)) {
      return std::nullopt;
    }
    std::optional<std::string_view> authorization = request.Header("authorization");
    if (!authorization) {
      return Unauthorized(style,
                          "this route needs an API token: send Authorization: Bearer <token>");
    }
    const int64_t now = std::chrono::duration_cast<std::chrono::seconds>(
                            std::chrono::system_clock::now().time_since_epoch())
                            .count();
    if (!policy.tokens->Authorizes(*authorization, now)) {
      return Unauthorized(style, "the bearer token is not valid or has expired");
    }
    return std::nullopt;
  };
}

}  // namespace hoglake::server
