#include "server/routes.h"

#include <algorithm>
#include <charconv>
#include <set>

#include "common/clock.h"
#include "common/log.h"
#include "common/uuid.h"
#include "pg/pg_pool.h"
#include "server/auth_guard.h"
#include "server/catalog_api/commit_wire.h"
#include "server/catalog_api/file_wire.h"
#include "server/http/json_body.h"
#include "server/openapi.h"
#include "server/http/request_params.h"
#include "server/catalog_api/routes_alter.h"
#include "server/catalog_api/routes_feed.h"
#include "server/catalog_api/routes_maintenance.h"
#include "server/query_api/routes_managed.h"
#include "server/catalog_api/routes_partitions.h"
#include "server/query_api/routes_query.h"
#include "server/query_api/routes_query_uploads.h"
#include "server/catalog_api/routes_table_creations.h"
#include "server/catalog_api/routes_uploads.h"
#include "server/catalog_api/routes_views.h"
#include "server/catalog_api/table_wire.h"
#include "server/wire.h"

namespace hoglake::server {
namespace {

using catalog::CatalogService;

constexpr const char* kC = "/v1/catalogs/{catalog}";
constexpr const char* kN = "/v1/catalogs/{catalog}/namespaces/{namespace}";
constexpr const char* kT = "/v1/catalogs/{catalog}/namespaces/{namespace}/tables/{table}";

std::string P(const char* base, const char* rest) { return std::string(base) + rest; }

HttpResponse JsonOk(int status, JsonWriter& w) { return HttpResponse::Json(status, w.Take()); }

// ---- root and instance ----------------------------------------------------------

void RegisterRoot(Router& router, const ServerContext& ctx) {
  router.Add("GET", "/livez",
             [](HttpRequest&) -> Result<HttpResponse> { return HttpResponse::Text(200, "ok"); });
  router.Add("GET", "/healthz", [ctx](HttpRequest&) -> Result<HttpResponse> {
    Status ping = ctx.catalogs->Ping();
    if (!ping.ok()) {
      // The contract's fixed text; why it failed goes to the log only.
      LogWarn("healthz: ", ping.error().ToString());
      HttpResponse down = HttpResponse::Text(503, "db unreachable");
      down.headers.emplace_back("Retry-After", "1");
      return down;
    }
    return HttpResponse::Text(200, "ok");
  });
  router.Add("GET", "/metrics", [ctx](HttpRequest&) -> Result<HttpResponse> {
    return HttpResponse::Text(200, ctx.metrics->RenderPrometheus(),
                              "text/plain; version=0.0.4; charset=utf-8");
  });
  router.Add("GET", "/openapi.yaml", [](HttpRequest&) -> Result<HttpResponse> {
    return HttpResponse::Text(200, std::string(OpenApiYaml()), "application/yaml");
  });
  router.Add("GET", "/v1/info", [ctx](HttpRequest&) -> Result<HttpResponse> {
    JsonWriter w;
    w.BeginObject();
    if (!ctx.instance_name.empty()) w.Field("name", std::string_view(ctx.instance_name));
    w.Field("version", std::string_view(ctx.version));
    if (!ctx.data_root.empty()) w.Field("data_root", std::string_view(ctx.data_root));
    if (ctx.metrics_sampler) {
      if (std::optional<InstanceTotals> totals = ctx.metrics_sampler->totals()) {
        w.Field("total_rows", totals->total_rows);
        w.Field("total_size_bytes", totals->total_size_bytes);
      }
    }
    w.EndObject();
    return JsonOk(200, w);
  });
}

// ---- catalogs -------------------------------------------------------------------

void RegisterCatalogs(Router& router, const ServerContext& ctx) {
  CatalogService* service = ctx.catalogs;
  router.Add("GET", "/v1/catalogs", [service](HttpRequest&) -> Result<HttpResponse> {
    HOGLAKE_ASSIGN_OR_RETURN(auto catalogs, service->ListCatalogs());
    JsonWriter w;
    w.BeginArray();
    for (const auto& c : catalogs) WriteCatalog(c, w);
    w.EndArray();
    return JsonOk(200, w);
  });
  router.Add("POST", "/v1/catalogs", [service](HttpRequest& req) -> Result<HttpResponse> {
    HOGLAKE_ASSIGN_OR_RETURN(JsonObject body, JsonBody::Parse(req));
    HOGLAKE_ASSIGN_OR_RETURN(std::string name, body.RequiredString("name"));
    HOGLAKE_ASSIGN_OR_RETURN(std::string data_path, body.RequiredString("data_path"));
    HOGLAKE_RETURN_IF_ERROR(body.CheckNoUnknownFields());
    HOGLAKE_ASSIGN_OR_RETURN(auto created, service->CreateCatalog(name, data_path));
    JsonWriter w;
    WriteCatalog(created, w);
    return JsonOk(201, w);
  });
  router.Add("GET", kC, [service](HttpRequest& req) -> Result<HttpResponse> {
    HOGLAKE_ASSIGN_OR_RETURN(auto info, service->GetCatalog(req.Param("catalog")));
    JsonWriter w;
    WriteCatalog(info, w);
    return JsonOk(200, w);
  });
}

// ---- namespaces -----------------------------------------------------------------

void RegisterNamespaces(Router& router, const ServerContext& ctx) {
  CatalogService* service = ctx.catalogs;
  router.Add("GET", P(kC, "/namespaces"), [service](HttpRequest& req) -> Result<HttpResponse> {
    HOGLAKE_ASSIGN_OR_RETURN(catalog::SnapshotSelector at, QuerySnapshotSelector(req));
    HOGLAKE_ASSIGN_OR_RETURN(auto namespaces, service->ListNamespaces(req.Param("catalog"), at));
    JsonWriter w;
    w.BeginArray();
    for (const auto& ns : namespaces) WriteNamespace(ns, w);
    w.EndArray();
    return JsonOk(200, w);
  });
  router.Add("POST", P(kC, "/namespaces"), [ctx](HttpRequest& req) -> Result<HttpResponse> {
    HOGLAKE_ASSIGN_OR_RETURN(JsonObject body, JsonBody::Parse(req));
    HOGLAKE_ASSIGN_OR_RETURN(std::string name, body.RequiredString("name"));
    HOGLAKE_RETURN_IF_ERROR(body.CheckNoUnknownFields());
    HOGLAKE_ASSIGN_OR_RETURN(auto created,
                             ctx.catalogs->CreateNamespace(req.Param("catalog"), name));
    ctx.metrics->RecordCommit("namespace_created");
    JsonWriter w;
    WriteNamespace(created, w);
    return JsonOk(201, w);
  });
  router.Add("GET", kN, [service](HttpRequest& req) -> Result<HttpResponse> {
    HOGLAKE_ASSIGN_OR_RETURN(auto ns,
                             service->GetNamespace(req.Param("catalog"), req.Param("namespace")));
    JsonWriter w;
    WriteNamespace(ns, w);
    return JsonOk(200, w);
  });
  router.Add("DELETE", kN, [ctx](HttpRequest& req) -> Result<HttpResponse> {
    HOGLAKE_ASSIGN_OR_RETURN(std::optional<int64_t> expected,
                             QueryInt64(req, "expected_namespace_id"));
    HOGLAKE_ASSIGN_OR_RETURN(
        auto result,
        ctx.catalogs->DropNamespace(req.Param("catalog"), req.Param("namespace"), expected));
    ctx.metrics->RecordCommit("namespace_dropped");
    JsonWriter w;
    WriteCommitResult(result, w);
    return JsonOk(200, w);
  });
}

// ---- tables ---------------------------------------------------------------------

catalog::TableRef RefOf(const HttpRequest& req) {
  return catalog::TableRef{req.Param("catalog"), req.Param("namespace"), req.Param("table")};
}

void RegisterTables(Router& router, const ServerContext& ctx) {
  CatalogService* service = ctx.catalogs;
  router.Add("GET", P(kN, "/tables"), [service](HttpRequest& req) -> Result<HttpResponse> {
    HOGLAKE_ASSIGN_OR_RETURN(catalog::SnapshotSelector at, QuerySnapshotSelector(req));
    HOGLAKE_ASSIGN_OR_RETURN(auto tables,
                             service->ListTables(req.Param("catalog"), req.Param("namespace"), at));
    JsonWriter w;
    w.BeginArray();
    for (const auto& t : tables) WriteTableSummary(t, w);
    w.EndArray();
    return JsonOk(200, w);
  });
  router.Add("POST", P(kN, "/tables"), [ctx](HttpRequest& req) -> Result<HttpResponse> {
    HOGLAKE_ASSIGN_OR_RETURN(JsonObject body, JsonBody::Parse(req));
    catalog::CreateTableRequest request;
    HOGLAKE_ASSIGN_OR_RETURN(request.name, body.RequiredString("name"));
    HOGLAKE_ASSIGN_OR_RETURN(JsonArray columns, body.RequiredArray("columns"));
    HOGLAKE_ASSIGN_OR_RETURN(std::optional<JsonObject> properties,
                             body.OptionalObject("properties"));
    HOGLAKE_ASSIGN_OR_RETURN(request.comment, body.OptionalString("comment"));
    HOGLAKE_RETURN_IF_ERROR(body.CheckNoUnknownFields());
    if (properties) {
      HOGLAKE_ASSIGN_OR_RETURN(request.properties, properties->StringMap());
      std::sort(request.properties.begin(), request.properties.end());
    }
    HOGLAKE_ASSIGN_OR_RETURN(request.columns, ParseColumnDefs(std::move(columns)));
    HOGLAKE_ASSIGN_OR_RETURN(auto table,
                             ctx.catalogs->CreateTable(req.Param("catalog"), req.Param("namespace"),
                                                       std::move(request)));
    ctx.metrics->RecordCommit("table_created");
    JsonWriter w;
    WriteTable(table, w);
    return JsonOk(201, w);
  });
  router.Add("GET", kT, [service](HttpRequest& req) -> Result<HttpResponse> {
    HOGLAKE_ASSIGN_OR_RETURN(catalog::SnapshotSelector at, QuerySnapshotSelector(req));
    const bool totals = req.Query("totals").value_or("true") != "false";
    HOGLAKE_ASSIGN_OR_RETURN(auto table, service->GetTable(RefOf(req), at, totals));
    JsonWriter w;
    WriteTable(table, w);
    return JsonOk(200, w);
  });
  router.Add("DELETE", kT, [ctx](HttpRequest& req) -> Result<HttpResponse> {
    std::optional<std::string> expected;
    if (auto text = req.Query("expected_table_uuid")) {
      HOGLAKE_ASSIGN_OR_RETURN(UuidBytes uuid, ParseUuid(*text));
      expected = FormatUuid(uuid);
    }
    HOGLAKE_ASSIGN_OR_RETURN(auto result, ctx.catalogs->DropTable(RefOf(req), expected));
    ctx.metrics->RecordCommit("table_dropped");
    JsonWriter w;
    WriteCommitResult(result, w);
    return JsonOk(200, w);
  });
}

// ---- read planning ---------------------------------------------------------------

// Values of a query parameter given comma-separated and/or repeated.
Result<std::vector<std::string>> ListParam(const HttpRequest& req, std::string_view name) {
  std::vector<std::string> out;
  for (std::string_view raw : req.QueryAll(name)) {
    size_t start = 0;
    while (start <= raw.size()) {
      size_t comma = raw.find(',', start);
      if (comma == std::string_view::npos) comma = raw.size();
      std::string_view token = raw.substr(start, comma - start);
      if (token.empty()) return BadRequest("query parameter ", name, " has an empty value");
      out.emplace_back(token);
      if (out.size() > 100000) return BadRequest("query parameter ", name, " has too many values");
      start = comma + 1;
    }
  }
  return out;
}

Result<catalog::ScanOptions> ParseScanOptions(const HttpRequest& req) {
  catalog::ScanOptions options;
  HOGLAKE_ASSIGN_OR_RETURN(std::vector<std::string> include, ListParam(req, "include"));
  std::sort(include.begin(), include.end());
  include.erase(std::unique(include.begin(), include.end()), include.end());
  if (include.size() > 16) return BadRequest("include names more than 16 distinct values");
  for (const std::string& value : include) {
    if (value == "column_stats") {
      options.column_stats = true;
    } else if (value == "split_offsets") {
      options.split_offsets = true;
    } else {
      return Validation("unknown include value '", value, "' (known: column_stats, split_offsets)");
    }
  }
  HOGLAKE_ASSIGN_OR_RETURN(std::vector<std::string> fields, ListParam(req, "stats_fields"));
  if (!req.QueryAll("stats_fields").empty()) {
    std::vector<int64_t> ids;
    for (const std::string& f : fields) {
      int64_t id = 0;
      auto [end, ec] = std::from_chars(f.data(), f.data() + f.size(), id);
      if (ec != std::errc() || end != f.data() + f.size()) {
        return BadRequest("stats_fields value '", f, "' is not an integer");
      }
      ids.push_back(id);
    }
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    if (ids.size() > 10000) return BadRequest("stats_fields names more than 10000 distinct ids");
    if (!options.column_stats) return Validation("stats_fields requires include=column_stats");
    options.stats_fields = std::move(ids);
  }
  return options;
}

Result<catalog::FileListing> ParseFileListing(const HttpRequest& req) {
  catalog::FileListing listing;
  if (auto sort = req.Query("sort")) {
    static const std::set<std::string_view> kSorts = {"id",   "path",  "record_count",
                                                      "size", "stats", "begin_snapshot"};
    if (!kSorts.contains(*sort)) return BadRequest("unknown sort '", *sort, "'");
    listing.sort = std::string(*sort);
  }
  if (auto order = req.Query("order")) {
    if (*order != "asc" && *order != "desc") return BadRequest("order must be asc or desc");
    listing.descending = *order == "desc";
  }
  HOGLAKE_ASSIGN_OR_RETURN(listing.limit, QueryInt64(req, "limit"));
  if (listing.limit && *listing.limit < 1) return BadRequest("limit must be at least 1");
  HOGLAKE_ASSIGN_OR_RETURN(std::optional<int64_t> offset, QueryInt64(req, "offset"));
  if (offset && *offset < 0) return BadRequest("offset must not be negative");
  listing.offset = offset.value_or(0);
  for (std::string_view filter : req.QueryAll("partition")) {
    const size_t colon = filter.find(':');
    int32_t key = -1;
    auto [end, ec] =
        std::from_chars(filter.data(), filter.data() + std::min(colon, filter.size()), key);
    if (colon == std::string_view::npos || ec != std::errc() || end != filter.data() + colon ||
        key < 0) {
      return BadRequest("partition filter '", filter, "' must be <key_index>:<value>");
    }
    listing.partition.emplace_back(key, std::string(filter.substr(colon + 1)));
  }
  return listing;
}

void RegisterReads(Router& router, const ServerContext& ctx) {
  CatalogService* service = ctx.catalogs;
  router.Add("GET", P(kT, "/scan"), [service](HttpRequest& req) -> Result<HttpResponse> {
    HOGLAKE_ASSIGN_OR_RETURN(catalog::SnapshotSelector at, QuerySnapshotSelector(req));
    HOGLAKE_ASSIGN_OR_RETURN(catalog::ScanOptions options, ParseScanOptions(req));
    // Files are encoded as the catalog reads them (ScanEach), so a large
    // plan's statistics are never all held as rows at once; the text is
    // built and sent in segments, never copied.
    JsonWriter w;
    w.BeginArray();
    HOGLAKE_RETURN_IF_ERROR(
        service->ScanEach(RefOf(req), at, options, [&w](const catalog::DataFileInfo& f) {
          w.EnsureSpare(1 << 16);
          WriteScanFile(f, w);
          return Status::Ok();
        }));
    w.EndArray();
    return HttpResponse::JsonSegments(200, w.TakeSegments());
  });
  router.Add("GET", P(kT, "/files"), [service](HttpRequest& req) -> Result<HttpResponse> {
    HOGLAKE_ASSIGN_OR_RETURN(catalog::SnapshotSelector at, QuerySnapshotSelector(req));
    HOGLAKE_ASSIGN_OR_RETURN(catalog::FileListing listing, ParseFileListing(req));
    HOGLAKE_ASSIGN_OR_RETURN(auto files, service->ListFiles(RefOf(req), at, listing));
    JsonWriter w;
    w.BeginArray();
    for (const auto& f : files) WriteDataFile(f, w);
    w.EndArray();
    return JsonOk(200, w);
  });
  router.Add("GET", P(kT, "/files/{fileId}/stats"),
             [service](HttpRequest& req) -> Result<HttpResponse> {
               const std::string& text = req.Param("fileId");
               int64_t id = 0;
               auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), id);
               if (text.empty() || ec != std::errc() || end != text.data() + text.size()) {
                 return BadRequest("file id '", text, "' is not an integer");
               }
               HOGLAKE_ASSIGN_OR_RETURN(catalog::SnapshotSelector at, QuerySnapshotSelector(req));
               HOGLAKE_ASSIGN_OR_RETURN(auto stats, service->GetFileStats(RefOf(req), at, id));
               JsonWriter w;
               WriteFileStats(stats, w);
               return JsonOk(200, w);
             });
}

