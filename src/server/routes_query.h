// The Hotdata-compatible query API (hotdata-api.md §2): connections,
// information_schema, query runs and results, under /v1 beside the catalog
// routes. The routes translate HTTP to src/query and its results back into
// the Hotdata wire shapes; errors use the Hotdata error body
// ({"error": {"code", "message"}}). Without a query service (null in the
// context) they answer 503.
#pragma once

#include "server/router.h"
#include "server/routes.h"

namespace hoglake::server {

void RegisterQueryRoutes(Router& router, const ServerContext& context);

}  // namespace hoglake::server
