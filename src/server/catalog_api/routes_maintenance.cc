#include "server/catalog_api/routes_maintenance.h"

#include "common/clock.h"
#include "common/json_writer.h"
#include "server/http/request_params.h"

namespace hoglake::server {
namespace {

void WriteRun(const catalog::MaintenanceRun& run, JsonWriter& w) {
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

void WriteRunPage(const catalog::RunPage& page, JsonWriter& w) {
  w.BeginObject();
  w.Key("runs");
  w.BeginArray();
  for (const auto& run : page.runs) WriteRun(run, w);
  w.EndArray();
  w.Field("has_more", page.has_more);
  w.EndObject();
}

// MaintenanceStatus (contract §2.14): NON_NULL, except last_run which is
// always a key (null before the task's first run).
void WriteStatus(const catalog::MaintenanceStatusReport& report, JsonWriter& w) {
  w.BeginObject();
  w.Field("catalog", std::string_view(report.catalog));
  w.Key("tasks");
  w.BeginArray();
  for (const auto& task : report.tasks) {
    w.BeginObject();
    w.Field("task", std::string_view(task.task));
    w.OptionalField("loop_interval_ms", task.loop_interval_ms);
    w.Key("last_run");
    if (task.last_run) {
      WriteRun(*task.last_run, w);
    } else {
      w.Null();
    }
    const catalog::MaintenanceBacklog& b = task.backlog;
    w.Key("backlog");
    w.BeginObject();
    w.OptionalField("pending_files", b.pending_files);
    w.OptionalField("failed_files", b.failed_files);
    w.OptionalField("snapshot_retention_seconds", b.snapshot_retention_seconds);
    if (b.consumer_floor) w.Field("consumer_floor", *b.consumer_floor);
    w.OptionalField("earliest_snapshot_id", b.earliest_snapshot_id);
    w.OptionalField("head_snapshot_id", b.head_snapshot_id);
    w.OptionalField("queued_removals", b.queued_removals);
    if (b.oldest_queued_age_seconds) {
      w.Key("oldest_queued_age_seconds");
      w.Raw(*b.oldest_queued_age_seconds);
    }
    w.OptionalField("small_files", b.small_files);
    w.OptionalField("target_bytes", b.target_bytes);
    w.EndObject();
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
}

catalog::MaintenanceObserver& QuietObserver() {
  static catalog::MaintenanceObserver quiet;
  return quiet;
}

// Whether a manual trigger reached its run: a refusal of the request itself
// (unknown catalog, bad parameter) is not a run and is not reported.
template <typename T>
bool Ran(const Result<T>& result) {
  if (result.ok()) return true;
  const ErrorCode code = result.error().code;
  return code != ErrorCode::kNotFound && code != ErrorCode::kBadRequest &&
         code != ErrorCode::kValidation && code != ErrorCode::kInvalidArgument;
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
  // Manual runs are reported like loop runs (metrics, audit) when they ran.
  catalog::MaintenanceObserver* observer =
      ctx.maintenance_observer ? ctx.maintenance_observer : &QuietObserver();
  router.Add("POST", "/v1/catalogs/{catalog}/maintenance/expire",
             [service, observer](HttpRequest& req) -> Result<HttpResponse> {
               HOGLAKE_ASSIGN_OR_RETURN(std::optional<int64_t> batch, QueryInt64(req, "batch"));
               auto ran = service->Expire(req.Param("catalog"),
                                          batch.value_or(catalog::kDefaultExpiryBatch), true);
               if (Ran(ran)) observer->OnExpiry(req.Param("catalog"), true, ran);
               HOGLAKE_ASSIGN_OR_RETURN(auto result, std::move(ran));
               return HttpResponse::Json(200, result.ToJson());
             });
  router.Add("POST", "/v1/catalogs/{catalog}/maintenance/cleanup",
             [service, observer](HttpRequest& req) -> Result<HttpResponse> {
               HOGLAKE_ASSIGN_OR_RETURN(std::optional<int64_t> batch, QueryInt64(req, "batch"));
               auto ran = service->Cleanup(req.Param("catalog"),
                                           batch.value_or(catalog::kDefaultCleanupBatch), true);
               if (Ran(ran)) observer->OnCleanup(req.Param("catalog"), true, ran);
               HOGLAKE_ASSIGN_OR_RETURN(auto result, std::move(ran));
               return HttpResponse::Json(200, result.ToJson());
             });
  catalog::Hydrator* hydrator = ctx.hydrator;
  router.Add("POST", "/v1/catalogs/{catalog}/maintenance/hydrate",
             [hydrator, observer](HttpRequest& req) -> Result<HttpResponse> {
               HOGLAKE_ASSIGN_OR_RETURN(std::optional<int64_t> batch, QueryInt64(req, "batch"));
               if (!hydrator) return Unavailable("stats hydration is not configured");
               auto ran = hydrator->HydratePending(req.Param("catalog"),
                                                   batch.value_or(hydrator->options().batch), true);
               if (Ran(ran)) observer->OnHydration(req.Param("catalog"), true, ran);
               HOGLAKE_ASSIGN_OR_RETURN(auto result, std::move(ran));
               return HttpResponse::Json(200, result.ToJson());
             });
  router.Add("POST", "/v1/catalogs/{catalog}/maintenance/rehydrate",
             [hydrator, observer](HttpRequest& req) -> Result<HttpResponse> {
               std::optional<std::string> ns, table;
               if (auto v = req.Query("namespace")) ns = std::string(*v);
               if (auto v = req.Query("table")) table = std::string(*v);
               if (!hydrator) return Unavailable("stats hydration is not configured");
               Result<int64_t> ran = hydrator->Rehydrate(req.Param("catalog"), ns, table);
               if (Ran(ran)) observer->OnRehydrate(req.Param("catalog"), ran);
               HOGLAKE_ASSIGN_OR_RETURN(int64_t requeued, std::move(ran));
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
  router.Add("GET", "/v1/catalogs/{catalog}/maintenance/status",
             [service, options = ctx.maintenance_status](HttpRequest& req) -> Result<HttpResponse> {
               HOGLAKE_ASSIGN_OR_RETURN(auto report,
                                        service->MaintenanceStatus(req.Param("catalog"), options));
               JsonWriter w;
               WriteStatus(report, w);
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
