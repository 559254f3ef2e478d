// The HTTP surface: every route of hoglake REST contract v1 (§2), registered
// on one Router. Implemented routes translate the request, call the catalog
// service and render the contract's wire shapes (wire.h); the rest answer
// 501 not_implemented, naming the route, until their issue lands.
#pragma once

#include <string>

#include "catalog/catalog_service.h"
#include "catalog/maintenance/hydrator.h"
#include "catalog/maintenance/maintenance_observer.h"
#include "server/observability/metrics.h"
#include "server/observability/metrics_sampler.h"
#include "server/http/router.h"

namespace hoglake::query {
class ApiTokens;
class LakeDirectory;
class FederatedConnections;
class ManagedDatabases;
class TableLoader;
class UploadStore;
class QueryService;
}  // namespace hoglake::query

namespace hoglake::server {

struct ServerContext {
  catalog::CatalogService* catalogs = nullptr;
  // Deferred-stats hydration (…/maintenance/hydrate and …/rehydrate); null
  // answers 503.
  catalog::Hydrator* hydrator = nullptr;
  // What GET …/maintenance/status reports beyond the database: the loop
  // cadences (unknown = loop_interval_ms omitted) and compaction's target.
  catalog::MaintenanceStatusOptions maintenance_status;
  Metrics* metrics = nullptr;
  // Told about manual maintenance runs (metrics, audit); null = nobody.
  catalog::MaintenanceObserver* maintenance_observer = nullptr;
  // The instance totals GET /v1/info reports; null or before the first
  // sample = omitted.
  const MetricsSampler* metrics_sampler = nullptr;
  std::string version;
  std::string instance_name;  // HOGLAKE_INSTANCE_NAME; empty = omitted
  // Where new catalogs' data should go, proposed in GET /v1/info as
  // `data_root` (clients create `<data_root><catalog>/`); empty = omitted.
  std::string data_root;
  // The Hotdata-compatible query API (routes_query.h); null answers 503.
  query::QueryService* query = nullptr;
  query::LakeDirectory* directory = nullptr;
  // Managed databases (routes_managed.h); null answers 503.
  query::ManagedDatabases* managed = nullptr;
  // Federated connections (routes_federated.h); null answers 503.
  query::FederatedConnections* federated = nullptr;
  // Uploads (routes_query_uploads.h) and loads into managed tables; null
  // answers 503.
  query::UploadStore* uploads = nullptr;
  query::TableLoader* loader = nullptr;
  // API tokens (auth_guard.h); null = nothing is checked.
  const query::ApiTokens* tokens = nullptr;
  bool catalog_routes_open = true;  // listening on loopback
};

void RegisterRoutes(Router& router, const ServerContext& context);

// Method + pattern of each route answered with 501 (for docs and tests).
const std::vector<std::pair<std::string, std::string>>& NotYetImplementedRoutes();

}  // namespace hoglake::server
