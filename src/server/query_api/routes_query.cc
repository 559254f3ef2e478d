#include "server/query_api/routes_query.h"

#include <algorithm>
#include <chrono>

#include "common/json_text.h"
#include "common/json_writer.h"
#include "query/api_tokens.h"
#include "query/lake_directory.h"
#include "query/managed_databases.h"
#include "query/query_service.h"
#include "query/result_format.h"
#include "server/http/json_body.h"
#include "server/http/request_params.h"
#include "server/query_api/result_body.h"

namespace hoglake::server {
namespace {

constexpr ErrorBodyStyle kHotdata = ErrorBodyStyle::kHotdata;
// The inline preview of a synchronous query stops once its rows pass this
// many bytes of JSON (the client then follows result_id).
constexpr size_t kPreviewBytes = size_t{8} << 20;
constexpr int64_t kMaxAsyncAfterMs = int64_t{10} * 60 * 1000;

Status Unavailable() {
  return MakeError(ErrorCode::kUnavailable, "the query service is not running on this server");
}

Result<bool> QueryBool(const HttpRequest& req, std::string_view name, bool fallback) {
  std::optional<std::string_view> text = req.Query(name);
  if (!text) return fallback;
  if (*text == "true" || *text == "1") return true;
  if (*text == "false" || *text == "0") return false;
  return MakeError(ErrorCode::kBadRequest,
                   StrCat(name, " must be true or false, not '", *text, "'"));
}

Result<int64_t> Limit(const HttpRequest& req, int64_t fallback, int64_t max) {
  HOGLAKE_ASSIGN_OR_RETURN(std::optional<int64_t> limit, QueryInt64(req, "limit"));
  return std::clamp<int64_t>(limit.value_or(fallback), 1, max);
}

void WriteRun(JsonWriter& w, const query::RunRecord& run) {
  w.BeginObject();
  w.Field("id", run.run_id);
  w.Field("status", query::WireName(run.state));
  w.Field("sql_text", run.sql_text);
  w.Field("sql_hash", run.sql_hash);
  w.Field("snapshot_id", "snap" + run.sql_hash.substr(0, 26));
  w.Field("created_at", run.created_at);
  if (run.completed_at) w.Field("completed_at", *run.completed_at);
  if (run.state == query::RunState::kSucceeded) w.Field("result_id", run.result_id);
  if (run.error_message) w.Field("error_message", *run.error_message);
  if (run.error_sqlstate) w.Field("error_sqlstate", *run.error_sqlstate);
  auto optional_int = [&](std::string_view key, const std::optional<int64_t>& v) {
    if (!v) return;
    w.Key(key);
    w.Int(*v);
  };
  optional_int("row_count", run.row_count);
  optional_int("execution_time_ms", run.execution_time_ms);
  optional_int("rows_scanned", run.rows_scanned);
  optional_int("bytes_scanned", run.bytes_scanned);
  w.EndObject();
}

Result<HttpResponse> RunResponse(Result<query::RunRecord> run) {
  HOGLAKE_RETURN_IF_ERROR(run.status());
  JsonWriter w;
  WriteRun(w, *run);
  return HttpResponse::Json(200, w.Take());
}

std::string RunStatusUrl(const query::RunRecord& run) { return "/v1/query-runs/" + run.run_id; }

HttpResponse Accepted(const query::RunRecord& run) {
  JsonWriter w;
  w.BeginObject();
  w.Field("query_run_id", run.run_id);
  w.Field("status", query::WireName(run.state));
  w.Field("status_url", RunStatusUrl(run));
  w.EndObject();
  return HttpResponse::Json(202, w.Take());
}

HttpResponse Overloaded(const query::QueryService& service) {
  HttpResponse r =
      HotdataError(429, "OVERLOADED",
                   StrCat("the server is running ", service.options().workers, " queries with ",
                          service.options().queue_limit, " more waiting; retry later"));
  r.headers.emplace_back("Retry-After", "1");
  return r;
}

// The finished run of a synchronous query as QueryResponse (200), or its
// failure as the standard error body (400 for SQL errors).
Result<HttpResponse> SyncResponse(query::QueryService& service, const query::RunRecord& done) {
  if (done.state != query::RunState::kSucceeded) {
    std::string message = done.error_message.value_or("the query did not finish");
    if (done.state == query::RunState::kCancelled) return HotdataError(409, "CONFLICT", message);
    return HotdataError(400, "BAD_REQUEST", message);
  }
  HOGLAKE_ASSIGN_OR_RETURN(query::ResultRecord result, service.GetResult(done.result_id));
  HOGLAKE_ASSIGN_OR_RETURN(std::unique_ptr<query::ResultReader> reader, service.OpenResult(result));
  const std::vector<sql::SqlType> types =
      query::ResultColumnTypes(*reader->schema(), result.columns);
  std::vector<bool> nan_columns(types.size(), false);
  std::string rows;
  int64_t preview = 0;
  bool truncated = false;
  while (!truncated) {
    HOGLAKE_ASSIGN_OR_RETURN(std::optional<columnar::RecordBatch> batch, reader->Next());
    if (!batch) break;
    int64_t n = query::AppendJsonRows(*batch, types, 0, batch->num_rows, kPreviewBytes,
                                      preview == 0, &nan_columns, &rows);
    preview += n;
    if (n < batch->num_rows) truncated = true;
  }
  const int64_t total = result.row_count.value_or(preview);
  truncated = truncated || preview < total;
  JsonWriter w;
  w.BeginObject();
  w.Key("columns");
  w.BeginArray();
  for (const query::ResultColumnSpec& c : result.columns) w.String(c.name);
  w.EndArray();
  w.Key("nullable");
  w.BeginArray();
  for (size_t c = 0; c < types.size(); ++c) {
    w.Bool(reader->schema()->fields[c].nullable || nan_columns[c]);
  }
  w.EndArray();
  w.Key("rows");
  w.Raw("[" + rows + "]");
  w.Key("preview_row_count");
  w.Int(preview);
  w.Key("row_count");
  w.Int(preview);
  w.Key("total_row_count");
  w.Int(total);
  w.Key("truncated");
  w.Bool(truncated);
  w.Key("execution_time_ms");
  w.Int(done.execution_time_ms.value_or(0));
  w.Field("query_run_id", done.run_id);
  w.Field("result_id", done.result_id);
  w.EndObject();
  return HttpResponse::Json(200, w.Take());
}

void RegisterConnections(Router& router, const ServerContext& context) {
  query::LakeDirectory* directory = context.directory;
  router.Add(
      "GET", "/v1/connections",
      [directory](HttpRequest&) -> Result<HttpResponse> {
        if (!directory) return Unavailable();
        HOGLAKE_ASSIGN_OR_RETURN(std::vector<query::Connection> all, directory->ListConnections());
        JsonWriter w;
        w.BeginObject();
        w.Key("connections");
        w.BeginArray();
        for (const query::Connection& c : all) {
          w.BeginObject();
          w.Field("id", c.id);
          w.Field("name", c.name);
          w.Field("source_type", c.source_type);
          w.EndObject();
        }
        w.EndArray();
        w.EndObject();
        return HttpResponse::Json(200, w.Take());
      },
      kHotdata);
  router.Add(
      "GET", "/v1/connections/{connection_id}",
      [directory](HttpRequest& req) -> Result<HttpResponse> {
        if (!directory) return Unavailable();
        HOGLAKE_ASSIGN_OR_RETURN(query::Connection c,
                                 directory->GetConnection(req.Param("connection_id")));
        query::TableListing listing;
        listing.connection_id = c.id;
        listing.limit = INT64_MAX;
        HOGLAKE_ASSIGN_OR_RETURN(query::TablePage tables, directory->ListTables(listing));
        JsonWriter w;
        w.BeginObject();
        w.Field("id", c.id);
        w.Field("name", c.name);
        w.Field("source_type", c.source_type);
        w.Key("table_count");
        w.Int(static_cast<int64_t>(tables.tables.size()));
        w.Key("synced_table_count");
        w.Int(static_cast<int64_t>(tables.tables.size()));
        w.EndObject();
        return HttpResponse::Json(200, w.Take());
      },
      kHotdata);
}

void RegisterInformationSchema(Router& router, const ServerContext& context) {
  query::LakeDirectory* directory = context.directory;
  router.Add(
      "GET", "/v1/information_schema",
      [directory](HttpRequest& req) -> Result<HttpResponse> {
        if (!directory) return Unavailable();
        query::TableListing listing;
        if (auto v = req.Query("connection_id")) listing.connection_id = std::string(*v);
        if (auto v = req.Query("schema")) listing.schema_pattern = std::string(*v);
        if (auto v = req.Query("table")) listing.table_pattern = std::string(*v);
        if (auto v = req.Query("cursor")) listing.cursor = std::string(*v);
        HOGLAKE_ASSIGN_OR_RETURN(listing.include_columns, QueryBool(req, "include_columns", false));
        HOGLAKE_ASSIGN_OR_RETURN(listing.limit, Limit(req, 100, 1000));
        HOGLAKE_ASSIGN_OR_RETURN(query::TablePage page, directory->ListTables(listing));
        JsonWriter w;
        w.BeginObject();
        w.Key("tables");
        w.BeginArray();
        for (const query::ListedTable& t : page.tables) {
          w.BeginObject();
          w.Field("connection", t.connection);
          w.Field("schema", t.schema);
          w.Field("table", t.table);
          w.Key("synced");
          w.Bool(t.synced);
          w.Key("last_sync");
          w.Null();
          if (listing.include_columns) {
            w.Key("columns");
            w.BeginArray();
            for (const query::ListedColumn& c : t.columns) {
              w.BeginObject();
              w.Field("name", c.name);
              w.Field("data_type", c.data_type);
              w.Key("nullable");
              w.Bool(c.nullable);
              w.EndObject();
            }
            w.EndArray();
          }
          w.Key("partition_by");
          w.BeginArray();
          for (const auto& [column, transform] : t.partition_by) {
            w.BeginObject();
            w.Field("column", column);
            w.Field("transform", transform);
            w.EndObject();
          }
          w.EndArray();
          w.Key("constant_per_key");
          w.BeginArray();
          w.EndArray();
          w.Key("sorted_by");
          w.BeginArray();
          for (const query::ListedSortField& s : t.sorted_by) {
            w.BeginObject();
            w.Field("column", s.column);
            w.Field("direction", s.direction);
            w.Field("nulls", s.nulls);
            w.EndObject();
          }
          w.EndArray();
          w.EndObject();
        }
        w.EndArray();
        WritePageEnd(w, static_cast<int64_t>(page.tables.size()), listing.limit, page.next_cursor);
        w.EndObject();
        return HttpResponse::Json(200, w.Take());
      },
      kHotdata);
}

void RegisterQuery(Router& router, const ServerContext& context) {
  query::QueryService* service = context.query;
  query::ManagedDatabases* managed = context.managed;
  router.Add(
      "POST", "/v1/query",
      [service, managed](HttpRequest& req) -> Result<HttpResponse> {
        if (!service) return Unavailable();
        HOGLAKE_ASSIGN_OR_RETURN(JsonObject body, JsonBody::Parse(req));
        query::Submission submission;
        HOGLAKE_ASSIGN_OR_RETURN(submission.sql, body.RequiredString("sql"));
        HOGLAKE_ASSIGN_OR_RETURN(std::optional<bool> async, body.OptionalBool("async"));
        HOGLAKE_ASSIGN_OR_RETURN(std::optional<int64_t> async_after_ms,
                                 body.OptionalInt64("async_after_ms"));
        HOGLAKE_ASSIGN_OR_RETURN(std::optional<std::string> catalog,
                                 body.OptionalString("default_catalog"));
        HOGLAKE_ASSIGN_OR_RETURN(std::optional<std::string> schema,
                                 body.OptionalString("default_schema"));
        HOGLAKE_ASSIGN_OR_RETURN(std::optional<std::string> dialect,
                                 body.OptionalString("dialect"));
        HOGLAKE_ASSIGN_OR_RETURN(std::optional<std::string> database_id,
                                 body.OptionalString("database_id"));
        if (auto header = req.Header("x-database-id"); header && !header->empty()) {
          database_id = std::string(*header);
        }
        if (submission.sql.find_first_not_of(" \t\r\n") == std::string::npos) {
          return MakeError(ErrorCode::kBadRequest, "SQL query cannot be empty");
        }
        if (dialect && *dialect != "postgres" && *dialect != "hotsql") {
          return MakeError(ErrorCode::kBadRequest,
                           StrCat("dialect '", *dialect,
                                  "' is not supported: hoglake runs PostgreSQL's dialect "
                                  "(\"postgres\", also accepted as \"hotsql\")"));
        }
        if (async_after_ms && !async.value_or(false)) {
          return MakeError(ErrorCode::kBadRequest, "async_after_ms needs \"async\": true");
        }
        if (async_after_ms && (*async_after_ms < 1000 || *async_after_ms > kMaxAsyncAfterMs)) {
          return MakeError(ErrorCode::kBadRequest,
                           StrCat("async_after_ms must be between 1000 and ", kMaxAsyncAfterMs));
        }
        if (database_id && !database_id->empty()) {
          // A Hotdata database: its catalog is "default" in SQL and the
          // default for unqualified names.
          if (!managed) return Unavailable();
          HOGLAKE_ASSIGN_OR_RETURN(query::ManagedDatabase db,
                                   managed->registry().Get(*database_id));
          submission.default_catalog = db.catalog;
          submission.default_schema = db.default_schema;
          submission.catalog_aliases["default"] = db.catalog;
        }
        if (catalog) submission.default_catalog = *catalog;
        if (schema) submission.default_schema = *schema;
        query::RunRecord run;
        HOGLAKE_ASSIGN_OR_RETURN(query::SubmitOutcome outcome, service->Submit(submission, &run));
        if (outcome == query::SubmitOutcome::kOverloaded) return Overloaded(*service);
        if (async.value_or(false) && !async_after_ms) return Accepted(run);
        const bool finished = service->Wait(run.run_id, async_after_ms.value_or(-1));
        HOGLAKE_ASSIGN_OR_RETURN(query::RunRecord now, service->GetRun(run.run_id));
        if (!finished || !query::IsTerminal(now.state)) return Accepted(now);
        return SyncResponse(*service, now);
      },
      kHotdata);
}

void RegisterRuns(Router& router, const ServerContext& context) {
  query::QueryService* service = context.query;
  router.Add(
      "GET", "/v1/query-runs",
      [service](HttpRequest& req) -> Result<HttpResponse> {
        if (!service) return Unavailable();
        HOGLAKE_ASSIGN_OR_RETURN(int64_t limit, Limit(req, 100, 1000));
        std::optional<std::string> cursor;
        if (auto v = req.Query("cursor")) cursor = std::string(*v);
        std::vector<query::RunState> states;
        if (auto v = req.Query("status")) {
          std::string_view list = *v;
          while (!list.empty()) {
            size_t comma = list.find(',');
            std::string_view name = list.substr(0, comma);
            std::vector<query::RunState> matched = query::RunStatesForWireName(name);
            if (matched.empty()) {
              return MakeError(ErrorCode::kBadRequest,
                               StrCat("status '", name,
                                      "' is not one of running, succeeded, failed, cancelled"));
            }
            states.insert(states.end(), matched.begin(), matched.end());
            if (comma == std::string_view::npos) break;
            list.remove_prefix(comma + 1);
          }
        }
        HOGLAKE_ASSIGN_OR_RETURN(query::RunPage page, service->ListRuns(limit, cursor, states));
        JsonWriter w;
        w.BeginObject();
        w.Key("query_runs");
        w.BeginArray();
        for (const query::RunRecord& run : page.runs) WriteRun(w, run);
        w.EndArray();
        WritePageEnd(w, static_cast<int64_t>(page.runs.size()), limit, page.next_cursor);
        w.EndObject();
        return HttpResponse::Json(200, w.Take());
      },
      kHotdata);
  router.Add(
      "GET", "/v1/query-runs/{query_run_id}",
      [service](HttpRequest& req) -> Result<HttpResponse> {
        if (!service) return Unavailable();
        return RunResponse(service->GetRun(req.Param("query_run_id")));
      },
      kHotdata);
  router.Add(
      "POST", "/v1/query-runs/{query_run_id}/cancel",
      [service](HttpRequest& req) -> Result<HttpResponse> {
        if (!service) return Unavailable();
        return RunResponse(service->Cancel(req.Param("query_run_id")));
      },
      kHotdata);
}

// The format a result request asks for: `format` wins over Accept; JSON
// by default.
Result<query::ResultFormat> RequestedFormat(const HttpRequest& req) {
  if (auto f = req.Query("format")) {
    std::optional<query::ResultFormat> format = query::ResultFormatFromName(*f);
    if (!format) {
      return MakeError(ErrorCode::kBadRequest,
                       StrCat("format '", *f, "' is not one of arrow, json, csv, md, parquet"));
    }
    return *format;
  }
  if (auto accept = req.Header("accept")) {
    std::string_view list = *accept;
    while (!list.empty()) {
      size_t comma = list.find(',');
      std::string_view item = list.substr(0, comma);
      item = item.substr(0, item.find(';'));
      while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
      while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
      for (const query::ResultFormatSpelling& f : query::ResultFormats()) {
        std::string_view type = f.content_type.substr(0, f.content_type.find(';'));
        if (item.size() == type.size() &&
            std::equal(item.begin(), item.end(), type.begin(),
                       [](char a, char b) { return std::tolower(a) == std::tolower(b); })) {
          return f.format;
        }
      }
      if (comma == std::string_view::npos) break;
      list.remove_prefix(comma + 1);
    }
  }
  return query::ResultFormat::kJson;
}

void RegisterResults(Router& router, const ServerContext& context) {
  query::QueryService* service = context.query;
  router.Add(
      "GET", "/v1/results",
      [service](HttpRequest& req) -> Result<HttpResponse> {
        if (!service) return Unavailable();
        HOGLAKE_ASSIGN_OR_RETURN(int64_t limit, Limit(req, 100, 1000));
        HOGLAKE_ASSIGN_OR_RETURN(std::optional<int64_t> offset, QueryInt64(req, "offset"));
        if (offset && *offset < 0) return MakeError(ErrorCode::kBadRequest, "offset must be ≥ 0");
        HOGLAKE_ASSIGN_OR_RETURN(query::ResultPage page,
                                 service->ListResults(limit, offset.value_or(0)));
        JsonWriter w;
        w.BeginObject();
        w.Key("results");
        w.BeginArray();
        for (const query::ResultRecord& r : page.results) {
          w.BeginObject();
          w.Field("id", r.result_id);
          w.Field("status", query::ResultStateName(r.state));
          w.Field("created_at", r.created_at);
          if (r.error_message) w.Field("error_message", *r.error_message);
          w.EndObject();
        }
        w.EndArray();
        w.Key("count");
        w.Int(static_cast<int64_t>(page.results.size()));
        w.Key("offset");
        w.Int(offset.value_or(0));
        w.Key("limit");
        w.Int(limit);
        w.Key("has_more");
        w.Bool(page.has_more);
        w.EndObject();
        return HttpResponse::Json(200, w.Take());
      },
      kHotdata);
  router.Add(
      "GET", "/v1/results/{result_id}",
      [service](HttpRequest& req) -> Result<HttpResponse> {
        if (!service) return Unavailable();
        const std::string& id = req.Param("result_id");
        HOGLAKE_ASSIGN_OR_RETURN(std::optional<int64_t> offset, QueryInt64(req, "offset"));
        HOGLAKE_ASSIGN_OR_RETURN(std::optional<int64_t> limit, QueryInt64(req, "limit"));
        if (offset && *offset < 0) return MakeError(ErrorCode::kBadRequest, "offset must be ≥ 0");
        if (limit && *limit < 0) return MakeError(ErrorCode::kBadRequest, "limit must be ≥ 0");
        HOGLAKE_ASSIGN_OR_RETURN(query::ResultFormat format, RequestedFormat(req));
        HOGLAKE_ASSIGN_OR_RETURN(query::ResultRecord result, service->GetResult(id));
        if (result.state == query::ResultState::kPending ||
            result.state == query::ResultState::kProcessing) {
          JsonWriter w;
          w.BeginObject();
          w.Field("status", query::ResultStateName(result.state));
          w.Field("result_id", id);
          w.EndObject();
          HttpResponse r = HttpResponse::Json(202, w.Take());
          r.headers.emplace_back("Retry-After", "1");
          return r;
        }
        if (result.state == query::ResultState::kFailed) {
          JsonWriter w;
          w.BeginObject();
          w.Field("status", "failed");
          w.Field("result_id", id);
          w.Field("error_message", result.error_message.value_or("the query failed"));
          w.EndObject();
          return HttpResponse::Json(409, w.Take());
        }
        const int64_t total = result.row_count.value_or(0);
        HttpResponse response;
        response.content_type = std::string(query::ContentType(format));
        // The body is streamed as it is sent (result_body.h): a stored
        // object never sits whole in memory.
        if (format == query::ResultFormat::kParquet) {
          HOGLAKE_ASSIGN_OR_RETURN(std::shared_ptr<RandomAccessSource> source,
                                   service->ResultSource(result));
          response.streamed_length = static_cast<uint64_t>(source->size());
          response.body_producer = StoredBytesBody(std::move(source));
        } else {
          HOGLAKE_ASSIGN_OR_RETURN(std::unique_ptr<query::ResultReader> reader,
                                   service->OpenResult(result));
          HOGLAKE_ASSIGN_OR_RETURN(
              std::unique_ptr<query::ResultRenderer> renderer,
              query::ResultRenderer::Open(std::move(reader), result.columns, id, format,
                                          offset.value_or(0), limit));
          // The head (and any error in it) before the first byte is sent.
          std::string first;
          HOGLAKE_RETURN_IF_ERROR(renderer->Next(&first).status());
          response.body = std::move(first);
          if (!renderer->ended()) response.body_producer = RenderedResultBody(std::move(renderer));
          if (limit && offset.value_or(0) + *limit < total) {
            response.headers.emplace_back(
                "Link", StrCat("</v1/results/", id, "?offset=", offset.value_or(0) + *limit,
                               "&limit=", *limit, ">; rel=\"next\""));
          }
        }
        response.headers.emplace_back("X-Total-Row-Count", std::to_string(total));
        return response;
      },
      kHotdata);
}

void RegisterAuth(Router& router, const ServerContext& context) {
  const query::ApiTokens* tokens = context.tokens;
  router.Add(
      "POST", "/v1/auth/jwt",
      [tokens](HttpRequest& req) -> Result<HttpResponse> {
        if (!tokens) return Unavailable();
        const int64_t now = std::chrono::duration_cast<std::chrono::seconds>(
                                std::chrono::system_clock::now().time_since_epoch())
                                .count();
        HOGLAKE_ASSIGN_OR_RETURN(query::ApiTokens::Exchanged exchanged,
                                 tokens->Exchange(req.body, now));
        if (!exchanged.tokens) {
          HttpResponse r = HotdataError(401, "UNAUTHORIZED", exchanged.refusal);
          r.headers.emplace_back("WWW-Authenticate", "Bearer");
          return r;
        }
        JsonWriter w;
        w.BeginObject();
        w.Field("access_token", exchanged.tokens->access_token);
        w.Field("token_type", "Bearer");
        w.Key("expires_in");
        w.Int(exchanged.tokens->expires_in);
        w.Field("refresh_token", exchanged.tokens->refresh_token);
        w.EndObject();
        return HttpResponse::Json(200, w.Take());
      },
      kHotdata);
}

}  // namespace

void WritePageEnd(JsonWriter& w, int64_t count, int64_t limit,
                  const std::optional<std::string>& next_cursor) {
  w.Key("count");
  w.Int(count);
  w.Key("limit");
  w.Int(limit);
  w.Key("has_more");
  w.Bool(next_cursor.has_value());
  if (next_cursor) w.Field("next_cursor", *next_cursor);
}

HttpResponse HotdataError(int status, std::string_view code, std::string_view message) {
  std::string body = "{\"error\":{\"code\":";
  AppendJsonString(code, &body);
  body += ",\"message\":";
  AppendJsonString(message, &body);
  body += "}}";
  return HttpResponse::Json(status, std::move(body));
}

void RegisterQueryRoutes(Router& router, const ServerContext& context) {
  for (std::string prefix :
       {"/v1/connections", "/v1/information_schema", "/v1/query", "/v1/refresh", "/v1/results"}) {
    router.SetPrefixStyle(prefix, kHotdata);
  }
  for (std::string prefix : {"/v1/auth"}) {
    router.SetPrefixStyle(prefix, kHotdata);
  }
  RegisterAuth(router, context);
  RegisterConnections(router, context);
  RegisterInformationSchema(router, context);
  RegisterQuery(router, context);
  RegisterRuns(router, context);
  RegisterResults(router, context);
}

}  // namespace hoglake::server
