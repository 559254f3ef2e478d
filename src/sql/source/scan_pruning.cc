#include "sql/source/scan_pruning.h"

#include <cmath>

#include "iceberg/bounds.h"
#include "sql/function/cast.h"
#include "sql/function/scalar_function.h"

namespace hoglake::sql {
namespace {

// Casts that keep order: widening numbers, dates to timestamps.
bool Monotonic(const SqlType& from, const SqlType& to) {
  if (from.is_integer() || from.id == SqlTypeId::kNumeric) {
    return to.is_integer() ? CanCastImplicitly(from, to) : to.is_numeric_kind();
  }
  if (from.is_float()) return to.id == SqlTypeId::kDouble;
  if (from.id == SqlTypeId::kDate) {
    return to.id == SqlTypeId::kTimestamp || to.id == SqlTypeId::kTimestampTz;
  }
  if (from.id == SqlTypeId::kTimestamp) return to.id == SqlTypeId::kTimestampTz;
  return false;
}

// The scan column under order-preserving casts, or -1.
int ColumnUnderCasts(const BoundExpr& e) {
  const BoundExpr* x = &e;
  while (x->kind == BoundKind::kCast) {
    if (!Monotonic(x->args[0]->type, x->type)) return -1;
    x = x->args[0].get();
  }
  return x->kind == BoundKind::kColumn && !x->outer_ref ? x->column : -1;
}

std::optional<Value> BoundToValue(const iceberg::TypeSpec& type, const SqlType& sql_type,
                                  const std::string& bytes) {
  auto decoded = iceberg::DecodeBound(type, bytes);
  if (!decoded.ok()) return std::nullopt;
  const iceberg::BoundValue& b = *decoded;
  switch (b.kind) {
    case iceberg::BoundValue::Kind::kBool:
      return Value::Boolean(b.b);
    case iceberg::BoundValue::Kind::kInt:
      return Value::Integer(sql_type.id, b.i);
    case iceberg::BoundValue::Kind::kDecimal:
      return Value::Numeric(-1, type.type == iceberg::ColumnType::kDecimal ? type.scale : 0,
                            b.unscaled);
    case iceberg::BoundValue::Kind::kFloat:
      return Value::Double(sql_type.id, b.f);
    case iceberg::BoundValue::Kind::kDouble:
      return Value::Double(sql_type.id, b.d);
    case iceberg::BoundValue::Kind::kBytes:
      return Value::Text(b.bytes, sql_type.id);
  }
  return std::nullopt;
}

}  // namespace

PruningPredicate::PruningPredicate(const std::vector<BoundExprPtr>& filters,
                                   const std::vector<iceberg::TypeSpec>& types,
                                   const std::vector<int32_t>& field_ids) {
  auto usable = [&](int column) {
    if (column < 0 || column >= static_cast<int>(types.size())) return false;
    iceberg::ColumnType t = types[column].type;
    return iceberg::HasBounds(t) && t != iceberg::ColumnType::kTimestampNs &&
           t != iceberg::ColumnType::kVariant;
  };
  auto make = [&](int column, const BoundExpr& column_expr, Op op) {
    Constraint c;
    c.field_id = field_ids[column];
    c.column_type = types[column];
    const BoundExpr* x = &column_expr;
    while (x->kind == BoundKind::kCast) x = x->args[0].get();
    c.column_sql_type = x->type;
    c.compare_type = column_expr.type;
    c.op = op;
    return c;
  };
  for (const BoundExprPtr& f : filters) {
    if (f->kind == BoundKind::kIsNull) {
      int column = ColumnUnderCasts(*f->args[0]);
      if (!usable(column)) continue;
      constraints_.push_back(make(column, *f->args[0], f->negated ? Op::kNotNull : Op::kIsNull));
      continue;
    }
    if (f->kind == BoundKind::kCall && f->args.size() == 2) {
      static const std::pair<const ScalarFunction*, Op> kOps[] = {
          {&kEqual, Op::kEq}, {&kLess, Op::kLt}, {&kLessEqual, Op::kLe},
          {&kGreater, Op::kGt}, {&kGreaterEqual, Op::kGe}};
      std::optional<Op> op;
      for (const auto& [fn, o] : kOps) {
        if (f->function == fn) op = o;
      }
      if (!op) continue;
      const BoundExprPtr* column_side = &f->args[0];
      const BoundExprPtr* constant_side = &f->args[1];
      if ((*column_side)->kind == BoundKind::kConstant) {
        std::swap(column_side, constant_side);
        switch (*op) {
          case Op::kLt:
            op = Op::kGt;
            break;
          case Op::kLe:
            op = Op::kGe;
            break;
          case Op::kGt:
            op = Op::kLt;
            break;
          case Op::kGe:
            op = Op::kLe;
            break;
          default:
            break;
        }
      }
      if ((*constant_side)->kind != BoundKind::kConstant || (*constant_side)->value.is_null) {
        continue;
      }
      int column = ColumnUnderCasts(**column_side);
      if (!usable(column)) continue;
      Constraint c = make(column, **column_side, *op);
      c.values.push_back((*constant_side)->value);
      constraints_.push_back(std::move(c));
      continue;
    }
    if (f->kind == BoundKind::kOr) {
      // x = a OR x = b OR …: an IN list on one column.
      int column = -1;
      const BoundExpr* column_expr = nullptr;
      std::vector<Value> values;
      bool ok = true;
      for (const BoundExprPtr& arm : f->args) {
        if (arm->kind != BoundKind::kCall || arm->function != &kEqual) {
          ok = false;
          break;
        }
        const BoundExprPtr& a = arm->args[0];
        const BoundExprPtr& b = arm->args[1];
        const BoundExprPtr& col = a->kind == BoundKind::kConstant ? b : a;
        const BoundExprPtr& val = a->kind == BoundKind::kConstant ? a : b;
        int c = ColumnUnderCasts(*col);
        if (val->kind != BoundKind::kConstant || c < 0 || (column >= 0 && c != column) ||
            (column_expr != nullptr && !(col->type == column_expr->type))) {
          ok = false;
          break;
        }
        column = c;
        column_expr = col.get();
        if (!val->value.is_null) values.push_back(val->value);
      }
      if (!ok || !usable(column)) continue;
      Constraint c = make(column, *column_expr, Op::kIn);
      c.values = std::move(values);
      constraints_.push_back(std::move(c));
    }
  }
}

std::vector<int32_t> PruningPredicate::field_ids() const {
  std::vector<int32_t> ids;
  for (const Constraint& c : constraints_) ids.push_back(c.field_id);
  return ids;
}

bool PruningPredicate::Excludes(
    const std::function<std::optional<ColumnStatistics>(int32_t)>& stats) const {
  for (const Constraint& c : constraints_) {
    std::optional<ColumnStatistics> s = stats(c.field_id);
    if (s && Excludes(c, *s)) return true;
  }
  return false;
}

bool PruningPredicate::Excludes(const Constraint& c, const ColumnStatistics& s) const {
  bool all_null = s.value_count > 0 && s.null_count >= s.value_count;
  switch (c.op) {
    case Op::kIsNull:
      return s.null_count == 0 && s.value_count > 0;
    case Op::kNotNull:
      return all_null;
    default:
      break;
  }
  if (all_null) return true;  // a comparison is never true on NULL
  std::optional<Value> lower = s.lower_value;
  std::optional<Value> upper = s.upper_value;
  if (!lower || !upper) {
    if (!s.lower || !s.upper) return false;
    lower = BoundToValue(c.column_type, c.column_sql_type, *s.lower);
    upper = BoundToValue(c.column_type, c.column_sql_type, *s.upper);
  }
  if (!lower || !upper) return false;
  auto lo = CastValue(*lower, c.compare_type);
  auto hi = CastValue(*upper, c.compare_type);
  if (!lo.ok() || !hi.ok()) return false;
  // NaN sorts above every number in PostgreSQL and is outside the bounds:
  // unless the statistics count no NaN, a float column may hold rows above
  // `upper`.
  bool nan_possible = c.column_sql_type.is_float() && (!s.nan_count || *s.nan_count > 0);
  auto cmp = [&](const Value& a, const Value& b) { return CompareValue(a, b); };
  auto outside = [&](const Value& v) {
    if (v.type.is_float() && std::isnan(v.d)) return false;  // NaN is outside every bound
    return cmp(v, *lo) < 0 || (cmp(v, *hi) > 0 && !nan_possible);
  };
  const Value& v = c.values.empty() ? *lo : c.values[0];
  switch (c.op) {
    case Op::kEq:
      return outside(v);
    case Op::kLt:
      return cmp(*lo, v) >= 0;
    case Op::kLe:
      return cmp(*lo, v) > 0;
    case Op::kGt:
      return !nan_possible && cmp(*hi, v) <= 0;
    case Op::kGe:
      return !nan_possible && cmp(*hi, v) < 0;
    case Op::kIn:
      for (const Value& x : c.values) {
        if (!outside(x)) return false;
      }
      return true;
    default:
      return false;
  }
}

}  // namespace hoglake::sql
