#include "catalog/commit/file_registration.h"

#include <set>

#include "iceberg/bounds.h"

namespace hoglake::catalog {

using iceberg::ColumnType;

bool PathUnderDataPath(std::string_view path, std::string_view prefix) {
  if (!path.starts_with(prefix) || path.size() == prefix.size()) return false;
  for (unsigned char c : path) {
    if (c <= 0x20 || c == 0x7F) return false;
  }
  std::string_view rest = path.substr(prefix.size());
  size_t start = 0;
  while (start <= rest.size()) {
    size_t end = rest.find('/', start);
    if (end == std::string_view::npos) end = rest.size();
    std::string_view segment = rest.substr(start, end - start);
    if (segment.empty() || segment == "." || segment == "..") return false;
    start = end + 1;
  }
  return true;
}

Status CheckDataPaths(const std::vector<std::string_view>& paths, std::string_view data_path,
                      std::string_view request) {
  std::vector<std::string_view> outside;
  std::set<std::string_view> seen;
  for (std::string_view path : paths) {
    if (!PathUnderDataPath(path, data_path)) outside.push_back(path);
    if (!seen.insert(path).second) {
      return Validation("path '", path, "' is listed twice in this ", request,
                        ": a file is registered once");
    }
  }
  if (outside.empty()) return Status::Ok();
  std::string list;
  for (size_t i = 0; i < outside.size() && i < 5; ++i) {
    list += (i ? ", " : "");
    list += outside[i];
  }
  return Validation("path(s) outside the catalog data_path '", data_path, "': ", list);
}

Status ValidateFileShape(const FileRegistration& f, std::string_view where) {
  if (f.path.empty()) return Validation(where, ": path must not be blank");
  if (f.record_count < 0 || f.record_count > kMaxRecordCount) {
    return Validation(where, ": record_count ", f.record_count, " is outside 0..2^48");
  }
  if (f.file_size_bytes < 0) return Validation(where, ": file_size_bytes must not be negative");
  if (f.footer_size) {
    if (f.file_size_bytes < 8 || *f.footer_size < 0 || *f.footer_size > f.file_size_bytes - 8) {
      return Validation(where, ": invalid footer_size ", *f.footer_size, " for a file of ",
                        f.file_size_bytes, " bytes");
    }
  }
  if (f.split_offsets) {
    const auto& offsets = *f.split_offsets;
    if (offsets.empty() || offsets.size() > kMaxSplitOffsets) {
      return Validation(where, ": split_offsets must hold 1..", kMaxSplitOffsets, " entries");
    }
    for (size_t i = 0; i < offsets.size(); ++i) {
      if ((i == 0 && offsets[i] < 0) || (i > 0 && offsets[i] <= offsets[i - 1]) ||
          offsets[i] >= f.file_size_bytes) {
        return Validation(where,
                          ": split_offsets must increase strictly from 0 and stay below "
                          "file_size_bytes");
      }
    }
  }
  if (f.file_format && *f.file_format != "parquet") {
    return Validation(where, ": file_format '", *f.file_format,
                      "' does not match the table's format (parquet)");
  }
  return Status::Ok();
}

namespace {

void Collect(const std::vector<ColumnNode>& nodes, StatsColumns* out) {
  for (const ColumnNode& n : nodes) {
    (*out)[n.field_id] = StatsColumn{n.type, !iceberg::IsContainer(n.type.type)};
    Collect(n.children, out);
  }
}

bool IsFloating(ColumnType t) { return t == ColumnType::kFloat || t == ColumnType::kDouble; }

// The bound if it decodes under the type, canonicalized; nullopt otherwise.
std::optional<std::string> CleanBound(const iceberg::TypeSpec& type,
                                      const std::optional<std::string>& bytes,
                                      iceberg::BoundRole role) {
  if (!bytes || !iceberg::DecodeBound(type, *bytes).ok()) return std::nullopt;
  return iceberg::NormalizeZeroBound(type.type, *bytes, role);
}

}  // namespace

StatsColumns StatsColumnsOf(const std::vector<ColumnNode>& columns) {
  StatsColumns out;
  Collect(columns, &out);
  return out;
}

Status SanitizeColumnStats(std::vector<ColumnStatsInput>& stats, const StatsColumns& columns,
                           std::string_view where) {
  std::set<int64_t> seen;
  for (ColumnStatsInput& s : stats) {
    auto it = columns.find(s.field_id);
    if (it == columns.end()) {
      return Validation(where, ": column_stats names field_id ", s.field_id,
                        ", which is not a live column of the table");
    }
    const StatsColumn& column = it->second;
    if (!column.is_leaf) {
      return Validation(where, ": column_stats field_id ", s.field_id, " is a container column");
    }
    if (column.type.type == ColumnType::kVariant) {
      return Validation(where, ": column_stats field_id ", s.field_id, " is a variant column");
    }
    if (!seen.insert(s.field_id).second) {
      return Validation(where, ": column_stats lists field_id ", s.field_id, " twice");
    }
    if (s.value_count < 0 || s.null_count < 0) {
      return Validation(where, ": column_stats field_id ", s.field_id,
                        " has a negative value_count or null_count");
    }
    s.null_count = std::min(s.null_count, s.value_count);
    const int64_t non_null = s.value_count - s.null_count;
    if (s.nan_count && (*s.nan_count < 0 || !IsFloating(column.type.type))) s.nan_count.reset();
    if (s.nan_count) s.nan_count = std::min(*s.nan_count, non_null);
    if (s.size_bytes && *s.size_bytes < 0) s.size_bytes.reset();
    if (non_null == 0) {
      s.lower_bound.reset();
      s.upper_bound.reset();
      continue;
    }
    s.lower_bound = CleanBound(column.type, s.lower_bound, iceberg::BoundRole::kLower);
    s.upper_bound = CleanBound(column.type, s.upper_bound, iceberg::BoundRole::kUpper);
    if (s.lower_bound && s.upper_bound) {
      Result<int> order = iceberg::CompareBounds(column.type, *s.lower_bound, *s.upper_bound);
      if (!order.ok() || *order > 0) {
        s.lower_bound.reset();
        s.upper_bound.reset();
      }
    }
  }
  return Status::Ok();
}

}  // namespace hoglake::catalog
