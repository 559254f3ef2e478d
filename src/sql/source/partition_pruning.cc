// PruningPredicate over partition values: what a file's partition tuple
// says about the source columns of its rows, as bounds the statistics test
// (scan_pruning.cc) already knows how to judge.
//
//   NULL value      every row's source value is NULL (no transform maps a
//                   non-null value to NULL)
//   identity p      every source value is p (p read back by its wire
//                   spelling, partition_text.h, and re-rendered: a value
//                   that does not render back to p proves nothing)
//   year/month/day  every source value lies in that calendar period:
//   /hour n         [first day or microsecond, last] of it
//   truncate[W] p   integers: every source value lies in [p, p + W - 1]
//   bucket[N] p     every source value hashes to bucket p: an equality or IN
//                   constant whose bucket differs from p matches no row
//                   (iceberg/transforms.h's hash, so the catalog's buckets)
//
// Only the catalog types whose wire spelling and SQL value correspond
// exactly take part; float and double (NaN, -0.0), binary (base64), uuid and
// json never prune by partition value, nor does any transform not listed.
#include <charconv>
#include <tuple>
#include <utility>

#include "common/time_text.h"
#include "iceberg/partition_text.h"
#include "iceberg/transforms.h"
#include "sql/function/cast.h"
#include "sql/source/scan_pruning.h"

