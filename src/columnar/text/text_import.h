// Text rows → record batches of a table's writer schema: what `hoglake
// append` reads (CSV with a header line, or JSON lines), converted to the
// table's types with errors that name the line and the column.
//
// Target: a columnar schema whose top-level field names are the table's
// columns (the writer schema, field ids included; they are carried through).
// Header/keys are matched to fields by exact name. A CSV header or JSON key
// naming no table column is refused; a table column the input lacks is
// null-filled when nullable, refused when not.
//
// Value text per type (CSV cells; JSON strings accept the same text):
//   boolean   true/false, t/f, 1/0, yes/no (any case)
//   integers  decimal digits with optional sign; out of the type's range → error
//   float/double  decimal or exponent notation, NaN, Infinity, -Infinity
//   decimal   plain decimal text with at most `scale` fraction digits (fewer
//             are padded); more digits than the precision → error
//   date      YYYY-MM-DD
//   time      HH:MM:SS[.fraction] (up to 6 digits)
//   timestamps  YYYY-MM-DD[T| ]HH:MM:SS[.fraction][Z|±HH:MM]; naive types
//             take the wall clock as written and refuse any offset;
//             timestamptz converts an offset to UTC and takes a naive value
//             as UTC.
//             Fraction digits beyond the unit → error (no silent rounding).
//   string    verbatim; json: must parse as JSON (stored as its text)
//   uuid      canonical 8-4-4-4-12 hex (any case)
//   binary    base64
//   list/struct/map  (CSV) the cell holds JSON: array / object / array of
//             {"key":…,"value":…} pairs or an object with string keys
// Nulls: in CSV an empty unquoted cell (and the `null_token`, default empty)
// is null; a quoted empty string "" is an empty string for string columns.
// In JSON lines, null or an absent key.
//
// Errors are kValidation: "line 7, column 'ts': cannot read 'x' as
// timestamp: <why>" (lines count from 1, the header being line 1 in CSV).
// Nothing is returned for a batch containing a bad value.
#pragma once

#include <cstdint>
#include <istream>
#include <memory>
#include <optional>
#include <string>

#include "columnar/array.h"
#include "common/status.h"

namespace hoglake::columnar::text {

enum class TextFormat { kCsv, kJsonLines };

struct TextImportOptions {
  int64_t batch_rows = 100000;
  char delimiter = ',';    // CSV only
  std::string null_token;  // CSV only: an unquoted cell equal to this is null
};

class TextBatchReader {
 public:
  // Reads from `input` (which must outlive the reader). CSV reads the
  // header line at once (an empty input or a bad header is an error here).
  static Result<std::unique_ptr<TextBatchReader>> Open(std::istream* input, TextFormat format,
                                                       columnar::SchemaPtr target,
                                                       TextImportOptions options = {});
  virtual ~TextBatchReader() = default;
  // The next batch of up to batch_rows rows; nullopt at end of input.
  virtual Result<std::optional<columnar::RecordBatch>> Next() = 0;
  // Data rows read so far.
  virtual int64_t rows_read() const = 0;
};

// Infers table columns from a CSV header plus up to `sample_rows` rows:
// each column becomes long, double, boolean, date, timestamp (naive) or
// timestamptz (with offsets) when every non-empty sampled cell parses as
// that type (tried in that order), else string; nullable throughout.
// Returns an Arrow-layout schema (feed it to ColumnDefsFromSchema).
Result<columnar::SchemaPtr> InferCsvSchema(std::istream* input, int64_t sample_rows = 1000,
                                           char delimiter = ',');

}  // namespace hoglake::columnar::text
