// `hoglake sql`: SQL queries over the lake, run in this process by the SQL
// engine (src/sql) against the catalog database directly, or with --server
// by a server's query API (sql_remote.h):
//
//   hoglake sql [--data-dir DIR | --database-url URL | --server[=URL]]
//               [--catalog C] [--schema S] [--snapshot N]
//               [--format table|csv|json|jsonl|arrow|parquet] [--output FILE]
//               [QUERY | -f FILE]
//
// --data-dir reads the catalog of a `hoglake serve --data-dir DIR` (its
// embedded PostgreSQL must be running); --database-url any catalog
// database. Names are catalog.schema.table, or shorter with --catalog (and
// --schema, default "public"); a name the defaults do not resolve is looked
// up across the lake (the one table of that name). --server alone talks to
// the server the client commands use (--url, else $HOGLAKE_URL), with
// $HOGLAKE_API_TOKEN; `--server URL` names it (a value that does not start
// with http:// or https:// is the query). Results are written as
// sql_output.h says, whichever runs them.
//
// Without QUERY the statements come from FILE, or from stdin: piped, they
// run in order, each as its ';' arrives; on a terminal, an interactive
// prompt reads them (sql_line_reader.h), with \q, quit, exit or Ctrl-D to
// leave. Ctrl-C cancels the running statement (sql_statement_watch.h),
// which fails with 57014; at the prompt it clears what was typed. On a
// terminal a spinner on stderr shows a long statement's time and rows
// scanned.
//
// Errors print with their SQLSTATE. Exit codes: 0 every statement ran, 1 a
// statement failed or was cancelled (a script stops there; the prompt goes
// on and exits 0), 2 bad usage (no statement at all, say).
#include <CLI/CLI.hpp>

#include <unistd.h>

#include <chrono>
#include <fstream>
#include <functional>
#include <iostream>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "catalog/catalog_service.h"
#include "catalog/lake_tables.h"
#include "cli/client_support.h"
#include "cli/commands.h"
#include "cli/sql_line_reader.h"
#include "cli/sql_output.h"
#include "cli/sql_remote.h"
#include "cli/sql_statement_watch.h"
#include "pg/embedded_postgres.h"
#include "pg/pg_pool.h"
#include "sql/engine.h"
#include "sql/parser/statement_splitter.h"
#include "storage/s3_config.h"

namespace hoglake::cli {
namespace {

struct SqlOptions {
  std::string data_dir;
  std::string database_url;
  bool remote = false;  // --server given
  std::string server;   // its URL; empty: the client commands' server
  std::string catalog;
  std::string schema = "public";
  std::optional<int64_t> snapshot;
  std::string format = "table";
  std::string output;
  std::string file;
  std::string query;
};

void PrintError(const Error& e) {
  std::cerr << "ERROR";
  if (!e.detail.sqlstate.empty()) std::cerr << " " << e.detail.sqlstate;
  std::cerr << ": " << e.message << "\n";
}

// Runs one statement to its whole result, setting whether Ctrl-C was
// pressed meanwhile (in this process, or on a server).
using ExecuteStatement =
    std::function<Result<sql::QueryResult>(const std::string& statement, bool* interrupted)>;

// Runs statements one at a time and writes their results.
class StatementRunner {
 public:
  StatementRunner(ExecuteStatement execute, const std::string& format, std::ostream& out)
      : execute_(std::move(execute)), format_(format), out_(out) {}

  struct Outcome {
    bool ok = false;           // it ran and its result was written
    bool interrupted = false;  // Ctrl-C while it ran (it was cancelled)
  };

  // Runs `statement`; its result goes to the output, its error to stderr.
  Outcome Run(const std::string& statement) {
    Outcome outcome;
    const auto started = std::chrono::steady_clock::now();
    Result<sql::QueryResult> result = execute_(statement, &outcome.interrupted);
    const double millis =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started)
            .count();
    if (!result.ok()) {
      PrintError(result.error());
      return outcome;
    }
    Status written = WriteSqlResult(*result, format_, millis, out_);
    if (!written.ok()) {
      std::cerr << "hoglake sql: " << written.error().message << "\n";
      return outcome;
    }
    outcome.ok = true;
    return outcome;
  }

