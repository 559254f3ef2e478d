// How `hoglake sql` writes one statement's result: an aligned table (column
// names, then their SQL types) with a
// row count and the time taken (psql's look), CSV with a header, JSON lines
// (json and jsonl alike), or the result as an Arrow IPC stream or a Parquet
// file (the binary formats).
#pragma once

#include <ostream>
#include <string>

#include "common/status.h"
#include "sql/engine.h"

namespace hoglake::cli {

// The formats --format takes.
inline constexpr const char* kSqlFormats[] = {"table", "csv", "json", "jsonl", "arrow", "parquet"};

// arrow and parquet: one result per output, never to a terminal.
bool IsBinarySqlFormat(const std::string& format);

// Writes `result` to `out` in `format`; `millis` is the time the table shows.
Status WriteSqlResult(const sql::QueryResult& result, const std::string& format, double millis,
                      std::ostream& out);

}  // namespace hoglake::cli
