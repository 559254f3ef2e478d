// InferCsvSchema (text_import.h).
#include <limits>
#include <string>
#include <vector>

#include "columnar/text/csv.h"
#include "columnar/text/text_import.h"
#include "columnar/text/values.h"

namespace hoglake::columnar::text {

Result<columnar::SchemaPtr> InferCsvSchema(std::istream* input, int64_t sample_rows,
                                           char delimiter) {
  if (input == nullptr) return InvalidArgument("schema inference needs an input");
  if (delimiter == '"' || delimiter == '\n' || delimiter == '\r') {
    return InvalidArgument("the CSV delimiter cannot be a quote or a line break");
  }
  textimport::InputBuffer buffer(input);
  textimport::CsvSplitter splitter(&buffer, delimiter);
  std::vector<std::string> names;
  HOGLAKE_RETURN_IF_ERROR(textimport::ReadCsvHeader(&splitter, &names));
  splitter.set_names(&names);

  // Candidate types in the order they are preferred.
  enum Candidate { kLong, kDouble, kBool, kDate, kTimestamp, kTimestampTz, kCandidates };
  struct Column {
    bool possible[kCandidates] = {true, true, true, true, true, true};
    bool any_value = false;
  };
  std::vector<Column> columns(names.size());
  std::string why;
  for (int64_t row = 0; row < sample_rows; ++row) {
    HOGLAKE_ASSIGN_OR_RETURN(bool any, splitter.Next());
    if (!any) break;
    const std::vector<textimport::CsvCell>& cells = splitter.cells();
    if (cells.size() != names.size()) {
      return Validation("line ", splitter.record_line(), ": expected ", names.size(),
                        " fields, found ", cells.size());
    }
    for (size_t i = 0; i < cells.size(); ++i) {
      if (cells[i].length == 0) continue;
      const std::string_view text = cells[i].view();
      Column& column = columns[i];
      column.any_value = true;
      bool* possible = column.possible;
      int64_t i64;
      double f64;
      bool b;
      int32_t days;
      if (possible[kLong]) {
        possible[kLong] = textimport::ParseInteger(text, std::numeric_limits<int64_t>::min(),
                                                   std::numeric_limits<int64_t>::max(), &i64, &why);
      }
      if (possible[kDouble]) possible[kDouble] = textimport::ParseFloat64(text, &f64, &why);
      if (possible[kBool]) possible[kBool] = textimport::ParseBool(text, &b, &why);
      if (possible[kDate]) possible[kDate] = textimport::ParseDate(text, &days, &why);
      if (possible[kTimestamp]) {
        possible[kTimestamp] = textimport::ParseTimestamp(text, columnar::TimeUnit::kMicro,
                                                          /*with_zone=*/false, &i64, &why);
      }
      if (possible[kTimestampTz]) {
        possible[kTimestampTz] = textimport::ParseTimestamp(text, columnar::TimeUnit::kMicro,
                                                            /*with_zone=*/true, &i64, &why);
      }
    }
  }

  auto schema = std::make_shared<columnar::Schema>();
  for (size_t i = 0; i < names.size(); ++i) {
    const Column& column = columns[i];
    columnar::DataTypePtr type = columnar::Utf8();
    if (column.any_value) {
      if (column.possible[kLong]) {
        type = columnar::Int64();
      } else if (column.possible[kDouble]) {
        type = columnar::Float64();
      } else if (column.possible[kBool]) {
        type = columnar::Bool();
      } else if (column.possible[kDate]) {
        type = columnar::Date32();
      } else if (column.possible[kTimestamp]) {
        type = columnar::Timestamp(columnar::TimeUnit::kMicro);
      } else if (column.possible[kTimestampTz]) {
        type = columnar::Timestamp(columnar::TimeUnit::kMicro, "UTC");
      }
    }
    schema->fields.push_back(columnar::Field{names[i], std::move(type), true, {}});
  }
  return columnar::SchemaPtr(std::move(schema));
}

}  // namespace hoglake::columnar::text