// ---- commits -------------------------------------------------------------------

void RegisterCommits(Router& router, const ServerContext& ctx) {
  for (auto [suffix, endpoint] :
       {std::pair{"/commit", catalog::CommitEndpoint::kPlain},
        std::pair{"/commit/prepared", catalog::CommitEndpoint::kPrepared},
        std::pair{"/commit/uploads", catalog::CommitEndpoint::kUploads}}) {
    router.Add("POST", P(kC, suffix),
               [ctx, endpoint = endpoint](HttpRequest& req) -> Result<HttpResponse> {
                 HOGLAKE_ASSIGN_OR_RETURN(JsonObject body, JsonBody::Parse(req));
                 HOGLAKE_ASSIGN_OR_RETURN(catalog::CommitRequest request,
                                          ParseCommitRequest(std::move(body)));
                 HOGLAKE_ASSIGN_OR_RETURN(
                     auto result,
                     ctx.catalogs->Commit(req.Param("catalog"), std::move(request), endpoint));
                 ctx.metrics->RecordCommit("append");
                 JsonWriter w;
                 WriteCommitResult(result, w);
                 return JsonOk(200, w);
               });
  }
  router.Add("GET", P(kC, "/commit/receipts/{operation}"),
             [ctx](HttpRequest& req) -> Result<HttpResponse> {
               HOGLAKE_ASSIGN_OR_RETURN(UuidBytes op, ParseUuid(req.Param("operation")));
               HOGLAKE_ASSIGN_OR_RETURN(
                   auto receipt, ctx.catalogs->GetReceipt(req.Param("catalog"), FormatUuid(op)));
               JsonWriter w;
               w.BeginObject();
               w.Field("operation", std::string_view(receipt.operation));
               w.Field("snapshot_id", receipt.snapshot_id);
               w.Field("schema_version", receipt.schema_version);
               w.EndObject();
               return JsonOk(200, w);
             });
}

