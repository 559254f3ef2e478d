// The Hotdata-compatible query API (hotdata-api.md §2): connections,
// information_schema, query runs and results, under /v1 beside the catalog
// routes. The routes translate HTTP to src/query and its results back into
// the Hotdata wire shapes; errors use the Hotdata error body
// ({"error": {"code", "message"}}). Without a query service (null in the
// context) they answer 503.
#pragma once

#include <optional>
#include <string>

#include "common/json_writer.h"
#include "server/http/router.h"
#include "server/routes.h"

namespace hoglake::server {

void RegisterQueryRoutes(Router& router, const ServerContext& context);

// A Hotdata error body ({"error": {"code", "message"}}) with `status`, for
// the answers a typed Error does not spell (429 OVERLOADED, 413 …).
HttpResponse HotdataError(int status, std::string_view code, std::string_view message);

// The tail of a cursor-paged listing: count, limit, has_more, next_cursor.
void WritePageEnd(JsonWriter& w, int64_t count, int64_t limit,
                  const std::optional<std::string>& next_cursor);

}  // namespace hoglake::server
