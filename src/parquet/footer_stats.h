// Footer statistics → the catalog's per-leaf column stats
// (reference/pyhoglake-writer.md §4; hoglake-contract.md §4.1 ColumnStats).
//
// ExtractColumnStats reads only a FileMetaData (the footer of a file just
// written, or of a foreign file a prepared commit registers) and returns one
// ColumnStats per catalog LEAF that has a footer chunk, in footer leaf order:
//
//   value_count  Σ chunk num_values over row groups (null slots included;
//                under a list it counts values, not rows)
//   null_count   Σ statistics.null_count. When ANY row group lacks
//                statistics or a null count the leaf gets no row at all
//                (no fabricated counts).
//   size_bytes   Σ chunk total_compressed_size
//   nan_count    never set: Parquet footers carry no NaN count, and neither
//                our writer nor the rulebook's path reports one (absent on
//                the wire)
//   lower/upper  the Iceberg single value of the column's MAPPED type
//                (iceberg/bounds.h), raw bytes here, base64 on the wire.
//
// Leaf resolution: a catalog column with a `path` matches the footer leaf
// whose dotted path_in_schema equals it verbatim ("a.b" never splits);
// otherwise it matches the leaf carrying its field id. No row for: footer
// leaves no catalog column claims, containers and variant columns, a second
// leaf for an already-bound field id, and leaves under a variant column's
// `<path>.` prefix (when the variant column is given with its path).
//
// Bounds (§4.4–§4.9), per leaf across row groups: a row group with values
// (num_values > null_count) contributes its min/max converted by
// iceberg::FooterValueToBound (kWriter policy); one with values but without
// min/max, or whose min/max does not convert (unreadable leaf shape,
// out-of-domain value, NaN, inexact nanos, scale mismatch, …) drops the
// column's bounds; an all-null row group is skipped; an all-null column has
// no bounds. Lower = minimum of the converted mins, upper = maximum of the
// maxes under iceberg::CompareBounds (float total order: -0.0 < +0.0, so the
// choice does not depend on row-group order). Counts are kept whatever
// happens to the bounds. Statistics are read from min_value/max_value; the
// deprecated min/max pair is used only when those are absent and the leaf
// sorts signed (plain BOOLEAN/INT32/INT64/FLOAT/DOUBLE without an unsigned
// or decimal annotation).
//
// Errors (InvalidData) only for a footer that does not describe its own
// schema: a schema the reader cannot map, a row group whose chunk count or
// paths differ from the schema's leaves, a chunk without metadata.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/json_writer.h"
#include "common/status.h"
#include "iceberg/column_type.h"
#include "parquet/metadata.h"

namespace hoglake::parquet {

// One leaf's stats as a commit ships them (contract §4.1).
struct ColumnStats {
  int32_t field_id = 0;
  int64_t value_count = 0;
  int64_t null_count = 0;
  std::optional<int64_t> nan_count;  // never set by ExtractColumnStats
  std::optional<int64_t> size_bytes;
  std::optional<std::string> lower_bound;  // bound bytes (not base64)
  std::optional<std::string> upper_bound;

  bool operator==(const ColumnStats&) const = default;
};

// A catalog leaf column: its field id, type (decimals with precision and
// scale) and, optionally, the dotted path_in_schema the catalog predicts
// for it ("s.x", "l.list.element", "m.key_value.key").
struct StatsColumn {
  StatsColumn() = default;
  StatsColumn(int32_t id, iceberg::TypeSpec column_type, std::string leaf_path = {})
      : field_id(id), type(column_type), path(std::move(leaf_path)) {}

  int32_t field_id = 0;
  iceberg::TypeSpec type;
  std::string path;  // empty: match the footer leaf by field id
};

// The stats for the catalog leaves `columns` (see the header comment).
Result<std::vector<ColumnStats>> ExtractColumnStats(const FileMetaData& metadata,
                                                    const std::vector<StatsColumn>& columns);

// The catalog leaves a file describes by itself: every footer leaf that
// carries a field id and whose Arrow reading has a catalog type
// (iceberg::ColumnTypeFromArrow), with its footer path. Leaves without a
// field id or without a catalog type (e.g. time in nanos, fixed_size_binary
// other than 16 bytes) are left out. A plain INT64 reads as long, so a
// uint32 column written per the rulebook (INT64, no annotation) is `long`
// here: pass the catalog's columns when you have them.
Result<std::vector<StatsColumn>> StatsColumnsFromFile(const FileMetaData& metadata);

// ExtractColumnStats(metadata, StatsColumnsFromFile(metadata)).
Result<std::vector<ColumnStats>> ExtractColumnStats(const FileMetaData& metadata);

// The `column_stats` array exactly as a commit sends it:
//   [{"field_id":1,"value_count":3,"null_count":0,"size_bytes":52,
//     "lower_bound":"AQAAAAAAAAA=","upper_bound":"AwAAAAAAAAA="},…]
// Absent optionals are omitted; bounds are base64 (standard, padded).
void AppendColumnStatsJson(const std::vector<ColumnStats>& stats, JsonWriter* writer);
std::string ColumnStatsJson(const std::vector<ColumnStats>& stats);

}  // namespace hoglake::parquet
