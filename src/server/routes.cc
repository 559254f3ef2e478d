#include "server/routes.h"

#include <algorithm>

#include "catalog/pg_pool.h"
#include "common/uuid.h"
#include "server/json_body.h"
#include "server/request_params.h"
#include "server/table_wire.h"
#include "server/wire.h"

namespace hoglake::server {
namespace {

using catalog::CatalogService;

constexpr const char* kC = "/v1/catalogs/{catalog}";
constexpr const char* kN = "/v1/catalogs/{catalog}/namespaces/{namespace}";
constexpr const char* kT = "/v1/catalogs/{catalog}/namespaces/{namespace}/tables/{table}";

std::string P(const char* base, const char* rest) { return std::string(base) + rest; }

HttpResponse JsonOk(int status, JsonWriter& w) { return HttpResponse::Json(status, w.Take()); }

// ---- root and instance ----------------------------------------------------------

void RegisterRoot(Router& router, const ServerContext& ctx) {
  router.Add("GET", "/livez",
             [](HttpRequest&) -> Result<HttpResponse> { return HttpResponse::Text(200, "ok"); });
  router.Add("GET", "/healthz", [ctx](HttpRequest&) -> Result<HttpResponse> {
    Status ping = ctx.catalogs->Ping();
    if (!ping.ok()) return HttpResponse::Text(503, "db unreachable");
    return HttpResponse::Text(200, "ok");
  });
  router.Add("GET", "/metrics", [ctx](HttpRequest&) -> Result<HttpResponse> {
    return HttpResponse::Text(200, ctx.metrics->RenderPrometheus(),
                              "text/plain; version=0.0.4; charset=utf-8");
  });
  router.Add("GET", "/v1/info", [ctx](HttpRequest&) -> Result<HttpResponse> {
    JsonWriter w;
    w.BeginObject();
    if (!ctx.instance_name.empty()) w.Field("name", std::string_view(ctx.instance_name));
    w.Field("version", std::string_view(ctx.version));
    w.EndObject();
    return JsonOk(200, w);
  });
}

// ---- catalogs -------------------------------------------------------------------

void RegisterCatalogs(Router& router, const ServerContext& ctx) {
  CatalogService* service = ctx.catalogs;
  router.Add("GET", "/v1/catalogs", [service](HttpRequest&) -> Result<HttpResponse> {
    HOGLAKE_ASSIGN_OR_RETURN(auto catalogs, service->ListCatalogs());
    JsonWriter w;
    w.BeginArray();
    for (const auto& c : catalogs) WriteCatalog(c, w);
    w.EndArray();
    return JsonOk(200, w);
  });
  router.Add("POST", "/v1/catalogs", [service](HttpRequest& req) -> Result<HttpResponse> {
    HOGLAKE_ASSIGN_OR_RETURN(JsonObject body, JsonBody::Parse(req));
    HOGLAKE_ASSIGN_OR_RETURN(std::string name, body.RequiredString("name"));
    HOGLAKE_ASSIGN_OR_RETURN(std::string data_path, body.RequiredString("data_path"));
    HOGLAKE_RETURN_IF_ERROR(body.CheckNoUnknownFields());
    HOGLAKE_ASSIGN_OR_RETURN(auto created, service->CreateCatalog(name, data_path));
    JsonWriter w;
    WriteCatalog(created, w);
    return JsonOk(201, w);
  });
  router.Add("GET", kC, [service](HttpRequest& req) -> Result<HttpResponse> {
    HOGLAKE_ASSIGN_OR_RETURN(auto info, service->GetCatalog(req.Param("catalog")));
    JsonWriter w;
    WriteCatalog(info, w);
    return JsonOk(200, w);
  });
}

// ---- namespaces -----------------------------------------------------------------

void RegisterNamespaces(Router& router, const ServerContext& ctx) {
  CatalogService* service = ctx.catalogs;
  router.Add("GET", P(kC, "/namespaces"), [service](HttpRequest& req) -> Result<HttpResponse> {
    HOGLAKE_ASSIGN_OR_RETURN(catalog::SnapshotSelector at, QuerySnapshotSelector(req));
    HOGLAKE_ASSIGN_OR_RETURN(auto namespaces, service->ListNamespaces(req.Param("catalog"), at));
    JsonWriter w;
    w.BeginArray();
    for (const auto& ns : namespaces) WriteNamespace(ns, w);
    w.EndArray();
    return JsonOk(200, w);
  });
  router.Add("POST", P(kC, "/namespaces"), [ctx](HttpRequest& req) -> Result<HttpResponse> {
    HOGLAKE_ASSIGN_OR_RETURN(JsonObject body, JsonBody::Parse(req));
    HOGLAKE_ASSIGN_OR_RETURN(std::string name, body.RequiredString("name"));
    HOGLAKE_RETURN_IF_ERROR(body.CheckNoUnknownFields());
    HOGLAKE_ASSIGN_OR_RETURN(auto created,
                             ctx.catalogs->CreateNamespace(req.Param("catalog"), name));
    ctx.metrics->RecordCommit("namespace_created");
    JsonWriter w;
    WriteNamespace(created, w);
    return JsonOk(201, w);
  });
  router.Add("GET", kN, [service](HttpRequest& req) -> Result<HttpResponse> {
    HOGLAKE_ASSIGN_OR_RETURN(auto ns,
                             service->GetNamespace(req.Param("catalog"), req.Param("namespace")));
    JsonWriter w;
    WriteNamespace(ns, w);
    return JsonOk(200, w);
  });
  router.Add("DELETE", kN, [ctx](HttpRequest& req) -> Result<HttpResponse> {
    HOGLAKE_ASSIGN_OR_RETURN(std::optional<int64_t> expected,
                             QueryInt64(req, "expected_namespace_id"));
    HOGLAKE_ASSIGN_OR_RETURN(
        auto result,
        ctx.catalogs->DropNamespace(req.Param("catalog"), req.Param("namespace"), expected));
    ctx.metrics->RecordCommit("namespace_dropped");
    JsonWriter w;
    WriteCommitResult(result, w);
    return JsonOk(200, w);
  });
}

// ---- tables ---------------------------------------------------------------------

catalog::TableRef RefOf(const HttpRequest& req) {
  return catalog::TableRef{req.Param("catalog"), req.Param("namespace"), req.Param("table")};
}

void RegisterTables(Router& router, const ServerContext& ctx) {
  CatalogService* service = ctx.catalogs;
  router.Add("GET", P(kN, "/tables"), [service](HttpRequest& req) -> Result<HttpResponse> {
    HOGLAKE_ASSIGN_OR_RETURN(catalog::SnapshotSelector at, QuerySnapshotSelector(req));
    HOGLAKE_ASSIGN_OR_RETURN(auto tables,
                             service->ListTables(req.Param("catalog"), req.Param("namespace"), at));
    JsonWriter w;
    w.BeginArray();
    for (const auto& t : tables) WriteTableSummary(t, w);
    w.EndArray();
    return JsonOk(200, w);
  });
  router.Add("POST", P(kN, "/tables"), [ctx](HttpRequest& req) -> Result<HttpResponse> {
    HOGLAKE_ASSIGN_OR_RETURN(JsonObject body, JsonBody::Parse(req));
    catalog::CreateTableRequest request;
    HOGLAKE_ASSIGN_OR_RETURN(request.name, body.RequiredString("name"));
    HOGLAKE_ASSIGN_OR_RETURN(JsonArray columns, body.RequiredArray("columns"));
    HOGLAKE_ASSIGN_OR_RETURN(std::optional<JsonObject> properties,
                             body.OptionalObject("properties"));
    HOGLAKE_ASSIGN_OR_RETURN(request.comment, body.OptionalString("comment"));
    HOGLAKE_RETURN_IF_ERROR(body.CheckNoUnknownFields());
    if (properties) {
      HOGLAKE_ASSIGN_OR_RETURN(request.properties, properties->StringMap());
      std::sort(request.properties.begin(), request.properties.end());
    }
    HOGLAKE_ASSIGN_OR_RETURN(request.columns, ParseColumnDefs(std::move(columns)));
    HOGLAKE_ASSIGN_OR_RETURN(auto table,
                             ctx.catalogs->CreateTable(req.Param("catalog"), req.Param("namespace"),
                                                       std::move(request)));
    ctx.metrics->RecordCommit("table_created");
    JsonWriter w;
    WriteTable(table, w);
    return JsonOk(201, w);
  });
  router.Add("GET", kT, [service](HttpRequest& req) -> Result<HttpResponse> {
    HOGLAKE_ASSIGN_OR_RETURN(catalog::SnapshotSelector at, QuerySnapshotSelector(req));
    const bool totals = req.Query("totals").value_or("true") != "false";
    HOGLAKE_ASSIGN_OR_RETURN(auto table, service->GetTable(RefOf(req), at, totals));
    JsonWriter w;
    WriteTable(table, w);
    return JsonOk(200, w);
  });
  router.Add("DELETE", kT, [ctx](HttpRequest& req) -> Result<HttpResponse> {
    std::optional<std::string> expected;
    if (auto text = req.Query("expected_table_uuid")) {
      HOGLAKE_ASSIGN_OR_RETURN(UuidBytes uuid, ParseUuid(*text));
      expected = FormatUuid(uuid);
    }
    HOGLAKE_ASSIGN_OR_RETURN(auto result, ctx.catalogs->DropTable(RefOf(req), expected));
    ctx.metrics->RecordCommit("table_dropped");
    JsonWriter w;
    WriteCommitResult(result, w);
    return JsonOk(200, w);
  });
}

// ---- snapshots ------------------------------------------------------------------

void RegisterSnapshots(Router& router, const ServerContext& ctx) {
  CatalogService* service = ctx.catalogs;
  router.Add("GET", P(kC, "/snapshots"), [service](HttpRequest& req) -> Result<HttpResponse> {
    catalog::SnapshotListing listing;
    HOGLAKE_ASSIGN_OR_RETURN(listing.after, QueryInt64(req, "after"));
    HOGLAKE_ASSIGN_OR_RETURN(listing.before, QueryInt64(req, "before"));
    HOGLAKE_ASSIGN_OR_RETURN(listing.limit, QueryInt64(req, "limit"));
    HOGLAKE_ASSIGN_OR_RETURN(auto page, service->ListSnapshots(req.Param("catalog"), listing));
    JsonWriter w;
    WriteSnapshotPage(page, w);
    return JsonOk(200, w);
  });
}

}  // namespace

const std::vector<std::pair<std::string, std::string>>& NotYetImplementedRoutes() {
  static const std::vector<std::pair<std::string, std::string>> kRoutes = [] {
    const std::string c = kC, n = kN, t = kT;
    const std::string op = c + "/table-creations/{operation}";
    return std::vector<std::pair<std::string, std::string>>{
        {"GET", "/openapi.yaml"},
        {"GET", "/v1/maintenance/status"},
        {"GET", "/v1/maintenance/runs"},
        {"GET", "/v1/database/health"},
        {"POST", "/v1/debug/decode-bound"},
        {"POST", t + "/truncate"},
        {"POST", t + "/alter"},
        {"GET", t + "/scan"},
        {"GET", t + "/files"},
        {"GET", t + "/files/{fileId}/stats"},
        {"GET", t + "/changes"},
        {"GET", t + "/partitions"},
        {"GET", t + "/partitions/values"},
        {"GET", c + "/stats/partitions"},
        {"POST", c + "/commit"},
        {"POST", c + "/commit/prepared"},
        {"POST", c + "/commit/deletes/prepared"},
        {"POST", c + "/commit/mutations/prepared"},
        {"POST", c + "/commit/uploads"},
        {"POST", c + "/commit/transaction"},
        {"GET", c + "/commit/receipts/{operation}"},
        {"PUT", op},
        {"PUT", op + "/partitioned"},
        {"PUT", op + "/sorted"},
        {"PUT", op + "/metadata"},
        {"GET", op},
        {"POST", op + "/commit"},
        {"POST", op + "/commit/uploads"},
        {"POST", op + "/abort"},
        {"PUT", c + "/uploads/{upload}"},
        {"POST", c + "/uploads/renew"},
        {"POST", c + "/uploads/abandon"},
        {"POST", c + "/uploads/schedule-expired"},
        {"GET", c + "/consumers"},
        {"GET", c + "/consumers/{consumer}/offsets"},
        {"GET", c + "/consumers/{consumer}/offsets/{tableUuid}"},
        {"PUT", c + "/consumers/{consumer}/offsets/{tableUuid}"},
        {"GET", c + "/options"},
        {"PATCH", c + "/options"},
        {"POST", c + "/maintenance/expire"},
        {"POST", c + "/maintenance/cleanup"},
        {"POST", c + "/maintenance/compact"},
        {"POST", c + "/maintenance/rehydrate"},
        {"POST", c + "/maintenance/verify"},
        {"GET", c + "/maintenance/status"},
        {"GET", c + "/maintenance/runs"},
        {"GET", n + "/views"},
        {"POST", n + "/views"},
        {"GET", n + "/views/{view}"},
        {"DELETE", n + "/views/{view}"},
        {"GET", c + "/publications"},
        {"POST", c + "/publications"},
        {"GET", c + "/publications/{publication}"},
        {"DELETE", c + "/publications/{publication}"},
        {"GET", c + "/export"},
    };
  }();
  return kRoutes;
}

void RegisterRoutes(Router& router, const ServerContext& context) {
  RegisterRoot(router, context);
  RegisterCatalogs(router, context);
  RegisterNamespaces(router, context);
  RegisterSnapshots(router, context);
  RegisterTables(router, context);
  for (const auto& [method, pattern] : NotYetImplementedRoutes()) {
    router.Add(method, pattern, [method, pattern](HttpRequest&) -> Result<HttpResponse> {
      return NotImplemented(method, " ", pattern, " is specified but not yet implemented");
    });
  }
}

}  // namespace hoglake::server
