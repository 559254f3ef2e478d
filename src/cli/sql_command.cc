// `hoglake sql`: one SQL query over the lake, run in this process by the
// SQL engine (src/sql) against the catalog database directly:
//
//   hoglake sql [--data-dir DIR | --database-url URL] [--catalog C]
//               [--schema S] [--snapshot N]
//               [--format table|csv|json|jsonl|arrow|parquet] [--output FILE]
//               (QUERY | -f FILE)
//
// --data-dir reads the catalog of a `hoglake serve --data-dir DIR` (its
// embedded PostgreSQL must be running); --database-url any catalog
// database. Names in QUERY are catalog.schema.table, or shorter with
// --catalog (and --schema, default "public"). The result prints as an
// aligned table with a row count and the time taken (psql's look), CSV with
// a header, JSON lines (json and jsonl alike), or the result as an Arrow IPC
// stream or a Parquet file (--output, or stdout when it is not a terminal).
// A name the defaults do not resolve is looked up across the lake (the one
// table of that name). Errors print with their SQLSTATE and exit 1; bad
// usage exits 2.
#include <CLI/CLI.hpp>

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <memory>
#include <optional>

#include "catalog/catalog_service.h"
#include "catalog/lake_tables.h"
#include "cli/commands.h"
#include "columnar/ipc/ipc_writer.h"
#include "common/json_writer.h"
#include "parquet/writer.h"
#include "pg/embedded_postgres.h"
#include "pg/pg_pool.h"
#include "sql/engine.h"
#include "sql/types/value.h"
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

std::vector<std::vector<std::string>> Cells(const sql::QueryResult& result,
                                            std::vector<std::vector<bool>>* nulls) {
  std::vector<std::vector<std::string>> rows;
  for (const columnar::RecordBatch& batch : result.batches) {
    for (int64_t r = 0; r < batch.num_rows; ++r) {
      std::vector<std::string> row;
      std::vector<bool> null_row;
      for (size_t c = 0; c < result.columns.size(); ++c) {
        sql::Value v = sql::ValueAt(*batch.columns[c], r, result.columns[c].type);
        null_row.push_back(v.is_null);
        row.push_back(v.is_null ? "" : sql::ValueToString(v));
      }
      rows.push_back(std::move(row));
      nulls->push_back(std::move(null_row));
    }
  }
  return rows;
}

void PrintTable(const sql::QueryResult& result, double millis) {
  std::vector<std::vector<bool>> nulls;
  std::vector<std::vector<std::string>> rows = Cells(result, &nulls);
  std::vector<size_t> width;
  for (const sql::ResultColumn& c : result.columns) width.push_back(c.name.size());
  for (const auto& row : rows) {
    for (size_t c = 0; c < row.size(); ++c) width[c] = std::max(width[c], row[c].size());
  }
  auto line = [&](const std::vector<std::string>& cells, bool numeric_right) {
    std::string out;
    for (size_t c = 0; c < cells.size(); ++c) {
      out += c == 0 ? " " : " | ";
      bool right = numeric_right && result.columns[c].type.is_numeric_kind();
      std::string pad(width[c] - cells[c].size(), ' ');
      out += right ? pad + cells[c] : cells[c] + pad;
    }
    std::cout << out << "\n";
  };
  std::vector<std::string> header;
  for (const sql::ResultColumn& c : result.columns) header.push_back(c.name);
  line(header, false);
  std::string rule;
  for (size_t c = 0; c < width.size(); ++c)
    rule += (c == 0 ? "-" : "-+-") + std::string(width[c], '-');
  std::cout << rule << "-\n";
  for (const auto& row : rows) line(row, true);
  std::cout << "(" << rows.size() << (rows.size() == 1 ? " row)" : " rows)") << "\n";
  char time[64];
  std::snprintf(time, sizeof(time), "Time: %.3f ms\n", millis);
  std::cout << time;
}

