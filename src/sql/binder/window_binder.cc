#include "sql/binder/window_binder.h"

#include "sql/function/aggregate_function.h"
#include "sql/function/cast.h"
#include "sql/function/scalar_function.h"
#include "sql/function/window_function.h"
#include "sql/sql_error.h"

namespace hoglake::sql {
namespace {

std::string Position(int location) {
  return location >= 0 ? StrCat(" at position ", location + 1) : std::string();
}

Error Windowing(std::string message, int location = -1) {
  return SqlError(SqlErrorKind::kWindowingError, message, Position(location));
}

// A window clause with OVER w / OVER (w …) resolved against the WINDOW clause.
struct Resolved {
  const std::vector<ast::ExprPtr>* partition_by = nullptr;
  const std::vector<ast::OrderItem>* order_by = nullptr;
  const ast::WindowSpec* frame = nullptr;  // where the frame (or its absence) is written
};

Result<Resolved> Resolve(const ast::WindowSpec& spec, const std::vector<ast::WindowSpec>& named,
                         int depth) {
  Resolved r{&spec.partition_by, &spec.order_by, &spec};
  if (spec.reference.empty()) return r;
  const ast::WindowSpec* base = nullptr;
  for (const ast::WindowSpec& w : named) {
    if (w.name == spec.reference) base = &w;
  }
  if (base == nullptr || depth > static_cast<int>(named.size())) {
    return SqlError(SqlErrorKind::kUndefinedObject, "window \"", spec.reference,
                    "\" does not exist", Position(spec.location));
  }
  HOGLAKE_ASSIGN_OR_RETURN(Resolved b, Resolve(*base, named, depth + 1));
  if (!spec.partition_by.empty()) {
    return Windowing(
        StrCat("cannot override PARTITION BY clause of window \"", spec.reference, "\""),
        spec.location);
  }
  r.partition_by = b.partition_by;
  if (!spec.order_by.empty() && !b.order_by->empty()) {
    return Windowing(StrCat("cannot override ORDER BY clause of window \"", spec.reference, "\""),
                     spec.location);
  }
  if (spec.order_by.empty()) r.order_by = b.order_by;
  const bool bare = spec.partition_by.empty() && spec.order_by.empty() && !spec.has_frame;
  if (b.frame->has_frame && !bare) {
    return Windowing(
        StrCat("cannot copy window \"", spec.reference, "\" because it has a frame clause"),
        spec.location);
  }
  if (!spec.has_frame) r.frame = b.frame;
  return r;
}

FrameBound BoundOf(ast::FrameBoundKind kind) {
  switch (kind) {
    case ast::FrameBoundKind::kUnboundedPreceding:
      return FrameBound::kUnboundedPreceding;
    case ast::FrameBoundKind::kPreceding:
      return FrameBound::kPreceding;
    case ast::FrameBoundKind::kCurrentRow:
      return FrameBound::kCurrentRow;
    case ast::FrameBoundKind::kFollowing:
      return FrameBound::kFollowing;
    case ast::FrameBoundKind::kUnboundedFollowing:
      return FrameBound::kUnboundedFollowing;
  }
  return FrameBound::kCurrentRow;
}

// A frame offset: a constant expression (no column references).
Result<BoundExprPtr> BindOffset(const ast::Expr& e, const char* unit, const ExprContext& outer) {
  Scope empty;
  ExprContext ctx;
  ctx.scope = &empty;
  ctx.clause = unit;
  ctx.statement_time_micros = outer.statement_time_micros;
  auto bound = BindExpression(e, ctx);
  if (!bound.ok() && bound.error().detail.sqlstate == "42703") {
    return SqlError(SqlErrorKind::kInvalidColumnReference, "argument of ", unit,
                    " must not contain variables", Position(e.location));
  }
  return bound;
}

// ROWS / GROUPS: a bigint.
Result<Value> CountOffset(const ast::Expr& e, const char* unit, const ExprContext& ctx) {
  HOGLAKE_ASSIGN_OR_RETURN(BoundExprPtr b, BindOffset(e, unit, ctx));
  const SqlTypeId id = b->type.id;
  if (id != SqlTypeId::kSmallint && id != SqlTypeId::kInteger && id != SqlTypeId::kBigint &&
      id != SqlTypeId::kUnknown) {
    return SqlError(SqlErrorKind::kDatatypeMismatch, "argument of ", unit,
                    " must be type bigint, not type ", PgTypeName(b->type), Position(e.location));
  }
  HOGLAKE_ASSIGN_OR_RETURN(b, BindCast(b, SqlType::Of(SqlTypeId::kBigint), false));
  return FoldConstant(*b);
}

// RANGE offset bounds over the single ORDER BY key.
Status BindRangeOffsets(const ast::WindowSpec& spec, BoundWindow& w, const ExprContext& ctx) {
  if (w.order_by.size() != 1) {
    return Windowing("RANGE with offset PRECEDING/FOLLOWING requires exactly one ORDER BY column",
                     spec.location);
  }
  const SortKey& key = w.order_by[0];
  const SqlType& kt = key.expr->type;
  // The key as compared, and the offset's type.
  SqlType compare_type, offset_type;
  if (kt.is_integer() || kt.id == SqlTypeId::kNumeric) {
    compare_type =
        kt.id == SqlTypeId::kNumeric ? SqlType::Numeric(-1, kt.scale) : SqlType::Numeric(-1, 0);
    offset_type = SqlType::Numeric(-1, 0);
  } else if (kt.is_float()) {
    compare_type = offset_type = SqlType::Of(SqlTypeId::kDouble);
  } else if (kt.id == SqlTypeId::kDate || kt.id == SqlTypeId::kTimestamp ||
             kt.id == SqlTypeId::kTimestampTz) {
    compare_type = kt;
    offset_type = SqlType::Of(SqlTypeId::kInterval);
  } else {
    return SqlError(SqlErrorKind::kFeatureNotSupported,
                    "RANGE with offset PRECEDING/FOLLOWING is not supported for column type ",
                    PgTypeName(kt), Position(spec.location));
  }
  BoundExprPtr range_key = key.expr;
  if (compare_type.id != kt.id) {
    HOGLAKE_ASSIGN_OR_RETURN(range_key, BindCast(range_key, compare_type, false));
  }
  auto bind_side = [&](FrameBound bound, const ast::ExprPtr& offset_expr, Value* offset,
                       BoundExprPtr* value) -> Status {
    if (bound != FrameBound::kPreceding && bound != FrameBound::kFollowing) return Status::Ok();
    HOGLAKE_ASSIGN_OR_RETURN(BoundExprPtr off, BindOffset(*offset_expr, "RANGE", ctx));
    const SqlType& ot = off->type;
    bool fits;
    if (offset_type.id == SqlTypeId::kInterval) {
      fits = ot.id == SqlTypeId::kInterval || ot.id == SqlTypeId::kUnknown;
    } else if (kt.is_integer()) {
      fits = ot.is_integer() || ot.id == SqlTypeId::kUnknown;
    } else {
      fits = ot.is_numeric_kind() || ot.id == SqlTypeId::kUnknown;
    }
    if (!fits) {
      return SqlError(SqlErrorKind::kFeatureNotSupported,
                      "RANGE with offset PRECEDING/FOLLOWING is not supported for column type ",
                      PgTypeName(kt), " and offset type ", PgTypeName(ot),
                      Position(offset_expr->location));
    }
    if (ot.id != SqlTypeId::kNumeric || offset_type.id != SqlTypeId::kNumeric) {
      HOGLAKE_ASSIGN_OR_RETURN(off, BindCast(off, offset_type, false));
    }
    HOGLAKE_ASSIGN_OR_RETURN(*offset, FoldConstant(*off));
    // Preceding is toward smaller keys ascending, larger descending.
    const bool minus = (bound == FrameBound::kPreceding) != key.descending;
    HOGLAKE_ASSIGN_OR_RETURN(*value,
                             BindOperator(minus ? "-" : "+", range_key, MakeConstant(*offset)));
    return Status::Ok();
  };
  HOGLAKE_RETURN_IF_ERROR(
      bind_side(w.frame.start, spec.start_offset, &w.frame.start_offset, &w.frame.start_value));
  HOGLAKE_RETURN_IF_ERROR(
      bind_side(w.frame.end, spec.end_offset, &w.frame.end_offset, &w.frame.end_value));
  // Keys and bounds compare in one type (date − interval is a timestamp).
  for (const BoundExprPtr& v : {w.frame.start_value, w.frame.end_value}) {
    if (v && v->type.id != range_key->type.id) {
      HOGLAKE_ASSIGN_OR_RETURN(range_key, BindCast(range_key, v->type, false));
    }
  }
  w.frame.range_key = range_key;
  return Status::Ok();
}

Status BindFrame(const ast::WindowSpec& spec, BoundWindow& w, const ExprContext& ctx) {
  if (!spec.has_frame) return Status::Ok();  // the default: RANGE UNBOUNDED PRECEDING..CURRENT ROW
  if (spec.frame_exclusion) {
    return SqlError(SqlErrorKind::kFeatureNotSupported,
                    "frame exclusion (EXCLUDE …) is not supported", Position(spec.location));
  }
  WindowFrame& f = w.frame;
  f.unit = spec.frame_unit == ast::FrameUnit::kRows    ? FrameUnit::kRows
           : spec.frame_unit == ast::FrameUnit::kRange ? FrameUnit::kRange
                                                       : FrameUnit::kGroups;
  f.start = BoundOf(spec.frame_start);
  f.end = BoundOf(spec.frame_end);
  if (f.unit == FrameUnit::kGroups && w.order_by.empty()) {
    return Windowing("GROUPS mode requires an ORDER BY clause", spec.location);
  }
  auto has_offset = [](FrameBound b) {
    return b == FrameBound::kPreceding || b == FrameBound::kFollowing;
  };
  if (f.unit == FrameUnit::kRange) {
    if (has_offset(f.start) || has_offset(f.end)) return BindRangeOffsets(spec, w, ctx);
    return Status::Ok();
  }
  const char* unit = f.unit == FrameUnit::kRows ? "ROWS" : "GROUPS";
  if (has_offset(f.start)) {
    HOGLAKE_ASSIGN_OR_RETURN(f.start_offset, CountOffset(*spec.start_offset, unit, ctx));
  }
  if (has_offset(f.end)) {
    HOGLAKE_ASSIGN_OR_RETURN(f.end_offset, CountOffset(*spec.end_offset, unit, ctx));
  }
  return Status::Ok();
}

}  // namespace

Result<BoundWindow> BindWindowCall(const ast::FunctionCall& call, const WindowBinding& binding) {
  const std::string& name = call.name.back();
  if (call.distinct) {
    return SqlError(SqlErrorKind::kFeatureNotSupported,
                    "DISTINCT is not implemented for window functions", Position(call.location));
  }
  if (call.variadic || call.within_group || !call.order_by.empty()) {
    return SqlError(SqlErrorKind::kFeatureNotSupported, "function call syntax of ", name,
                    " is not supported in a window", Position(call.location));
  }
  const bool aggregate = call.star || IsAggregateName(name);
  if (!aggregate && !IsWindowOnlyFunctionName(name)) {
    return SqlError(SqlErrorKind::kWrongObjectType, "OVER specified, but ", name,
                    " is not a window function nor an aggregate function", Position(call.location));
  }
  if (!aggregate && call.filter) {
    return SqlError(SqlErrorKind::kFeatureNotSupported,
                    "FILTER is not implemented for non-aggregate window functions",
                    Position(call.location));
  }
  ExprContext ctx = binding.ctx;
  ctx.on_window = nullptr;
  ctx.clause = "window function calls";
  auto bind = [&](const ast::Expr& e) -> Result<BoundExprPtr> {
    HOGLAKE_ASSIGN_OR_RETURN(BoundExprPtr b, BindExpression(e, ctx));
    if (binding.lift) return binding.lift(b);
    return b;
  };
  std::vector<BoundExprPtr> args;
  for (const ast::ExprPtr& a : call.args) {
    HOGLAKE_ASSIGN_OR_RETURN(BoundExprPtr b, bind(*a));
    args.push_back(std::move(b));
  }
  BoundWindow w;
  if (aggregate) {
    w.kind = WindowFunctionKind::kAggregate;
    HOGLAKE_ASSIGN_OR_RETURN(w.aggregate, BindAggregate(name, std::move(args), call.star));
    if (call.filter) {
      ExprContext filter_ctx = ctx;
      filter_ctx.clause = "FILTER";
      HOGLAKE_ASSIGN_OR_RETURN(BoundExprPtr filter, BindCondition(*call.filter, filter_ctx));
      if (binding.lift) {
        HOGLAKE_ASSIGN_OR_RETURN(filter, binding.lift(filter));
      }
      w.aggregate.filter = filter;
    }
    w.type = w.aggregate.type;
    w.name = w.aggregate.name;
  } else {
    if (call.star) {
      return SqlError(SqlErrorKind::kSyntaxError, name, "(*) is only valid for count",
                      Position(call.location));
    }
    auto bound = BindWindowFunction(name, std::move(args));
    if (!bound.ok() && call.location >= 0) {
      Error e = bound.error();
      e.message += Position(call.location);
      return e;
    }
    w = std::move(*bound);
  }

  static const std::vector<ast::WindowSpec> kNone;
  HOGLAKE_ASSIGN_OR_RETURN(Resolved spec,
                           Resolve(*call.over, binding.named ? *binding.named : kNone, 0));
  for (const ast::ExprPtr& p : *spec.partition_by) {
    HOGLAKE_ASSIGN_OR_RETURN(BoundExprPtr b, bind(*p));
    if (b->type.is_nested()) {
      return SqlError(SqlErrorKind::kFeatureNotSupported, "partitioning by ", PgTypeName(b->type),
                      " values is not supported");
    }
    w.partition_by.push_back(std::move(b));
  }
  for (const ast::OrderItem& item : *spec.order_by) {
    if (item.using_operator) {
      return SqlError(SqlErrorKind::kFeatureNotSupported, "ORDER BY … USING is not supported");
    }
    HOGLAKE_ASSIGN_OR_RETURN(BoundExprPtr b, bind(*item.expr));
    if (b->type.is_nested()) {
      return SqlError(SqlErrorKind::kFeatureNotSupported, "ordering by ", PgTypeName(b->type),
                      " values is not supported");
    }
    if (b->type.id == SqlTypeId::kUnknown) {
      HOGLAKE_ASSIGN_OR_RETURN(b, BindCast(b, SqlType::Of(SqlTypeId::kText), false));
    }
    const bool desc = item.direction == ast::SortDirection::kDescending;
    const bool nulls_first =
        item.nulls == ast::NullsOrder::kDefault ? desc : item.nulls == ast::NullsOrder::kFirst;
    w.order_by.push_back(SortKey{std::move(b), desc, nulls_first});
  }
  HOGLAKE_RETURN_IF_ERROR(BindFrame(*spec.frame, w, ctx));
  return w;
}

Result<BoundWindow> MapWindowExprs(
    const BoundWindow& window, const std::function<Result<BoundExprPtr>(const BoundExprPtr&)>& fn) {
  BoundWindow w = window;
  auto map = [&](BoundExprPtr& e) -> Status {
    if (!e) return Status::Ok();
    HOGLAKE_ASSIGN_OR_RETURN(e, fn(e));
    return Status::Ok();
  };
  for (BoundExprPtr& a : w.args) HOGLAKE_RETURN_IF_ERROR(map(a));
  for (BoundExprPtr& a : w.aggregate.args) HOGLAKE_RETURN_IF_ERROR(map(a));
  HOGLAKE_RETURN_IF_ERROR(map(w.aggregate.filter));
  for (BoundExprPtr& p : w.partition_by) HOGLAKE_RETURN_IF_ERROR(map(p));
  for (SortKey& k : w.order_by) HOGLAKE_RETURN_IF_ERROR(map(k.expr));
  HOGLAKE_RETURN_IF_ERROR(map(w.frame.range_key));
  HOGLAKE_RETURN_IF_ERROR(map(w.frame.start_value));
  HOGLAKE_RETURN_IF_ERROR(map(w.frame.end_value));
  return w;
}

}  // namespace hoglake::sql
