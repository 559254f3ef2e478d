// Data files as the read endpoints return them (contract §2.6).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "catalog/model/stats_state.h"
#include "iceberg/column_type.h"

namespace hoglake::catalog {

struct ColumnStatRow {
  int32_t field_id = 0;
  int64_t value_count = 0;
  int64_t null_count = 0;
  std::optional<int64_t> nan_count;
  std::optional<int64_t> size_bytes;
  std::optional<std::string> lower_bound;  // stored Iceberg single-value bytes
  std::optional<std::string> upper_bound;
  iceberg::TypeSpec type;  // the column's type at the read snapshot
};

// The bounds a file listing orders by: the leading sort field's stored bounds
// (field_id set), or the row-id span of an unsorted table.
struct OrderingBounds {
  std::optional<int32_t> field_id;
  iceberg::TypeSpec type;            // for decoding stored bounds
  std::optional<std::string> lower;  // stored bytes (sort field)
  std::optional<std::string> upper;
  std::optional<int64_t> row_lower;  // row-id span
  std::optional<int64_t> row_upper;
  bool row_span = false;
};

struct DataFileInfo {
  int64_t data_file_id = 0;
  std::string path;
  std::string file_format;
  int64_t record_count = 0;
  int64_t file_size_bytes = 0;
  std::optional<int64_t> footer_size;
  int64_t row_id_start = 0;
  StatsState stats_state = StatsState::kProvided;
  int64_t begin_snapshot = 0;
  std::optional<int64_t> spec_id;
  std::optional<std::vector<std::optional<std::string>>> partition_values;
  bool explicit_row_ids = false;
  std::optional<std::vector<int64_t>> split_offsets;       // scan include=split_offsets
  std::optional<std::vector<ColumnStatRow>> column_stats;  // scan include=column_stats
  std::optional<OrderingBounds> ordering_bounds;           // files listing
};

struct ScanOptions {
  bool column_stats = false;
  std::optional<std::vector<int64_t>> stats_fields;  // narrows column_stats
  bool split_offsets = false;
};

struct FileListing {
  std::string sort = "default";  // id, path, record_count, size, stats, begin_snapshot
  bool descending = false;
  std::optional<int64_t> limit;  // capped at 10,000
  int64_t offset = 0;
  std::vector<std::pair<int32_t, std::optional<std::string>>> partition;  // key_index, value
};

struct FileColumnStats {
  int32_t field_id = 0;
  std::string name;
  std::string path;  // dotted, e.g. "l.element"
  iceberg::TypeSpec type;
  ColumnStatRow stats;
};

struct FileStats {
  int64_t data_file_id = 0;
  StatsState stats_state = StatsState::kProvided;
  std::vector<FileColumnStats> columns;
  std::optional<std::string> no_stats_reason;
};

}  // namespace hoglake::catalog
