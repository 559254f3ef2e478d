// CSV and JSON lines readers over the helpers beside it (csv.h, json.h, values.h, writers.h).
//
// Choices the header leaves open:
//   - a quoted empty CSV cell ("") is an empty value for string and binary
//     columns and a null for every other type;
//   - blank lines are skipped in both formats (still counted for line
//     numbers), so a one-column CSV cannot hold a null as an empty line;
//   - a UTF-8 byte order mark before the header / first line is ignored;
//   - after an error the reader is spent: Next() repeats the error.
#include "columnar/text/text_import.h"

#include <cstring>
#include <unordered_map>
#include <vector>

#include "columnar/builder.h"
#include "columnar/text/csv.h"
#include "columnar/text/json.h"
#include "columnar/text/values.h"
#include "columnar/text/writers.h"

namespace hoglake::columnar::text {
namespace {

using columnar::ArrayBuilder;
using columnar::ArrayPtr;
using columnar::Field;
using columnar::RecordBatch;
using columnar::SchemaPtr;
using textimport::CsvSplitter;
using textimport::Excerpt;
using textimport::InputBuffer;
using textimport::ValueWriter;

constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";

std::string ColumnList(const columnar::Schema& schema) {
  std::string out;
  for (const Field& field : schema.fields) {
    if (!out.empty()) out += ", ";
    out += field.name;
  }
  return out;
}

// Builders and writers for every target column, and the batch loop.
class ReaderBase : public TextBatchReader {
 public:
  ReaderBase(std::istream* input, SchemaPtr target, TextImportOptions options)
      : input_(input), target_(std::move(target)), options_(std::move(options)) {
    for (const Field& field : target_->fields) {
      builders_.push_back(columnar::MakeBuilder(field.type));
      writers_.push_back(textimport::MakeValueWriter(field, builders_.back().get()));
    }
  }

  Result<std::optional<RecordBatch>> Next() override {
    if (!failure_.ok()) return failure_;
    if (done_) return std::optional<RecordBatch>();
    int64_t rows = 0;
    while (rows < options_.batch_rows) {
      Result<bool> row = ReadRow();
      if (!row.ok()) {
        failure_ = row.status();
        return failure_;
      }
      if (!*row) {
        done_ = true;
        break;
      }
      ++rows;
      ++rows_read_;
    }
    if (rows == 0) return std::optional<RecordBatch>();
    std::vector<ArrayPtr> columns;
    columns.reserve(builders_.size());
    for (auto& builder : builders_) {
      Result<ArrayPtr> column = builder->Finish();
      if (!column.ok()) {
        failure_ = column.status();
        return failure_;
      }
      columns.push_back(std::move(*column));
    }
    Result<RecordBatch> batch = columnar::MakeRecordBatch(target_, std::move(columns));
    if (!batch.ok()) {
      failure_ = batch.status();
      return failure_;
    }
    return std::optional<RecordBatch>(std::move(*batch));
  }

  int64_t rows_read() const override { return rows_read_; }

 protected:
  // Appends one row to every builder; false at the end of the input.
  virtual Result<bool> ReadRow() = 0;

  // Appends a null to column `c`, refused when it is not nullable.
  Status AppendNullTo(size_t c, int64_t line, std::string_view what) {
    if (!target_->fields[c].nullable) {
      return Validation("line ", line, ", column '", target_->fields[c].name, "': ", what,
                        ", but the column is not nullable");
    }
    builders_[c]->AppendNull();
    return Status::Ok();
  }

  Error ValueError(size_t c, int64_t line, const std::string& why) const {
    return Validation("line ", line, ", column '", target_->fields[c].name, "': ", why);
  }

  InputBuffer input_;
  SchemaPtr target_;
  TextImportOptions options_;
  std::vector<std::unique_ptr<ArrayBuilder>> builders_;
  std::vector<std::unique_ptr<ValueWriter>> writers_;
  std::string why_;

