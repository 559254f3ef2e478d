// The distinct stored partition values of a table at one snapshot (contract
// §2.7 "GET T/partitions/values").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace hoglake::catalog {

// At most this many distinct values are reported per spec field.
inline constexpr int kMaxPartitionValuesPerField = 500;

// One field of the spec in force at the snapshot, with the distinct values
// stored for it over the live files written under that spec: most frequent
// first (count of files), ties by value in byte order ("C" collation), the
// null value after every non-null value of the same count. `truncated` when
// more than kMaxPartitionValuesPerField distinct values exist.
struct PartitionFieldValues {
  int32_t source_field_id = 0;
  std::string transform;
  std::optional<int32_t> transform_param;
  std::vector<std::optional<std::string>> values;  // nullopt = the null partition value
  bool truncated = false;
};

// spec_id is empty (and fields empty) when the table is unpartitioned at the
// snapshot; otherwise one entry per spec field, in key_index order.
struct PartitionValues {
  std::optional<int64_t> spec_id;
  std::vector<PartitionFieldValues> fields;
};

}  // namespace hoglake::catalog
