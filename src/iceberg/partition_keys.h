// Partition fan-out over columnar data (pyhoglake-writer §6.4, §7): apply a
// partition field's transform to a whole source array, then group rows by
// their full partition tuple.
//
// ComputePartitionKeys gives each row a small integer code naming its
// partition value; the wire string (partition_text.h) is rendered once per
// distinct value, never per row. Temporal transforms are computed per row
// (a few integer operations); identity, bucket and truncate are keyed by the
// source value, so hashing, truncating and rendering run once per unique
// value. Two source values that render to the same string share a code, so
// codes and strings correspond one to one. A null source value gets
// PartitionKeyColumn::kNull (its own group, sent as JSON null).
//
// The source array must be the leaf's flat values with the row's nullness
// already applied (for a struct leaf: the child array with the parents'
// nulls folded in). Accepted Arrow types per catalog type: any integer type
// for the integer members (uint32 arrives as int64), float32/float64,
// decimal128 (with the column's scale), date32, time64, timestamp of any
// unit (s and ms scale to micros with overflow checks; ns floors), utf8 for
// string/json, fixed_size_binary(16) for uuid, binary or fixed_size_binary
// for binary.
//
// GroupRowsByPartition then forms one group per distinct tuple (nulls equal
// nulls), ordered by the first row at which the tuple occurs, each keeping
// its rows in input order.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "columnar/array.h"
#include "common/status.h"
#include "iceberg/column_type.h"
#include "iceberg/transforms.h"

namespace hoglake::iceberg {

// One partition field evaluated over a column.
struct PartitionKeyColumn {
  static constexpr int32_t kNull = -1;
  std::vector<int32_t> codes;       // per row: an index into `values`, or kNull
  std::vector<std::string> values;  // distinct wire strings, first-occurrence order

  // The wire string of `row`, nullopt for a null partition value.
  std::optional<std::string_view> ValueAt(int64_t row) const {
    const int32_t code = codes[static_cast<size_t>(row)];
    if (code == kNull) return std::nullopt;
    return std::string_view(values[static_cast<size_t>(code)]);
  }
};

// Applies `transform` to every row of `source`, a column of catalog type
// `source_type`. Errors: the transform's type gate (CheckTransformSource), a
// source array whose Arrow type cannot hold `source_type`, a timestamp that
// overflows when scaled to micros or nanos, and (as in pyhoglake) an identity
// value Python cannot render (a date or timestamp outside years 1..9999, a
// time outside one day).
Result<PartitionKeyColumn> ComputePartitionKeys(const columnar::ArrayData& source,
                                                const TypeSpec& source_type,
                                                const Transform& transform);

// The rows of one partition and its `partition_values` tuple.
struct PartitionGroup {
  std::vector<std::optional<std::string>> values;  // one per spec field; nullopt = null
  std::vector<int64_t> rows;                       // ascending input row indices
};

// Groups rows by the tuple of their codes across `keys` (one entry per spec
// field, in key_index order, all of the same length). Errors when `keys` is
// empty or the lengths differ.
Result<std::vector<PartitionGroup>> GroupRowsByPartition(std::span<const PartitionKeyColumn> keys);

}  // namespace hoglake::iceberg
