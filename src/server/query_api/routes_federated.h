// The Hotdata API's federated connections (hotdata-api.md §6.1), translated
// to query::FederatedConnections:
//   POST /v1/connections with source_type "postgres" (CreateFederated):
//        config {host, port?, user, database, password?} → 201
//        {id, name, source_type, tables_discovered, discovery_status,
//        discovery_error?}; the password is never echoed
//   DELETE /v1/connections/{id} of such a connection (DeleteFederated)
//   POST /v1/refresh {connection_id?}: discovers again (every federated
//        connection without connection_id) → {connections_refreshed,
//        connections_failed, tables_discovered, errors?}
// Without federated connections (null) they answer 503.
#pragma once

#include <optional>
#include <string>

#include "server/http/json_body.h"
#include "server/http/router.h"
#include "server/routes.h"

namespace hoglake::server {

Result<HttpResponse> CreateFederated(query::FederatedConnections* federated,
                                     const std::string& name, const std::string& source_type,
                                     std::optional<JsonObject> config, JsonObject& body);
// nullopt when `id` is not a federated connection.
Result<std::optional<HttpResponse>> DeleteFederated(query::FederatedConnections* federated,
                                                    const std::string& id);
// kAlreadyExists when `name` is a federated connection (managed connections
// share their id space: both are catalogs in SQL).
Status CheckNotFederated(query::FederatedConnections* federated, const std::string& name);
void RegisterRefresh(Router& router, const ServerContext& context);

}  // namespace hoglake::server
