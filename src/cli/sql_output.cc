// The result formats of `hoglake sql` (sql_output.h).
#include "cli/sql_output.h"

#include <algorithm>
#include <cstdio>

#include "columnar/ipc/ipc_writer.h"
#include "common/encoding.h"
#include "common/json_writer.h"
#include "parquet/writer.h"
#include "sql/types/sql_type.h"
#include "sql/types/value.h"

namespace hoglake::cli {
namespace {

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

void PrintTable(const sql::QueryResult& result, double millis, std::ostream& out) {
  std::vector<std::vector<bool>> nulls;
  std::vector<std::vector<std::string>> rows = Cells(result, &nulls);
  // The header: each column's name, then its SQL type (as PostgreSQL names it).
  std::vector<std::string> header, types;
  for (const sql::ResultColumn& c : result.columns) {
    header.push_back(c.name);
    types.push_back(sql::PgTypeName(c.type));
  }
  std::vector<size_t> width;
  for (size_t c = 0; c < header.size(); ++c) width.push_back(std::max(header[c].size(), types[c].size()));
  for (const auto& row : rows) {
    for (size_t c = 0; c < row.size(); ++c) width[c] = std::max(width[c], row[c].size());
  }
  auto line = [&](const std::vector<std::string>& cells, bool numeric_right) {
    std::string text;
    for (size_t c = 0; c < cells.size(); ++c) {
      text += c == 0 ? " " : " | ";
      bool right = numeric_right && result.columns[c].type.is_numeric_kind();
      std::string pad(width[c] - cells[c].size(), ' ');
      text += right ? pad + cells[c] : cells[c] + pad;
    }
    out << text << "\n";
  };
  line(header, false);
  line(types, false);
  std::string rule;
  for (size_t c = 0; c < width.size(); ++c)
    rule += (c == 0 ? "-" : "-+-") + std::string(width[c], '-');
  out << rule << "-\n";
  for (const auto& row : rows) line(row, true);
  out << "(" << rows.size() << (rows.size() == 1 ? " row)" : " rows)") << "\n";
  char time[64];
  std::snprintf(time, sizeof(time), "Time: %.3f ms\n", millis);
  out << time;
}

void PrintCsv(const sql::QueryResult& result, std::ostream& out) {
  std::vector<std::vector<bool>> nulls;
  std::vector<std::vector<std::string>> rows = Cells(result, &nulls);
  for (size_t c = 0; c < result.columns.size(); ++c) {
    out << (c ? "," : "") << CsvField(result.columns[c].name);
  }
  out << "\n";
  for (const auto& row : rows) {
    for (size_t c = 0; c < row.size(); ++c) out << (c ? "," : "") << CsvField(row[c]);
    out << "\n";
  }
}

void PrintJson(const sql::QueryResult& result, std::ostream& out) {
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
    out << json.Take() << "\n";
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

}  // namespace

bool IsBinarySqlFormat(const std::string& format) {
  return format == "arrow" || format == "parquet";
}

Status WriteSqlResult(const sql::QueryResult& result, const std::string& format, double millis,
                      std::ostream& out) {
  if (IsBinarySqlFormat(format)) {
    HOGLAKE_RETURN_IF_ERROR(WriteBinary(result, format, out));
  } else if (format == "csv") {
    PrintCsv(result, out);
  } else if (format == "json" || format == "jsonl") {
    PrintJson(result, out);
  } else {
    PrintTable(result, millis, out);
  }
  out.flush();
  if (!out) return MakeError(ErrorCode::kIoError, "writing the result failed");
  return Status::Ok();
}

}  // namespace hoglake::cli