 private:
  const ExecuteStatement execute_;
  const std::string format_;
  std::ostream& out_;
};

enum class LineCommand { kNone, kQuit, kUnknown };

// A line that is a command rather than SQL (only between statements):
// \q, quit and exit leave; any other backslash command is unknown.
LineCommand CommandOf(const std::string& line) {
  const size_t begin = line.find_first_not_of(" \t");
  if (begin == std::string::npos) return LineCommand::kNone;
  std::string word = line.substr(begin, line.find_last_not_of(" \t;") + 1 - begin);
  if (word == "\\q" || word == "quit" || word == "exit") return LineCommand::kQuit;
  return word[0] == '\\' ? LineCommand::kUnknown : LineCommand::kNone;
}

// Runs the statements read from `reader` in order, each as its ';' arrives.
// A script (not interactive) stops at its first failed or interrupted
// statement and returns 1; it returns 2 when it held no statement (and no
// \q), else 0; its last statement may omit the ';'. The prompt reports
// errors and goes on, a Ctrl-C dropping the rest of the line; it returns 0
// at \q or Ctrl-D.
int RunLines(LineReader& reader, bool interactive, StatementRunner& runner) {
  sql::StatementSplitter splitter;
  bool anything = false;
  while (true) {
    const InputLine line = reader.Read(splitter.Pending());
    if (line.kind == InputLine::Kind::kEnd) break;
    if (line.kind == InputLine::Kind::kInterrupted) {
      splitter.Clear();
      continue;
    }
    if (!splitter.Pending()) {
      const LineCommand command = CommandOf(line.text);
      if (command == LineCommand::kQuit) return 0;
      if (command == LineCommand::kUnknown) {
        std::cerr << "hoglake sql: unknown command " << line.text << " (\\q quits)\n";
        if (!interactive) return 1;
        continue;
      }
    }
    for (const std::string& statement : splitter.Feed(line.text + "\n")) {
      anything = true;
      const StatementRunner::Outcome outcome = runner.Run(statement);
      if (!interactive && (!outcome.ok || outcome.interrupted)) return 1;
      if (outcome.interrupted) {
        splitter.Clear();
        break;
      }
    }
  }
  if (interactive) return 0;
  if (std::optional<std::string> last = splitter.Finish()) {
    const StatementRunner::Outcome outcome = runner.Run(*last);
    return outcome.ok && !outcome.interrupted ? 0 : 1;
  }
  if (!anything) {
    std::cerr << "hoglake sql: give a query (or -f FILE, or statements on stdin)\n";
    return 2;
  }
  return 0;
}

// Every statement `reader` yields, read before any runs (a binary format
// writes one result, so its input must hold exactly one).
std::vector<std::string> ReadStatements(LineReader& reader) {
  sql::StatementSplitter splitter;
  std::vector<std::string> statements;
  while (true) {
    const InputLine line = reader.Read(splitter.Pending());
    if (line.kind != InputLine::Kind::kLine) break;
    if (!splitter.Pending() && CommandOf(line.text) == LineCommand::kQuit) break;
    for (std::string& s : splitter.Feed(line.text + "\n")) statements.push_back(std::move(s));
  }
  if (std::optional<std::string> last = splitter.Finish()) statements.push_back(*last);
  return statements;
}

// What runs the statements: a server's query API (--server), or an engine
// session over the catalog database.
struct StatementBackend {
  std::unique_ptr<RemoteSqlSession> remote;
  std::unique_ptr<pg::PgPool> pool;
  std::unique_ptr<catalog::CatalogService> service;
  std::unique_ptr<catalog::LakeTables> tables;
  std::unique_ptr<sql::Session> session;
  ExecuteStatement execute;