// ---- snapshots ------------------------------------------------------------------

void RegisterSnapshots(Router& router, const ServerContext& ctx) {
  CatalogService* service = ctx.catalogs;
  router.Add("GET", P(kC, "/snapshots"), [service](HttpRequest& req) -> Result<HttpResponse> {
    catalog::SnapshotListing listing;
    HOGLAKE_ASSIGN_OR_RETURN(listing.after, QueryInt64(req, "after"));
    HOGLAKE_ASSIGN_OR_RETURN(listing.before, QueryInt64(req, "before"));
    HOGLAKE_ASSIGN_OR_RETURN(listing.limit, QueryInt64(req, "limit"));
    HOGLAKE_ASSIGN_OR_RETURN(auto page, service->ListSnapshots(req.Param("catalog"), listing));
    JsonWriter w;
    WriteSnapshotPage(page, w);
    return JsonOk(200, w);
  });
  // pyhoglake's Catalog.resolve_snapshot: which snapshot a read at an
  // instant sees, as every time-travel read resolves it.
  router.Add(
      "GET", P(kC, "/snapshots/resolve"), [service](HttpRequest& req) -> Result<HttpResponse> {
        const std::optional<std::string_view> text = req.Query("at_timestamp");
        if (!text) return BadRequest("query parameter at_timestamp is required");
        Result<int64_t> micros = ParseInstant(*text);
        if (!micros.ok()) {
          return BadRequest("query parameter at_timestamp: ", micros.error().message);
        }
        HOGLAKE_ASSIGN_OR_RETURN(catalog::SnapshotInfo resolved,
                                 service->ResolveSnapshotAt(req.Param("catalog"), *micros));
        JsonWriter w;
        w.BeginObject();
        w.Field("snapshot_id", resolved.snapshot_id);
        w.Field("snapshot_time", std::string_view(FormatInstant(resolved.snapshot_time_micros)));
        w.EndObject();
        return JsonOk(200, w);
      });
}

}  // namespace

