// Renders a stored result (ResultReader) in the formats GET /v1/results
// serves (hotdata-api.md §2.5):
//   arrow     the Arrow IPC stream format (schema, batches, end marker);
//             raw IEEE floats
//   json      {"result_id", "status": "ready", "columns", "nullable",
//             "rows": [[…]], "row_count"}: row-major values — booleans,
//             integers and numerics as JSON numbers, NaN/±Infinity as null,
//             arrays as JSON arrays, composites as objects by field name,
//             maps as objects keyed by the key's text form (members in the
//             same forms), everything else in PostgreSQL's text form
//   csv       a header row, then rows; LF line ends; fields quoted when they
//             hold a comma, quote or line break; NULL and NaN empty; nested
//             values in PostgreSQL's text form ("{1,2}", "(1,x)")
//   md        a GitHub pipe table
// `offset` rows are skipped and at most `limit` rows rendered (nullopt =
// to the end). The body comes as segments (the rows are never joined into
// one string).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "columnar/array.h"
#include "query/query_vocabulary.h"
#include "query/result_store.h"
#include "query/run_store.h"
#include "sql/types/sql_type.h"

namespace hoglake::query {

struct RenderedResult {
  std::vector<std::string> segments;
  int64_t rows = 0;  // rows in the body
};

Result<RenderedResult> RenderResult(ResultReader& reader,
                                    const std::vector<ResultColumnSpec>& columns,
                                    const std::string& result_id, ResultFormat format,
                                    int64_t offset, std::optional<int64_t> limit);

// The SQL types of a stored result's columns: from the Parquet schema, with
// the recorded type names where the carrier alone is ambiguous (interval).
std::vector<sql::SqlType> ResultColumnTypes(const columnar::Schema& schema,
                                            const std::vector<ResultColumnSpec>& columns);

// Appends rows [begin, end) of `batch` as JSON arrays ("[v, …]"), separated
// by commas, stopping early once `*out` grows past `max_bytes`; returns the
// rows appended. A NaN or infinity sets (*nan_columns)[c].
int64_t AppendJsonRows(const columnar::RecordBatch& batch, const std::vector<sql::SqlType>& types,
                       int64_t begin, int64_t end, size_t max_bytes, bool first,
                       std::vector<bool>* nan_columns, std::string* out);

}  // namespace hoglake::query
