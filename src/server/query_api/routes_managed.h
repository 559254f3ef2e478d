// The Hotdata API's managed databases (hotdata-api.md §2.6, §2.9, §2.10):
//   POST   /v1/connections                  source_type "managed" (others:
//          routes_federated.h)
//   DELETE /v1/connections/{connection_id}  (a federated one: routes_federated.h)
//   DELETE /v1/connections/{connection_id}/schemas/{schema}/tables/{table}
//   GET    /v1/databases, POST /v1/databases
//   GET    /v1/databases/{database_id}, DELETE /v1/databases/{database_id}
// They translate to query::ManagedDatabases; errors use the Hotdata body.
// Without managed databases (null in the context) they answer 503.
#pragma once

#include <optional>
#include <string>

#include "server/http/http_types.h"
#include "server/http/router.h"
#include "server/routes.h"

namespace hoglake::server {

void RegisterManagedRoutes(Router& router, const ServerContext& context);

}  // namespace hoglake::server