 private:
  Status failure_;
  bool done_ = false;
  int64_t rows_read_ = 0;
};

// ---- CSV ---------------------------------------------------------------------

class CsvReader : public ReaderBase {
 public:
  CsvReader(std::istream* input, SchemaPtr target, TextImportOptions options)
      : ReaderBase(input, std::move(target), std::move(options)),
        splitter_(&input_, options_.delimiter) {}

  Status Start() {
    HOGLAKE_RETURN_IF_ERROR(textimport::ReadCsvHeader(&splitter_, &names_));
    const int64_t line = splitter_.record_line();
    std::vector<bool> present(target_->fields.size(), false);
    for (const std::string& name : names_) {
      const int c = target_->FieldIndex(name);
      if (c < 0) {
        return Validation("line ", line, ": column '", Excerpt(name),
                          "' is not in the table (its columns: ", ColumnList(*target_), ")");
      }
      present[static_cast<size_t>(c)] = true;
      by_position_.push_back(static_cast<size_t>(c));
    }
    for (size_t c = 0; c < present.size(); ++c) {
      if (present[c]) continue;
      if (!target_->fields[c].nullable) {
        return Validation("line ", line, ": column '", target_->fields[c].name,
                          "' is missing from the header and not nullable");
      }
      missing_.push_back(c);
    }
    splitter_.set_names(&names_);
    return Status::Ok();
  }

 protected:
  Result<bool> ReadRow() override {
    HOGLAKE_ASSIGN_OR_RETURN(bool any, splitter_.Next());
    if (!any) return false;
    const int64_t line = splitter_.record_line();
    const std::vector<textimport::CsvCell>& cells = splitter_.cells();
    if (cells.size() != by_position_.size()) {
      return Validation("line ", line, ": expected ", by_position_.size(), " fields, found ",
                        cells.size());
    }
    const std::string_view null_token = options_.null_token;
    for (size_t i = 0; i < cells.size(); ++i) {
      const textimport::CsvCell& cell = cells[i];
      const size_t c = by_position_[i];
      ValueWriter& writer = *writers_[c];
      const bool is_null =
          cell.quoted ? cell.length == 0 && !writer.empty_is_value()
                      : cell.length == 0 ||
                            (cell.length == null_token.size() &&
                             std::memcmp(cell.data, null_token.data(), null_token.size()) == 0);
      if (is_null) {
        HOGLAKE_RETURN_IF_ERROR(AppendNullTo(c, line, "null"));
      } else if (!writer.AppendText(cell.view(), &why_)) {
        return ValueError(c, line, why_);
      }
    }
    for (size_t c : missing_) builders_[c]->AppendNull();
    return true;
  }

 private:
  CsvSplitter splitter_;
  std::vector<std::string> names_;
  std::vector<size_t> by_position_;  // CSV field → target column
  std::vector<size_t> missing_;      // nullable target columns the header lacks
};

// ---- JSON lines ------------------------------------------------------------------

class JsonLinesReader : public ReaderBase {
 public:
  JsonLinesReader(std::istream* input, SchemaPtr target, TextImportOptions options)
      : ReaderBase(input, std::move(target), std::move(options)) {
    for (size_t c = 0; c < target_->fields.size(); ++c) {
      index_.emplace(target_->fields[c].name, c);
    }
    seen_.resize(target_->fields.size());
  }

