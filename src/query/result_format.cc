#include "query/result_format.h"

#include <cmath>

#include "columnar/ipc/ipc_writer.h"
#include "columnar/slice.h"
#include "common/json_text.h"
#include "common/json_writer.h"
#include "sql/types/value.h"

namespace hoglake::query {
namespace {

constexpr size_t kSegmentBytes = 1 << 20;

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

std::string CsvField(const sql::Value& v) {
  if (v.is_null || IsNonFinite(v)) return "";
  std::string text =
      v.type.id == sql::SqlTypeId::kBoolean ? (v.b ? "true" : "false") : sql::ValueToString(v);
  if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + "\"";
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

// Walks the rows [offset, offset + limit) batch by batch.
template <typename Visit>
Status ForEachSlice(ResultReader& reader, int64_t offset, std::optional<int64_t> limit,
                    Visit&& visit) {
  int64_t skip = offset;
  int64_t left = limit.value_or(INT64_MAX);
  while (left > 0) {
    HOGLAKE_ASSIGN_OR_RETURN(std::optional<columnar::RecordBatch> batch, reader.Next());
    if (!batch) break;
    if (skip >= batch->num_rows) {
      skip -= batch->num_rows;
      continue;
    }
    int64_t take = std::min(batch->num_rows - skip, left);
    HOGLAKE_RETURN_IF_ERROR(visit(*batch, skip, skip + take));
    left -= take;
    skip = 0;
  }
  return Status::Ok();
}

void Flush(std::string* current, std::vector<std::string>* segments, bool force) {
  if (current->empty()) return;
  if (force || current->size() >= kSegmentBytes) {
    segments->push_back(std::move(*current));
    current->clear();
  }
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

Result<RenderedResult> RenderResult(ResultReader& reader,
                                    const std::vector<ResultColumnSpec>& columns,
                                    const std::string& result_id, ResultFormat format,
                                    int64_t offset, std::optional<int64_t> limit) {
  RenderedResult rendered;
  const columnar::SchemaPtr schema = reader.schema();
  const std::vector<sql::SqlType> types = ResultColumnTypes(*schema, columns);
  std::vector<std::string> names;
  for (size_t c = 0; c < schema->fields.size(); ++c) {
    names.push_back(c < columns.size() ? columns[c].name : schema->fields[c].name);
  }
  std::string current;
  switch (format) {
    case ResultFormat::kArrow: {
      columnar::IpcStreamWriter writer([&](std::string_view bytes) {
        current.append(bytes);
        Flush(&current, &rendered.segments, false);
        return Status::Ok();
      });
      HOGLAKE_RETURN_IF_ERROR(writer.Start(*schema));
      HOGLAKE_RETURN_IF_ERROR(
          ForEachSlice(reader, offset, limit,
                       [&](const columnar::RecordBatch& b, int64_t begin, int64_t end) -> Status {
                         rendered.rows += end - begin;
                         if (begin == 0 && end == b.num_rows) return writer.WriteBatch(b);
                         HOGLAKE_ASSIGN_OR_RETURN(columnar::RecordBatch part,
                                                  columnar::SliceBatch(b, begin, end - begin));
                         return writer.WriteBatch(part);
                       }));
      HOGLAKE_RETURN_IF_ERROR(writer.Close());
      break;
    }
    case ResultFormat::kJson: {
      std::vector<bool> nan_columns(types.size(), false);
      std::string head = "{\"result_id\":";
      AppendJsonString(result_id, &head);
      head += ",\"status\":\"ready\",\"columns\":[";
      for (size_t c = 0; c < names.size(); ++c) {
        if (c) head += ',';
        AppendJsonString(names[c], &head);
      }
      head += "],\"rows\":[";
      rendered.segments.push_back(std::move(head));
      HOGLAKE_RETURN_IF_ERROR(ForEachSlice(
          reader, offset, limit,
          [&](const columnar::RecordBatch& b, int64_t begin, int64_t end) -> Status {
            rendered.rows += AppendJsonRows(b, types, begin, end, SIZE_MAX, rendered.rows == 0,
                                            &nan_columns, &current);
            Flush(&current, &rendered.segments, false);
            return Status::Ok();
          }));
      current += "],\"nullable\":[";
      for (size_t c = 0; c < types.size(); ++c) {
        if (c) current += ',';
        current += schema->fields[c].nullable || nan_columns[c] ? "true" : "false";
      }
      current += "],\"row_count\":" + std::to_string(rendered.rows) + "}";
      break;
    }
    case ResultFormat::kCsv: {
      for (size_t c = 0; c < names.size(); ++c) {
        if (c) current += ',';
        current += CsvField(sql::Value::Text(names[c]));
      }
      current += '\n';
      HOGLAKE_RETURN_IF_ERROR(
          ForEachSlice(reader, offset, limit,
                       [&](const columnar::RecordBatch& b, int64_t begin, int64_t end) -> Status {
                         for (int64_t r = begin; r < end; ++r) {
                           for (size_t c = 0; c < types.size(); ++c) {
                             if (c) current += ',';
                             current += CsvField(sql::ValueAt(*b.columns[c], r, types[c]));
                           }
                           current += '\n';
                         }
                         rendered.rows += end - begin;
                         Flush(&current, &rendered.segments, false);
                         return Status::Ok();
                       }));
      break;
    }
    case ResultFormat::kMarkdown: {
      current += '|';
      for (const std::string& n : names) current += " " + MarkdownCell(sql::Value::Text(n)) + " |";
      current += "\n|";
      for (size_t c = 0; c < names.size(); ++c) current += " --- |";
      current += '\n';
      HOGLAKE_RETURN_IF_ERROR(ForEachSlice(
          reader, offset, limit,
          [&](const columnar::RecordBatch& b, int64_t begin, int64_t end) -> Status {
            for (int64_t r = begin; r < end; ++r) {
              current += '|';
              for (size_t c = 0; c < types.size(); ++c) {
                current += " " + MarkdownCell(sql::ValueAt(*b.columns[c], r, types[c])) + " |";
              }
              current += '\n';
            }
            rendered.rows += end - begin;
            Flush(&current, &rendered.segments, false);
            return Status::Ok();
          }));
      break;
    }
    case ResultFormat::kParquet:
      return MakeError(ErrorCode::kInternal, "Parquet results are served verbatim, not rendered");
  }
  Flush(&current, &rendered.segments, true);
  return rendered;
}

}  // namespace hoglake::query
