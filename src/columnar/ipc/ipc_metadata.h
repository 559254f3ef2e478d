// Internal to src/columnar/ipc: the framing constants of the Arrow IPC stream
// format and the conversion between our Schema and the Arrow Schema
// flatbuffer, shared by ipc_writer.cc and ipc_reader.cc. Not for use outside
// this folder (it pulls in the generated flatbuffers header).
#pragma once

#include <flatbuffers/flatbuffers.h>

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "columnar/ipc/arrow_message_generated.h"
#include "columnar/type.h"

namespace hoglake::columnar::ipc_internal {

// Every message starts with this marker followed by an int32 metadata length;
// a zero length ends the stream. Legacy streams omit the marker.
inline constexpr uint32_t kContinuation = 0xFFFFFFFFu;
// Longest flatbuffer Message we accept, in bytes.
inline constexpr int64_t kMaxMetadataLength = int64_t{64} << 20;
// Deepest field nesting we write or read; a top-level primitive is depth 1.
// Matches the limit of Validate() in validate.h.
inline constexpr int kMaxNestingDepth = 64;
// Body buffers start at multiples of this many bytes.
inline constexpr int64_t kBodyAlignment = 8;

inline int64_t PadTo8(int64_t n) { return (n + 7) & ~int64_t{7}; }

// ---- writing ---------------------------------------------------------------

// Appends the Arrow Schema table for `schema` to `fbb`. Fails with
// InvalidArgument for what Arrow cannot express (time64 in s or ms, nesting
// deeper than kMaxNestingDepth, a map whose entries are not key + value).
Result<flatbuffers::Offset<arrowfb::Schema>> BuildSchema(flatbuffers::FlatBufferBuilder& fbb,
                                                         const Schema& schema);

// ---- reading ---------------------------------------------------------------

// How one field travels in a record batch: our type plus what differs on the
// wire. `large_offsets` marks LargeUtf8 / LargeBinary / LargeList, whose int64
// offsets the reader narrows to int32. Children mirror DataType::children
// (map: the entries struct, whose children are key and value).
//
// A dictionary-encoded field (only utf8/binary values are supported) carries
// integer indices in record batches — one field node, a validity and an
// indices buffer, no children — and its values in DictionaryBatch messages
// with id `dictionary_id`; the reader materializes it as plain utf8/binary
// (`type`). `large_offsets` then describes the dictionary's offsets.
struct FieldLayout {
  DataTypePtr type;
  bool large_offsets = false;
  std::vector<FieldLayout> children;
  std::optional<int64_t> dictionary_id;
  int index_bit_width = 32;  // 8, 16, 32 or 64
  bool index_signed = true;
};

// A decoded Schema message: the schema, the wire layout of each top-level
// field, how many field nodes and buffers a record batch must carry, and the
// value layout of each dictionary id (for DictionaryBatch messages).
struct SchemaLayout {
  SchemaPtr schema;
  std::vector<FieldLayout> fields;
  int64_t num_nodes = 0;
  int64_t num_buffers = 0;
  std::map<int64_t, FieldLayout> dictionaries;
};

// Converts a verified Arrow Schema table. InvalidData names the offending
// field path for inconsistent metadata (wrong child count, illegal widths,
// nesting deeper than kMaxNestingDepth, one dictionary id used with two
// value types); NotImplemented for Arrow types and features hoglake does not
// read (dictionaries of other than utf8/binary values, unions, float16,
// big-endian, ...).
Result<SchemaLayout> DecodeSchema(const arrowfb::Schema& schema);

}  // namespace hoglake::columnar::ipc_internal
