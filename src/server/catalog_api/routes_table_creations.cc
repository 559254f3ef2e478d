#include "server/catalog_api/routes_table_creations.h"

#include <algorithm>

#include "common/clock.h"
#include "common/json_writer.h"
#include "common/uuid.h"
#include "server/catalog_api/alter_wire.h"
#include "server/catalog_api/commit_wire.h"
#include "server/http/json_body.h"
#include "server/catalog_api/table_wire.h"

namespace hoglake::server {
namespace {

using catalog::TableCreationDefinition;
using catalog::TableCreationEndpoint;
using catalog::TableCreationPublish;

constexpr const char* kOp = "/v1/catalogs/{catalog}/table-creations/{operation}";

std::string P(const char* rest) { return std::string(kOp) + rest; }

Result<std::string> OperationId(const HttpRequest& req) {
  Result<UuidBytes> uuid = ParseUuid(req.Param("operation"));
  if (!uuid.ok()) return BadRequest("invalid operation UUID '", req.Param("operation"), "'");
  return FormatUuid(*uuid);
}

Result<catalog::TableReplacement> ParseReplacement(JsonObject o) {
  catalog::TableReplacement out;
  HOGLAKE_ASSIGN_OR_RETURN(std::optional<std::string> expected,
                           o.OptionalString("expected_table_uuid"));
  if (expected) {
    Result<UuidBytes> uuid = ParseUuid(*expected);
    if (!uuid.ok()) {
      return BadRequest("replacement.expected_table_uuid: ", uuid.error().message);
    }
    out.expected_table_uuid = FormatUuid(*uuid);
  }
  HOGLAKE_ASSIGN_OR_RETURN(out.read_snapshot, o.RequiredInt64("read_snapshot"));
  HOGLAKE_RETURN_IF_ERROR(o.CheckNoUnknownFields());
  return out;
}

// The prepare body: {namespace, name, columns, replacement?, partition_fields?,
// sort_fields?, comment?, properties?}. Shape errors are 400.
Result<TableCreationDefinition> ParseDefinition(const HttpRequest& req) {
  HOGLAKE_ASSIGN_OR_RETURN(JsonObject body, JsonBody::Parse(req));
  TableCreationDefinition d;
  HOGLAKE_ASSIGN_OR_RETURN(d.namespace_name, body.RequiredString("namespace"));
  HOGLAKE_ASSIGN_OR_RETURN(d.name, body.RequiredString("name"));
  HOGLAKE_ASSIGN_OR_RETURN(JsonArray columns, body.RequiredArray("columns"));
  HOGLAKE_ASSIGN_OR_RETURN(std::optional<JsonObject> replacement,
                           body.OptionalObject("replacement"));
  HOGLAKE_ASSIGN_OR_RETURN(std::optional<JsonArray> partition,
                           body.OptionalArray("partition_fields"));
  HOGLAKE_ASSIGN_OR_RETURN(std::optional<JsonArray> sort, body.OptionalArray("sort_fields"));
  HOGLAKE_ASSIGN_OR_RETURN(d.comment, body.OptionalString("comment"));
  HOGLAKE_ASSIGN_OR_RETURN(std::optional<JsonObject> properties, body.OptionalObject("properties"));
  HOGLAKE_RETURN_IF_ERROR(body.CheckNoUnknownFields());
  if (replacement) {
    HOGLAKE_ASSIGN_OR_RETURN(d.replacement, ParseReplacement(std::move(*replacement)));
  }
  if (partition) {
    HOGLAKE_ASSIGN_OR_RETURN(d.partition_fields, ParsePartitionFields(*partition));
  }
  if (sort) {
    HOGLAKE_ASSIGN_OR_RETURN(d.sort_fields, ParseSortFields(*sort));
  }
  if (properties) {
    HOGLAKE_ASSIGN_OR_RETURN(d.properties, properties->StringMap());
    std::sort(d.properties.begin(), d.properties.end());
  }
  if (columns.size() > static_cast<size_t>(catalog::kMaxColumnNodes)) {
    return Validation("columns has ", columns.size(), " entries, more than ",
                      catalog::kMaxColumnNodes);
  }
  HOGLAKE_ASSIGN_OR_RETURN(d.columns, ParseColumnDefs(std::move(columns)));
  return d;
}

void WriteTableCreation(const catalog::TableCreation& op, JsonWriter& w) {
  w.BeginObject();
  w.Field("operation_id", std::string_view(op.operation_id));
  w.Field("table_uuid", std::string_view(op.table_uuid));
  w.Field("namespace", std::string_view(op.namespace_name));
  w.Field("name", std::string_view(op.name));
  w.Key("columns");
  w.BeginArray();
  for (const catalog::ColumnNode& column : op.columns) WriteColumn(column, w);
  w.EndArray();
  w.Field("write_path", std::string_view(op.write_path));
  w.Field("state", std::string_view(op.state));
  w.Field("expires_at", std::string_view(FormatInstant(op.expires_at_micros)));
  w.OptionalField("snapshot_id", op.snapshot_id);
  w.OptionalField("schema_version", op.schema_version);
  w.OptionalField("reason", op.reason);
  w.EndObject();
}

HttpResponse Answer(const catalog::TableCreation& op) {
  JsonWriter w;
  WriteTableCreation(op, w);
  return HttpResponse::Json(200, w.Take());
}

}  // namespace

void RegisterTableCreations(Router& router, const ServerContext& ctx) {
  catalog::CatalogService* service = ctx.catalogs;
  for (auto [suffix, endpoint] : {std::pair{"", TableCreationEndpoint::kPlain},
                                  std::pair{"/partitioned", TableCreationEndpoint::kPartitioned},
                                  std::pair{"/sorted", TableCreationEndpoint::kSorted},
                                  std::pair{"/metadata", TableCreationEndpoint::kMetadata}}) {
    router.Add("PUT", P(suffix), [service, endpoint = endpoint](HttpRequest& req) -> Result<HttpResponse> {
      HOGLAKE_ASSIGN_OR_RETURN(std::string op, OperationId(req));
      HOGLAKE_ASSIGN_OR_RETURN(TableCreationDefinition definition, ParseDefinition(req));
      HOGLAKE_ASSIGN_OR_RETURN(auto created, service->PrepareTableCreation(req.Param("catalog"), op,
                                                                           endpoint, definition));
      return Answer(created);
    });
  }
  router.Add("GET", kOp, [service](HttpRequest& req) -> Result<HttpResponse> {
    HOGLAKE_ASSIGN_OR_RETURN(std::string op, OperationId(req));
    HOGLAKE_ASSIGN_OR_RETURN(auto status, service->GetTableCreation(req.Param("catalog"), op));
    return Answer(status);
  });
  for (auto [suffix, endpoint] : {std::pair{"/commit", TableCreationPublish::kPlain},
                                  std::pair{"/commit/uploads", TableCreationPublish::kUploads}}) {
    router.Add("POST", P(suffix), [service, endpoint = endpoint](HttpRequest& req) -> Result<HttpResponse> {
      HOGLAKE_ASSIGN_OR_RETURN(std::string op, OperationId(req));
      HOGLAKE_ASSIGN_OR_RETURN(JsonObject body, JsonBody::Parse(req));
      HOGLAKE_ASSIGN_OR_RETURN(JsonArray list, body.RequiredArray("files"));
      HOGLAKE_RETURN_IF_ERROR(body.CheckNoUnknownFields());
      HOGLAKE_ASSIGN_OR_RETURN(std::vector<catalog::FileRegistration> files,
                               ParseFileRegistrations(list));
      HOGLAKE_ASSIGN_OR_RETURN(
          auto published,
          service->PublishTableCreation(req.Param("catalog"), op, std::move(files), endpoint));
      return Answer(published);
    });
  }
  router.Add("POST", P("/abort"), [service](HttpRequest& req) -> Result<HttpResponse> {
    HOGLAKE_ASSIGN_OR_RETURN(std::string op, OperationId(req));
    HOGLAKE_ASSIGN_OR_RETURN(auto aborted, service->AbortTableCreation(req.Param("catalog"), op));
    return Answer(aborted);
  });
}

}  // namespace hoglake::server