std::string CsvField(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

void PrintCsv(const sql::QueryResult& result) {
  std::vector<std::vector<bool>> nulls;
  std::vector<std::vector<std::string>> rows = Cells(result, &nulls);
  for (size_t c = 0; c < result.columns.size(); ++c) {
    std::cout << (c ? "," : "") << CsvField(result.columns[c].name);
  }
  std::cout << "\n";
  for (const auto& row : rows) {
    for (size_t c = 0; c < row.size(); ++c) std::cout << (c ? "," : "") << CsvField(row[c]);
    std::cout << "\n";
  }
}

void PrintJson(const sql::QueryResult& result) {
  std::vector<std::vector<bool>> nulls;
  std::vector<std::vector<std::string>> rows = Cells(result, &nulls);
  for (size_t r = 0; r < rows.size(); ++r) {
    JsonWriter json;
    json.BeginObject();
    for (size_t c = 0; c < rows[r].size(); ++c) {
      json.Key(result.columns[c].name);
      if (nulls[r][c]) {
        json.Null();
      } else {
        json.String(rows[r][c]);
      }
    }
    json.EndObject();
    std::cout << json.Take() << "\n";
  }
}

Status WriteBinary(const sql::QueryResult& result, const std::string& format, std::ostream& out) {
  auto sink = [&out](std::string_view bytes) -> Status {
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!out) return MakeError(ErrorCode::kIoError, "writing the result failed");
    return Status::Ok();
  };
  if (format == "arrow") {
    columnar::IpcStreamWriter writer(sink);
    HOGLAKE_RETURN_IF_ERROR(writer.Start(*result.schema));
    for (const columnar::RecordBatch& b : result.batches)
      HOGLAKE_RETURN_IF_ERROR(writer.WriteBatch(b));
    return writer.Close();
  }
  HOGLAKE_ASSIGN_OR_RETURN(auto writer, parquet::ParquetWriter::OpenSink(sink, result.schema));
  for (const columnar::RecordBatch& b : result.batches)
    HOGLAKE_RETURN_IF_ERROR(writer->WriteBatch(b));
  return writer->Close().status();
}

int RunSql(SqlOptions options) {
  if (!options.file.empty()) {
    if (!options.query.empty()) {
      std::cerr << "hoglake sql: give the query or -f FILE, not both\n";
      return 2;
    }
    std::ifstream in(options.file);
    if (!in) {
      std::cerr << "hoglake sql: cannot read " << options.file << "\n";
      return 1;
    }
    options.query.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  if (options.query.empty()) {
    std::cerr << "hoglake sql: give a query (or -f FILE)\n";
    return 2;
  }
  const bool binary = options.format == "arrow" || options.format == "parquet";
  if (binary && options.output.empty() && isatty(STDOUT_FILENO)) {
    std::cerr << "hoglake sql: --format " << options.format
              << " writes binary: give --output FILE or redirect stdout\n";
    return 2;
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
  const auto started = std::chrono::steady_clock::now();
  auto result = session.Execute(options.query);
  const double millis =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
  if (!result.ok()) {
    const Error& e = result.error();
    std::cerr << "ERROR";
    if (!e.detail.sqlstate.empty()) std::cerr << " " << e.detail.sqlstate;
    std::cerr << ": " << e.message << "\n";
    return 1;
  }
  std::ofstream file;
  std::streambuf* saved = nullptr;
  if (!options.output.empty()) {
    file.open(options.output, std::ios::binary | std::ios::trunc);
    if (!file) {
      std::cerr << "hoglake sql: cannot write " << options.output << "\n";
      return 1;
    }
    saved = std::cout.rdbuf(file.rdbuf());
  }
  Status written = Status::Ok();
  if (binary) {
    written = WriteBinary(*result, options.format, std::cout);
  } else if (options.format == "csv") {
    PrintCsv(*result);
  } else if (options.format == "json" || options.format == "jsonl") {
    PrintJson(*result);
  } else {
    PrintTable(*result, millis);
  }
  std::cout.flush();
  if (saved) std::cout.rdbuf(saved);
  if (!written.ok()) {
    std::cerr << "hoglake sql: " << written.error().message << "\n";
    return 1;
  }
  return 0;
}

}  // namespace

void RegisterSqlCommand(CLI::App& app, CommandContext& context) {
  auto options = std::make_shared<SqlOptions>();
  CLI::App* sql = app.add_subcommand("sql", "Run a SQL query over the lake (in this process)");
  sql->add_option("--data-dir", options->data_dir,
                  "Data directory of a running `hoglake serve` (its embedded PostgreSQL)");
  sql->add_option("--database-url", options->database_url, "The catalog database");
  sql->add_option("--catalog", options->catalog, "Default catalog for unqualified names");
  sql->add_option("--schema", options->schema, "Default schema (namespace)");
  sql->add_option("--snapshot", options->snapshot, "Read the catalog at this snapshot id");
  sql->add_option("--format", options->format, "table, csv, json, jsonl, arrow or parquet")
      ->check(CLI::IsMember({"table", "csv", "json", "jsonl", "arrow", "parquet"}));
  sql->add_option("--output,-o", options->output, "Write the result to this file");
  sql->add_option("-f,--file", options->file, "Read the query from this file");
  sql->add_option("query", options->query, "The SQL query");
  sql->callback([options, &context] { context.exit_code = RunSql(*options); });
}

}  // namespace hoglake::cli
