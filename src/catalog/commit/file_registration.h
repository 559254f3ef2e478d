// Validation of registered data files (contract §4.1), shared by every door
// that registers files: structural checks that refuse (kValidation naming the
// file), and the statistics sanitizer that repairs what it can and refuses
// only what would corrupt the catalog.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "catalog/commit/commit_request.h"
#include "catalog/model/table_schema.h"

namespace hoglake::catalog {

inline constexpr int64_t kMaxRecordCount = int64_t{1} << 48;
inline constexpr size_t kMaxSplitOffsets = 100000;

// True when `path` lies under the normalized data path (ending in '/') with
// no whitespace/control characters and no empty, "." or ".." segments after
// the prefix.
bool PathUnderDataPath(std::string_view path, std::string_view data_path_with_slash);

// The path rules of one publishing request (`request` names it in errors:
// "commit", "replace"), in the order it lists them: a path listed twice is
// kValidation at once; paths not under the data path (PathUnderDataPath) are
// kValidation naming up to five of them.
Status CheckDataPaths(const std::vector<std::string_view>& paths,
                      std::string_view data_path_with_slash, std::string_view request);

// record_count, file_size_bytes, footer_size, split_offsets, file_format.
Status ValidateFileShape(const FileRegistration& file, std::string_view where);

// What the sanitizer needs to know of each live column of the table.
struct StatsColumn {
  iceberg::TypeSpec type;
  bool is_leaf = true;  // false for list/struct/map
};
using StatsColumns = std::map<int64_t, StatsColumn>;  // by field id

// Checks and repairs one file's column stats in place:
//   refused (kValidation): unknown/non-live field id, a container or variant
//   column, a duplicate field id, negative value_count/null_count;
//   repaired: null_count > value_count clamped; nan_count negative, on a
//   non-float column, or above the non-null count dropped/clamped; negative
//   size_bytes dropped; bounds of an all-null column dropped; undecodable
//   bounds (wrong width, NaN, empty decimal, bad UTF-8) dropped; ±0.0
//   canonicalized; an inverted pair dropped.
Status SanitizeColumnStats(std::vector<ColumnStatsInput>& stats, const StatsColumns& columns,
                           std::string_view where);

// The live columns of a table tree, by field id.
StatsColumns StatsColumnsOf(const std::vector<ColumnNode>& columns);

}  // namespace hoglake::catalog