const std::vector<std::pair<std::string, std::string>>& NotYetImplementedRoutes() {
  static const std::vector<std::pair<std::string, std::string>> kRoutes = [] {
    const std::string c = kC, n = kN, t = kT;
    return std::vector<std::pair<std::string, std::string>>{
        {"GET", "/v1/maintenance/status"},
        {"GET", "/v1/database/health"},
        {"GET", t + "/partitions"},
        {"GET", c + "/stats/partitions"},
        {"POST", c + "/commit/deletes/prepared"},
        {"POST", c + "/commit/mutations/prepared"},
        {"POST", c + "/commit/transaction"},
        {"POST", c + "/maintenance/compact"},
        {"POST", c + "/maintenance/verify"},
        {"GET", c + "/publications"},
        {"POST", c + "/publications"},
        {"GET", c + "/publications/{publication}"},
        {"DELETE", c + "/publications/{publication}"},
        {"GET", c + "/export"},
    };
  }();
  return kRoutes;
}

void RegisterRoutes(Router& router, const ServerContext& context) {
  RegisterRoot(router, context);
  RegisterCatalogs(router, context);
  RegisterNamespaces(router, context);
  RegisterSnapshots(router, context);
  RegisterTables(router, context);
  RegisterCommits(router, context);
  RegisterReads(router, context);
  RegisterFeed(router, context);
  RegisterMaintenance(router, context);
  RegisterViews(router, context);
  RegisterDecodeBound(router);
  RegisterAlter(router, context);
  RegisterUploads(router, context);
  RegisterPartitions(router, context);
  RegisterTableCreations(router, context);
  RegisterQueryRoutes(router, context);
  RegisterManagedRoutes(router, context);
  RegisterQueryUploads(router, context);
  router.SetGuard(MakeAuthGuard(AuthPolicy{context.tokens, context.catalog_routes_open,
                                           [uploads = context.uploads](const HttpRequest& request) {
                                             return PresignedRequestValid(uploads, request);
                                           }}));
  for (const auto& [method, pattern] : NotYetImplementedRoutes()) {
    // The query API's routes answer in its error style.
    const ErrorBodyStyle style = pattern.starts_with("/v1/catalogs") ||
                                         pattern.starts_with("/v1/maintenance") ||
                                         pattern.starts_with("/v1/database/")
                                     ? ErrorBodyStyle::kHoglake
                                     : ErrorBodyStyle::kHotdata;
    router.Add(
        method, pattern,
        [method = method, pattern = pattern](HttpRequest&) -> Result<HttpResponse> {
          return NotImplemented(method, " ", pattern, " is specified but not yet implemented");
        },
        style);
  }
}

}  // namespace hoglake::server
