#include "columnar/text/csv.h"

#include <algorithm>
#include <cstring>

#include "columnar/text/values.h"

namespace hoglake::columnar::text::textimport {
namespace {

constexpr size_t kInitialBufferBytes = size_t{1} << 20;

}  // namespace

InputBuffer::InputBuffer(std::istream* input)
    : input_(input), data_(new char[kInitialBufferBytes + 1]), capacity_(kInitialBufferBytes) {}

Result<bool> InputBuffer::Fill() {
  if (eof_) return false;
  if (begin_ > 0) {
    std::memmove(data_.get(), data_.get() + begin_, end_ - begin_);
    end_ -= begin_;
    begin_ = 0;
  }
  if (end_ == capacity_) {
    if (capacity_ >= kMaxRecordBytes) {
      return Validation("a record longer than ", kMaxRecordBytes >> 20,
                        " MiB (an unbalanced quote?)");
    }
    const size_t grown = std::min(capacity_ * 2, kMaxRecordBytes);
    std::unique_ptr<char[]> bigger(new char[grown + 1]);
    std::memcpy(bigger.get(), data_.get(), end_);
    data_ = std::move(bigger);
    capacity_ = grown;
  }
  input_->read(data_.get() + end_, static_cast<std::streamsize>(capacity_ - end_));
  const auto got = static_cast<size_t>(input_->gcount());
  if (input_->bad()) return IoError("reading the input failed");
  end_ += got;
  if (got == 0) {
    eof_ = true;
    return false;
  }
  return true;
}

Result<bool> CsvSplitter::Next() {
  for (;;) {
    switch (ScanRecord()) {
      case Scan::kRecord:
        return true;
      case Scan::kEnd:
        return false;
      case Scan::kError:
        return error_;
      case Scan::kNeedMore: {
        Result<bool> more = input_->Fill();
        if (!more.ok()) {
          Error error = more.error();
          error.message = StrCat("line ", line_, ": ", error.message);
          return error;
        }
        break;  // scan the record again from its start, with more bytes (or at EOF)
      }
    }
  }
}

std::string CsvSplitter::FieldName(size_t index) const {
  if (names_ != nullptr && index < names_->size()) {
    return StrCat("column '", Excerpt((*names_)[index]), "'");
  }
  return StrCat("field ", index + 1);
}

CsvSplitter::Scan CsvSplitter::ScanRecord() {
  char* const base = input_->data();
  char* p = base + input_->begin();
  char* const end = base + input_->end();
  const bool eof = input_->at_eof();
  const char delimiter = delimiter_;

  // Blank lines.
  for (;;) {
    if (p == end) return eof ? Scan::kEnd : Scan::kNeedMore;
    if (*p == '\n') {
      ++p;
    } else if (*p == '\r') {
      if (p + 1 == end) {
        if (!eof) return Scan::kNeedMore;
        ++p;
      } else if (p[1] == '\n') {
        p += 2;
      } else {
        break;
      }
    } else {
      break;
    }
    ++line_;
    input_->Consume(static_cast<size_t>(p - base));
  }

  cells_.clear();
  escaped_.clear();
  int64_t newlines = 0;  // inside quoted fields of this record
  for (;;) {
    // At the start of a field.
    if (p == end) {
      if (!eof) return Scan::kNeedMore;
      cells_.push_back(CsvCell{p, 0, false});  // after a trailing delimiter
      escaped_.push_back(0);
      break;
    }
    if (*p == '"') {
      char* q = p + 1;
      bool escaped = false;
      char* close = nullptr;
      for (;;) {
        char* k = static_cast<char*>(std::memchr(q, '"', static_cast<size_t>(end - q)));
        if (k == nullptr) {
          if (!eof) return Scan::kNeedMore;
          error_.message = StrCat("line ", line_ + newlines, ": unterminated quoted field");
          return Scan::kError;
        }
        if (k + 1 == end && !eof) return Scan::kNeedMore;
        if (k + 1 < end && k[1] == '"') {
          escaped = true;
          q = k + 2;
          continue;
        }
        close = k;
        break;
      }
      const size_t length = static_cast<size_t>(close - (p + 1));
      newlines += std::count(p + 1, close, '\n');
      cells_.push_back(CsvCell{p + 1, length, true});
      escaped_.push_back(escaped ? 1 : 0);
      p = close + 1;
      if (p == end) {
        if (!eof) return Scan::kNeedMore;
        break;
      }
      if (*p == delimiter) {
        ++p;
        continue;
      }
      if (*p == '\n') {
        ++p;
        break;
      }
      if (*p == '\r') {
        if (p + 1 == end) {
          if (!eof) return Scan::kNeedMore;
          ++p;
          break;
        }
        if (p[1] == '\n') {
          p += 2;
          break;
        }
      }
      error_.message =
          StrCat("line ", line_ + newlines, ", ", FieldName(cells_.size() - 1), ": unexpected '",
                 Excerpt(std::string_view(p, 1)), "' after a closing quote");
      return Scan::kError;
    }
    // Unquoted: up to the delimiter or the end of the line.
    char* s = p;
    while (s < end && *s != delimiter && *s != '\n') ++s;
    if (s == end && !eof) return Scan::kNeedMore;
    size_t length = static_cast<size_t>(s - p);
    const bool line_end = s == end || *s == '\n';
    if (line_end && length > 0 && s[-1] == '\r') --length;  // CRLF
    cells_.push_back(CsvCell{p, length, false});
    escaped_.push_back(0);
    if (s == end) {
      p = s;
      break;
    }
    p = s + 1;
    if (line_end) break;
  }

  record_line_ = line_;
  line_ += 1 + newlines;
  input_->Consume(static_cast<size_t>(p - base));
  for (size_t i = 0; i < cells_.size(); ++i) {
    if (!escaped_[i]) continue;
    // "" → " in place; the record is complete, so its bytes are ours to edit.
    char* out = const_cast<char*>(cells_[i].data);
    const char* in = out;
    const char* in_end = in + cells_[i].length;
    char* w = out;
    while (in < in_end) {
      const char c = *in++;
      *w++ = c;
      if (c == '"') ++in;  // the second quote of the pair
    }
    cells_[i].length = static_cast<size_t>(w - out);
  }
  return Scan::kRecord;
}

Status ReadCsvHeader(CsvSplitter* splitter, std::vector<std::string>* names) {
  constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";
  HOGLAKE_ASSIGN_OR_RETURN(bool any, splitter->Next());
  if (!any) return Validation("empty input: expected a CSV header line");
  for (const CsvCell& cell : splitter->cells()) {
    std::string_view name = cell.view();
    if (names->empty() && name.starts_with(kByteOrderMark)) name.remove_prefix(3);
    names->emplace_back(name);
  }
  for (size_t i = 0; i < names->size(); ++i) {
    if ((*names)[i].empty()) {
      return Validation("line ", splitter->record_line(), ": column ", i + 1, " has no name");
    }
    for (size_t j = 0; j < i; ++j) {
      if ((*names)[j] == (*names)[i]) {
        return Validation("line ", splitter->record_line(), ": column '", Excerpt((*names)[i]),
                          "' appears twice");
      }
    }
  }
  return Status::Ok();
}

}  // namespace hoglake::columnar::text::textimport
