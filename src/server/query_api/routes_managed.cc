#include "server/query_api/routes_managed.h"

#include <algorithm>

#include "common/json_writer.h"
#include "query/load/table_loader.h"
#include "query/managed_databases.h"
#include "server/http/json_body.h"
#include "server/http/request_params.h"
#include "server/query_api/routes_federated.h"
#include "server/query_api/routes_query.h"

namespace hoglake::server {
namespace {

constexpr ErrorBodyStyle kHotdata = ErrorBodyStyle::kHotdata;

Status NoManaged() {
  return MakeError(ErrorCode::kUnavailable, "managed databases are not available on this server");
}

// [{name, tables?: [{name}]}] → declared schemas.
Result<std::vector<query::DeclaredSchema>> ParseSchemas(std::optional<JsonArray> list) {
  std::vector<query::DeclaredSchema> out;
  if (!list) return out;
  for (size_t i = 0; i < list->size(); ++i) {
    HOGLAKE_ASSIGN_OR_RETURN(JsonObject schema, list->Object(i));
    query::DeclaredSchema declared;
    HOGLAKE_ASSIGN_OR_RETURN(declared.name, schema.RequiredString("name"));
    HOGLAKE_ASSIGN_OR_RETURN(std::optional<JsonArray> tables, schema.OptionalArray("tables"));
    for (size_t t = 0; tables && t < tables->size(); ++t) {
      HOGLAKE_ASSIGN_OR_RETURN(JsonObject table, tables->Object(t));
      HOGLAKE_ASSIGN_OR_RETURN(std::string name, table.RequiredString("name"));
      declared.tables.push_back(std::move(name));
    }
    out.push_back(std::move(declared));
  }
  return out;
}

// CreateDatabaseResponse's fields (DatabaseSummary).
void WriteDatabaseFields(JsonWriter& w, const query::ManagedDatabase& db) {
  w.Field("id", db.id);
  w.Field("name", db.name);
  w.Field("default_catalog", "default");
  w.Field("default_connection_id", db.id);
  w.Field("default_schema", db.default_schema);
}

// DatabaseDetailResponse.
HttpResponse DatabaseDetail(int status, const query::ManagedDatabase& db) {
  JsonWriter w;
  w.BeginObject();
  WriteDatabaseFields(w, db);
  w.Key("attachments");
  w.BeginArray();
  w.EndArray();
  w.Field("created_at", db.created_at);
  w.EndObject();
  return HttpResponse::Json(status, w.Take());
}

HttpResponse NoContent() { return HttpResponse{204, "", {}, {}, {}, {}, {}}; }

void RegisterConnectionWrites(Router& router, query::ManagedDatabases* managed,
                              query::FederatedConnections* federated) {
  router.Add(
      "POST", "/v1/connections",
      [managed, federated](HttpRequest& req) -> Result<HttpResponse> {
        HOGLAKE_ASSIGN_OR_RETURN(JsonObject body, JsonBody::Parse(req));
        HOGLAKE_ASSIGN_OR_RETURN(std::string name, body.RequiredString("name"));
        HOGLAKE_ASSIGN_OR_RETURN(std::string source_type, body.RequiredString("source_type"));
        if (source_type == "hoglake") {
          return MakeError(ErrorCode::kBadRequest,
                           "hoglake catalogs are created through the catalog API "
                           "(POST /v1/catalogs), not as connections");
        }
        HOGLAKE_ASSIGN_OR_RETURN(std::optional<JsonObject> config, body.OptionalObject("config"));
        if (source_type != "managed") {
          return CreateFederated(federated, name, source_type, std::move(config), body);
        }
        if (!managed) return NoManaged();
        HOGLAKE_RETURN_IF_ERROR(CheckNotFederated(federated, name));
        std::optional<JsonArray> schemas;
        if (config) {
          HOGLAKE_ASSIGN_OR_RETURN(schemas, config->OptionalArray("schemas"));
        }
        HOGLAKE_ASSIGN_OR_RETURN(std::vector<query::DeclaredSchema> declared,
                                 ParseSchemas(std::move(schemas)));
        HOGLAKE_ASSIGN_OR_RETURN(query::ManagedDatabase created,
                                 managed->CreateConnection(name, declared));
        JsonWriter w;
        w.BeginObject();
        w.Field("id", created.id);
        w.Field("name", created.name);
        w.Field("source_type", "managed");
        w.Key("tables_discovered");
        w.Int(0);
        w.Field("discovery_status", "skipped");
        w.EndObject();
        return HttpResponse::Json(201, w.Take());
      },
      kHotdata);
  router.Add(
      "DELETE", "/v1/connections/{connection_id}",
      [managed, federated](HttpRequest& req) -> Result<HttpResponse> {
        const std::string& id = req.Param("connection_id");
        HOGLAKE_ASSIGN_OR_RETURN(std::optional<HttpResponse> deleted,
                                 DeleteFederated(federated, id));
        if (deleted) return std::move(*deleted);
        if (!managed) return NoManaged();
        HOGLAKE_RETURN_IF_ERROR(managed->Managed(id).status());
        HOGLAKE_RETURN_IF_ERROR(managed->Delete(id, std::nullopt));
        return NoContent();
      },
      kHotdata);
  router.Add(
      "DELETE", "/v1/connections/{connection_id}/schemas/{schema}/tables/{table}",
      [managed](HttpRequest& req) -> Result<HttpResponse> {
        if (!managed) return NoManaged();
        HOGLAKE_RETURN_IF_ERROR(managed->DropTable(req.Param("connection_id"), req.Param("schema"),
                                                   req.Param("table")));
        return NoContent();
      },
      kHotdata);
}

void RegisterDatabases(Router& router, query::ManagedDatabases* managed) {
  router.Add(
      "POST", "/v1/databases",
      [managed](HttpRequest& req) -> Result<HttpResponse> {
        if (!managed) return NoManaged();
        HOGLAKE_ASSIGN_OR_RETURN(
            JsonObject body, req.body.empty() ? JsonBody::ParseText("{}") : JsonBody::Parse(req));
        HOGLAKE_ASSIGN_OR_RETURN(std::optional<std::string> name, body.OptionalString("name"));
        if (!name) {
          HOGLAKE_ASSIGN_OR_RETURN(name, body.OptionalString("description"));
        }
        HOGLAKE_ASSIGN_OR_RETURN(std::optional<std::string> catalog,
                                 body.OptionalString("default_catalog"));
        if (catalog && *catalog != "default") {
          return MakeError(ErrorCode::kNotImplemented,
                           StrCat("default_catalog '", *catalog,
                                  "' is not supported: a database's catalog is \"default\""));
        }
        HOGLAKE_ASSIGN_OR_RETURN(std::optional<std::string> default_schema,
                                 body.OptionalString("default_schema"));
        HOGLAKE_ASSIGN_OR_RETURN(std::optional<JsonArray> schemas, body.OptionalArray("schemas"));
        HOGLAKE_ASSIGN_OR_RETURN(std::vector<query::DeclaredSchema> declared,
                                 ParseSchemas(std::move(schemas)));
        HOGLAKE_ASSIGN_OR_RETURN(
            query::ManagedDatabase created,
            managed->CreateDatabase(name.value_or(""), declared, default_schema));
        JsonWriter w;
        w.BeginObject();
        WriteDatabaseFields(w, created);
        w.EndObject();
        return HttpResponse::Json(201, w.Take());
      },
      kHotdata);
  router.Add(
      "GET", "/v1/databases",
      [managed](HttpRequest& req) -> Result<HttpResponse> {
        if (!managed) return NoManaged();
        HOGLAKE_ASSIGN_OR_RETURN(std::optional<int64_t> asked, QueryInt64(req, "limit"));
        const int64_t limit = std::clamp<int64_t>(asked.value_or(100), 1, 100);
        std::optional<std::string> cursor;
        if (auto v = req.Query("cursor")) cursor = std::string(*v);
        HOGLAKE_ASSIGN_OR_RETURN(query::ManagedPage page,
                                 managed->registry().ListDatabases(limit, cursor));
        JsonWriter w;
        w.BeginObject();
        w.Key("databases");
        w.BeginArray();
        for (const query::ManagedDatabase& db : page.databases) {
          w.BeginObject();
          WriteDatabaseFields(w, db);
          w.Field("created_at", db.created_at);
          w.EndObject();
        }
        w.EndArray();
        WritePageEnd(w, static_cast<int64_t>(page.databases.size()), limit, page.next_cursor);
        w.EndObject();
        return HttpResponse::Json(200, w.Take());
      },
      kHotdata);
  router.Add(
      "GET", "/v1/databases/{database_id}",
      [managed](HttpRequest& req) -> Result<HttpResponse> {
        if (!managed) return NoManaged();
        HOGLAKE_ASSIGN_OR_RETURN(query::ManagedDatabase db,
                                 managed->registry().Get(req.Param("database_id")));
        if (db.kind != query::ManagedKind::kDatabase) {
          return MakeError(ErrorCode::kNotFound,
                           StrCat("database '", req.Param("database_id"), "' not found"));
        }
        return DatabaseDetail(200, db);
      },
      kHotdata);
  router.Add(
      "DELETE", "/v1/databases/{database_id}",
      [managed](HttpRequest& req) -> Result<HttpResponse> {
        if (!managed) return NoManaged();
        HOGLAKE_RETURN_IF_ERROR(
            managed->Delete(req.Param("database_id"), query::ManagedKind::kDatabase));
        return NoContent();
      },
      kHotdata);
}

Result<query::LoadFormat> ParseFormat(const std::optional<std::string>& name) {
  if (!name) return query::LoadFormat::kAuto;
  if (*name == "parquet") return query::LoadFormat::kParquet;
  if (*name == "csv") return query::LoadFormat::kCsv;
  if (*name == "json") return query::LoadFormat::kJsonLines;
  return MakeError(ErrorCode::kBadRequest,
                   StrCat("format '", *name, "' is not one of csv, json, parquet"));
}

// POST …/schemas/{schema}/tables/{table}/loads, the connection (or database)
// id in path parameter `id_param`; always answered synchronously (200).
Handler LoadHandler(query::TableLoader* loader, std::string id_param) {
  return [loader, id_param](HttpRequest& req) -> Result<HttpResponse> {
    if (!loader) return NoManaged();
    HOGLAKE_ASSIGN_OR_RETURN(JsonObject body, JsonBody::Parse(req));
    query::LoadRequest request;
    request.connection_id = req.Param(id_param);
    request.schema = req.Param("schema");
    request.table = req.Param("table");
    HOGLAKE_ASSIGN_OR_RETURN(std::string mode, body.RequiredString("mode"));
    if (mode == "replace") {
      request.mode = query::LoadMode::kReplace;
    } else if (mode == "append") {
      request.mode = query::LoadMode::kAppend;
    } else {
      return MakeError(ErrorCode::kBadRequest,
                       StrCat("mode '", mode, "' is not supported: replace or append"));
    }
    HOGLAKE_ASSIGN_OR_RETURN(request.upload_id, body.OptionalString("upload_id"));
    HOGLAKE_ASSIGN_OR_RETURN(request.result_id, body.OptionalString("result_id"));
    HOGLAKE_ASSIGN_OR_RETURN(request.data, body.OptionalString("data"));
    HOGLAKE_ASSIGN_OR_RETURN(std::optional<std::string> format, body.OptionalString("format"));
    HOGLAKE_ASSIGN_OR_RETURN(request.format, ParseFormat(format));
    HOGLAKE_ASSIGN_OR_RETURN(std::optional<bool> async, body.OptionalBool("async"));
    (void)async;  // loads always finish before the answer (200)
    for (std::string_view unsupported : {"columns", "key"}) {
      if (body.Has(unsupported)) {
        return MakeError(ErrorCode::kNotImplemented,
                         StrCat("\"", unsupported, "\" is not supported by loads yet"));
      }
    }
    if (request.data && request.data->size() > query::TableLoader::kMaxInlineBytes) {
      return HotdataError(413, "INLINE_DATA_TOO_LARGE",
                          StrCat("inline data is limited to ", query::TableLoader::kMaxInlineBytes,
                                 " bytes: upload larger data and load its upload_id"));
    }
    HOGLAKE_ASSIGN_OR_RETURN(query::LoadResult loaded, loader->Load(request));
    JsonWriter w;
    w.BeginObject();
    w.Field("connection_id", loaded.connection_id);
    w.Field("schema_name", loaded.schema_name);
    w.Field("table_name", loaded.table_name);
    w.Field("row_count", loaded.row_count);
    w.Field("arrow_schema_json", loaded.arrow_schema_json);
    w.EndObject();
    return HttpResponse::Json(200, w.Take());
  };
}

}  // namespace

void RegisterManagedRoutes(Router& router, const ServerContext& context) {
  router.SetPrefixStyle("/v1/databases", kHotdata);
  RegisterConnectionWrites(router, context.managed, context.federated);
  RegisterRefresh(router, context);
  RegisterDatabases(router, context.managed);
  router.Add("POST", "/v1/connections/{connection_id}/schemas/{schema}/tables/{table}/loads",
             LoadHandler(context.loader, "connection_id"), kHotdata);
  router.Add("POST", "/v1/databases/{database_id}/schemas/{schema}/tables/{table}/loads",
             LoadHandler(context.loader, "database_id"), kHotdata);
}

}  // namespace hoglake::server
