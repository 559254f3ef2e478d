// Arrow IPC stream writer: a schema message, one message per record batch,
// then the end-of-stream marker — the "streaming format" of the Arrow columnar
// specification, readable by any Arrow implementation (pyarrow, arrow-js,
// DuckDB) and by IpcStreamReader.
//
// Every message is framed as the continuation marker 0xFFFFFFFF, an int32
// little-endian metadata length (the flatbuffer Message padded so the body
// starts 8-byte aligned), the metadata, then the body. Metadata version V5,
// little endian, no compression, no dictionaries. Body buffers start at 8-byte
// multiples. Arrays with a nonzero offset (slices) are written as if they were
// built fresh: bitmaps shifted, offsets rebased to 0, list children cut to the
// referenced range. A validity bitmap is omitted (length 0) when an array has
// no nulls.
//
// Field::metadata and Schema::metadata travel as Arrow custom_metadata, so
// "PARQUET:field_id" and "ARROW:extension:name" round-trip.
//
//   std::string bytes;
//   IpcStreamWriter writer(&bytes);
//   HOGLAKE_RETURN_IF_ERROR(writer.Start(*schema));
//   HOGLAKE_RETURN_IF_ERROR(writer.WriteBatch(batch));
//   HOGLAKE_RETURN_IF_ERROR(writer.Close());
#pragma once

#include <functional>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

#include "columnar/array.h"

namespace hoglake::columnar {

// Receives consecutive pieces of the stream. An error stops the writer: every
// later call returns that error.
using IpcSink = std::function<Status(std::string_view bytes)>;

class IpcStreamWriter {
 public:
  // Appends to `*out`, which must outlive the writer.
  explicit IpcStreamWriter(std::string* out);
  // Writes to `*out`, which must outlive the writer; a stream failure becomes
  // an IoError.
  explicit IpcStreamWriter(std::ostream* out);
  explicit IpcStreamWriter(IpcSink sink);

  IpcStreamWriter(const IpcStreamWriter&) = delete;
  IpcStreamWriter& operator=(const IpcStreamWriter&) = delete;
  IpcStreamWriter(IpcStreamWriter&&) = default;
  IpcStreamWriter& operator=(IpcStreamWriter&&) = default;

  // Writes the schema message. Once, before any batch. InvalidArgument for a
  // schema Arrow cannot express (time64 in s/ms, nesting deeper than 64).
  Status Start(const Schema& schema);
  // Writes one record batch message. The batch's column types must equal the
  // started schema's field types, and the batch must pass ValidateBatch
  // (checked; the error is returned and nothing is written).
  Status WriteBatch(const RecordBatch& batch);
  // Writes the end-of-stream marker (0xFFFFFFFF 0x00000000). After Close()
  // the writer accepts nothing more.
  Status Close();

  // Bytes handed to the sink so far.
  int64_t bytes_written() const { return bytes_written_; }

 private:
  enum class State { kNew, kStarted, kClosed, kFailed };

  Status Emit(std::string_view bytes);
  Status CheckUsable(const char* operation) const;

  IpcSink sink_;
  State state_ = State::kNew;
  Error failure_{ErrorCode::kInternal, {}};
  SchemaPtr schema_;
  int64_t bytes_written_ = 0;
};

// The complete stream for `batches` under `schema` (schema message, batches,
// end-of-stream marker).
Result<std::string> WriteIpcStream(const Schema& schema, const std::vector<RecordBatch>& batches);

}  // namespace hoglake::columnar
