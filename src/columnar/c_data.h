// The Arrow C Data Interface and C Stream Interface: handing arrays, schemas
// and streams of record batches to and from other Arrow implementations in the
// same process (DuckDB, pyarrow, arrow-rs, nanoarrow, ...) without copying.
//
// Export (ours → a consumer):
//   ExportArray/ExportRecordBatch fill an ArrowArray whose buffer pointers
//   point straight into our Buffers; the struct's private_data holds the
//   shared_ptrs that keep those Buffers alive until the consumer calls
//   release. Every exported struct (each child included) has its own release,
//   so a consumer may move a child out (copy the struct, set the original's
//   release to NULL) and release it independently of its parent. Release
//   follows the spec: release the children and dictionary that are still
//   live, free private data, set release to NULL. Buffers that we hold as
//   null or empty, other than validity bitmaps, are exported as non-NULL
//   pointers to zeroed memory (some consumers mishandle NULL). A missing
//   validity bitmap is exported as NULL. On error nothing is written to `out`.
//
// Import (a producer → ours):
//   The Import* functions take ownership of the struct passed in: they move
//   it (its release is set to NULL in the caller's copy) into a shared holder
//   whose destruction calls the producer's release exactly once, on success
//   and on every error path alike. Imported Buffers wrap the producer's memory
//   zero-copy, with the holder as their owner. Schemas are copied into our
//   types, so ImportField/ImportSchema/ImportType release the ArrowSchema
//   before they return. Imported arrays are checked before use: struct
//   counts, NULL pointers, negative lengths/offsets and declared buffer sizes
//   first (foreign buffer sizes are unknown, so each buffer is wrapped at the
//   exact size its length/offset/type require, and offsets buffers are read
//   to size data buffers), then Validate() from validate.h. Bad input gives
//   kInvalidData (or kInvalidArgument for a released/NULL struct), never a
//   crash. null_count == -1 (unknown) is computed from the bitmap.
//
// Formats: every type of type.h is exported ("b", "c"/"C"/"s"/"S"/"i"/"I"/
// "l"/"L", "f"/"g", "d:P,S", "tdD", "ttu"/"ttn", "ts{s,m,u,n}:TZ", "u", "z",
// "w:N", "tin", "+l", "+s", "+m"). Import additionally accepts "U"/"Z" (large
// utf8/binary) and "+L" (large list), converting their 64-bit offsets to
// int32 when the data fits in 2 GiB — but only where the array is imported
// together with its schema (ImportArray(ArrowArray*, ArrowSchema*),
// ImportRecordBatch(ArrowArray*, ArrowSchema*), CStreamReader), since our
// DataType cannot remember the foreign offset width; ImportField/ImportSchema
// /ImportType report them as NotImplemented. Other formats (date64, time32,
// durations, intervals other than "tin", float16, null, views, unions, fixed-size lists,
// run-end encoded, decimal256, dictionary-encoded fields) are NotImplemented
// with the format named.
//
// Field nullability maps to ARROW_FLAG_NULLABLE, map keys_sorted to
// ARROW_FLAG_MAP_KEYS_SORTED; field and schema metadata (e.g.
// "PARQUET:field_id", "ARROW:extension:name") travel in the spec's binary
// metadata encoding.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "columnar/array.h"

// ---- the ABI structs, as the Arrow specification defines them ----------------
// Guarded by the spec's macros so that another definition of the same ABI
// (nanoarrow, DuckDB, arrow/c/abi.h) included first wins without conflict.

