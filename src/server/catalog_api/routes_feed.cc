#include "server/catalog_api/routes_feed.h"

#include "common/clock.h"
#include "common/json_writer.h"
#include "common/uuid.h"
#include "server/catalog_api/file_wire.h"
#include "server/http/json_body.h"
#include "server/http/request_params.h"

namespace hoglake::server {
namespace {

using catalog::CatalogService;

constexpr const char* kC = "/v1/catalogs/{catalog}";
constexpr const char* kT = "/v1/catalogs/{catalog}/namespaces/{namespace}/tables/{table}";

void WriteOffset(const catalog::ConsumerOffset& o, JsonWriter& w, bool with_table) {
  w.BeginObject();
  if (!with_table) w.Field("consumer_id", std::string_view(o.consumer_id));
  w.Field("table_uuid", std::string_view(o.table_uuid));
  w.Field("committed_snapshot", o.committed_snapshot);
  w.Field("updated_at", std::string_view(FormatInstant(o.updated_at_micros)));
  if (with_table) {
    w.OptionalField("namespace", o.namespace_name);
    w.OptionalField("table_name", o.table_name);
    w.Field("table_dropped", o.table_dropped);
  }
  w.EndObject();
}

void WriteOptions(const catalog::CatalogOptions& o, JsonWriter& w) {
  w.BeginObject();
  w.OptionalField("snapshot_retention_seconds", o.snapshot_retention_seconds);
  w.Field("consumer_floor", o.consumer_floor);
  w.Field("earliest_snapshot_id", o.earliest_snapshot_id);
  w.EndObject();
}

Result<std::string> TableUuidParam(const HttpRequest& req) {
  HOGLAKE_ASSIGN_OR_RETURN(UuidBytes uuid, ParseUuid(req.Param("tableUuid")));
  return FormatUuid(uuid);
}

HttpResponse Json(JsonWriter& w) { return HttpResponse::Json(200, w.Take()); }

}  // namespace

void RegisterFeed(Router& router, const ServerContext& ctx) {
  CatalogService* service = ctx.catalogs;
  router.Add(
      "GET", std::string(kT) + "/changes", [service](HttpRequest& req) -> Result<HttpResponse> {
        HOGLAKE_ASSIGN_OR_RETURN(std::optional<int64_t> from, QueryInt64(req, "from_snapshot"));
        if (!from) return BadRequest("query parameter from_snapshot is required");
        HOGLAKE_ASSIGN_OR_RETURN(std::optional<int64_t> to, QueryInt64(req, "to_snapshot"));
        HOGLAKE_ASSIGN_OR_RETURN(
            auto plan,
            service->Changes({req.Param("catalog"), req.Param("namespace"), req.Param("table")},
                             *from, to));
        JsonWriter w;
        w.BeginObject();
        w.Field("table_uuid", std::string_view(plan.table_uuid));
        w.Field("from_snapshot", plan.from_snapshot);
        w.Field("to_snapshot", plan.to_snapshot);
        w.Key("files");
        w.BeginArray();
        for (const auto& f : plan.files) WriteDataFile(f, w);
        w.EndArray();
        w.Key("delete_files");
        w.BeginArray();
        w.EndArray();
        w.EndObject();
        return Json(w);
      });
  router.Add("GET", std::string(kC) + "/consumers",
             [service](HttpRequest& req) -> Result<HttpResponse> {
               HOGLAKE_ASSIGN_OR_RETURN(
                   auto offsets, service->ListConsumerOffsets(req.Param("catalog"), std::nullopt));
               JsonWriter w;
               w.BeginObject();
               w.Key("consumers");
               w.BeginArray();
               for (size_t i = 0; i < offsets.size(); ++i) {
                 if (i == 0 || offsets[i].consumer_id != offsets[i - 1].consumer_id) {
                   if (i != 0) {
                     w.EndArray();
                     w.EndObject();
                   }
                   w.BeginObject();
                   w.Field("consumer_id", std::string_view(offsets[i].consumer_id));
                   w.Key("offsets");
                   w.BeginArray();
                 }
                 WriteOffset(offsets[i], w, /*with_table=*/true);
               }
               if (!offsets.empty()) {
                 w.EndArray();
                 w.EndObject();
               }
               w.EndArray();
               w.EndObject();
               return Json(w);
             });
  router.Add("GET", std::string(kC) + "/consumers/{consumer}/offsets",
             [service](HttpRequest& req) -> Result<HttpResponse> {
               HOGLAKE_ASSIGN_OR_RETURN(
                   auto offsets,
                   service->ListConsumerOffsets(req.Param("catalog"), req.Param("consumer")));
               JsonWriter w;
               w.BeginArray();
               for (const auto& o : offsets) WriteOffset(o, w, false);
               w.EndArray();
               return Json(w);
             });
  router.Add("GET", std::string(kC) + "/consumers/{consumer}/offsets/{tableUuid}",
             [service](HttpRequest& req) -> Result<HttpResponse> {
               HOGLAKE_ASSIGN_OR_RETURN(std::string uuid, TableUuidParam(req));
               HOGLAKE_ASSIGN_OR_RETURN(
                   auto offset,
                   service->GetConsumerOffset(req.Param("catalog"), req.Param("consumer"), uuid));
               JsonWriter w;
               WriteOffset(offset, w, false);
               return Json(w);
             });
  router.Add("PUT", std::string(kC) + "/consumers/{consumer}/offsets/{tableUuid}",
             [service](HttpRequest& req) -> Result<HttpResponse> {
               HOGLAKE_ASSIGN_OR_RETURN(std::string uuid, TableUuidParam(req));
               HOGLAKE_ASSIGN_OR_RETURN(JsonObject body, JsonBody::Parse(req));
               HOGLAKE_ASSIGN_OR_RETURN(int64_t snapshot, body.RequiredInt64("snapshot_id"));
               HOGLAKE_RETURN_IF_ERROR(body.CheckNoUnknownFields());
               HOGLAKE_ASSIGN_OR_RETURN(
                   auto offset, service->PutConsumerOffset(req.Param("catalog"),
                                                           req.Param("consumer"), uuid, snapshot));
               JsonWriter w;
               WriteOffset(offset, w, false);
               return Json(w);
             });
  router.Add("GET", std::string(kC) + "/options",
             [service](HttpRequest& req) -> Result<HttpResponse> {
               HOGLAKE_ASSIGN_OR_RETURN(auto options, service->GetOptions(req.Param("catalog")));
               JsonWriter w;
               WriteOptions(options, w);
               return Json(w);
             });
  router.Add(
      "PATCH", std::string(kC) + "/options", [service](HttpRequest& req) -> Result<HttpResponse> {
        HOGLAKE_ASSIGN_OR_RETURN(JsonObject body, JsonBody::Parse(req));
        catalog::OptionsPatch patch;
        if (body.Has("snapshot_retention_seconds")) {
          patch.set_retention = true;
          HOGLAKE_ASSIGN_OR_RETURN(patch.retention_seconds,
                                   body.OptionalInt64("snapshot_retention_seconds"));
        }
        if (body.Has("consumer_floor")) {
          if (body.IsNull("consumer_floor"))
            return BadRequest("consumer_floor must be a boolean, not null");
          HOGLAKE_ASSIGN_OR_RETURN(patch.consumer_floor, body.OptionalBool("consumer_floor"));
        }
        HOGLAKE_RETURN_IF_ERROR(body.CheckNoUnknownFields());
        HOGLAKE_ASSIGN_OR_RETURN(auto options, service->PatchOptions(req.Param("catalog"), patch));
        JsonWriter w;
        WriteOptions(options, w);
        return Json(w);
      });
}

}  // namespace hoglake::server
