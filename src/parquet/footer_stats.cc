#include "parquet/footer_stats.h"

#include <map>
#include <memory>
#include <set>

#include "common/encoding.h"
#include "iceberg/arrow_mapping.h"
#include "iceberg/bounds.h"
#include "iceberg/footer_bounds.h"
#include "parquet/schema.h"

namespace hoglake::parquet {
namespace {

using iceberg::BoundRole;
using iceberg::FooterLeaf;
using iceberg::ParquetAnnotation;
using iceberg::ParquetPhysical;

std::string DottedPath(const std::vector<std::string>& path) {
  std::string out;
  for (size_t i = 0; i < path.size(); ++i) {
    if (i > 0) out += '.';
    out += path[i];
  }
  return out;
}

columnar::TimeUnit UnitOf(LogicalTimeUnit unit) {
  switch (unit) {
    case LogicalTimeUnit::kMillis:
      return columnar::TimeUnit::kMilli;
    case LogicalTimeUnit::kNanos:
      return columnar::TimeUnit::kNano;
    case LogicalTimeUnit::kMicros:
      break;
  }
  return columnar::TimeUnit::kMicro;
}

// The statistics view of one schema leaf: LogicalType first, the legacy
// ConvertedType when there is none (footer_bounds.h).
FooterLeaf FooterLeafOf(const SchemaElement& e) {
  FooterLeaf leaf;
  leaf.physical =
      static_cast<ParquetPhysical>(static_cast<int>(e.type.value_or(PhysicalType::kBoolean)));
  leaf.type_length = e.type_length.value_or(0);
  using A = ParquetAnnotation;
  using K = LogicalType::Kind;
  if (e.logical_type) {
    const LogicalType& lt = *e.logical_type;
    switch (lt.kind) {
      case K::kString:
        leaf.annotation = A::kString;
        break;
      case K::kJson:
        leaf.annotation = A::kJson;
        break;
      case K::kUuid:
        leaf.annotation = A::kUuid;
        break;
      case K::kDate:
        leaf.annotation = A::kDate;
        break;
      case K::kDecimal:
        leaf.annotation = A::kDecimal;
        leaf.precision = lt.precision;
        leaf.scale = lt.scale;
        break;
      case K::kTime:
        leaf.annotation = A::kTime;
        leaf.unit = UnitOf(lt.unit);
        leaf.utc_adjusted = lt.is_adjusted_to_utc;
        break;
      case K::kTimestamp:
        leaf.annotation = A::kTimestamp;
        leaf.unit = UnitOf(lt.unit);
        leaf.utc_adjusted = lt.is_adjusted_to_utc;
        break;
      case K::kInteger:
        leaf.annotation = A::kInteger;
        leaf.bit_width = lt.bit_width;
        leaf.is_signed = lt.is_signed;
        break;
      default:
        leaf.annotation = A::kOther;
        break;
    }
    return leaf;
  }
  if (!e.converted_type) return leaf;
  using C = ConvertedType;
  auto integer = [&](int bits, bool is_signed) {
    leaf.annotation = A::kInteger;
    leaf.bit_width = bits;
    leaf.is_signed = is_signed;
  };
  switch (*e.converted_type) {
    case C::kUtf8:
      leaf.annotation = A::kString;
      break;
    case C::kJson:
      leaf.annotation = A::kJson;
      break;
    case C::kDate:
      leaf.annotation = A::kDate;
      break;
    case C::kDecimal:
      leaf.annotation = A::kDecimal;
      leaf.precision = e.precision.value_or(0);
      leaf.scale = e.scale.value_or(0);
      break;
    case C::kTimeMillis:
    case C::kTimeMicros:
      leaf.annotation = A::kTime;
      leaf.unit = *e.converted_type == C::kTimeMillis ? columnar::TimeUnit::kMilli
                                                      : columnar::TimeUnit::kMicro;
      leaf.utc_adjusted = true;
      break;
    case C::kTimestampMillis:
    case C::kTimestampMicros:
      leaf.annotation = A::kTimestamp;
      leaf.unit = *e.converted_type == C::kTimestampMillis ? columnar::TimeUnit::kMilli
                                                           : columnar::TimeUnit::kMicro;
      leaf.utc_adjusted = true;
      break;
    case C::kUint8:
      integer(8, false);
      break;
    case C::kUint16:
      integer(16, false);
      break;
    case C::kUint32:
      integer(32, false);
      break;
    case C::kUint64:
      integer(64, false);
      break;
    case C::kInt8:
      integer(8, true);
      break;
    case C::kInt16:
      integer(16, true);
      break;
    case C::kInt32:
      integer(32, true);
      break;
    case C::kInt64:
      integer(64, true);
      break;
    default:
      leaf.annotation = A::kOther;
      break;
  }
  return leaf;
}

// Whether the deprecated min/max (signed order) may stand in for
// min_value/max_value on this leaf.
bool LegacyStatisticsUsable(const FooterLeaf& leaf) {
  switch (leaf.physical) {
    case ParquetPhysical::kBoolean:
    case ParquetPhysical::kFloat:
    case ParquetPhysical::kDouble:
      return true;
    case ParquetPhysical::kInt32:
    case ParquetPhysical::kInt64:
      return leaf.annotation != ParquetAnnotation::kDecimal &&
             !(leaf.annotation == ParquetAnnotation::kInteger && !leaf.is_signed);
    default:
      return false;
  }
}

// The file's schema, and for every leaf (in footer order) its schema element.
struct FooterSchema {
  std::unique_ptr<ParquetSchema> schema;
  std::vector<const SchemaElement*> leaf_elements;
  std::vector<std::string> leaf_paths;
};

Result<FooterSchema> ReadFooterSchema(const FileMetaData& metadata) {
  FooterSchema out;
  HOGLAKE_ASSIGN_OR_RETURN(out.schema, SchemaFromParquet(metadata.schema));
  for (size_t i = 1; i < metadata.schema.size(); ++i) {
    const SchemaElement& e = metadata.schema[i];
    if (e.num_children.value_or(0) == 0 && e.type) out.leaf_elements.push_back(&e);
  }
  if (out.leaf_elements.size() != out.schema->leaves.size()) {
    return InvalidData("Parquet footer: ", out.leaf_elements.size(),
                       " primitive schema elements but ", out.schema->leaves.size(),
                       " leaf columns");
  }
  for (const LeafColumn& leaf : out.schema->leaves) out.leaf_paths.push_back(DottedPath(leaf.path));
  for (size_t g = 0; g < metadata.row_groups.size(); ++g) {
    const RowGroup& rg = metadata.row_groups[g];
    if (rg.columns.size() != out.leaf_paths.size()) {
      return InvalidData("Parquet footer: row group ", g, " has ", rg.columns.size(),
                         " column chunks for ", out.leaf_paths.size(), " leaf columns");
    }
    for (size_t c = 0; c < rg.columns.size(); ++c) {
      if (!rg.columns[c].meta_data) {
        return InvalidData("Parquet footer: row group ", g, " column ", c, " has no metadata");
      }
      if (DottedPath(rg.columns[c].meta_data->path_in_schema) != out.leaf_paths[c]) {
        return InvalidData("Parquet footer: row group ", g, " column ", c, " is '",
                           DottedPath(rg.columns[c].meta_data->path_in_schema),
                           "', the schema says '", out.leaf_paths[c], "'");
      }
    }
  }
  return out;
}

// Selection of one leaf's bounds across row groups (§4.5).
struct BoundSelection {
  bool dropped = false;
  std::optional<std::string> lower;
  std::optional<std::string> upper;

