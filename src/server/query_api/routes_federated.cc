#include "server/query_api/routes_federated.h"

#include "common/json_writer.h"
#include "query/federated_connections.h"

namespace hoglake::server {
namespace {

constexpr ErrorBodyStyle kHotdata = ErrorBodyStyle::kHotdata;

Status NoFederated() {
  return MakeError(ErrorCode::kUnavailable,
                   "federated connections are not available on this server");
}

Result<query::PostgresSource> ParseSource(std::optional<JsonObject> config) {
  if (!config) return BadRequest("config is required for a postgres connection");
  query::PostgresSource source;
  HOGLAKE_ASSIGN_OR_RETURN(source.host, config->RequiredString("host"));
  HOGLAKE_ASSIGN_OR_RETURN(source.user, config->RequiredString("user"));
  HOGLAKE_ASSIGN_OR_RETURN(source.database, config->RequiredString("database"));
  HOGLAKE_ASSIGN_OR_RETURN(std::optional<int64_t> port, config->OptionalInt64("port"));
  if (port) {
    if (*port < 1 || *port > 65535) {
      return BadRequest("config.port must be between 1 and 65535, not ", *port);
    }
    source.port = static_cast<int>(*port);
  }
  HOGLAKE_ASSIGN_OR_RETURN(source.password, config->OptionalString("password"));
  return source;
}

}  // namespace

Result<HttpResponse> CreateFederated(query::FederatedConnections* federated,
                                     const std::string& name, const std::string& source_type,
                                     std::optional<JsonObject> config, JsonObject& body) {
  if (!federated) return NoFederated();
  if (source_type != query::kPostgresSourceType) {
    return MakeError(ErrorCode::kNotImplemented,
                     StrCat("source_type '", source_type,
                            "' is not supported yet: this server registers \"postgres\" and "
                            "creates \"managed\" connections"));
  }
  HOGLAKE_ASSIGN_OR_RETURN(std::optional<std::string> secret_id, body.OptionalString("secret_id"));
  HOGLAKE_ASSIGN_OR_RETURN(std::optional<std::string> secret_name,
                           body.OptionalString("secret_name"));
  if (secret_id || secret_name) {
    return BadRequest(
        "secret_id / secret_name are not supported: pass the password as "
        "config.password (it is stored encrypted)");
  }
  HOGLAKE_ASSIGN_OR_RETURN(query::PostgresSource source, ParseSource(std::move(config)));
  HOGLAKE_ASSIGN_OR_RETURN(query::Discovered created, federated->Register(name, source));
  JsonWriter w;
  w.BeginObject();
  w.Field("id", created.connection.id);
  w.Field("name", created.connection.id);
  w.Field("source_type", created.connection.source_type);
  w.Field("tables_discovered", created.tables_discovered);
  w.Field("discovery_status", created.connection.discovery_status);
  if (created.connection.discovery_error) {
    w.Field("discovery_error", *created.connection.discovery_error);
  }
  w.EndObject();
  return HttpResponse::Json(201, w.Take());
}

Result<std::optional<HttpResponse>> DeleteFederated(query::FederatedConnections* federated,
                                                    const std::string& id) {
  if (!federated) return std::optional<HttpResponse>();
  HOGLAKE_ASSIGN_OR_RETURN(std::optional<query::FederatedConnection> found, federated->Find(id));
  if (!found) return std::optional<HttpResponse>();
  HOGLAKE_RETURN_IF_ERROR(federated->Delete(id));
  return std::optional<HttpResponse>(HttpResponse{204, "", {}, {}, {}, {}, {}});
}

Status CheckNotFederated(query::FederatedConnections* federated, const std::string& name) {
  if (!federated) return Status::Ok();
  HOGLAKE_ASSIGN_OR_RETURN(std::optional<query::FederatedConnection> found, federated->Find(name));
  if (!found) return Status::Ok();
  return MakeError(ErrorCode::kAlreadyExists,
                   StrCat("a connection named '", name, "' already exists"));
}

void RegisterRefresh(Router& router, const ServerContext& context) {
  query::FederatedConnections* federated = context.federated;
  router.Add(
      "POST", "/v1/refresh",
      [federated](HttpRequest& req) -> Result<HttpResponse> {
        if (!federated) return NoFederated();
        HOGLAKE_ASSIGN_OR_RETURN(
            JsonObject body, req.body.empty() ? JsonBody::ParseText("{}") : JsonBody::Parse(req));
        HOGLAKE_ASSIGN_OR_RETURN(std::optional<std::string> id,
                                 body.OptionalString("connection_id"));
        HOGLAKE_ASSIGN_OR_RETURN(std::optional<std::string> table,
                                 body.OptionalString("table_name"));
        HOGLAKE_ASSIGN_OR_RETURN(std::optional<bool> data, body.OptionalBool("data"));
        if (table || data.value_or(false)) {
          return MakeError(ErrorCode::kNotImplemented,
                           "only schema refresh (re-discovering federated connections) is "
                           "supported: table and data refresh need cached federated tables");
        }
        std::vector<std::string> ids;
        if (id) {
          HOGLAKE_ASSIGN_OR_RETURN(std::optional<query::FederatedConnection> found,
                                   federated->Find(*id));
          if (!found) {
            return MakeError(ErrorCode::kNotFound,
                             StrCat("federated connection '", *id, "' not found"));
          }
          ids.push_back(*id);
        } else {
          HOGLAKE_ASSIGN_OR_RETURN(std::vector<query::FederatedConnection> all, federated->List());
          for (query::FederatedConnection& c : all) ids.push_back(std::move(c.id));
        }
        int64_t refreshed = 0, failed = 0, tables = 0;
        std::vector<std::pair<std::string, std::string>> errors;
        for (const std::string& each : ids) {
          HOGLAKE_ASSIGN_OR_RETURN(query::Discovered d, federated->Refresh(each));
          if (d.connection.discovery_status == query::kDiscoverySucceeded) {
            ++refreshed;
            tables += d.tables_discovered;
          } else {
            ++failed;
            errors.emplace_back(each, d.connection.discovery_error.value_or(""));
          }
        }
        JsonWriter w;
        w.BeginObject();
        w.Field("connections_refreshed", refreshed);
        w.Field("connections_failed", failed);
        w.Field("tables_discovered", tables);
        if (!errors.empty()) {
          w.Key("errors");
          w.BeginArray();
          for (const auto& [connection, message] : errors) {
            w.BeginObject();
            w.Field("connection_id", connection);
            w.Field("error", message);
            w.EndObject();
          }
          w.EndArray();
        }
        w.EndObject();
        return HttpResponse::Json(200, w.Take());
      },
      kHotdata);
}

}  // namespace hoglake::server
