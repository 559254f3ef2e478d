// `hoglake sql --server`: statements through a server's query API
// (sql_remote.h).
#include "cli/sql_remote.h"

#include <rapidjson/document.h>

#include <algorithm>
#include <chrono>
#include <mutex>
#include <thread>
#include <utility>

#include "cli/sql_statement_watch.h"
#include "columnar/ipc/ipc_reader.h"
#include "common/json_writer.h"
#include "query/result_arrow.h"
#include "sql/sql_error.h"

namespace hoglake::cli {
namespace {

constexpr auto kFirstPoll = std::chrono::milliseconds(10);
constexpr auto kLongestPoll = std::chrono::milliseconds(250);

std::string Member(const rapidjson::Value& object, const char* key) {
  if (!object.IsObject()) return "";
  auto it = object.FindMember(key);
  if (it == object.MemberEnd() || !it->value.IsString()) return "";
  return std::string(it->value.GetString(), it->value.GetStringLength());
}

Result<rapidjson::Document> ParseAnswer(const std::string& body, const char* route) {
  rapidjson::Document doc;
  doc.Parse(body.data(), body.size());
  if (doc.HasParseError() || !doc.IsObject()) {
    return MakeError(ErrorCode::kInvalidData, "malformed answer from ", route, ": ",
                     body.substr(0, 200));
  }
  return doc;
}

// A failed or cancelled run's error, as the engine would have raised it.
Error RunError(const std::string& message, const std::string& sqlstate) {
  for (const sql::SqlErrorKindInfo& info : sql::AllSqlErrorKinds()) {
    if (info.sqlstate == sqlstate) return sql::MakeSqlError(info.kind, message);
  }
  Error error = MakeError(ErrorCode::kBadRequest, message);
  error.detail.sqlstate = sqlstate;
  return error;
}

}  // namespace

// The run under way: its id once the server gave it, read by the watch's
// thread to cancel it.
struct RemoteSqlSession::Run {
  std::mutex mutex;
  std::string id;
  bool cancel_sent = false;
};

RemoteSqlSession::RemoteSqlSession(RemoteSqlOptions options) : options_(std::move(options)) {
  calls_ = std::make_unique<client::Transport>(options_.server_url, options_.client);
  client::ClientOptions download = options_.client;
  download.timeout_seconds = 0;  // a large result takes as long as it takes
  downloads_ = std::make_unique<client::Transport>(options_.server_url, download);
}

RemoteSqlSession::~RemoteSqlSession() = default;

Error RemoteSqlSession::ServerError(const Error& error) const {
  Error named = error;
  named.message = "server " + options_.server_url + ": " + error.message;
  return named;
}

Result<sql::QueryResult> RemoteSqlSession::Execute(const std::string& statement,
                                                   bool* interrupted) {
  Run run;
  StatementControl control;
  control.cancel = [this, &run] {
    std::string id;
    {
      std::lock_guard<std::mutex> lock(run.mutex);
      if (run.id.empty() || run.cancel_sent) return;
      run.cancel_sent = true;
      id = run.id;
    }
    client::HttpCall call;
    call.method = client::HttpMethod::kPost;
    call.path = "/query-runs/" + client::EncodeSegment(id) + "/cancel";
    call.retry = client::RetryPolicy::kSafe;
    // A run that ended meanwhile answers as it ended; the poll sees it.
    (void)calls_->Send(call);
  };
  StatementWatch watch(std::move(control), options_.spinner);
  Result<sql::QueryResult> result = [&]() -> Result<sql::QueryResult> {
    HOGLAKE_ASSIGN_OR_RETURN(std::string id, Submit(statement));
    {
      std::lock_guard<std::mutex> lock(run.mutex);
      run.id = std::move(id);
    }
    return Await(run);
  }();
  *interrupted = watch.Finish();
  return result;
}

Result<std::string> RemoteSqlSession::Submit(const std::string& statement) {
  JsonWriter body;
  body.BeginObject();
  body.Field("sql", statement);
  body.Field("async", true);
  if (!options_.default_catalog.empty()) body.Field("default_catalog", options_.default_catalog);
  if (!options_.default_schema.empty()) body.Field("default_schema", options_.default_schema);
  body.EndObject();
  client::HttpCall call;
  call.method = client::HttpMethod::kPost;
  call.path = "/query";
  call.body = body.Take();
  call.retry = client::RetryPolicy::kUnsafe;  // a replay would run it twice
  Result<std::string> answer = calls_->Send(call);
  if (!answer.ok()) return ServerError(answer.error());
  HOGLAKE_ASSIGN_OR_RETURN(rapidjson::Document doc, ParseAnswer(*answer, "POST /v1/query"));
  std::string id = Member(doc, "query_run_id");
  if (id.empty()) {
    return MakeError(ErrorCode::kInvalidData, "POST /v1/query answered no query_run_id: ",
                     answer->substr(0, 200));
  }
  return id;
}

Result<sql::QueryResult> RemoteSqlSession::Await(Run& run) {
  client::HttpCall call;
  call.path = "/query-runs/" + client::EncodeSegment(run.id);
  auto pause = kFirstPoll;
  while (true) {
    Result<std::string> answer = calls_->Send(call);
    if (!answer.ok()) return ServerError(answer.error());
    HOGLAKE_ASSIGN_OR_RETURN(rapidjson::Document doc,
                             ParseAnswer(*answer, "GET /v1/query-runs/{id}"));
    const std::string status = Member(doc, "status");
    if (status == "succeeded") return FetchResult(Member(doc, "result_id"));
    if (status == "failed" || status == "cancelled") {
      std::string message = Member(doc, "error_message");
      if (message.empty()) message = "the query run " + run.id + " " + status;
      return RunError(message, Member(doc, "error_sqlstate"));
    }
    if (status != "running") {
      return MakeError(ErrorCode::kInvalidData, "the query run ", run.id, " has status '", status,
                       "'");
    }
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, kLongestPoll);
  }
}

