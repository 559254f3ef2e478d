#include "server/http/router.h"

namespace hoglake::server {

Result<std::vector<std::string>> SplitPath(std::string_view path) {
  std::vector<std::string> segments;
  if (path.empty() || path[0] != '/') return BadRequest("request path must start with '/'");
  size_t start = 1;
  while (true) {
    size_t end = path.find('/', start);
    if (end == std::string_view::npos) end = path.size();
    HOGLAKE_ASSIGN_OR_RETURN(std::string segment,
                             PercentDecode(path.substr(start, end - start), false));
    segments.push_back(std::move(segment));
    if (end == path.size()) break;
    start = end + 1;
  }
  return segments;
}

void Router::Add(std::string method, std::string pattern, Handler handler, ErrorBodyStyle style) {
  Route route{std::move(method), std::move(pattern), {}, std::move(handler), style, {}};
  size_t start = 1;
  while (start <= route.pattern.size()) {
    size_t end = route.pattern.find('/', start);
    if (end == std::string::npos) end = route.pattern.size();
    route.segments.push_back(route.pattern.substr(start, end - start));
    start = end + 1;
  }
  routes_.push_back(std::move(route));
}

void Router::AddStreaming(std::string method, std::string pattern, Handler handler,
                          ErrorBodyStyle style, uint64_t max_body_bytes) {
  Add(std::move(method), std::move(pattern), std::move(handler), style);
  routes_.back().stream_limit = max_body_bytes;
}

bool Router::Matches(const Route& route, const std::vector<std::string>& segments,
                     std::map<std::string, std::string, std::less<>>* params) {
  if (route.segments.size() != segments.size()) return false;
  for (size_t i = 0; i < route.segments.size(); ++i) {
    const std::string& want = route.segments[i];
    if (want.size() > 2 && want.front() == '{' && want.back() == '}') {
      if (params) (*params)[want.substr(1, want.size() - 2)] = segments[i];
    } else if (want != segments[i]) {
      return false;
    }
  }
  return true;
}

std::optional<uint64_t> Router::StreamedBodyLimit(std::string_view method,
                                                  std::string_view path) const {
  Result<std::vector<std::string>> segments = SplitPath(path);
  if (!segments.ok()) return std::nullopt;
  for (const Route& route : routes_) {
    if (route.method == method && Matches(route, *segments, nullptr)) return route.stream_limit;
  }
  return std::nullopt;
}

void Router::SetPrefixStyle(std::string prefix, ErrorBodyStyle style) {
  prefix_styles_.emplace_back(std::move(prefix), style);
}

ErrorBodyStyle Router::StyleForPath(std::string_view path) const {
  ErrorBodyStyle style = ErrorBodyStyle::kHoglake;
  size_t longest = 0;
  for (const auto& [prefix, prefix_style] : prefix_styles_) {
    if (path.starts_with(prefix) && prefix.size() > longest) {
      longest = prefix.size();
      style = prefix_style;
    }
  }
  return style;
}

std::vector<std::pair<std::string, std::string>> Router::Routes() const {
  std::vector<std::pair<std::string, std::string>> out;
  for (const Route& route : routes_) out.emplace_back(route.method, route.pattern);
  return out;
}

void Router::SetGuard(Guard guard) { guard_ = std::move(guard); }

HttpResponse Router::Dispatch(HttpRequest& request, std::string* route_label) const {
  *route_label = "unmatched";
  Result<std::vector<std::string>> segments = SplitPath(request.path);
  if (!segments.ok()) return ErrorResponse(segments.error(), StyleForPath(request.path));
  std::vector<std::string> allowed;
  for (const Route& route : routes_) {
    std::map<std::string, std::string, std::less<>> params;
    if (!Matches(route, *segments, &params)) continue;
    if (route.method != request.method) {
      allowed.push_back(route.method);
      continue;
    }
    *route_label = route.pattern;
    request.path_params = std::move(params);
    if (guard_) {
      if (std::optional<HttpResponse> refused = guard_(request, route.pattern, route.style)) {
        return std::move(*refused);
      }
    }
    Result<HttpResponse> response = route.handler(request);
    if (!response.ok()) return ErrorResponse(response.error(), route.style);
    return std::move(response).value();
  }
  if (!allowed.empty()) {
    HttpResponse response =
        ErrorResponse(BadRequest("method ", request.method, " is not allowed on ", request.path),
                      StyleForPath(request.path));
    response.status = 405;
    std::string allow;
    for (const auto& m : allowed) allow += (allow.empty() ? "" : ", ") + m;
    response.headers.emplace_back("Allow", allow);
    return response;
  }
  return ErrorResponse(NotFound("no route for ", request.method, " ", request.path),
                       StyleForPath(request.path));
}

}  // namespace hoglake::server
