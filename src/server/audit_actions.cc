#include "server/audit_actions.h"

#include <rapidjson/document.h>

#include <map>
#include <utility>

#include "common/json_writer.h"

namespace hoglake::server {

namespace {

constexpr const char* kC = "/v1/catalogs/{catalog}";
constexpr const char* kN = "/v1/catalogs/{catalog}/namespaces/{namespace}";
constexpr const char* kT = "/v1/catalogs/{catalog}/namespaces/{namespace}/tables/{table}";
constexpr const char* kOp = "/v1/catalogs/{catalog}/table-creations/{operation}";

std::string At(const char* base, const char* rest) { return std::string(base) + rest; }

using RouteKey = std::pair<std::string, std::string>;

const std::map<RouteKey, std::string_view, std::less<>>& Table() {
  static const auto* table = new std::map<RouteKey, std::string_view, std::less<>>{
      {{"POST", "/v1/catalogs"}, "catalog_create"},
      {{"PATCH", At(kC, "/options")}, "options_update"},
      {{"POST", At(kC, "/namespaces")}, "namespace_create"},
      {{"DELETE", kN}, "namespace_drop"},
      {{"POST", At(kN, "/tables")}, "table_create"},
      {{"DELETE", kT}, "table_drop"},
      {{"POST", At(kT, "/alter")}, "table_alter"},
      {{"POST", At(kT, "/truncate")}, "table_truncate"},
      {{"POST", At(kC, "/commit")}, "commit"},
      {{"POST", At(kC, "/commit/prepared")}, "commit"},
      {{"POST", At(kC, "/commit/uploads")}, "commit"},
      {{"POST", At(kC, "/commit/deletes/prepared")}, "commit"},
      {{"POST", At(kC, "/commit/mutations/prepared")}, "commit"},
      {{"POST", At(kC, "/commit/transaction")}, "commit"},
      {{"POST", At(kN, "/views")}, "view_create"},
      {{"DELETE", At(kN, "/views/{view}")}, "view_drop"},
      {{"PUT", At(kC, "/consumers/{consumer}/offsets/{tableUuid}")}, "offset_commit"},
      {{"PUT", At(kC, "/uploads/{upload}")}, "upload_claim"},
      {{"POST", At(kC, "/uploads/renew")}, "upload_renew"},
      {{"POST", At(kC, "/uploads/abandon")}, "upload_abandon"},
      {{"POST", At(kC, "/uploads/schedule-expired")}, "upload_schedule_expired"},
      {{"PUT", kOp}, "table_creation_prepare"},
      {{"PUT", At(kOp, "/partitioned")}, "table_creation_prepare"},
      {{"PUT", At(kOp, "/sorted")}, "table_creation_prepare"},
      {{"PUT", At(kOp, "/metadata")}, "table_creation_prepare"},
      {{"POST", At(kOp, "/commit")}, "table_creation_publish"},
      {{"POST", At(kOp, "/commit/uploads")}, "table_creation_publish"},
      {{"POST", At(kOp, "/abort")}, "table_creation_abort"},
      {{"POST", At(kC, "/maintenance/expire")}, kSelfAudited},
      {{"POST", At(kC, "/maintenance/cleanup")}, kSelfAudited},
      {{"POST", At(kC, "/maintenance/hydrate")}, kSelfAudited},
      {{"POST", At(kC, "/maintenance/rehydrate")}, kSelfAudited},
      {{"POST", At(kC, "/maintenance/compact")}, kSelfAudited},
      {{"POST", At(kC, "/maintenance/verify")}, kSelfAudited},
      {{"POST", At(kC, "/publications")}, "publication_create"},
      {{"DELETE", At(kC, "/publications/{publication}")}, "publication_drop"},
      {{"POST", "/v1/debug/decode-bound"}, kNotAMutation},
      // The query API reads the lake; its runs are recorded in their own
      // table, not audited as catalog changes.
      {{"POST", "/v1/query"}, kNotAMutation},
      {{"POST", "/v1/query-runs/{query_run_id}/cancel"}, kNotAMutation},
      {{"POST", "/v1/auth/jwt"}, kNotAMutation},
      // Managed databases of the query API.
      {{"POST", "/v1/connections"}, "connection_create"},
      {{"DELETE", "/v1/connections/{connection_id}"}, "connection_drop"},
      {{"POST", "/v1/refresh"}, "connection_refresh"},
      {{"POST", "/v1/connections/{connection_id}/schemas/{schema}/tables/{table}/loads"},
       "table_load"},
      {{"DELETE", "/v1/connections/{connection_id}/schemas/{schema}/tables/{table}"}, "table_drop"},
      {{"POST", "/v1/files"}, "upload_create"},
      {{"POST", "/v1/uploads"}, "upload_create"},
      {{"POST", "/v1/uploads/batch"}, "upload_create"},
      {{"PUT", "/v1/uploads/{upload_id}/data"}, "upload_put"},
      {{"POST", "/v1/uploads/{upload_id}/parts"}, "upload_parts"},
      {{"POST", "/v1/uploads/{upload_id}/finalize"}, "upload_finalize"},
      {{"POST", "/v1/databases"}, "database_create"},
      {{"DELETE", "/v1/databases/{database_id}"}, "database_drop"},
      {{"POST", "/v1/databases/{database_id}/schemas/{schema}/tables/{table}/loads"}, "table_load"},
  };
  return *table;
}

std::optional<ErrorCode> WireCode(std::string_view wire_name) {
  for (const ErrorCodeInfo& info : AllErrorCodes()) {
    if (info.wire_name == wire_name && info.name == info.wire_name) return info.code;
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string_view> AuditActionForRoute(std::string_view method,
                                                    std::string_view pattern) {
  const auto& table = Table();
  auto it = table.find(RouteKey(std::string(method), std::string(pattern)));
  if (it == table.end()) return std::nullopt;
  return it->second;
}

std::string AuditObjectOf(const HttpRequest& request) {
  auto param = [&](std::string_view name) -> std::string_view {
    auto it = request.path_params.find(name);
    return it == request.path_params.end() ? std::string_view() : std::string_view(it->second);
  };
  // The query API's managed routes name a namespace "schema".
  const std::string_view ns = param("namespace").empty() ? param("schema") : param("namespace");
  for (const char* leaf : {"table", "view"}) {
    if (!param(leaf).empty()) return StrCat(ns, ".", param(leaf));
  }
  if (!param("consumer").empty()) return StrCat(param("consumer"), "/", param("tableUuid"));
  if (!ns.empty()) return std::string(ns);
  for (const char* id : {"upload", "operation", "publication", "upload_id"}) {
    if (!param(id).empty()) return std::string(param(id));
  }
  return "";
}

AuditEvent AuditEventFor(std::string_view action, const HttpRequest& request,
                         const HttpResponse& response) {
  AuditEvent event;
  event.action = std::string(action);
  // The catalog: the contract's path parameter, or a managed connection or
  // database (its id is its catalog's name).
  for (const char* key : {"catalog", "connection_id", "database_id"}) {
    if (auto it = request.path_params.find(key); it != request.path_params.end()) {
      event.catalog = it->second;
      break;
    }
  }
  event.object = AuditObjectOf(request);
  rapidjson::Document doc;
  doc.Parse(response.body.data(), response.body.size());
  const bool parsed = !doc.HasParseError() && doc.IsObject();
  auto string_member = [&](const char* name) -> std::optional<std::string_view> {
    if (!parsed) return std::nullopt;
    auto it = doc.FindMember(name);
    if (it == doc.MemberEnd() || !it->value.IsString()) return std::nullopt;
    return std::string_view(it->value.GetString(), it->value.GetStringLength());
  };
  JsonWriter w;
  if (response.status < 400) {
    event.outcome = AuditOutcome::kSuccess;
    if (action.ends_with("_create")) {
      if (auto name = string_member("name")) {
        if (action == "catalog_create") {
          event.catalog = std::string(*name);
        } else {
          event.object =
              event.object.empty() ? std::string(*name) : StrCat(event.object, ".", *name);
        }
      }
    }
    if (!parsed) return event;
    auto it = doc.FindMember("snapshot_id");
    if (it == doc.MemberEnd() || !it->value.IsInt64()) return event;
    w.BeginObject();
    w.Field("snapshot_id", static_cast<int64_t>(it->value.GetInt64()));
    w.EndObject();
    event.detail = w.Take();
    return event;
  }
  const std::optional<std::string_view> wire = string_member("error");
  const std::optional<ErrorCode> code = wire ? WireCode(*wire) : std::nullopt;
  event.outcome = code ? AuditOutcomeFor(*code) : AuditOutcome::kError;
  w.BeginObject();
  w.Field("status", static_cast<int64_t>(response.status));
  if (wire) w.Field("error", *wire);
  if (auto message = string_member("detail")) w.Field("message", *message);
  w.EndObject();
  event.detail = w.Take();
  return event;
}

}  // namespace hoglake::server
