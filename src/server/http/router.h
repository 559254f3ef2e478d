// Router: maps (method, path) to a handler by patterns such as
// "/v1/catalogs/{catalog}/namespaces/{namespace}". Each path segment is
// percent-decoded before binding, so "%2F" stays inside its segment. No
// trailing-slash normalization ("/healthz/" does not match "/healthz").
//
// Dispatch answers 404 not_found when no pattern matches the path, 405 when
// one matches but not for this method, and converts a handler's Error into
// the error body of the route's API (ErrorBodyStyle, http_types.h: the
// hoglake contract's by default, the Hotdata API's for its routes); an
// unmatched path takes the style of the longest registered prefix. The
// matched pattern is reported as the route label for metrics.
//
// A streaming route (AddStreaming) reads its request body as it arrives
// (HttpRequest::body_stream) instead of whole beforehand, bounded by the
// route's own limit rather than the server's body limit: for uploads,
// whose bodies may be far larger than any body held in memory.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "server/http/http_types.h"

namespace hoglake::server {

using Handler = std::function<Result<HttpResponse>(HttpRequest&)>;
// Looks at a matched request before its handler (the route's pattern and
// error style given); a response refuses it (e.g. 401), nullopt lets it in.
using Guard = std::function<std::optional<HttpResponse>(
    const HttpRequest&, std::string_view pattern, ErrorBodyStyle style)>;

class Router {
 public:
  void Add(std::string method, std::string pattern, Handler handler,
           ErrorBodyStyle style = ErrorBodyStyle::kHoglake);
  // A route whose handler reads its body from `body_stream`; bodies past
  // `max_body_bytes` are refused 413 as soon as that is known.
  void AddStreaming(std::string method, std::string pattern, Handler handler,
                    ErrorBodyStyle style, uint64_t max_body_bytes);
  // The body limit when (method, path) is a streaming route; nullopt when
  // its body is read whole (or no route matches).
  std::optional<uint64_t> StreamedBodyLimit(std::string_view method, std::string_view path) const;
  // Paths starting with `prefix` that match no route (404, 405) answer in
  // `style`.
  void SetPrefixStyle(std::string prefix, ErrorBodyStyle style);
  // Runs before every matched handler (authorization).
  void SetGuard(Guard guard);
  // (method, pattern) of every route, in registration order.
  std::vector<std::pair<std::string, std::string>> Routes() const;
  // `route` receives the matched pattern, or "unmatched".
  HttpResponse Dispatch(HttpRequest& request, std::string* route) const;

 private:
  struct Route {
    std::string method;
    std::string pattern;
    std::vector<std::string> segments;  // "{name}" binds a parameter
    Handler handler;
    ErrorBodyStyle style;
    std::optional<uint64_t> stream_limit;  // streaming routes
  };
  // Whether `route` matches `segments`, binding its parameters into
  // `params` (when not null).
  static bool Matches(const Route& route, const std::vector<std::string>& segments,
                      std::map<std::string, std::string, std::less<>>* params);
  ErrorBodyStyle StyleForPath(std::string_view path) const;

  std::vector<Route> routes_;
  std::vector<std::pair<std::string, ErrorBodyStyle>> prefix_styles_;
  Guard guard_;
};

// Splits "/a/b%2Fc/d" into decoded segments {"a", "b/c", "d"}.
Result<std::vector<std::string>> SplitPath(std::string_view path);

}  // namespace hoglake::server
