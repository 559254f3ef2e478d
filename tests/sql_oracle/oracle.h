// The PostgreSQL-oracle corpus: its two text formats (fixture tables and
// query records) and how two answers to one query are compared. The runner
// (oracle_test.cc) loads the fixtures into a private PostgreSQL and into
// MemoryLake, runs every record on both, and requires the answers to agree.
//
// Fixture file (fixtures.tables):
//
//   # comment
//   table nums (id integer, a smallint, n numeric(10,2), t text)
//   1 | -5   | 1.50 | 'a|b'
//   2 | NULL | NaN  | ''
//   ---                          <- the rows below go to another Parquet file
//   3 | 7    | 0    | 'it''s'
//
// A `table` line names the table and its columns; the lines after it, up to
// the next `table` line, are its rows (none: an empty table). Instead of
// rows, a `from <query>` line fills a larger table: PostgreSQL runs
// INSERT INTO <table> <query> (generate_series and the like), and the rows
// it stored are read back as text and written to MemoryLake, 2000 a file. A row holds
// one field per column separated by `|`; fields are trimmed; NULL is SQL
// NULL; a field in single quotes ('' for a quote) is taken verbatim, any
// other field as written. Each field is PostgreSQL input text for the
// column's type: PostgreSQL reads it as a quoted literal in an INSERT,
// MemoryLake casts it from text with the engine's own input functions.
// Column types: smallint, integer, bigint, real, double precision,
// numeric(p,s), date, timestamp, timestamptz, text, boolean, bytea, and
// one-dimensional arrays of them ("integer[]": a list column in MemoryLake;
// fields in array_in's form, '{1,NULL,"a b"}').
//
// Corpus files (corpus/*.test): records separated by blank lines.
//
//   # comment (a line starting with '#', anywhere)
//   query                        <- rows compared as a multiset
//   SELECT a, b FROM t
//
//   query ordered                <- rows compared in order: only when
//   SELECT a FROM t ORDER BY a   <- ORDER BY fixes the order completely
//   ----
//   types: integer               <- optional: both sides' column types
//
//   query error 22012            <- both must fail with this SQLSTATE
//   SELECT 1 / 0
//
// The SQL is every line between the `query` line and the blank line (or
// `----`). Expected rows are never written down: PostgreSQL is the oracle.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace hoglake::sql::oracle {

// ---- fixtures ---------------------------------------------------------------

struct FixtureColumn {
  std::string name;
  std::string type;  // as written: "integer", "numeric(38,10)", "timestamptz"
};

using FixtureRow = std::vector<std::optional<std::string>>;  // nullopt = NULL

struct FixtureTable {
  std::string name;
  std::vector<FixtureColumn> columns;
  std::vector<std::vector<FixtureRow>> files;  // rows per Parquet file
  std::string from_query;                      // `from <query>`: rows made by PostgreSQL
};

// Parses a fixture file's text; throws std::runtime_error naming the line.
std::vector<FixtureTable> ParseFixtures(const std::string& text, const std::string& path);

// ---- corpus -----------------------------------------------------------------

struct Record {
  std::string file;
  int line = 0;  // of the `query` line
  bool ordered = false;
  std::optional<std::string> error_sqlstate;  // `query error <sqlstate>`
  std::string sql;
  std::optional<std::vector<std::string>> types;  // `types:` after `----`
};

// Parses a corpus file's text; throws std::runtime_error naming the line.
std::vector<Record> ParseCorpus(const std::string& text, const std::string& path);

// Splits "bigint, numeric(10,2), text" at top-level commas, trimmed.
std::vector<std::string> SplitTypeList(const std::string& list);

// ---- answers ----------------------------------------------------------------

// One side's answer: its column types (PostgreSQL's format_type spelling)
// and rows of values in PostgreSQL's text output form; or an error.
struct Answer {
  bool failed = false;
  std::string sqlstate;
  std::string message;
  std::vector<std::string> types;
  std::vector<std::vector<std::optional<std::string>>> rows;
};

// How values of a column are compared, by PostgreSQL's type of it.
enum class ValueKind { kExact, kNumeric, kFloat };
ValueKind KindOfType(const std::string& pg_type);

// Value equality under the corpus rules:
//   * NULL equals NULL only;
//   * numeric: by value (trailing zeros and scale do not matter). When the
//     two differ in scale and the finer one has a scale of 16 or more, both
//     are rounded to the smaller scale and compared again: that is a division
//     result (division, avg, variance, stddev), whose scale PostgreSQL picks
//     per value (select_div_scale: at least 16 significant digits, so 20
//     fraction digits for 1/3.0 but none for a quotient of 10^19) while the
//     engine's one carrier per column has a fixed scale of at least 16;
//   * float (real, double precision): NaN equals NaN, infinities must match,
//     others within a relative 1e-12 (summation order differs); so -0 equals
//     0 (PostgreSQL itself treats them as one value, e.g. in GROUP BY, so
//     which one is shown is not defined);
//   * everything else: the text exactly.
bool ValuesEqual(ValueKind kind, const std::optional<std::string>& a,
                 const std::optional<std::string>& b);

// Whether two column type spellings agree: equal, or PostgreSQL's "numeric"
// against the engine's "numeric(38,s)". That one difference is known and
// kept: where CASE, COALESCE, GREATEST/LEAST or a set operation unify
// numerics of different scales (or a numeric with an integer), the engine
// carries the result in one decimal128(38,s) and names that precision, while
// PostgreSQL calls it unconstrained numeric; the values compare by value.
bool TypesAgree(const std::string& pg, const std::string& engine);

// Compares PostgreSQL's answer (`expected`) with the engine's; on a
// difference returns why (empty: they agree). `ordered` compares rows in
// order, otherwise as multisets.
std::string CompareAnswers(const Record& record, const Answer& expected, const Answer& actual);

// An answer as text for failure messages: "types: …" then one row a line.
std::string RenderAnswer(const Answer& answer);

}  // namespace hoglake::sql::oracle
