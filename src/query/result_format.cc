#include "query/result_format.h"

#include <algorithm>
#include <cmath>
#include <memory>

#include "columnar/ipc/ipc_writer.h"
#include "columnar/slice.h"
#include "common/encoding.h"
#include "common/json_text.h"
#include "common/json_writer.h"
#include "query/result_arrow.h"
#include "sql/types/value.h"

namespace hoglake::query {
namespace {

bool IsNonFinite(const sql::Value& v) {
  return (v.type.id == sql::SqlTypeId::kReal || v.type.id == sql::SqlTypeId::kDouble) &&
         !std::isfinite(v.d);
}

void AppendJsonCell(const sql::Value& v, std::string* out) {
  if (v.is_null || IsNonFinite(v)) {
    *out += "null";
    return;
  }
  switch (v.type.id) {
    case sql::SqlTypeId::kBoolean:
      *out += v.b ? "true" : "false";
      return;
    case sql::SqlTypeId::kSmallint:
    case sql::SqlTypeId::kInteger:
    case sql::SqlTypeId::kBigint:
      *out += std::to_string(v.i);
      return;
    case sql::SqlTypeId::kReal:
    case sql::SqlTypeId::kDouble:
      AppendJsonDouble(v.d, out);
      return;
    case sql::SqlTypeId::kNumeric:
      *out += sql::ValueToString(v);
      return;
    case sql::SqlTypeId::kArray:
      *out += '[';
      for (size_t i = 0; i < v.elements.size(); ++i) {
        if (i > 0) *out += ',';
        AppendJsonCell(v.elements[i], out);
      }
      *out += ']';
      return;
    case sql::SqlTypeId::kComposite:
      *out += '{';
      for (size_t i = 0; i < v.elements.size(); ++i) {
        if (i > 0) *out += ',';
        AppendJsonString(v.type.members[i].first, out);
        *out += ':';
        AppendJsonCell(v.elements[i], out);
      }
      *out += '}';
      return;
    case sql::SqlTypeId::kMap:
      *out += '{';
      for (size_t i = 0; i + 1 < v.elements.size(); i += 2) {
        if (i > 0) *out += ',';
        AppendJsonString(sql::ValueToString(v.elements[i]), out);
        *out += ':';
        AppendJsonCell(v.elements[i + 1], out);
      }
      *out += '}';
      return;
    default:
      AppendJsonString(sql::ValueToString(v), out);
  }
}

std::string CsvCell(const sql::Value& v) {
  if (v.is_null || IsNonFinite(v)) return "";
  return CsvField(
      v.type.id == sql::SqlTypeId::kBoolean ? (v.b ? "true" : "false") : sql::ValueToString(v));
}

std::string MarkdownCell(const sql::Value& v) {
  if (v.is_null || IsNonFinite(v)) return "";
  std::string text =
      v.type.id == sql::SqlTypeId::kBoolean ? (v.b ? "true" : "false") : sql::ValueToString(v);
  std::string cell;
  for (char c : text) {
    if (c == '|')
      cell += "\\|";
    else if (c == '\n')
      cell += "<br>";
    else if (c != '\r')
      cell += c;
  }
  return cell;
}

}  // namespace

std::vector<sql::SqlType> ResultColumnTypes(const columnar::Schema& schema,
                                            const std::vector<ResultColumnSpec>& columns) {
  std::vector<sql::SqlType> types;
  for (size_t c = 0; c < schema.fields.size(); ++c) {
    if (c < columns.size() && columns[c].type == "interval") {
      types.push_back(sql::SqlType::Of(sql::SqlTypeId::kInterval));
      continue;
    }
    if (c < columns.size() && columns[c].type == "interval[]") {
      types.push_back(sql::SqlType::Array(sql::SqlType::Of(sql::SqlTypeId::kInterval)));
      continue;
    }
    Result<sql::SqlType> type = sql::SqlTypeOfField(schema.fields[c]);
    types.push_back(type.ok() ? *type : sql::SqlType::Of(sql::SqlTypeId::kText));
  }
  return types;
}

int64_t AppendJsonRows(const columnar::RecordBatch& batch, const std::vector<sql::SqlType>& types,
                       int64_t begin, int64_t end, size_t max_bytes, bool first,
                       std::vector<bool>* nan_columns, std::string* out) {
  int64_t appended = 0;
  for (int64_t r = begin; r < end; ++r) {
    if (out->size() > max_bytes) break;
    if (!first || appended > 0) *out += ',';
    *out += '[';
    for (size_t c = 0; c < types.size(); ++c) {
      if (c) *out += ',';
      sql::Value v = sql::ValueAt(*batch.columns[c], r, types[c]);
      if (!v.is_null && IsNonFinite(v) && nan_columns) (*nan_columns)[c] = true;
      AppendJsonCell(v, out);
    }
    *out += ']';
    ++appended;
  }
  return appended;
}

Result<std::unique_ptr<ResultRenderer>> ResultRenderer::Open(
    std::unique_ptr<ResultReader> reader, std::vector<ResultColumnSpec> columns,
    std::string result_id, ResultFormat format, int64_t offset, std::optional<int64_t> limit) {
  if (format == ResultFormat::kParquet) {
    return MakeError(ErrorCode::kInternal, "Parquet results are served verbatim, not rendered");
  }
  auto renderer = std::unique_ptr<ResultRenderer>(new ResultRenderer());
  ResultRenderer& r = *renderer;
  r.reader_ = std::move(reader);
  r.columns_ = std::move(columns);
  r.result_id_ = std::move(result_id);
  r.format_ = format;
  const columnar::SchemaPtr& schema = r.reader_->schema();
  r.types_ = ResultColumnTypes(*schema, r.columns_);
  for (size_t c = 0; c < schema->fields.size(); ++c) {
    r.names_.push_back(c < r.columns_.size() ? r.columns_[c].name : schema->fields[c].name);
  }
  for (const columnar::Field& field : schema->fields) r.nullable_.push_back(field.nullable);
  r.nan_columns_.assign(r.types_.size(), false);
  r.skip_ = offset;
  r.left_ = limit.value_or(INT64_MAX);
  if (format == ResultFormat::kArrow) {
    auto arrow_schema = std::make_shared<columnar::Schema>();
    arrow_schema->metadata = schema->metadata;
    for (size_t c = 0; c < schema->fields.size(); ++c) {
      arrow_schema->fields.push_back(ArrowResultField(schema->fields[c], r.types_[c]));
    }
    r.arrow_schema_ = std::move(arrow_schema);
    r.ipc_ = std::make_unique<columnar::IpcStreamWriter>([&r](std::string_view bytes) {
      r.out_->append(bytes);
      return Status::Ok();
    });
  }
  return renderer;
}

ResultRenderer::~ResultRenderer() = default;

Result<bool> ResultRenderer::Next(std::string* piece) {
  piece->clear();
  if (ended_) return false;
  out_ = piece;
  if (!started_) {
    started_ = true;
    HOGLAKE_RETURN_IF_ERROR(RenderHead());
  }
  // One slice of rows per piece (the head rides with the first).
  while (left_ > 0) {
    if (!batch_ || batch_row_ >= batch_->num_rows) {
      batch_.reset();
      HOGLAKE_ASSIGN_OR_RETURN(std::optional<columnar::RecordBatch> next, reader_->Next());
      if (!next) break;
      if (skip_ >= next->num_rows) {
        skip_ -= next->num_rows;
        continue;
      }
      if (format_ == ResultFormat::kArrow) {
        HOGLAKE_ASSIGN_OR_RETURN(batch_, RetypeBatch(*next, arrow_schema_));
      } else {
        batch_ = std::move(next);
      }
      batch_row_ = skip_;
      skip_ = 0;
    }
    const int64_t take = std::min({batch_->num_rows - batch_row_, left_, kSliceRows});
    HOGLAKE_RETURN_IF_ERROR(RenderRows(*batch_, batch_row_, batch_row_ + take));
    batch_row_ += take;
    left_ -= take;
    rows_ += take;
    return true;
  }
  batch_.reset();
  reader_.reset();  // the stored object is read no further
  HOGLAKE_RETURN_IF_ERROR(RenderTail());
  ended_ = true;
  return true;
}

Status ResultRenderer::RenderHead() {
  std::string& out = *out_;
  switch (format_) {
    case ResultFormat::kArrow:
      return ipc_->Start(*arrow_schema_);
    case ResultFormat::kJson:
      out += "{\"result_id\":";
      AppendJsonString(result_id_, &out);
      out += ",\"status\":\"ready\",\"columns\":[";
      for (size_t c = 0; c < names_.size(); ++c) {
        if (c) out += ',';
        AppendJsonString(names_[c], &out);
      }
      out += "],\"rows\":[";
      return Status::Ok();
    case ResultFormat::kCsv:
      for (size_t c = 0; c < names_.size(); ++c) {
        if (c) out += ',';
        out += CsvCell(sql::Value::Text(names_[c]));
      }
      out += '\n';
      return Status::Ok();
    case ResultFormat::kMarkdown:
      out += '|';
      for (const std::string& n : names_) out += " " + MarkdownCell(sql::Value::Text(n)) + " |";
      out += "\n|";
      for (size_t c = 0; c < names_.size(); ++c) out += " --- |";
      out += '\n';
      return Status::Ok();
    case ResultFormat::kParquet:
      break;
  }
  return MakeError(ErrorCode::kInternal, "Parquet results are served verbatim, not rendered");
}

Status ResultRenderer::RenderRows(const columnar::RecordBatch& batch, int64_t begin,
                                  int64_t end) {
  std::string& out = *out_;
  switch (format_) {
    case ResultFormat::kArrow: {
      if (begin == 0 && end == batch.num_rows) return ipc_->WriteBatch(batch);
      HOGLAKE_ASSIGN_OR_RETURN(columnar::RecordBatch part,
                               columnar::SliceBatch(batch, begin, end - begin));
      return ipc_->WriteBatch(part);
    }
    case ResultFormat::kJson:
      AppendJsonRows(batch, types_, begin, end, SIZE_MAX, rows_ == 0, &nan_columns_, &out);
      return Status::Ok();
    case ResultFormat::kCsv:
      for (int64_t r = begin; r < end; ++r) {
        for (size_t c = 0; c < types_.size(); ++c) {
          if (c) out += ',';
          out += CsvCell(sql::ValueAt(*batch.columns[c], r, types_[c]));
        }
        out += '\n';
      }
      return Status::Ok();
    case ResultFormat::kMarkdown:
      for (int64_t r = begin; r < end; ++r) {
        out += '|';
        for (size_t c = 0; c < types_.size(); ++c) {
          out += " " + MarkdownCell(sql::ValueAt(*batch.columns[c], r, types_[c])) + " |";
        }
        out += '\n';
      }
      return Status::Ok();
    case ResultFormat::kParquet:
      break;
  }
  return MakeError(ErrorCode::kInternal, "Parquet results are served verbatim, not rendered");
}

Status ResultRenderer::RenderTail() {
  std::string& out = *out_;
  switch (format_) {
    case ResultFormat::kArrow:
      return ipc_->Close();
    case ResultFormat::kJson:
      out += "],\"nullable\":[";
      for (size_t c = 0; c < types_.size(); ++c) {
        if (c) out += ',';
        out += nullable_[c] || nan_columns_[c] ? "true" : "false";
      }
      out += "],\"row_count\":" + std::to_string(rows_) + "}";
      return Status::Ok();
    case ResultFormat::kCsv:
    case ResultFormat::kMarkdown:
      return Status::Ok();
    case ResultFormat::kParquet:
      break;
  }
  return MakeError(ErrorCode::kInternal, "Parquet results are served verbatim, not rendered");
}

Result<RenderedResult> RenderResult(std::unique_ptr<ResultReader> reader,
                                    const std::vector<ResultColumnSpec>& columns,
                                    const std::string& result_id, ResultFormat format,
                                    int64_t offset, std::optional<int64_t> limit) {
  HOGLAKE_ASSIGN_OR_RETURN(std::unique_ptr<ResultRenderer> renderer,
                           ResultRenderer::Open(std::move(reader), columns, result_id, format,
                                                offset, limit));
  RenderedResult rendered;
  std::string piece;
  while (true) {
    HOGLAKE_ASSIGN_OR_RETURN(bool more, renderer->Next(&piece));
    if (!more) break;
    if (!piece.empty()) rendered.segments.push_back(std::move(piece));
    piece = std::string();
  }
  rendered.rows = renderer->rows();
  return rendered;
}

}  // namespace hoglake::query
