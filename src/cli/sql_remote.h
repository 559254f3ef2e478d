// `hoglake sql --server[=URL]`: statements run by a server's query API
// (docs/query-api.md) instead of in this process, for an operator who
// reaches the server over HTTP but not its catalog database.
//
// Each statement is POSTed to /v1/query with "async": true (and the
// default catalog and schema, when given), its run polled at
// GET /v1/query-runs/{id} with a short backoff (10 ms doubling to 250 ms),
// and a succeeded run's result fetched from GET /v1/results/{id} as an
// Arrow IPC stream (format=arrow) and decoded into the sql::QueryResult the
// in-process mode writes (sql_output.h), column types read from the
// stream's schema (intervals arrive as interval[month_day_nano], uuids as
// arrow.uuid: result_arrow.h). Requests carry HOGLAKE_API_TOKEN as the
// bearer token.
//
// Ctrl-C while a statement runs (StatementWatch) asks the server to cancel
// the run (POST /v1/query-runs/{id}/cancel, once); the run then ends
// cancelled and Execute fails with its error (57014). A failed run fails
// with the server's error_message and error_sqlstate; a refused request
// (401 for a wrong token, say) or an unreachable server with the HTTP
// error, naming the server.
//
// Not across the API: --snapshot (the query API reads the current
// snapshot). The table's header names a numeric by
// its carrier's precision (numeric(38,1) for a bare numeric) and a json
// column as text; the values are the same.
#pragma once

#include <memory>
#include <string>

#include "client/transport.h"
#include "common/status.h"
#include "sql/engine.h"

namespace hoglake::cli {

struct RemoteSqlOptions {
  std::string server_url;  // "http://host:port"
  client::ClientOptions client;
  std::string default_catalog;  // empty: the server's default
  std::string default_schema;   // empty: the server's default
  bool spinner = false;         // stderr is a terminal
};

class RemoteSqlSession {
 public:
  explicit RemoteSqlSession(RemoteSqlOptions options);
  ~RemoteSqlSession();
  RemoteSqlSession(const RemoteSqlSession&) = delete;
  RemoteSqlSession& operator=(const RemoteSqlSession&) = delete;

  // Runs `statement` on the server and returns its whole result;
  // `*interrupted` says whether Ctrl-C was pressed while it ran.
  Result<sql::QueryResult> Execute(const std::string& statement, bool* interrupted);

 private:
  struct Run;
  Result<std::string> Submit(const std::string& statement);
  Result<sql::QueryResult> Await(Run& run);
  Result<sql::QueryResult> FetchResult(const std::string& result_id);
  Error ServerError(const Error& error) const;

  RemoteSqlOptions options_;
  std::unique_ptr<client::Transport> calls_;      // submit, poll, cancel
  std::unique_ptr<client::Transport> downloads_;  // results: no time limit
};

}  // namespace hoglake::cli