  Status Open(const SqlOptions& options, const CommandContext& context) {
    const bool spinner = isatty(STDERR_FILENO) == 1;
    if (options.remote) {
      RemoteSqlOptions remote_options;
      remote_options.server_url = options.server.empty() ? ServerUrl(context) : options.server;
      remote_options.client = MakeClientOptions();
      remote_options.default_catalog = options.catalog;
      remote_options.default_schema = options.schema;
      remote_options.spinner = spinner;
      remote = std::make_unique<RemoteSqlSession>(std::move(remote_options));
      execute = [this](const std::string& statement, bool* interrupted) {
        return remote->Execute(statement, interrupted);
      };
      return Status::Ok();
    }
    std::string conninfo = options.database_url;
    if (conninfo.empty()) {
      if (options.data_dir.empty()) {
        return MakeError(ErrorCode::kInvalidArgument,
                         "give --data-dir (of a running hoglake serve), --database-url or "
                         "--server");
      }
      conninfo = pg::EmbeddedPostgres::ConninfoFor(options.data_dir);
    }
    pool = std::make_unique<pg::PgPool>(conninfo, 2);
    service =
        std::make_unique<catalog::CatalogService>(pool.get(), catalog::CatalogServiceOptions{});
    tables = catalog::LakeTablesOver(*service);
    sql::SessionOptions session_options;
    session_options.tables = tables.get();
    session_options.default_catalog = options.catalog;
    session_options.default_schema = options.schema;
    session_options.at.snapshot = options.snapshot;
    session_options.search_lake = true;
    HOGLAKE_ASSIGN_OR_RETURN(session_options.s3, ResolveS3Config({}));
    session = std::make_unique<sql::Session>(session_options);
    execute = [this, spinner](const std::string& statement, bool* interrupted) {
      StatementWatch watch(*session, spinner);
      Result<sql::QueryResult> result = session->Execute(statement);
      *interrupted = watch.Finish();
      return result;
    };
    return Status::Ok();
  }
};

// --server's value when it is no URL: the query CLI11 took for one
// (`--server "SELECT 1"`). false when a query was given besides.
bool TakeQueryFromServer(SqlOptions& options) {
  if (options.server.empty() || options.server.starts_with("http://") ||
      options.server.starts_with("https://")) {
    return true;
  }
  if (!options.query.empty()) return false;
  options.query = std::move(options.server);
  options.server.clear();
  return true;
}

int RunSql(SqlOptions options, const CommandContext& context) {
  if (options.remote) {
    if (!TakeQueryFromServer(options)) {
      std::cerr << "hoglake sql: --server '" << options.server
                << "' is not an http:// or https:// URL\n";
      return 2;
    }
    if (!options.data_dir.empty() || !options.database_url.empty()) {
      std::cerr << "hoglake sql: --server runs the statements on the server: give it without "
                   "--data-dir and --database-url\n";
      return 2;
    }
    if (options.snapshot) {
      std::cerr << "hoglake sql: --snapshot is not supported with --server (the query API reads "
                   "the current snapshot)\n";
      return 2;
    }
  }
  if (!options.file.empty() && !options.query.empty()) {
    std::cerr << "hoglake sql: give the query or -f FILE, not both\n";
    return 2;
  }
  const bool binary = IsBinarySqlFormat(options.format);
  if (binary && options.output.empty() && isatty(STDOUT_FILENO)) {
    std::cerr << "hoglake sql: --format " << options.format
              << " writes binary: give --output FILE or redirect stdout\n";
    return 2;
  }
  const bool interactive =
      options.query.empty() && options.file.empty() && isatty(STDIN_FILENO) == 1;
  if (interactive && binary) {
    std::cerr << "hoglake sql: --format " << options.format
              << " writes one result: give the query or -f FILE\n";
    return 2;
  }
  std::ifstream script;
  if (!options.file.empty()) {
    script.open(options.file);
    if (!script) {
      std::cerr << "hoglake sql: cannot read " << options.file << "\n";
      return 1;
    }
  }
  StatementBackend backend;
  if (Status opened = backend.Open(options, context); !opened.ok()) {
    std::cerr << "hoglake sql: " << opened.error().message << "\n";
    return 1;
  }
  std::ofstream file;
  if (!options.output.empty()) {
    file.open(options.output, std::ios::binary | std::ios::trunc);
    if (!file) {
      std::cerr << "hoglake sql: cannot write " << options.output << "\n";
      return 1;
    }
  }
  std::ostream& out = options.output.empty() ? std::cout : file;
  StatementRunner runner(backend.execute, options.format, out);
  if (!options.query.empty()) return runner.Run(options.query).ok ? 0 : 1;
  if (interactive) {
    std::unique_ptr<LineReader> prompt = TerminalLineReader(
        options.catalog.empty() ? "hoglake" : options.catalog, DefaultHistoryFile());
    return RunLines(*prompt, true, runner);
  }
  std::unique_ptr<LineReader> reader =
      StreamLineReader(options.file.empty() ? std::cin : static_cast<std::istream&>(script));
  if (!binary) return RunLines(*reader, false, runner);
  const std::vector<std::string> statements = ReadStatements(*reader);
  if (statements.size() != 1) {
    std::cerr << "hoglake sql: --format " << options.format
              << " writes one result, but the input holds " << statements.size() << " statements\n";
    return 2;
  }
  return runner.Run(statements[0]).ok ? 0 : 1;
}

}  // namespace

void RegisterSqlCommand(CLI::App& app, CommandContext& context) {
  auto options = std::make_shared<SqlOptions>();
  CLI::App* sql = app.add_subcommand(
      "sql",
      "Run SQL over the lake (in this process, or on a server with --server): a query, a "
      "script, or a prompt");
  sql->add_option("--data-dir", options->data_dir,
                  "Data directory of a running `hoglake serve` (its embedded PostgreSQL)");
  sql->add_option("--database-url", options->database_url, "The catalog database");
  sql->add_option("--server", options->server,
                  "Run the statements on this server's query API (no URL: --url, else "
                  "$HOGLAKE_URL; token from $HOGLAKE_API_TOKEN)")
      ->expected(0, 1);
  sql->add_option("--catalog", options->catalog, "Default catalog for unqualified names");
  sql->add_option("--schema", options->schema, "Default schema (namespace)");
  sql->add_option("--snapshot", options->snapshot, "Read the catalog at this snapshot id");
  sql->add_option("--format", options->format, "table, csv, json, jsonl, arrow or parquet")
      ->check(
          CLI::IsMember(std::vector<std::string>(std::begin(kSqlFormats), std::end(kSqlFormats))));
  sql->add_option("--output,-o", options->output, "Write the result to this file");
  sql->add_option("-f,--file", options->file, "Run the statements of this file");
  sql->add_option("query", options->query,
                  "The SQL query (none: statements from stdin, or a prompt on a terminal)");
  sql->callback([sql, options, &context] {
    options->remote = sql->count("--server") > 0;
    context.exit_code = RunSql(*options, context);
  });
}

}  // namespace hoglake::cli
