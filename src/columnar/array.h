// ArrayData: one Arrow-layout column (or nested child) and RecordBatch: equal-
// length columns under a schema.
//
// Layout per type (buffers[0] is always the validity bitmap, null when the
// array has no nulls):
//   bool                 [validity, bits]
//   fixed width          [validity, values]     (decimal128: 16-byte LE two's complement)
//   utf8 / binary        [validity, int32 offsets (length + 1), bytes]
//   list / map           [validity, int32 offsets (length + 1)] + children[0]
//   struct               [validity] + one child per field
// `offset` is a logical start in every buffer of this array (not the
// children's); `null_count` is exact. Arrays are immutable once shared.
// Accessors assume a valid array (see validate.h) and index in [0, length).
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "columnar/buffer.h"
#include "columnar/type.h"

namespace hoglake::columnar {

struct ArrayData;
using ArrayPtr = std::shared_ptr<const ArrayData>;

struct ArrayData {
  DataTypePtr type;
  int64_t length = 0;
  int64_t null_count = 0;
  int64_t offset = 0;
  std::vector<std::shared_ptr<Buffer>> buffers;
  std::vector<ArrayPtr> children;

  bool IsNull(int64_t i) const {
    return null_count != 0 && buffers[0] && !GetBit(buffers[0]->data(), offset + i);
  }
  bool IsValid(int64_t i) const { return !IsNull(i); }

  // Fixed-width values, already advanced by `offset`.
  template <typename T>
  const T* values() const {
    return buffers[1]->data_as<T>() + offset;
  }
  bool GetBool(int64_t i) const { return GetBit(buffers[1]->data(), offset + i); }
  // utf8/binary/list/map offsets, already advanced by `offset`.
  const int32_t* offsets() const { return buffers[1]->data_as<int32_t>() + offset; }
  // The bytes of value i of a utf8, binary or fixed_size_binary array.
  std::string_view GetView(int64_t i) const;
};

// Columns of equal length under one schema.
struct RecordBatch {
  SchemaPtr schema;
  int64_t num_rows = 0;
  std::vector<ArrayPtr> columns;

  int num_columns() const { return static_cast<int>(columns.size()); }
};

// Builds a RecordBatch, checking that column count, lengths and types match
// the schema.
Result<RecordBatch> MakeRecordBatch(SchemaPtr schema, std::vector<ArrayPtr> columns);

}  // namespace hoglake::columnar
