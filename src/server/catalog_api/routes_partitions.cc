#include "server/catalog_api/routes_partitions.h"

#include "common/json_writer.h"
#include "server/http/request_params.h"

namespace hoglake::server {
namespace {

constexpr const char* kT = "/v1/catalogs/{catalog}/namespaces/{namespace}/tables/{table}";

void WritePartitionValues(const catalog::PartitionValues& pv, JsonWriter& w) {
  w.BeginObject();
  w.OptionalField("spec_id", pv.spec_id);
  w.Key("fields");
  w.BeginArray();
  for (const catalog::PartitionFieldValues& f : pv.fields) {
    w.BeginObject();
    w.Field("source_field_id", static_cast<int64_t>(f.source_field_id));
    w.Field("transform", std::string_view(f.transform));
    if (f.transform_param) w.Field("transform_param", static_cast<int64_t>(*f.transform_param));
    w.Key("values");
    w.BeginArray();
    for (const std::optional<std::string>& v : f.values) {
      if (v) {
        w.String(*v);
      } else {
        w.Null();
      }
    }
    w.EndArray();
    w.Field("truncated", f.truncated);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
}

}  // namespace

void RegisterPartitions(Router& router, const ServerContext& ctx) {
  catalog::CatalogService* service = ctx.catalogs;
  router.Add("GET", std::string(kT) + "/partitions/values",
             [service](HttpRequest& req) -> Result<HttpResponse> {
               HOGLAKE_ASSIGN_OR_RETURN(catalog::SnapshotSelector at, QuerySnapshotSelector(req));
               HOGLAKE_ASSIGN_OR_RETURN(
                   catalog::PartitionValues values,
                   service->ListPartitionValues(
                       {req.Param("catalog"), req.Param("namespace"), req.Param("table")}, at));
               JsonWriter w;
               WritePartitionValues(values, w);
               return HttpResponse::Json(200, w.Take());
             });
}

}  // namespace hoglake::server