#ifdef __cplusplus
extern "C" {
#endif

#ifndef ARROW_C_DATA_INTERFACE
#define ARROW_C_DATA_INTERFACE

// Dictionary indices are ordered (only meaningful with a dictionary).
#define ARROW_FLAG_DICTIONARY_ORDERED 1
// The field may hold nulls.
#define ARROW_FLAG_NULLABLE 2
// Keys within each map value are sorted.
#define ARROW_FLAG_MAP_KEYS_SORTED 4

// Describes a type (and the name, nullability and metadata of its field).
struct ArrowSchema {
  const char* format;    // type code, e.g. "l", "tsu:UTC", "+s"
  const char* name;      // field name, may be NULL
  const char* metadata;  // binary key/value encoding, NULL when none
  int64_t flags;         // ARROW_FLAG_* bits
  int64_t n_children;
  struct ArrowSchema** children;
  struct ArrowSchema* dictionary;  // value type of a dictionary-encoded field
  // Frees what the producer allocated; NULL marks a released struct.
  void (*release)(struct ArrowSchema*);
  void* private_data;  // the producer's bookkeeping
};

// One array's data: buffer pointers plus child and dictionary arrays.
struct ArrowArray {
  int64_t length;
  int64_t null_count;  // -1 when not computed
  int64_t offset;      // logical start in every buffer of this array
  int64_t n_buffers;
  int64_t n_children;
  const void** buffers;
  struct ArrowArray** children;
  struct ArrowArray* dictionary;
  // Frees what the producer allocated; NULL marks a released struct.
  void (*release)(struct ArrowArray*);
  void* private_data;
};

#endif  // ARROW_C_DATA_INTERFACE

#ifndef ARROW_C_STREAM_INTERFACE
#define ARROW_C_STREAM_INTERFACE

// A pull-based sequence of arrays sharing one schema. The callbacks return 0
// on success or an errno-style code; get_next signals the end by producing a
// released array (release == NULL). get_last_error describes the most recent
// failure (or returns NULL); its text lives until the next call.
struct ArrowArrayStream {
  int (*get_schema)(struct ArrowArrayStream*, struct ArrowSchema* out);
  int (*get_next)(struct ArrowArrayStream*, struct ArrowArray* out);
  const char* (*get_last_error)(struct ArrowArrayStream*);
  void (*release)(struct ArrowArrayStream*);
  void* private_data;
};

#endif  // ARROW_C_STREAM_INTERFACE

#ifdef __cplusplus
}
#endif

namespace hoglake::columnar {

// ---- export ------------------------------------------------------------------

// A type alone: empty name, flagged nullable, no metadata.
Status ExportType(const DataType& type, ArrowSchema* out);
// A field: name, type, nullability flag and metadata.
Status ExportField(const Field& field, ArrowSchema* out);
// A schema as a "+s" struct whose children are its fields; the schema
// metadata goes on the struct.
Status ExportSchema(const Schema& schema, ArrowSchema* out);
// An array (any offset), zero copy.
Status ExportArray(const ArrayPtr& array, ArrowArray* out);
// A batch as a struct array without nulls, one child per column.
Status ExportRecordBatch(const RecordBatch& batch, ArrowArray* out);
// A stream yielding `batches` in order; every batch must match `schema`
// (column count and types), checked before anything is exported.
Status ExportRecordBatchStream(SchemaPtr schema, std::vector<RecordBatch> batches,
                               ArrowArrayStream* out);

// ---- import ------------------------------------------------------------------

// These consume (release) the ArrowSchema, also on error.
Result<DataTypePtr> ImportType(ArrowSchema* schema);
Result<Field> ImportField(ArrowSchema* schema);
// Expects a "+s" struct; its children are the fields, its metadata the
// schema's.
Result<SchemaPtr> ImportSchema(ArrowSchema* schema);

// These consume the ArrowArray, also on error. The result shares the
// producer's memory, which stays valid while any imported Buffer lives.
Result<ArrayPtr> ImportArray(ArrowArray* array, const DataTypePtr& type);
// Expects a struct array without nulls whose children match the schema's
// fields; a nonzero struct offset is applied to the columns.
Result<RecordBatch> ImportRecordBatch(ArrowArray* array, SchemaPtr schema);
// Type and data together (consumes both); accepts the large formats.
Result<ArrayPtr> ImportArray(ArrowArray* array, ArrowSchema* schema);
Result<RecordBatch> ImportRecordBatch(ArrowArray* array, ArrowSchema* schema);

// Reads record batches from a producer's ArrowArrayStream.
//
//   HOGLAKE_ASSIGN_OR_RETURN(auto reader, CStreamReader::Open(&stream));
//   while (true) {
//     HOGLAKE_ASSIGN_OR_RETURN(auto batch, reader.Next());
//     if (!batch) break;
//     ...
//   }
class CStreamReader {
 public:
  // Takes ownership of `*stream` (released when the reader is destroyed, also
  // if Open fails) and reads its schema, which must be a "+s" struct.
  static Result<CStreamReader> Open(ArrowArrayStream* stream);

  CStreamReader(CStreamReader&&) noexcept;
  CStreamReader& operator=(CStreamReader&&) noexcept;
  ~CStreamReader();

  const SchemaPtr& schema() const { return schema_; }
  // The next batch, or nullopt at the end of the stream (and after). A
  // producer failure is an IoError carrying the producer's get_last_error
  // text; an invalid batch is InvalidData.
  Result<std::optional<RecordBatch>> Next();

 private:
  struct State;
  explicit CStreamReader(std::unique_ptr<State> state);

  std::unique_ptr<State> state_;
  SchemaPtr schema_;
};

}  // namespace hoglake::columnar
