// Buffered input and the RFC 4180 record splitter behind text import.
// Internal to text import.
#pragma once

#include <cstdint>
#include <istream>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace hoglake::columnar::text::textimport {

// A record (CSV) or line (JSON lines) longer than this is refused, so an
// unbalanced quote in a huge file cannot make the reader hold all of it.
inline constexpr size_t kMaxRecordBytes = size_t{256} << 20;

// A growable window over an istream. Bytes [begin, end) of data() are read
// but not yet consumed; data()[end] is always writable (one byte of slack).
class InputBuffer {
 public:
  explicit InputBuffer(std::istream* input);

  char* data() { return data_.get(); }
  size_t begin() const { return begin_; }
  size_t end() const { return end_; }
  void Consume(size_t new_begin) { begin_ = new_begin; }
  bool at_eof() const { return eof_; }

  // Moves the pending bytes to the front (begin becomes 0), grows the buffer
  // when they fill it, and reads more. Returns false once the input is
  // exhausted (then at_eof()). Fails when the stream fails or the pending
  // bytes would exceed kMaxRecordBytes.
  Result<bool> Fill();

 private:
  std::istream* input_;
  std::unique_ptr<char[]> data_;
  size_t capacity_;  // usable bytes; the allocation has one more
  size_t begin_ = 0;
  size_t end_ = 0;
  bool eof_ = false;
};

struct CsvCell {
  const char* data;
  size_t length;
  bool quoted;  // written in quotes (so an empty one is "" rather than a null)

  std::string_view view() const { return std::string_view(data, length); }
};

// Splits records: fields separated by `delimiter`, records by LF or CRLF;
// a field starting with '"' is quoted: it may hold the delimiter, newlines
// and "" for a quote, and must be followed by a delimiter or the record's
// end. A quote inside an unquoted field is taken literally. Blank lines are
// skipped (still counted).
class CsvSplitter {
 public:
  CsvSplitter(InputBuffer* input, char delimiter) : input_(input), delimiter_(delimiter) {}

  // Reads the next record into cells() (valid until the next call). Returns
  // false at the end of the input. Errors (kValidation) name the line:
  // "line 9: unterminated quoted field".
  Result<bool> Next();
  const std::vector<CsvCell>& cells() const { return cells_; }
  // The line the last record started on (1-based).
  int64_t record_line() const { return record_line_; }
  // Names used in messages for the fields of a record, once known.
  void set_names(const std::vector<std::string>* names) { names_ = names; }

 private:
  enum class Scan { kRecord, kEnd, kNeedMore, kError };
  Scan ScanRecord();
  std::string FieldName(size_t index) const;

  InputBuffer* input_;
  char delimiter_;
  std::vector<CsvCell> cells_;
  std::vector<uint8_t> escaped_;  // per cell: holds "" to unescape
  const std::vector<std::string>* names_ = nullptr;
  int64_t line_ = 1;  // the line the next record starts on
  int64_t record_line_ = 0;
  Error error_{ErrorCode::kValidation, {}};
};

// Reads the header record into *names (a UTF-8 byte order mark before it
// dropped). An empty input, an empty name or a repeated name is an error.
Status ReadCsvHeader(CsvSplitter* splitter, std::vector<std::string>* names);

}  // namespace hoglake::columnar::text::textimport
