#include "server/catalog_api/routes_alter.h"

#include "common/json_writer.h"
#include "common/uuid.h"
#include "server/catalog_api/alter_wire.h"
#include "server/catalog_api/table_wire.h"
#include "server/wire.h"

namespace hoglake::server {
namespace {

constexpr const char* kT = "/v1/catalogs/{catalog}/namespaces/{namespace}/tables/{table}";

catalog::TableRef RefOf(const HttpRequest& req) {
  return catalog::TableRef{req.Param("catalog"), req.Param("namespace"), req.Param("table")};
}

}  // namespace

void RegisterAlter(Router& router, const ServerContext& ctx) {
  router.Add("POST", std::string(kT) + "/alter", [ctx](HttpRequest& req) -> Result<HttpResponse> {
    HOGLAKE_ASSIGN_OR_RETURN(catalog::AlterTableRequest request, ParseAlterRequest(req));
    HOGLAKE_ASSIGN_OR_RETURN(auto table, ctx.catalogs->AlterTable(RefOf(req), std::move(request)));
    ctx.metrics->RecordCommit("table_altered");
    JsonWriter w;
    WriteTable(table, w);
    return HttpResponse::Json(200, w.Take());
  });
  router.Add("POST", std::string(kT) + "/truncate",
             [ctx](HttpRequest& req) -> Result<HttpResponse> {
               auto text = req.Query("expected_table_uuid");
               if (!text) return BadRequest("query parameter expected_table_uuid is required");
               Result<UuidBytes> uuid = ParseUuid(*text);
               if (!uuid.ok()) {
                 return BadRequest("query parameter expected_table_uuid: ", uuid.error().message);
               }
               HOGLAKE_ASSIGN_OR_RETURN(auto result,
                                        ctx.catalogs->TruncateTable(RefOf(req), FormatUuid(*uuid)));
               ctx.metrics->RecordCommit("table_truncated");
               JsonWriter w;
               WriteCommitResult(result, w);
               return HttpResponse::Json(200, w.Take());
             });
}

}  // namespace hoglake::server
