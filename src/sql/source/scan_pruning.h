// One pruning predicate, three statistics sources: the scan's filter
// conjuncts reduced to per-column constraints (column op constant, IS [NOT]
// NULL, IN lists) and tested against a file's catalog statistics, a row
// group's footer statistics, or a file's partition values (read through the
// partition spec the file was written under: partition_pruning.cc). A file
// or row group is skipped only when its bounds, null counts or partition
// values PROVE no row can pass; missing statistics, types without bounds,
// casts that do not preserve order, float columns whose NaNs are not
// counted, and partition values of an unknown spec or transform never
// prune.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "catalog/model/table_info.h"
#include "iceberg/column_type.h"
#include "sql/planner/logical_plan.h"

namespace hoglake::sql {

// Statistics of one column in one file or row group.
struct ColumnStatistics {
  int64_t value_count = 0;
  int64_t null_count = 0;
  std::optional<int64_t> nan_count;
  std::optional<std::string> lower;  // Iceberg single-value bytes
  std::optional<std::string> upper;
  // Bounds already in the column's SQL type (derived from partition
  // values); used instead of lower/upper when set.
  std::optional<Value> lower_value;
  std::optional<Value> upper_value;
};

class PruningPredicate {
 public:
  // From the scan's filters; `types` are the catalog types of the scan's
  // output columns and `field_ids` their field ids.
  PruningPredicate(const std::vector<BoundExprPtr>& filters,
                   const std::vector<iceberg::TypeSpec>& types,
                   const std::vector<int32_t>& field_ids);

  bool empty() const { return constraints_.empty(); }
  // The field ids the constraints read (to ask a footer for them).
  std::vector<int32_t> field_ids() const;

  // True when statistics prove no row passes. `stats` answers by field id.
  bool Excludes(const std::function<std::optional<ColumnStatistics>(int32_t)>& stats) const;
  // True when the partition values of a file written under `spec` (one per
  // spec field, nullopt = NULL) prove no row passes: identity values and
  // year/month/day/hour ranges bound the source column; bucket values rule
  // out equality and IN constants hashing elsewhere; truncate of integers
  // bounds a range. A spec/value count mismatch proves nothing.
  bool ExcludesPartition(const catalog::PartitionSpecInfo& spec,
                         const std::vector<std::optional<std::string>>& values) const;

 private:
  enum class Op { kEq, kLt, kLe, kGt, kGe, kIsNull, kNotNull, kIn };
  struct Constraint {
    int32_t field_id = 0;
    iceberg::TypeSpec column_type;
    SqlType column_sql_type;
    SqlType compare_type;  // the constant's type (the column cast to it)
    Op op = Op::kEq;
    std::vector<Value> values;
  };
  bool Excludes(const Constraint& c, const ColumnStatistics& s) const;
  // partition_pruning.cc: one spec field's value against one constraint.
  bool ExcludesPartitionValue(const Constraint& c, const catalog::PartitionFieldInfo& field,
                              const std::optional<std::string>& value) const;

  std::vector<Constraint> constraints_;
};

}  // namespace hoglake::sql
