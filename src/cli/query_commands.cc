// `hoglake query-runs …` and `hoglake results …`: the server's query runs
// and results through its query API (docs/query-api.md), with --url (or
// HOGLAKE_URL) and HOGLAKE_API_TOKEN:
//
//   hoglake query-runs list [--limit N] [--status running,failed]
//   hoglake query-runs show ID          the run as JSON
//   hoglake query-runs cancel ID
//   hoglake results get ID [--format csv|json|md|arrow|parquet]
//                          [--offset N] [--limit N] [--output FILE]
//
// Errors print the server's message and exit 1.
#include <CLI/CLI.hpp>

#include <rapidjson/document.h>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>

#include "cli/client_support.h"
#include "cli/commands.h"
#include "client/transport.h"

namespace hoglake::cli {
namespace {

int Fail(const Status& status) {
  std::cerr << "hoglake: " << status.ToString() << "\n";
  return 1;
}

Result<std::string> Call(const CommandContext& context, client::HttpCall call) {
  client::Transport transport(ServerUrl(context), MakeClientOptions());
  return transport.Send(call);
}

std::string Text(const rapidjson::Value& v, const char* key) {
  if (!v.IsObject() || !v.HasMember(key)) return "";
  const rapidjson::Value& m = v[key];
  if (m.IsString()) return m.GetString();
  if (m.IsInt64()) return std::to_string(m.GetInt64());
  return "";
}

int ListRuns(const CommandContext& context, int64_t limit, const std::string& status) {
  client::HttpCall call;
  call.path = "/query-runs";
  call.query.emplace_back("limit", std::to_string(limit));
  if (!status.empty()) call.query.emplace_back("status", status);
  Result<std::string> body = Call(context, call);
  if (!body.ok()) return Fail(body.status());
  rapidjson::Document doc;
  doc.Parse(body->c_str());
  if (!doc.IsObject() || !doc.HasMember("query_runs")) {
    return Fail(MakeError(ErrorCode::kInvalidData, "unexpected answer: " + *body));
  }
  std::printf("%-30s  %-9s  %-27s  %9s  %8s  %s\n", "ID", "STATUS", "CREATED", "ROWS", "MS", "SQL");
  for (const auto& run : doc["query_runs"].GetArray()) {
    std::string sql = Text(run, "sql_text");
    for (char& c : sql) {
      if (c == '\n' || c == '\r' || c == '\t') c = ' ';
    }
    if (sql.size() > 60) sql = sql.substr(0, 57) + "...";
    std::printf("%-30s  %-9s  %-27s  %9s  %8s  %s\n", Text(run, "id").c_str(),
                Text(run, "status").c_str(), Text(run, "created_at").c_str(),
                Text(run, "row_count").c_str(), Text(run, "execution_time_ms").c_str(),
                sql.c_str());
  }
  if (doc["has_more"].IsTrue())
    std::printf("(more: --limit %lld)\n", static_cast<long long>(limit * 2));
  return 0;
}

int PrintRun(const CommandContext& context, const std::string& id, bool cancel) {
  client::HttpCall call;
  call.path = "/query-runs/" + client::EncodeSegment(id) + (cancel ? "/cancel" : "");
  if (cancel) {
    call.method = client::HttpMethod::kPost;
    call.retry = client::RetryPolicy::kSafe;
  }
  Result<std::string> body = Call(context, call);
  if (!body.ok()) return Fail(body.status());
  std::cout << *body << "\n";
  return 0;
}

struct GetOptions {
  std::string id;
  std::string format = "csv";
  std::optional<int64_t> offset;
  std::optional<int64_t> limit;
  std::string output;
};

int GetResult(const CommandContext& context, const GetOptions& options) {
  client::HttpCall call;
  call.path = "/results/" + client::EncodeSegment(options.id);
  call.query.emplace_back("format", options.format);
  if (options.offset) call.query.emplace_back("offset", std::to_string(*options.offset));
  if (options.limit) call.query.emplace_back("limit", std::to_string(*options.limit));
  Result<std::string> body = Call(context, call);
  if (!body.ok()) return Fail(body.status());
  if (options.output.empty()) {
    std::cout << *body;
    return 0;
  }
  std::ofstream out(options.output, std::ios::binary);
  out << *body;
  out.close();
  if (!out) return Fail(MakeError(ErrorCode::kIoError, "cannot write " + options.output));
  return 0;
}

}  // namespace

void RegisterQueryCommands(CLI::App& app, CommandContext& context) {
  CLI::App* runs = app.add_subcommand("query-runs", "The server's SQL query runs (query API)");
  runs->require_subcommand(1);
  auto list_limit = std::make_shared<int64_t>(20);
  auto list_status = std::make_shared<std::string>();
  CLI::App* list = runs->add_subcommand("list", "Recent runs, newest first");
  list->add_option("--limit", *list_limit, "How many")->check(CLI::Range(1, 1000));
  list->add_option("--status", *list_status, "running, succeeded, failed, cancelled (comma list)");
  list->callback([&context, list_limit, list_status] {
    context.exit_code = ListRuns(context, *list_limit, *list_status);
  });
  auto run_id = std::make_shared<std::string>();
  CLI::App* show = runs->add_subcommand("show", "One run as JSON");
  show->add_option("id", *run_id, "The run id (qrun…)")->required();
  show->callback([&context, run_id] { context.exit_code = PrintRun(context, *run_id, false); });
  CLI::App* cancel = runs->add_subcommand("cancel", "Cancel a run");
  cancel->add_option("id", *run_id, "The run id (qrun…)")->required();
  cancel->callback([&context, run_id] { context.exit_code = PrintRun(context, *run_id, true); });

  CLI::App* results = app.add_subcommand("results", "Stored query results (query API)");
  results->require_subcommand(1);
  auto get_options = std::make_shared<GetOptions>();
  CLI::App* get = results->add_subcommand("get", "A result's rows");
  get->add_option("id", get_options->id, "The result id (rslt…)")->required();
  get->add_option("--format", get_options->format, "csv, json, md, arrow or parquet")
      ->check(CLI::IsMember({"csv", "json", "md", "markdown", "arrow", "parquet"}));
  get->add_option("--offset", get_options->offset, "Skip this many rows");
  get->add_option("--limit", get_options->limit, "At most this many rows");
  get->add_option("--output", get_options->output, "Write to this file instead of stdout");
  get->callback([&context, get_options] { context.exit_code = GetResult(context, *get_options); });
}

}  // namespace hoglake::cli