Result<sql::QueryResult> RemoteSqlSession::FetchResult(const std::string& result_id) {
  client::HttpCall call;
  call.path = "/results/" + client::EncodeSegment(result_id);
  call.query.emplace_back("format", "arrow");
  Result<std::string> stream = downloads_->Send(call);
  if (!stream.ok()) return ServerError(stream.error());
  auto decoded = columnar::ReadIpcStream(*stream);
  if (!decoded.ok()) {
    return MakeError(ErrorCode::kInvalidData, "the result ", result_id,
                     " is not a readable Arrow IPC stream: ", decoded.error().message);
  }
  // Back to the engine's carriers, which the output writers read.
  const columnar::Schema& arrow = *decoded->first;
  auto carrier = std::make_shared<columnar::Schema>();
  carrier->metadata = arrow.metadata;
  sql::QueryResult result;
  for (const columnar::Field& field : arrow.fields) {
    Result<sql::SqlType> type = query::ArrowResultSqlType(field);
    if (!type.ok()) {
      return MakeError(ErrorCode::kInvalidData, "the result ", result_id, " has column \"",
                       field.name, "\" of Arrow type ", field.type->ToString(),
                       ", which is no SQL type");
    }
    result.columns.push_back(sql::ResultColumn{field.name, *type});
    carrier->fields.push_back(query::CarrierResultField(field));
  }
  result.schema = carrier;
  for (const columnar::RecordBatch& batch : decoded->second) {
    auto retyped = query::RetypeBatch(batch, result.schema);
    if (!retyped.ok()) {
      return MakeError(ErrorCode::kInvalidData, "the result ", result_id, ": ",
                       retyped.error().message);
    }
    result.batches.push_back(std::move(*retyped));
  }
  return result;
}

}  // namespace hoglake::cli
