// `hoglake sql`: SQL queries over the lake, run in this process by the SQL
// engine (src/sql) against the catalog database directly:
//
//   hoglake sql [--data-dir DIR | --database-url URL] [--catalog C]
//               [--schema S] [--snapshot N]
//               [--format table|csv|json|jsonl|arrow|parquet] [--output FILE]
//               [QUERY | -f FILE]
//
// --data-dir reads the catalog of a `hoglake serve --data-dir DIR` (its
// embedded PostgreSQL must be running); --database-url any catalog
// database. Names are catalog.schema.table, or shorter with --catalog (and
// --schema, default "public"); a name the defaults do not resolve is looked
// up across the lake (the one table of that name). Results are written as
// sql_output.h says.
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
#include <iostream>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "catalog/catalog_service.h"
#include "catalog/lake_tables.h"
#include "cli/commands.h"
#include "cli/sql_line_reader.h"
#include "cli/sql_output.h"
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

// Runs statements one at a time on one session and writes their results.
class StatementRunner {
 public:
  StatementRunner(sql::Session& session, const std::string& format, std::ostream& out)
      : session_(session), format_(format), out_(out), spinner_(isatty(STDERR_FILENO) == 1) {}

  struct Outcome {
    bool ok = false;           // it ran and its result was written
    bool interrupted = false;  // Ctrl-C while it ran (it was cancelled)
  };

  // Runs `statement`; its result goes to the output, its error to stderr.
  Outcome Run(const std::string& statement) {
    Outcome outcome;
    const auto started = std::chrono::steady_clock::now();
    Result<sql::QueryResult> result = MakeError(ErrorCode::kInternal, "not run");
    {
      StatementWatch watch(session_, spinner_);
      result = session_.Execute(statement);
      outcome.interrupted = watch.Finish();
    }
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
  sql::Session& session_;
  const std::string format_;
  std::ostream& out_;
  const bool spinner_;
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

int RunSql(const SqlOptions& options) {
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
  std::string conninfo = options.database_url;
  if (conninfo.empty()) {
    if (options.data_dir.empty()) {
      std::cerr << "hoglake sql: give --data-dir (of a running hoglake serve) or --database-url\n";
      return 1;
    }
    conninfo = pg::EmbeddedPostgres::ConninfoFor(options.data_dir);
  }
  pg::PgPool pool(conninfo, 2);
  catalog::CatalogService service(&pool, catalog::CatalogServiceOptions{});
  std::unique_ptr<catalog::LakeTables> tables = catalog::LakeTablesOver(service);
  sql::SessionOptions session_options;
  session_options.tables = tables.get();
  session_options.default_catalog = options.catalog;
  session_options.default_schema = options.schema;
  session_options.at.snapshot = options.snapshot;
  session_options.search_lake = true;
  auto s3 = ResolveS3Config({});
  if (!s3.ok()) {
    std::cerr << "hoglake sql: " << s3.error().message << "\n";
    return 1;
  }
  session_options.s3 = *s3;
  sql::Session session(session_options);

  std::ofstream file;
  if (!options.output.empty()) {
    file.open(options.output, std::ios::binary | std::ios::trunc);
    if (!file) {
      std::cerr << "hoglake sql: cannot write " << options.output << "\n";
      return 1;
    }
  }
  std::ostream& out = options.output.empty() ? std::cout : file;
  StatementRunner runner(session, options.format, out);
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
      "sql", "Run SQL over the lake (in this process): a query, a script, or a prompt");
  sql->add_option("--data-dir", options->data_dir,
                  "Data directory of a running `hoglake serve` (its embedded PostgreSQL)");
  sql->add_option("--database-url", options->database_url, "The catalog database");
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
  sql->callback([options, &context] { context.exit_code = RunSql(*options); });
}

}  // namespace hoglake::cli