  void Drop() {
    dropped = true;
    lower.reset();
    upper.reset();
  }
  // Keeps `candidate` in `*slot` when it is smaller (want < 0) or larger.
  void Keep(const iceberg::TypeSpec& type, std::string candidate, std::optional<std::string>* slot,
            int want) {
    if (!*slot) {
      *slot = std::move(candidate);
      return;
    }
    Result<int> cmp = iceberg::CompareBounds(type, candidate, **slot);
    if (!cmp.ok()) return Drop();
    if ((want < 0 && *cmp < 0) || (want > 0 && *cmp > 0)) *slot = std::move(candidate);
  }
};

// The stats of leaf `c` for a catalog column of `type`, or nullopt when a
// row group lacks a null count.
std::optional<ColumnStats> LeafStats(const FileMetaData& metadata, size_t c, const FooterLeaf& leaf,
                                     const StatsColumn& column) {
  ColumnStats stats;
  stats.field_id = column.field_id;
  int64_t size_bytes = 0;
  BoundSelection bounds;
  const bool bounds_possible =
      iceberg::HasBounds(column.type.type) && iceberg::FooterLeafReadable(column.type, leaf);
  if (!bounds_possible) bounds.Drop();
  for (const RowGroup& rg : metadata.row_groups) {
    const ColumnMetaData& chunk = *rg.columns[c].meta_data;
    if (!chunk.statistics || !chunk.statistics->null_count) return std::nullopt;
    const Statistics& s = *chunk.statistics;
    stats.value_count += chunk.num_values;
    stats.null_count += *s.null_count;
    size_bytes += chunk.total_compressed_size;
    if (bounds.dropped || chunk.num_values <= *s.null_count) continue;
    const std::string* min = nullptr;
    const std::string* max = nullptr;
    if (s.min_value && s.max_value) {
      min = &*s.min_value;
      max = &*s.max_value;
    } else if (s.min && s.max && LegacyStatisticsUsable(leaf)) {
      min = &*s.min;
      max = &*s.max;
    }
    if (min == nullptr) {
      bounds.Drop();
      continue;
    }
    auto lower = iceberg::FooterValueToBound(column.type, leaf, *min, BoundRole::kLower);
    auto upper = iceberg::FooterValueToBound(column.type, leaf, *max, BoundRole::kUpper);
    if (!lower || !upper) {
      bounds.Drop();
      continue;
    }
    bounds.Keep(column.type, std::move(*lower), &bounds.lower, -1);
    if (!bounds.dropped) bounds.Keep(column.type, std::move(*upper), &bounds.upper, +1);
  }
  stats.size_bytes = size_bytes;
  if (!bounds.dropped && bounds.lower && bounds.upper) {
    stats.lower_bound = std::move(bounds.lower);
    stats.upper_bound = std::move(bounds.upper);
  }
  return stats;
}

}  // namespace

Result<std::vector<ColumnStats>> ExtractColumnStats(const FileMetaData& metadata,
                                                    const std::vector<StatsColumn>& columns) {
  HOGLAKE_ASSIGN_OR_RETURN(FooterSchema footer, ReadFooterSchema(metadata));
  std::map<std::string, const StatsColumn*> by_path;
  std::map<int32_t, const StatsColumn*> by_id;
  std::vector<std::string> skipped_prefixes;  // variant columns' chunks
  for (const StatsColumn& column : columns) {
    if (column.type.type == iceberg::ColumnType::kVariant) {
      if (!column.path.empty()) skipped_prefixes.push_back(column.path + ".");
      continue;
    }
    if (iceberg::IsContainer(column.type.type)) continue;
    if (!column.path.empty()) {
      by_path.emplace(column.path, &column);
    } else {
      by_id.emplace(column.field_id, &column);
    }
  }
  std::vector<ColumnStats> out;
  std::set<int32_t> bound_ids;
  for (size_t c = 0; c < footer.leaf_paths.size(); ++c) {
    const std::string& path = footer.leaf_paths[c];
    bool skipped = false;
    for (const std::string& prefix : skipped_prefixes) skipped |= path.starts_with(prefix);
    if (skipped) continue;
    const StatsColumn* column = nullptr;
    if (auto it = by_path.find(path); it != by_path.end()) {
      column = it->second;
    } else if (const auto& id = footer.leaf_elements[c]->field_id) {
      if (auto found = by_id.find(*id); found != by_id.end()) column = found->second;
    }
    if (column == nullptr || bound_ids.contains(column->field_id)) continue;
    std::optional<ColumnStats> stats =
        LeafStats(metadata, c, FooterLeafOf(*footer.leaf_elements[c]), *column);
    if (!stats) continue;
    bound_ids.insert(column->field_id);
    out.push_back(std::move(*stats));
  }
  return out;
}

Result<std::vector<StatsColumn>> StatsColumnsFromFile(const FileMetaData& metadata) {
  HOGLAKE_ASSIGN_OR_RETURN(FooterSchema footer, ReadFooterSchema(metadata));
  std::vector<StatsColumn> out;
  for (size_t c = 0; c < footer.leaf_paths.size(); ++c) {
    const auto& id = footer.leaf_elements[c]->field_id;
    if (!id) continue;
    Result<iceberg::TypeSpec> type =
        iceberg::ColumnTypeFromArrow(footer.schema->leaves[c].node->field);
    if (!type.ok() || iceberg::IsContainer(type->type)) continue;
    out.push_back(StatsColumn{*id, *type, footer.leaf_paths[c]});
  }
  return out;
}

Result<std::vector<ColumnStats>> ExtractColumnStats(const FileMetaData& metadata) {
  HOGLAKE_ASSIGN_OR_RETURN(std::vector<StatsColumn> columns, StatsColumnsFromFile(metadata));
  return ExtractColumnStats(metadata, columns);
}

void AppendColumnStatsJson(const std::vector<ColumnStats>& stats, JsonWriter* w) {
  w->BeginArray();
  for (const ColumnStats& s : stats) {
    w->BeginObject();
    w->Field("field_id", int64_t{s.field_id});
    w->Field("value_count", s.value_count);
    w->Field("null_count", s.null_count);
    w->OptionalField("nan_count", s.nan_count);
    w->OptionalField("size_bytes", s.size_bytes);
    if (s.lower_bound) w->Field("lower_bound", std::string_view(Base64Encode(*s.lower_bound)));
    if (s.upper_bound) w->Field("upper_bound", std::string_view(Base64Encode(*s.upper_bound)));
    w->EndObject();
  }
  w->EndArray();
}

std::string ColumnStatsJson(const std::vector<ColumnStats>& stats) {
  JsonWriter w;
  AppendColumnStatsJson(stats, &w);
  return w.Take();
}

}  // namespace hoglake::parquet
