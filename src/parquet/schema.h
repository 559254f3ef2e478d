// The bridge between a columnar (Arrow-layout) schema and a Parquet schema,
// used by both the writer and the reader.
//
// A ParquetSchema holds three views of one schema:
//   - `elements`: the flattened Thrift SchemaElements (root first, depth-first);
//   - `columns`: one SchemaNode tree per top-level field, carrying the
//     definition/repetition level facts needed to shred arrays into levels
//     and to assemble them back;
//   - `leaves`: the primitive columns (column chunks) in file order.
//
// Writing (FromArrow) follows the hoglake writer rulebook
// (reference/pyhoglake-writer.md §2.2, §3.1):
//   bool → BOOLEAN; int8/int16 → INT32 + INT(8|16, signed); int32 → INT32;
//   int64 → INT64; uint8/uint16 → INT32 + INT(8|16, unsigned); uint32 → INT64
//   (values zero-extended, no annotation); uint64 → INT64 + INT(64, unsigned);
//   float/double → FLOAT/DOUBLE; decimal128(p, s) → FIXED_LEN_BYTE_ARRAY of
//   the fewest bytes that hold p digits + DECIMAL(p, s); date32 → INT32 + DATE;
//   time64 → INT64 + TIME(MICROS | NANOS) (s/ms are scaled to micros);
//   timestamp[s] → INT64 + TIMESTAMP(MILLIS) with ticks × 1000; other units
//   keep theirs; isAdjustedToUTC = the type has a time zone;
//   utf8 → BYTE_ARRAY + STRING (JSON with the arrow.json extension);
//   binary → BYTE_ARRAY; fixed_size_binary(n) → FIXED_LEN_BYTE_ARRAY(n)
//   (+ UUID with the arrow.uuid extension); list → 3-level LIST
//   (<name> / repeated group "list" / "element"); map → MAP (<name> /
//   repeated group "key_value" / required "key", "value"); struct → group.
//   Field ids (Field::field_id()) go on every node that has one except the
//   synthetic repeated groups "list" and "key_value".
//
// Reading (FromParquet) maps annotations back (the Arrow types above, plus
// INT32 + TIME(MILLIS) → time64[ms], INT96 → timestamp[ns], INT32/INT64/
// BYTE_ARRAY decimals → decimal128, ENUM → utf8, BSON → binary, INT(32,
// unsigned) on INT32 → uint32), accepts 2-level and unannotated repeated
// lists, and puts field ids into "PARQUET:field_id" metadata.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "columnar/type.h"
#include "parquet/metadata.h"

namespace hoglake::parquet {

struct SchemaNode {
  enum class Kind { kLeaf, kStruct, kList, kMap };
  Kind kind = Kind::kLeaf;
  columnar::Field field;  // the Arrow field this node reads back as
  bool optional = false;  // adds one definition level
  // A slot for this node exists (in its parent's Arrow layout) where the
  // definition level is ≥ slot_def and the repetition level ≤ rep_level.
  int16_t slot_def = 0;
  int16_t rep_level = 0;
  // The definition level at which this node's value is present (non-null).
  int16_t def_level = 0;
  // list/map only: the definition level of a non-empty container.
  int16_t repeated_def = 0;
  std::vector<SchemaNode> children;  // struct: fields; list: {element}; map: {key, value}
  int leaf_begin = 0;                // this subtree's leaves: [leaf_begin, leaf_end)
  int leaf_end = 0;
};

struct LeafColumn {
  std::vector<std::string> path;  // path_in_schema, e.g. {"m", "key_value", "key"}
  PhysicalType physical = PhysicalType::kBoolean;
  int32_t type_length = 0;  // FIXED_LEN_BYTE_ARRAY width
  int16_t max_def = 0;
  int16_t max_rep = 0;
  columnar::DataTypePtr type;  // Arrow type of the leaf's values
  const SchemaNode* node = nullptr;
  int column_index = 0;  // top-level column this leaf belongs to
};

struct ParquetSchema {
  ParquetSchema() = default;
  ParquetSchema(ParquetSchema&&) = default;
  ParquetSchema& operator=(ParquetSchema&&) = default;
  ParquetSchema(const ParquetSchema&) = delete;  // leaves point into columns
  ParquetSchema& operator=(const ParquetSchema&) = delete;

  std::vector<SchemaElement> elements;
  std::vector<SchemaNode> columns;
  std::vector<LeafColumn> leaves;
  columnar::SchemaPtr arrow_schema;
};

// The Parquet schema a writer emits for `schema`; InvalidArgument for a
// type Parquet cannot hold (the message names the field).
Result<std::unique_ptr<ParquetSchema>> SchemaFromArrow(const columnar::Schema& schema);
// The columnar view of a file's schema; InvalidData for a malformed tree,
// NotImplemented for annotations hoglake does not read.
Result<std::unique_ptr<ParquetSchema>> SchemaFromParquet(
    const std::vector<SchemaElement>& elements);

// Bytes of the FIXED_LEN_BYTE_ARRAY that holds any decimal of `precision`.
int32_t DecimalByteWidth(int32_t precision);

}  // namespace hoglake::parquet
