#include "server/catalog_api/routes_views.h"

#include "common/encoding.h"
#include "common/json_writer.h"
#include "iceberg/bounds.h"
#include "server/http/json_body.h"
#include "server/wire.h"

namespace hoglake::server {
namespace {

constexpr const char* kN = "/v1/catalogs/{catalog}/namespaces/{namespace}";

void WriteView(const catalog::ViewInfo& v, JsonWriter& w) {
  w.BeginObject();
  w.Field("name", std::string_view(v.name));
  w.Field("namespace", std::string_view(v.namespace_name));
  w.Field("view_uuid", std::string_view(v.view_uuid));
  w.Field("dialect", std::string_view(v.dialect));
  w.Field("sql", std::string_view(v.sql));
  w.EndObject();
}

}  // namespace

void RegisterViews(Router& router, const ServerContext& ctx) {
  catalog::CatalogService* service = ctx.catalogs;
  router.Add("GET", std::string(kN) + "/views",
             [service](HttpRequest& req) -> Result<HttpResponse> {
               HOGLAKE_ASSIGN_OR_RETURN(
                   auto views, service->ListViews(req.Param("catalog"), req.Param("namespace")));
               JsonWriter w;
               w.BeginArray();
               for (const auto& v : views) WriteView(v, w);
               w.EndArray();
               return HttpResponse::Json(200, w.Take());
             });
  router.Add(
      "POST", std::string(kN) + "/views", [service](HttpRequest& req) -> Result<HttpResponse> {
        HOGLAKE_ASSIGN_OR_RETURN(JsonObject body, JsonBody::Parse(req));
        HOGLAKE_ASSIGN_OR_RETURN(std::string name, body.RequiredString("name"));
        HOGLAKE_ASSIGN_OR_RETURN(std::string sql, body.RequiredString("sql"));
        HOGLAKE_ASSIGN_OR_RETURN(std::optional<std::string> dialect,
                                 body.OptionalString("dialect"));
        HOGLAKE_RETURN_IF_ERROR(body.CheckNoUnknownFields());
        HOGLAKE_ASSIGN_OR_RETURN(
            auto view,
            service->CreateView(req.Param("catalog"), req.Param("namespace"), name, sql, dialect));
        JsonWriter w;
        WriteView(view, w);
        return HttpResponse::Json(201, w.Take());
      });
  router.Add("GET", std::string(kN) + "/views/{view}",
             [service](HttpRequest& req) -> Result<HttpResponse> {
               HOGLAKE_ASSIGN_OR_RETURN(
                   auto view, service->GetView(req.Param("catalog"), req.Param("namespace"),
                                               req.Param("view")));
               JsonWriter w;
               WriteView(view, w);
               return HttpResponse::Json(200, w.Take());
             });
  router.Add("DELETE", std::string(kN) + "/views/{view}",
             [service](HttpRequest& req) -> Result<HttpResponse> {
               HOGLAKE_ASSIGN_OR_RETURN(
                   auto result, service->DropView(req.Param("catalog"), req.Param("namespace"),
                                                  req.Param("view")));
               JsonWriter w;
               WriteCommitResult(result, w);
               return HttpResponse::Json(200, w.Take());
             });
}

void RegisterDecodeBound(Router& router) {
  router.Add("POST", "/v1/debug/decode-bound", [](HttpRequest& req) -> Result<HttpResponse> {
    HOGLAKE_ASSIGN_OR_RETURN(JsonObject body, JsonBody::Parse(req));
    HOGLAKE_ASSIGN_OR_RETURN(std::string type_name, body.RequiredString("type"));
    HOGLAKE_ASSIGN_OR_RETURN(std::string value, body.RequiredString("value"));
    HOGLAKE_ASSIGN_OR_RETURN(std::optional<JsonObject> params, body.OptionalObject("type_params"));
    std::optional<int64_t> precision;
    std::optional<int64_t> scale;
    if (params) {
      HOGLAKE_ASSIGN_OR_RETURN(precision, params->OptionalInt64("precision"));
      HOGLAKE_ASSIGN_OR_RETURN(scale, params->OptionalInt64("scale"));
      HOGLAKE_RETURN_IF_ERROR(params->CheckNoUnknownFields());
    }
    HOGLAKE_RETURN_IF_ERROR(body.CheckNoUnknownFields());
    HOGLAKE_ASSIGN_OR_RETURN(iceberg::ColumnType type, iceberg::ParseColumnType(type_name));
    if (!iceberg::HasBounds(type)) {
      return Validation("type ", iceberg::ColumnTypeName(type), " has no bounds");
    }
    Result<std::string> bytes = Base64Decode(value);
    if (!bytes.ok()) return Validation("value is not valid base64: ", bytes.error().message);
    iceberg::TypeSpec spec(type);
    if (type == iceberg::ColumnType::kDecimal) {
      // The column vocabulary's decimal: precision 1..38, scale 0..precision.
      const int64_t p = precision.value_or(38);
      const int64_t sc = scale.value_or(0);
      if (p < 1 || p > 38) {
        return Validation("type_params.precision must be between 1 and 38, got ", p);
      }
      if (sc < 0 || sc > p) {
        return Validation("type_params.scale must be between 0 and the precision (", p, "), got ",
                          sc);
      }
      spec = iceberg::TypeSpec::Decimal(static_cast<int32_t>(p), static_cast<int32_t>(sc));
    } else if (precision || scale) {
      return Validation("type_params.precision and scale apply only to decimal, not ", type_name);
    }
    Result<iceberg::BoundValue> decoded = iceberg::DecodeBound(spec, *bytes);
    if (!decoded.ok())
      return Validation("value cannot be decoded as ", type_name, ": ", decoded.error().message);
    JsonWriter w;
    w.BeginObject();
    w.Field("type", iceberg::ColumnTypeName(type));
    w.Key("value");
    w.Raw(iceberg::BoundJson(spec, *bytes));
    w.EndObject();
    return HttpResponse::Json(200, w.Take());
  });
}

}  // namespace hoglake::server
