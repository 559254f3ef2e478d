// A table's column tree as the catalog stores it, and the contract's rules
// for it (§3.1): list = exactly one child named "element"; map = exactly
// "key" (not nullable) then "value"; struct ≥ 1 child; scalars have no
// children; nesting ≤ 8 levels (top level = 1); ≤ 10,000 nodes per table;
// sibling names unique; identifier rules on every name and no "_hog" prefix
// at any depth; type_params only on decimal ({precision 1..38, scale
// 0..precision}) and variant ({shredding}). Every violation is kValidation
// naming the column's dotted path.
//
// Field ids are assigned depth-first (a parent's id below its descendants'),
// from the table's allocator, never reused; ordinals number siblings from 0.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/status.h"
#include "iceberg/column_type.h"

namespace hoglake::catalog {

inline constexpr int kMaxNestingDepth = 8;
inline constexpr int kMaxColumnNodes = 10000;
// Reserved for compaction outputs' _hog_row_id; never allocated.
inline constexpr int32_t kReservedRowIdFieldId = 2147483646;

struct ColumnNode {
  std::string name;
  iceberg::TypeSpec type;
  bool nullable = true;
  std::optional<std::string> comment;
  // Canonical JSON of the variant's shredding declaration, when declared.
  std::optional<std::string> shredding_json;
  std::vector<ColumnNode> children;
  int32_t field_id = 0;  // 0 until assigned
  int32_t ordinal = 0;

  // The type_params JSON object stored and returned for this column, if any:
  // decimal {"precision":P,"scale":S}, variant {"shredding":…}.
  std::optional<std::string> TypeParamsJson() const;
};

// Checks a whole table's columns (top-level list).
Status ValidateColumns(const std::vector<ColumnNode>& columns);
// Total nodes in the forest.
int CountNodes(const std::vector<ColumnNode>& columns);
// Numbers the forest depth-first starting at `next_field_id` (skipping the
// reserved id) and sets ordinals; returns the next unallocated id (saturated
// at INT32_MAX), or kValidation when ids beyond INT32_MAX would be needed.
Result<int32_t> AssignFieldIds(std::vector<ColumnNode>& columns, int32_t next_field_id);

// Comment: ≤ 16,384 characters, no NUL. Properties (§3.3): ≤ 100 keys
// matching [a-z][a-z0-9_.-]{0,127}, not starting "hoglake." or "trino.", not
// partitioning/sorted_by/location/format/comment; values ≤ 4,096 characters
// without NUL; write.format.default must be "parquet" (the packed MergeTree
// format is not supported by this server).
Status ValidateComment(std::string_view what, std::string_view comment);
Status ValidateProperties(const std::vector<std::pair<std::string, std::string>>& properties);

}  // namespace hoglake::catalog
