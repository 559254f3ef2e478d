#include "server/catalog_api/routes_uploads.h"

#include "common/clock.h"
#include "common/json_writer.h"
#include "server/http/json_body.h"
#include "server/http/request_params.h"

namespace hoglake::server {
namespace {

constexpr const char* kU = "/v1/catalogs/{catalog}/uploads";

// UploadClaim: file_format omitted when absent.
void WriteClaim(const catalog::UploadClaim& c, JsonWriter& w) {
  w.BeginObject();
  w.Field("upload_id", std::string_view(c.upload_id));
  w.Field("owner", std::string_view(c.owner));
  w.Field("prefix", std::string_view(c.prefix));
  w.Field("path", std::string_view(c.path));
  w.Field("file_kind", std::string_view(c.file_kind));
  w.OptionalField("file_format", c.file_format);
  w.Field("state", std::string_view(c.state));
  w.Field("expires_at", std::string_view(FormatInstant(c.expires_at_micros)));
  w.EndObject();
}

HttpResponse CountResponse(std::string_view key, int64_t count) {
  JsonWriter w;
  w.BeginObject();
  w.Field(key, count);
  w.EndObject();
  return HttpResponse::Json(200, w.Take());
}

}  // namespace

void RegisterUploads(Router& router, const ServerContext& ctx) {
  catalog::CatalogService* service = ctx.catalogs;
  router.Add(
      "PUT", std::string(kU) + "/{upload}", [service](HttpRequest& req) -> Result<HttpResponse> {
        HOGLAKE_ASSIGN_OR_RETURN(JsonObject body, JsonBody::Parse(req));
        catalog::UploadClaimRequest request;
        HOGLAKE_ASSIGN_OR_RETURN(request.owner, body.RequiredString("owner"));
        HOGLAKE_ASSIGN_OR_RETURN(request.prefix, body.RequiredString("prefix"));
        HOGLAKE_ASSIGN_OR_RETURN(request.file_kind, body.RequiredString("file_kind"));
        HOGLAKE_ASSIGN_OR_RETURN(request.file_format, body.OptionalString("file_format"));
        HOGLAKE_RETURN_IF_ERROR(body.CheckNoUnknownFields());
        HOGLAKE_ASSIGN_OR_RETURN(
            auto claim, service->ClaimUpload(req.Param("catalog"), req.Param("upload"), request));
        JsonWriter w;
        WriteClaim(claim, w);
        return HttpResponse::Json(200, w.Take());
      });
  router.Add("POST", std::string(kU) + "/renew",
             [service](HttpRequest& req) -> Result<HttpResponse> {
               HOGLAKE_ASSIGN_OR_RETURN(JsonObject body, JsonBody::Parse(req));
               HOGLAKE_ASSIGN_OR_RETURN(std::string owner, body.RequiredString("owner"));
               HOGLAKE_RETURN_IF_ERROR(body.CheckNoUnknownFields());
               HOGLAKE_ASSIGN_OR_RETURN(int64_t renewed,
                                        service->RenewUploads(req.Param("catalog"), owner));
               return CountResponse("renewed", renewed);
             });
  router.Add("POST", std::string(kU) + "/abandon",
             [service](HttpRequest& req) -> Result<HttpResponse> {
               HOGLAKE_ASSIGN_OR_RETURN(JsonObject body, JsonBody::Parse(req));
               HOGLAKE_ASSIGN_OR_RETURN(std::string owner, body.RequiredString("owner"));
               HOGLAKE_ASSIGN_OR_RETURN(JsonArray list, body.RequiredArray("paths"));
               HOGLAKE_RETURN_IF_ERROR(body.CheckNoUnknownFields());
               std::vector<std::string> paths;
               for (size_t i = 0; i < list.size(); ++i) {
                 HOGLAKE_ASSIGN_OR_RETURN(std::string path, list.String(i));
                 paths.push_back(std::move(path));
               }
               HOGLAKE_ASSIGN_OR_RETURN(
                   int64_t abandoned, service->AbandonUploads(req.Param("catalog"), owner, paths));
               return CountResponse("abandoned", abandoned);
             });
  router.Add("POST", std::string(kU) + "/schedule-expired",
             [service](HttpRequest& req) -> Result<HttpResponse> {
               HOGLAKE_ASSIGN_OR_RETURN(std::optional<int64_t> limit, QueryInt64(req, "limit"));
               HOGLAKE_ASSIGN_OR_RETURN(int64_t scheduled,
                                        service->ScheduleExpiredUploads(
                                            req.Param("catalog"),
                                            limit.value_or(catalog::kScheduleExpiredDefaultLimit)));
               return CountResponse("scheduled", scheduled);
             });
}

}  // namespace hoglake::server