namespace hoglake::sql {
namespace {

using iceberg::ColumnType;

std::optional<int64_t> ParseInteger(std::string_view text) {
  int64_t v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return v;
}

bool IsInteger(ColumnType t) {
  return t == ColumnType::kInt8 || t == ColumnType::kInt16 || t == ColumnType::kInt ||
         t == ColumnType::kLong || t == ColumnType::kUInt8 || t == ColumnType::kUInt16 ||
         t == ColumnType::kUInt32;
}

// Timestamps whose SQL value is microseconds since the epoch.
bool IsMicrosTimestamp(ColumnType t) {
  return t == ColumnType::kTimestamp || t == ColumnType::kTimestamptz ||
         t == ColumnType::kTimestampS || t == ColumnType::kTimestampMs;
}

// The identity partition value `text` as a value of the source column, or
// nullopt when it does not read back to exactly that spelling.
std::optional<Value> IdentityValue(const iceberg::TypeSpec& type, const SqlType& sql_type,
                                   const std::string& text) {
  const ColumnType t = type.type;
  if (t == ColumnType::kBoolean) {
    if (text != "true" && text != "false") return std::nullopt;
    return Value::Boolean(text == "true");
  }
  if (IsInteger(t)) {
    std::optional<int64_t> v = ParseInteger(text);
    if (!v) return std::nullopt;
    return Value::Integer(sql_type.id, *v);
  }
  if (t == ColumnType::kString) return Value::Text(text);
  const bool temporal = t == ColumnType::kDate || t == ColumnType::kTime || IsMicrosTimestamp(t);
  if (t != ColumnType::kDecimal && !temporal) return std::nullopt;
  auto cast = CastValue(Value::Text(text, SqlTypeId::kUnknown), sql_type);
  if (!cast.ok() || cast->is_null) return std::nullopt;
  std::string rendered;
  Status status = Status::Ok();
  if (t == ColumnType::kDecimal) {
    iceberg::AppendPythonDecimalStr(cast->n, type.scale, &rendered);
  } else if (t == ColumnType::kDate) {
    status = iceberg::AppendPythonDate(cast->i, &rendered);
  } else if (t == ColumnType::kTime) {
    status = iceberg::AppendPythonTime(cast->i, &rendered);
  } else {
    status = iceberg::AppendPythonDatetime(cast->i, t == ColumnType::kTimestamptz, &rendered);
  }
  if (!status.ok() || rendered != text) return std::nullopt;
  return *cast;
}

// [first, last] day of the year or month period `n` (since 1970).
std::optional<std::pair<int64_t, int64_t>> PeriodDays(iceberg::TransformKind kind, int64_t n) {
  constexpr int64_t kMaxPeriods = 12 * 1000000;
  if (n < -kMaxPeriods || n > kMaxPeriods) return std::nullopt;
  if (kind == iceberg::TransformKind::kYear) {
    return std::make_pair(DaysFromCivil(1970 + n, 1, 1), DaysFromCivil(1971 + n, 1, 1) - 1);
  }
  if (kind == iceberg::TransformKind::kMonth) {
    const int64_t year = 1970 + (n >= 0 ? n / 12 : -((-n + 11) / 12));
    const int month = static_cast<int>(n - (year - 1970) * 12);  // 0..11
    const int64_t first = DaysFromCivil(year, month + 1, 1);
    const int64_t next = month == 11 ? DaysFromCivil(year + 1, 1, 1) : DaysFromCivil(year, month + 2, 1);
    return std::make_pair(first, next - 1);
  }
  if (kind == iceberg::TransformKind::kDay) return std::make_pair(n, n);
  return std::nullopt;
}

// The source range of temporal partition `n`, as values of the column.
std::optional<std::pair<Value, Value>> TemporalRange(iceberg::TransformKind kind,
                                                     ColumnType t, const SqlType& sql_type,
                                                     int64_t n) {
  constexpr int64_t kMicrosPerDay = int64_t{86400} * 1000000;
  constexpr int64_t kMicrosPerHour = int64_t{3600} * 1000000;
  int64_t lo = 0;
  int64_t hi = 0;
  if (t == ColumnType::kDate) {
    std::optional<std::pair<int64_t, int64_t>> days = PeriodDays(kind, n);
    if (!days) return std::nullopt;
    std::tie(lo, hi) = *days;
  } else if (IsMicrosTimestamp(t)) {
    int64_t first = 0;
    int64_t next = 0;
    if (kind == iceberg::TransformKind::kHour) {
      if (__builtin_mul_overflow(n, kMicrosPerHour, &first) ||
          __builtin_add_overflow(first, kMicrosPerHour, &next)) {
        return std::nullopt;
      }
    } else {
      std::optional<std::pair<int64_t, int64_t>> days = PeriodDays(kind, n);
      if (!days || __builtin_mul_overflow(days->first, kMicrosPerDay, &first) ||
          __builtin_mul_overflow(days->second + 1, kMicrosPerDay, &next)) {
        return std::nullopt;
      }
    }
    lo = first;
    hi = next - 1;
  } else {
    return std::nullopt;
  }
  return std::make_pair(Value::Integer(sql_type.id, lo), Value::Integer(sql_type.id, hi));
}

// The bucket hash of constant `v` compared with a column of type `t` whose
// SQL type the comparison does not cast away from; nullopt when unknown.
std::optional<int32_t> BucketHash(ColumnType t, const SqlType& column, const SqlType& compare,
                                  const Value& v) {
  if (IsInteger(t) && compare.is_integer()) return iceberg::IcebergHashLong(v.i);
  if (!(compare == column)) return std::nullopt;
  if (t == ColumnType::kDate || t == ColumnType::kTimestamp || t == ColumnType::kTimestamptz) {
    return iceberg::IcebergHashLong(v.i);
  }
  if (t == ColumnType::kString) return iceberg::IcebergHashBytes(v.s);
  return std::nullopt;
}

}  // namespace

bool PruningPredicate::ExcludesPartition(
    const catalog::PartitionSpecInfo& spec,
    const std::vector<std::optional<std::string>>& values) const {
  if (values.size() != spec.fields.size()) return false;
  for (const Constraint& c : constraints_) {
    for (size_t k = 0; k < spec.fields.size(); ++k) {
      if (spec.fields[k].source_field_id != c.field_id) continue;
      if (ExcludesPartitionValue(c, spec.fields[k], values[k])) return true;
    }
  }
  return false;
}

bool PruningPredicate::ExcludesPartitionValue(const Constraint& c,
                                              const catalog::PartitionFieldInfo& field,
                                              const std::optional<std::string>& value) const {
  auto transform = iceberg::ParseTransform(
      field.transform,
      field.transform_param ? std::optional<int64_t>(*field.transform_param) : std::nullopt);
  if (!transform.ok()) return false;
  const ColumnType t = c.column_type.type;
  ColumnStatistics s;
  s.value_count = 1;
  if (!value) {
    s.null_count = 1;  // every source value is NULL
    return Excludes(c, s);
  }
  s.null_count = 0;
  s.nan_count = 0;
  switch (transform->kind) {
    case iceberg::TransformKind::kIdentity: {
      std::optional<Value> v = IdentityValue(c.column_type, c.column_sql_type, *value);
      if (!v) return false;
      s.lower_value = *v;
      s.upper_value = *v;
      return Excludes(c, s);
    }
    case iceberg::TransformKind::kYear:
    case iceberg::TransformKind::kMonth:
    case iceberg::TransformKind::kDay:
    case iceberg::TransformKind::kHour: {
      std::optional<int64_t> n = ParseInteger(*value);
      if (!n) return false;
      auto range = TemporalRange(transform->kind, t, c.column_sql_type, *n);
      if (!range) return false;
      s.lower_value = range->first;
      s.upper_value = range->second;
      return Excludes(c, s);
    }
    case iceberg::TransformKind::kTruncate: {
      std::optional<int64_t> p = ParseInteger(*value);
      int64_t last = 0;
      if (!IsInteger(t) || !p || __builtin_add_overflow(*p, transform->param - 1, &last)) {
        return false;
      }
      s.lower_value = Value::Integer(c.column_sql_type.id, *p);
      s.upper_value = Value::Integer(c.column_sql_type.id, last);
      return Excludes(c, s);
    }
    case iceberg::TransformKind::kBucket: {
      if (c.op != Op::kEq && c.op != Op::kIn) return false;
      std::optional<int64_t> bucket = ParseInteger(*value);
      if (!bucket || transform->param <= 0) return false;
      for (const Value& v : c.values) {
        std::optional<int32_t> hash = BucketHash(t, c.column_sql_type, c.compare_type, v);
        if (!hash) return false;
        if (iceberg::BucketOf(*hash, transform->param) == *bucket) return false;
      }
      return true;  // no constant falls in this file's bucket
    }
  }
  return false;
}

}  // namespace hoglake::sql