 protected:
  Result<bool> ReadRow() override {
    char* text = nullptr;
    size_t length = 0;
    for (;;) {
      HOGLAKE_ASSIGN_OR_RETURN(bool any, NextLine(&text, &length));
      if (!any) return false;
      if (line_ == 1 && std::string_view(text, length).starts_with(kByteOrderMark)) {
        text += 3;
        length -= 3;
      }
      if (!textimport::TrimBlanks(std::string_view(text, length)).empty()) break;
    }
    if (!tree_.ParseInPlace(text, length, &why_)) return Validation("line ", line_, ": ", why_);
    const textimport::JsonNode& root = tree_.node(0);
    if (root.kind != textimport::JsonNode::kObject) {
      return Validation("line ", line_, ": expected a JSON object, found ",
                        textimport::JsonKindName(root.kind));
    }
    std::fill(seen_.begin(), seen_.end(), 0);
    size_t hint = 0;  // keys usually come in the same order on every line
    for (uint32_t k = 1; k < root.end; k = tree_.node(k + 1).end) {
      const std::string_view key = tree_.node(k).view();
      size_t c = hint;
      if (c >= target_->fields.size() || target_->fields[c].name != key) {
        auto found = index_.find(key);
        if (found == index_.end()) {
          return Validation("line ", line_, ": column '", Excerpt(key),
                            "' is not in the table (its columns: ", ColumnList(*target_), ")");
        }
        c = found->second;
      }
      if (seen_[c]) return Validation("line ", line_, ": column '", Excerpt(key), "' given twice");
      seen_[c] = 1;
      hint = c + 1;
      if (tree_.node(k + 1).kind == textimport::JsonNode::kNull) {
        HOGLAKE_RETURN_IF_ERROR(AppendNullTo(c, line_, "null"));
      } else if (!writers_[c]->AppendJson(tree_, k + 1, &why_)) {
        return ValueError(c, line_, why_);
      }
    }
    for (size_t c = 0; c < seen_.size(); ++c) {
      if (!seen_[c]) HOGLAKE_RETURN_IF_ERROR(AppendNullTo(c, line_, "missing"));
    }
    return true;
  }

 private:
  // The next line, NUL-terminated in place (CR of a CRLF dropped).
  Result<bool> NextLine(char** text, size_t* length) {
    size_t scanned = 0;  // bytes after begin known to hold no newline
    for (;;) {
      char* base = input_.data();
      const size_t begin = input_.begin();
      const size_t end = input_.end();
      char* newline =
          static_cast<char*>(std::memchr(base + begin + scanned, '\n', end - begin - scanned));
      size_t line_end;
      if (newline != nullptr) {
        line_end = static_cast<size_t>(newline - base);
        input_.Consume(line_end + 1);
      } else if (input_.at_eof()) {
        if (begin == end) return false;
        line_end = end;
        input_.Consume(end);
      } else {
        scanned = end - begin;
        Result<bool> more = input_.Fill();
        if (!more.ok()) {
          Error error = more.error();
          error.message = StrCat("line ", line_ + 1, ": ", error.message);
          return error;
        }
        continue;
      }
      ++line_;
      if (line_end > begin && base[line_end - 1] == '\r') --line_end;
      base[line_end] = '\0';
      *text = base + begin;
      *length = line_end - begin;
      return true;
    }
  }

  textimport::JsonTree tree_;
  std::unordered_map<std::string_view, size_t> index_;
  std::vector<uint8_t> seen_;
  int64_t line_ = 0;  // the line last read
};

}  // namespace

Result<std::unique_ptr<TextBatchReader>> TextBatchReader::Open(std::istream* input,
                                                               TextFormat format,
                                                               columnar::SchemaPtr target,
                                                               TextImportOptions options) {
  if (input == nullptr || target == nullptr) {
    return InvalidArgument("text import needs an input and a target schema");
  }
  if (options.batch_rows <= 0) {
    return InvalidArgument("batch_rows must be positive, not ", options.batch_rows);
  }
  if (format == TextFormat::kJsonLines) {
    return std::unique_ptr<TextBatchReader>(
        std::make_unique<JsonLinesReader>(input, std::move(target), std::move(options)));
  }
  if (options.delimiter == '"' || options.delimiter == '\n' || options.delimiter == '\r') {
    return InvalidArgument("the CSV delimiter cannot be a quote or a line break");
  }
  auto reader = std::make_unique<CsvReader>(input, std::move(target), std::move(options));
  HOGLAKE_RETURN_IF_ERROR(reader->Start());
  return std::unique_ptr<TextBatchReader>(std::move(reader));
}

}  // namespace hoglake::columnar::text
