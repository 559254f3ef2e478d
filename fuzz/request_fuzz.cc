// libFuzzer target: arbitrary bytes as one HTTP request to the route table.
// The first line is "METHOD TARGET" (target = raw path and query, exactly
// as it arrives on the wire), the next lines up to an empty one are
// "Name: value" headers, the rest is the body. The request is dispatched
// through every registered route (path splitting, percent-decoding, query
// parsing, the JSON body reader, each route's field checks and wire
// parsing); the catalog behind them has no database (its pool points at a
// socket that does not exist), so a request that gets past validation
// fails as unavailable. Any crash, sanitizer report, hang or unbounded
// allocation is a bug; error responses are expected.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "catalog/catalog_service.h"
#include "pg/pg_pool.h"
#include "server/http/json_body.h"
#include "server/observability/metrics.h"
#include "server/http/router.h"
#include "server/routes.h"

namespace {

using namespace hoglake;

struct Harness {
  // A pool that fails at once: no server listens on this socket.
  pg::PgPool pool{"host=/nonexistent/hoglake-fuzz port=1 connect_timeout=1", 1, 10};
  catalog::CatalogService service{&pool, catalog::CatalogServiceOptions{}};
  server::Metrics metrics;
  server::Router router;

  Harness() {
    server::ServerContext context;
    context.catalogs = &service;
    context.metrics = &metrics;
    context.version = "fuzz";
    server::RegisterRoutes(router, context);
  }
};

std::string_view NextLine(std::string_view& rest) {
  const size_t end = rest.find('\n');
  std::string_view line = rest.substr(0, end);
  rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return line;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static Harness* harness = new Harness();
  std::string_view rest(reinterpret_cast<const char*>(data), size);
  const std::string_view first = NextLine(rest);
  const size_t space = first.find(' ');
  if (space == std::string_view::npos) return 0;
  server::HttpRequest request;
  request.method = std::string(first.substr(0, space));
  std::string_view target = first.substr(space + 1);
  const size_t question = target.find('?');
  request.path = std::string(target.substr(0, question));
  if (question != std::string_view::npos) {
    // The server's query parsing: '&'-separated, percent-decoded pairs.
    std::string_view query = target.substr(question + 1);
    while (!query.empty()) {
      const size_t amp = query.find('&');
      const std::string_view part = query.substr(0, amp);
      query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
      const size_t eq = part.find('=');
      auto key = server::PercentDecode(part.substr(0, eq), true);
      auto value = server::PercentDecode(
          eq == std::string_view::npos ? std::string_view() : part.substr(eq + 1), true);
      if (!key.ok() || !value.ok()) return 0;  // the server answers 400 here
      request.query.emplace_back(std::move(*key), std::move(*value));
    }
  }
  for (std::string_view line = NextLine(rest); !line.empty(); line = NextLine(rest)) {
    const size_t colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    std::string name(line.substr(0, colon));
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    std::string_view value = line.substr(colon + 1);
    while (!value.empty() && value.front() == ' ') value.remove_prefix(1);
    request.headers.emplace(std::move(name), std::string(value));
  }
  request.body = std::string(rest);
  (void)server::JsonBody::ParseText(request.body);
  std::string route;
  (void)harness->router.Dispatch(request, &route);
  return 0;
}
