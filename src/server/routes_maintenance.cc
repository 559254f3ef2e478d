#include "server/routes_maintenance.h"

#include "common/clock.h"
#include "common/json_writer.h"
#include "server/request_params.h"

namespace hoglake::server {
namespace {

void WriteRunPage(const catalog::RunPage& page, JsonWriter& w) {
  w.BeginObject();
  w.Key("runs");
  w.BeginArray();
  for (const auto& run : page.runs) {
    w.BeginObject();
    w.Field("run_id", run.run_id);
    w.Field("catalog", std::string_view(run.catalog));
    w.Field("task", std::string_view(run.task));
    w.Field("trigger", std::string_view(run.trigger));
    w.Field("started_at", std::string_view(FormatInstant(run.started_at_micros)));
    w.Field("finished_at", std::string_view(FormatInstant(run.finished_at_micros)));
    w.Field("status", std::string_view(run.status));
    w.OptionalField("error", run.error);
    w.Key("result");
    if (run.result_json) {
      w.Raw(*run.result_json);
    } else {
      w.Null();
    }
    w.EndObject();
  }
  w.EndArray();
  w.Field("has_more", page.has_more);
  w.EndObject();
}

Result<catalog::RunListing> ParseRunListing(const HttpRequest& req) {
  catalog::RunListing listing;
  if (auto task = req.Query("task")) listing.task = std::string(*task);
  HOGLAKE_ASSIGN_OR_RETURN(listing.before, QueryInt64(req, "before"));
  HOGLAKE_ASSIGN_OR_RETURN(listing.limit, QueryInt64(req, "limit"));
  return listing;
}

}  // namespace

void RegisterMaintenance(Router& router, const ServerContext& ctx) {
  catalog::CatalogService* service = ctx.catalogs;
  router.Add("POST", "/v1/catalogs/{catalog}/maintenance/expire",
             [service](HttpRequest& req) -> Result<HttpResponse> {
               HOGLAKE_ASSIGN_OR_RETURN(std::optional<int64_t> batch, QueryInt64(req, "batch"));
               HOGLAKE_ASSIGN_OR_RETURN(
                   auto result,
                   service->Expire(req.Param("catalog"),
                                   batch.value_or(catalog::kDefaultExpiryBatch), true));
               return HttpResponse::Json(200, result.ToJson());
             });
  router.Add("POST", "/v1/catalogs/{catalog}/maintenance/cleanup",
             [service](HttpRequest& req) -> Result<HttpResponse> {
               HOGLAKE_ASSIGN_OR_RETURN(std::optional<int64_t> batch, QueryInt64(req, "batch"));
               HOGLAKE_ASSIGN_OR_RETURN(
                   auto result,
                   service->Cleanup(req.Param("catalog"),
                                    batch.value_or(catalog::kDefaultCleanupBatch), true));
               return HttpResponse::Json(200, result.ToJson());
             });
  catalog::Hydrator* hydrator = ctx.hydrator;
  router.Add("POST", "/v1/catalogs/{catalog}/maintenance/hydrate",
             [hydrator](HttpRequest& req) -> Result<HttpResponse> {
               HOGLAKE_ASSIGN_OR_RETURN(std::optional<int64_t> batch, QueryInt64(req, "batch"));
               if (!hydrator) return Unavailable("stats hydration is not configured");
               HOGLAKE_ASSIGN_OR_RETURN(
                   auto result,
                   hydrator->HydratePending(req.Param("catalog"),
                                            batch.value_or(hydrator->options().batch), true));
               return HttpResponse::Json(200, result.ToJson());
             });
  router.Add("POST", "/v1/catalogs/{catalog}/maintenance/rehydrate",
             [hydrator](HttpRequest& req) -> Result<HttpResponse> {
               std::optional<std::string> ns, table;
               if (auto v = req.Query("namespace")) ns = std::string(*v);
               if (auto v = req.Query("table")) table = std::string(*v);
               if (!hydrator) return Unavailable("stats hydration is not configured");
               HOGLAKE_ASSIGN_OR_RETURN(int64_t requeued,
                                        hydrator->Rehydrate(req.Param("catalog"), ns, table));
               JsonWriter w;
               w.BeginObject();
               w.Field("requeued", requeued);
               w.EndObject();
               return HttpResponse::Json(200, w.Take());
             });
  router.Add("GET", "/v1/catalogs/{catalog}/maintenance/runs",
             [service](HttpRequest& req) -> Result<HttpResponse> {
               HOGLAKE_ASSIGN_OR_RETURN(catalog::RunListing listing, ParseRunListing(req));
               HOGLAKE_ASSIGN_OR_RETURN(auto page,
                                        service->ListRuns(req.Param("catalog"), listing));
               JsonWriter w;
               WriteRunPage(page, w);
               return HttpResponse::Json(200, w.Take());
             });
  router.Add("GET", "/v1/maintenance/runs", [service](HttpRequest& req) -> Result<HttpResponse> {
    HOGLAKE_ASSIGN_OR_RETURN(catalog::RunListing listing, ParseRunListing(req));
    HOGLAKE_ASSIGN_OR_RETURN(auto page, service->ListRuns("", listing));
    JsonWriter w;
    WriteRunPage(page, w);
    return HttpResponse::Json(200, w.Take());
  });
}

}  // namespace hoglake::server
