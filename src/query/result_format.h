// Renders a stored result (ResultReader) in the formats GET /v1/results
// serves (hotdata-api.md §2.5):
//   arrow     the Arrow IPC stream format (schema, batches, end marker);
//             raw IEEE floats; intervals as interval[month_day_nano] and
//             uuids as arrow.uuid (result_arrow.h)
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
// to the end).
//
// ResultRenderer renders incrementally, for a body streamed while it is
// sent: each Next renders at most one slice of a stored row group
// (kSliceRows rows), so it holds one decoded row group and one piece at a
// time however large the result. RenderResult renders the whole body as
// segments (never joined into one string).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "columnar/array.h"
#include "columnar/ipc/ipc_writer.h"
#include "query/query_vocabulary.h"
#include "query/result_store.h"
#include "query/run_store.h"
#include "sql/types/sql_type.h"

namespace hoglake::query {

struct RenderedResult {
  std::vector<std::string> segments;
  int64_t rows = 0;  // rows in the body
};

class ResultRenderer {
 public:
  static constexpr int64_t kSliceRows = 1 << 16;

  // Renders from `reader` (owned). kInternal for kParquet (served verbatim).
  static Result<std::unique_ptr<ResultRenderer>> Open(std::unique_ptr<ResultReader> reader,
                                                      std::vector<ResultColumnSpec> columns,
                                                      std::string result_id,
                                                      ResultFormat format, int64_t offset,
                                                      std::optional<int64_t> limit);
  ResultRenderer(const ResultRenderer&) = delete;
  ResultRenderer& operator=(const ResultRenderer&) = delete;
  ~ResultRenderer();

  // Replaces `*piece` with the next piece of the body (true), or says the
  // body has ended (false).
  Result<bool> Next(std::string* piece);
  int64_t rows() const { return rows_; }  // rows rendered so far
  // Whether the last piece has been rendered (Next will say false).
  bool ended() const { return ended_; }

 private:
  ResultRenderer() = default;
  Status RenderHead();
  Status RenderRows(const columnar::RecordBatch& batch, int64_t begin, int64_t end);
  Status RenderTail();

  std::unique_ptr<ResultReader> reader_;
  std::vector<ResultColumnSpec> columns_;
  std::string result_id_;
  ResultFormat format_ = ResultFormat::kJson;
  std::vector<sql::SqlType> types_;
  std::vector<std::string> names_;
  std::vector<bool> nullable_;  // per column, from the stored schema
  std::vector<bool> nan_columns_;
  std::unique_ptr<columnar::IpcStreamWriter> ipc_;
  columnar::SchemaPtr arrow_schema_;  // the stream's schema (ArrowResultField)
  std::string* out_ = nullptr;  // where the piece being rendered goes
  std::optional<columnar::RecordBatch> batch_;  // the row group being rendered
  int64_t batch_row_ = 0;  // its next row to render
  int64_t skip_ = 0;       // rows of the offset still to skip
  int64_t left_ = 0;       // rows of the limit still to render
  int64_t rows_ = 0;
  bool started_ = false;
  bool ended_ = false;
};

Result<RenderedResult> RenderResult(std::unique_ptr<ResultReader> reader,
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
