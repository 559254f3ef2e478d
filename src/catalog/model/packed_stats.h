// A data file's column statistics packed into one value: the `stats` bytea
// of hog_file_stats (V12), one row per file with provided statistics,
// instead of one row per file × column. A plan over 20K files × 30 columns
// reads 20K rows, not 600K.
//
// Layout (all integers big-endian, as PostgreSQL's int2send/int4send/
// int8send write them, so SQL can build the same bytes — V12 does):
//   int16 version (= 1)
//   then per column, in ascending field_id order:
//     int32 field_id | int16 flags | int64 value_count | int64 null_count
//     | int64 nan_count                (flags & 1)
//     | int64 size_bytes               (flags & 2)
//     | int32 length, bytes lower_bound (flags & 4)
//     | int32 length, bytes upper_bound (flags & 8)
// An empty statistics list (`column_stats: []`, still "provided") packs to
// the version alone.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "catalog/commit/commit_request.h"
#include "catalog/model/file_info.h"
#include "common/status.h"

namespace hoglake::catalog {

inline constexpr uint16_t kPackedStatsVersion = 1;

// One column's entry, viewing the packed bytes (bounds point into them).
struct PackedStat {
  int32_t field_id = 0;
  int64_t value_count = 0;
  int64_t null_count = 0;
  std::optional<int64_t> nan_count;
  std::optional<int64_t> size_bytes;
  std::optional<std::string_view> lower_bound;
  std::optional<std::string_view> upper_bound;
};

// Packs `stats` (any order; field ids are expected distinct — the commit
// validation refuses duplicates) in ascending field_id order.
std::string PackColumnStats(const std::vector<ColumnStatsInput>& stats);
std::string PackColumnStats(const std::vector<PackedStat>& stats);

// Reads packed statistics entry by entry without copying:
//   PackedStatsReader reader(blob);
//   PackedStat s;
//   while (reader.Next(&s)) …;
//   HOGLAKE_RETURN_IF_ERROR(reader.status());
// A blob that is truncated, has an unknown version or unknown flags ends
// the iteration with an error status naming what was wrong.
class PackedStatsReader {
 public:
  explicit PackedStatsReader(std::string_view blob);
  bool Next(PackedStat* out);
  const Status& status() const { return status_; }

 private:
  bool Fail(std::string_view what);

  std::string_view rest_;
  Status status_ = Status::Ok();
};

// `s` as a row (bounds copied, into the row's own buffers when it has them;
// every field but `row->type` overwritten).
void CopyToRow(const PackedStat& s, ColumnStatRow* row);

// All entries of `blob` as rows (bounds copied; `type` left default).
Result<std::vector<ColumnStatRow>> UnpackColumnStats(std::string_view blob);

}  // namespace hoglake::catalog
