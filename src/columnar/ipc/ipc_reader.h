// Arrow IPC stream reader: the inverse of IpcStreamWriter, for streams from
// any Arrow implementation.
//
// Accepted: metadata version V4 and V5; the framed form (0xFFFFFFFF marker +
// int32 length) and the legacy form (int32 length only); an explicit
// end-of-stream marker or the input simply ending at a message boundary;
// LargeUtf8 / LargeBinary / LargeList, whose int64 offsets are narrowed to
// int32 (utf8 / binary / list) — NotImplemented when they do not fit;
// dictionary-encoded utf8 / binary fields (any integer index type, at any
// nesting level), which are materialized as plain utf8 / binary columns —
// the schema shows the value type — with DictionaryBatch messages replacing
// a dictionary when they repeat an id. A dictionary-encoded column may expand
// to at most max(256 MiB, 64 × its message body) bytes of values.
// NotImplemented: delta dictionary batches, dictionaries of other value
// types, compressed bodies, big-endian streams, and Arrow types outside
// type.h (float16, date64, time32, decimal256, unions, intervals other than
// month_day_nano, durations, views, ...).
//
// Untrusted input is safe: every truncated or corrupt stream yields an
// InvalidData error naming what was wrong (and the byte position of the
// message), never a crash or out-of-bounds read. The metadata flatbuffer is
// verified before use and may be at most 64 MiB; a body may not extend past
// the input (in memory) and is read incrementally from streams, so memory
// grows with the bytes actually present, not with lengths the input claims.
// Field node and buffer counts must match the schema, buffers must lie inside
// the body, nesting is limited to 64 levels, and every batch passes
// ValidateBatch before it is returned.
//
// Arrays read from memory are zero-copy slices of the input when the buffer
// starts at a multiple of its element size (capped at 8 bytes; 16 for
// decimal128) and copies otherwise, so no load is ever misaligned. Null counts of zero drop the
// validity bitmap.
//
//   IpcStreamReader reader(Buffer::CopyOf(bytes.data(), bytes.size()));
//   HOGLAKE_ASSIGN_OR_RETURN(SchemaPtr schema, reader.ReadSchema());
//   while (true) {
//     HOGLAKE_ASSIGN_OR_RETURN(auto batch, reader.Next());
//     if (!batch) break;
//     ...
//   }
//
// After an error, every later call returns the same error.
#pragma once

#include <cstdio>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "columnar/array.h"

namespace hoglake::columnar {

class IpcStreamReader {
 public:
  // Reads the stream held in `bytes`; batches share (slice) its memory.
  explicit IpcStreamReader(std::shared_ptr<Buffer> bytes);
  // Reads incrementally from `*in` / `file`, which must outlive the reader and
  // are not closed by it. A read failure is an IoError.
  explicit IpcStreamReader(std::istream* in);
  explicit IpcStreamReader(std::FILE* file);
  ~IpcStreamReader();
  IpcStreamReader(IpcStreamReader&&) noexcept;
  IpcStreamReader& operator=(IpcStreamReader&&) noexcept;

  // Reads the schema message on the first call; later calls return it again.
  // InvalidData when the stream is empty or does not start with a schema.
  Result<SchemaPtr> ReadSchema();
  // The next record batch (reading the schema first if needed), or nullopt at
  // the end of the stream.
  Result<std::optional<RecordBatch>> Next();

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

// The schema and all batches of a complete stream. Copies `bytes` once into an
// aligned buffer the batches then share.
Result<std::pair<SchemaPtr, std::vector<RecordBatch>>> ReadIpcStream(std::string_view bytes);
// As above without the copy: batches slice `bytes`.
Result<std::pair<SchemaPtr, std::vector<RecordBatch>>> ReadIpcStream(std::shared_ptr<Buffer> bytes);

}  // namespace hoglake::columnar
