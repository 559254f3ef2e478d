#include "sql/binder/expression_binder.h"

#include <cstring>

#include "sql/execution/expression_evaluator.h"
#include "sql/function/aggregate_function.h"
#include "sql/function/array_functions.h"
#include "sql/function/cast.h"
#include "sql/function/scalar_function.h"
#include "sql/function/window_function.h"
#include "sql/sql_error.h"
#include "sql/types/value_text.h"

namespace hoglake::sql {
namespace {

using ast::ExprKind;

std::string Position(int location) {
  return location >= 0 ? StrCat(" at position ", location + 1) : std::string();
}

std::shared_ptr<BoundExpr> MakeNode(BoundKind kind, SqlType type, std::vector<BoundExprPtr> args) {
  auto e = std::make_shared<BoundExpr>();
  e->kind = kind;
  e->type = std::move(type);
  e->args = std::move(args);
  return e;
}

const SqlType kBool = SqlType::Of(SqlTypeId::kBoolean);

Result<BoundExprPtr> AsBoolean(BoundExprPtr e, std::string_view clause) {
  if (e->type.id == SqlTypeId::kBoolean) return e;
  if (e->type.id == SqlTypeId::kUnknown) return BindCast(e, kBool, true);
  return SqlError(SqlErrorKind::kDatatypeMismatch, "argument of ", clause,
                  " must be type boolean, not type ", PgTypeName(e->type));
}

Result<BoundExprPtr> BindConstant(const ast::Constant& c) {
  switch (c.constant_kind) {
    case ast::ConstantKind::kNull:
      return MakeConstant(Value::Null(SqlType::Of(SqlTypeId::kUnknown)));
    case ast::ConstantKind::kBool:
      return MakeConstant(Value::Boolean(c.bool_value));
    case ast::ConstantKind::kInteger:
      return MakeConstant(Value::Integer(SqlTypeId::kInteger, c.integer_value));
    case ast::ConstantKind::kNumeric: {
      // An integral literal that fits bigint is bigint (integer when it
      // fits: the grammar folds a minus into -2147483648); others are numeric.
      const std::string& t = c.text;
      if (t.find_first_of(".eE") == std::string::npos) {
        int64_t v;
        bool overflow;
        if (ParsePgInteger(t, INT64_MIN, INT64_MAX, &v, &overflow)) {
          const bool fits_integer = v >= INT32_MIN && v <= INT32_MAX;
          return MakeConstant(
              Value::Integer(fits_integer ? SqlTypeId::kInteger : SqlTypeId::kBigint, v));
        }
      }
      int scale = NumericTextScale(t);
      __int128 unscaled;
      bool overflow;
      if (!ParsePgNumeric(t, scale, &unscaled, &overflow)) {
        return SqlError(SqlErrorKind::kNumericValueOutOfRange, "numeric literal ", t,
                        " exceeds 38 digits of precision");
      }
      return MakeConstant(Value::Numeric(-1, scale, unscaled));
    }
    case ast::ConstantKind::kString:
      return MakeConstant(Value::Text(c.text, SqlTypeId::kUnknown));
    case ast::ConstantKind::kBitString:
      return SqlError(SqlErrorKind::kFeatureNotSupported, "bit string literals are not supported");
  }
  return Internal("constant kind");
}

// INTERVAL '90' DAY: the grammar's field mask (PostgreSQL's INTERVAL_MASK
// bits: MONTH 1<<1, YEAR 1<<2, DAY 1<<3, HOUR 1<<10, MINUTE 1<<11, SECOND
// 1<<12) applied to a bare number.
Result<std::optional<std::string>> IntervalWithFields(const std::string& text,
                                                      const std::vector<int64_t>& modifiers) {
  if (modifiers.empty()) return std::optional<std::string>();
  int64_t mask = modifiers[0];
  if (mask == 0x7FFF) return std::optional<std::string>();  // full range: as written
  const char* unit = nullptr;
  switch (mask) {
    case 1 << 2:
      unit = "year";
      break;
    case 1 << 1:
      unit = "month";
      break;
    case 1 << 3:
      unit = "day";
      break;
    case 1 << 10:
      unit = "hour";
      break;
    case 1 << 11:
      unit = "minute";
      break;
    case 1 << 12:
      unit = "second";
      break;
  }
  bool plain = !text.empty();
  for (char ch : text) plain &= (ch >= '0' && ch <= '9') || ch == '-' || ch == '+' || ch == ' ';
  if (unit == nullptr || !plain) {
    return SqlError(SqlErrorKind::kFeatureNotSupported,
                    "interval literals with field qualifiers are supported only as a number "
                    "with one field, e.g. INTERVAL '3' DAY");
  }
  return std::optional<std::string>(text + " " + unit);
}

Result<BoundExprPtr> BindCastExpr(const ast::Cast& cast, ExprContext& ctx) {
  const ast::TypeName& tn = cast.type;
  if (cast.arg->kind == ExprKind::kConstant &&
      static_cast<const ast::Constant&>(*cast.arg).constant_kind == ast::ConstantKind::kNumeric) {
    // 1e300::float8: the literal's digits read as a float directly (the
    // correctly rounded value PostgreSQL's numeric → float gives too), so a
    // literal past numeric's 38 digits still makes a float.
    auto type = SqlTypeFromName(tn.names, tn.modifiers, tn.array_dimensions);
    double d;
    if (type.ok() && type->is_float() &&
        ParsePgDouble(static_cast<const ast::Constant&>(*cast.arg).text, &d)) {
      return BindCast(MakeConstant(Value::Double(SqlTypeId::kDouble, d)), *type, true);
    }
  }
  HOGLAKE_ASSIGN_OR_RETURN(BoundExprPtr arg, BindExpression(*cast.arg, ctx));
  if (!tn.names.empty() && tn.names.back() == "interval" && !tn.modifiers.empty() &&
      arg->kind == BoundKind::kConstant && arg->type.id == SqlTypeId::kUnknown &&
      !arg->value.is_null) {
    HOGLAKE_ASSIGN_OR_RETURN(std::optional<std::string> text,
                             IntervalWithFields(arg->value.s, tn.modifiers));
    if (text) arg = MakeConstant(Value::Text(*text, SqlTypeId::kUnknown));
    return BindCast(arg, SqlType::Of(SqlTypeId::kInterval), true);
  }
  HOGLAKE_ASSIGN_OR_RETURN(SqlType type, SqlTypeFromName(tn.names, tn.modifiers,
                                                         tn.array_dimensions));
  return BindCast(arg, type, true);
}

Result<std::vector<BoundExprPtr>> CastAllTo(std::vector<BoundExprPtr> exprs, const SqlType& type) {
  for (BoundExprPtr& e : exprs) {
    auto cast = BindCast(e, type, false);
    if (!cast.ok()) {
      return SqlError(SqlErrorKind::kDatatypeMismatch, "cannot convert ", PgTypeName(e->type),
                      " to ", PgTypeName(type));
    }
    e = *cast;
  }
  return exprs;
}

std::vector<SqlType> TypesOf(const std::vector<BoundExprPtr>& exprs) {
  std::vector<SqlType> types;
  for (const BoundExprPtr& e : exprs) types.push_back(e->type);
  return types;
}

// A CASE, COALESCE or GREATEST result type: a numeric common type keeps
// the widest scale (one carrier for every branch).
Result<SqlType> ResultType(const std::vector<BoundExprPtr>& exprs, std::string_view context) {
  HOGLAKE_ASSIGN_OR_RETURN(SqlType type, CommonType(TypesOf(exprs), context));
  if (type.id == SqlTypeId::kNumeric) {
    int scale = 0;
    for (const BoundExprPtr& e : exprs) {
      if (e->type.id == SqlTypeId::kNumeric) scale = std::max(scale, e->type.scale);
    }
    bool same = true;
    for (const BoundExprPtr& e : exprs) same &= e->type == exprs[0]->type;
    if (!same) type = SqlType::Numeric(kMaxNumericPrecision, scale);
  }
  return type;
}

Result<BoundExprPtr> MakeCase(std::vector<BoundExprPtr> conditions,
                              std::vector<BoundExprPtr> results, BoundExprPtr else_result) {
  std::vector<BoundExprPtr> all_results = results;
  if (else_result) all_results.push_back(else_result);
  HOGLAKE_ASSIGN_OR_RETURN(SqlType type, ResultType(all_results, "CASE"));
  HOGLAKE_ASSIGN_OR_RETURN(results, CastAllTo(std::move(results), type));
  std::vector<BoundExprPtr> args;
  for (size_t i = 0; i < conditions.size(); ++i) {
    args.push_back(conditions[i]);
    args.push_back(results[i]);
  }
  auto e = MakeNode(BoundKind::kCase, type, {});
  if (else_result) {
    HOGLAKE_ASSIGN_OR_RETURN(else_result, BindCast(else_result, type, false));
    args.push_back(else_result);
    e->has_else = true;
  }
  e->args = std::move(args);
  return BoundExprPtr(e);
}

Result<BoundExprPtr> BindList(const std::vector<ast::ExprPtr>& in, ExprContext& ctx,
                              std::vector<BoundExprPtr>* out) {
  for (const ast::ExprPtr& e : in) {
    HOGLAKE_ASSIGN_OR_RETURN(BoundExprPtr b, BindExpression(*e, ctx));
    out->push_back(std::move(b));
  }
  return BoundExprPtr();
}

Result<BoundExprPtr> BindFunction(const ast::FunctionCall& call, ExprContext& ctx) {
  std::string name = call.name.back();
  if (call.name.size() > 1 && call.name[0] != "pg_catalog") {
    return SqlError(SqlErrorKind::kUndefinedFunction, "function ", call.name[0], ".", name,
                    " does not exist", Position(call.location));
  }
  if (call.over) {
    if (!ctx.on_window) {
      if (ctx.clause == "aggregate function calls") {
        return SqlError(SqlErrorKind::kGroupingError,
                        "aggregate function calls cannot contain window function calls",
                        Position(call.location));
      }
      if (ctx.clause == "window function calls") {
        return SqlError(SqlErrorKind::kWindowingError, "window function calls cannot be nested",
                        Position(call.location));
      }
      return SqlError(SqlErrorKind::kWindowingError, "window functions are not allowed in ",
                      ctx.clause, Position(call.location));
    }
    return ctx.on_window(call);
  }
  if (IsWindowOnlyFunctionName(name)) {
    return SqlError(SqlErrorKind::kWrongObjectType, "window function ", name,
                    " requires an OVER clause", Position(call.location));
  }
  const bool ordered_set = call.within_group && IsAggregateName(name);
  if (call.variadic || (!ordered_set && (call.within_group || !call.order_by.empty()))) {
    return SqlError(SqlErrorKind::kFeatureNotSupported, "function call syntax of ", name,
                    " is not supported", Position(call.location));
  }
  if (IsAggregateName(name) || call.star) {
    if (!ctx.on_aggregate) {
      return SqlError(SqlErrorKind::kGroupingError, "aggregate functions are not allowed in ",
                      ctx.clause, Position(call.location));
    }
    return ctx.on_aggregate(call);
  }
  if (call.distinct || call.filter) {
    return SqlError(SqlErrorKind::kWrongObjectType, "DISTINCT or FILTER specified, but ", name,
                    " is not an aggregate function", Position(call.location));
  }
  std::vector<BoundExprPtr> args;
  HOGLAKE_RETURN_IF_ERROR(BindList(call.args, ctx, &args).status());
  bool named = false;
  for (const std::string& n : call.arg_names) named |= !n.empty();
  if (named) {
    auto resolved = ResolveNamedArguments(name, std::move(args), call.arg_names);
    if (!resolved.ok()) return resolved.status();
    args = std::move(*resolved);
  } else if (name == "make_interval" && args.size() < 7) {
    // Trailing parameters default to 0.
    auto resolved = ResolveNamedArguments(name, std::move(args), {});
    if (!resolved.ok()) return resolved.status();
    args = std::move(*resolved);
  }
  auto bound = BindScalarFunction(name, std::move(args));
  if (!bound.ok() && bound.error().detail.sqlstate == "42883" && call.location >= 0) {
    Error e = bound.error();
    e.message += Position(call.location);
    return e;
  }
  return bound;
}

Result<BoundExprPtr> BindOperatorExpr(const ast::Operator& op, ExprContext& ctx) {
  BoundExprPtr left;
  if (op.left) {
    HOGLAKE_ASSIGN_OR_RETURN(left, BindExpression(*op.left, ctx));
  }
  HOGLAKE_ASSIGN_OR_RETURN(BoundExprPtr right, BindExpression(*op.right, ctx));
  // A constant minus folds so -2147483648 is an integer, as in PostgreSQL.
  auto bound = BindOperator(op.name, left, right);
  if (!bound.ok() && op.location >= 0 && bound.error().detail.sqlstate == "42883") {
    Error e = bound.error();
    e.message += Position(op.location);
    return e;
  }
  return bound;
}

Result<BoundExprPtr> BindComparisonOf(std::string_view op, BoundExprPtr l, BoundExprPtr r) {
  return BindOperator(op, std::move(l), std::move(r));
}

BoundExprPtr Not(BoundExprPtr e) { return MakeNode(BoundKind::kNot, kBool, {e}); }

Result<BoundExprPtr> BindInList(const ast::InList& in, ExprContext& ctx) {
  HOGLAKE_ASSIGN_OR_RETURN(BoundExprPtr value, BindExpression(*in.value, ctx));
  std::vector<BoundExprPtr> items;
  HOGLAKE_RETURN_IF_ERROR(BindList(in.list, ctx, &items).status());
  std::vector<BoundExprPtr> all = items;
  all.push_back(value);
  HOGLAKE_ASSIGN_OR_RETURN(SqlType type, CommonType(TypesOf(all), "IN"));
  if (type.id == SqlTypeId::kNumeric) type = SqlType::Numeric(-1, 0);
  std::vector<BoundExprPtr> ors;
  for (BoundExprPtr& item : items) {
    HOGLAKE_ASSIGN_OR_RETURN(BoundExprPtr eq, BindComparisonOf("=", value, item));
    ors.push_back(eq);
  }
  BoundExprPtr result = ors.size() == 1 ? ors[0] : MakeNode(BoundKind::kOr, kBool, ors);
  return in.negated ? Not(result) : result;
}

Result<BoundExprPtr> BindLike(const ast::Like& like, ExprContext& ctx) {
  HOGLAKE_ASSIGN_OR_RETURN(BoundExprPtr value, BindExpression(*like.value, ctx));
  HOGLAKE_ASSIGN_OR_RETURN(BoundExprPtr pattern, BindExpression(*like.pattern, ctx));
  BoundExprPtr escape = MakeConstant(Value::Text("\\"));
  if (like.escape) {
    HOGLAKE_ASSIGN_OR_RETURN(escape, BindExpression(*like.escape, ctx));
  }
  SqlType text = SqlType::Of(SqlTypeId::kText);
  for (BoundExprPtr* e : {&value, &pattern, &escape}) {
    if ((*e)->type.id == SqlTypeId::kUnknown) {
      HOGLAKE_ASSIGN_OR_RETURN(*e, BindCast(*e, text, false));
    }
    if ((*e)->type.id != SqlTypeId::kText) {
      return SqlError(SqlErrorKind::kUndefinedFunction, "operator does not exist: ",
                      PgTypeName(value->type), like.case_insensitive ? " ~~* " : " ~~ ",
                      PgTypeName(pattern->type), Position(like.location));
    }
  }
  BoundExprPtr call = MakeCall(&kLike, {value, pattern, escape}, kBool);
  const_cast<BoundExpr&>(*call).name = like.case_insensitive ? "~~*" : "~~";
  return like.negated ? Not(call) : call;
}

Result<BoundExprPtr> BindCaseExpr(const ast::Case& c, ExprContext& ctx) {
  BoundExprPtr arg;
  if (c.arg) {
    HOGLAKE_ASSIGN_OR_RETURN(arg, BindExpression(*c.arg, ctx));
  }
  std::vector<BoundExprPtr> conditions, results;
  for (const ast::CaseWhen& w : c.whens) {
    BoundExprPtr cond;
    if (arg) {
      HOGLAKE_ASSIGN_OR_RETURN(BoundExprPtr when, BindExpression(*w.condition, ctx));
      HOGLAKE_ASSIGN_OR_RETURN(cond, BindComparisonOf("=", arg, when));
    } else {
      HOGLAKE_ASSIGN_OR_RETURN(cond, BindCondition(*w.condition, ctx));
    }
    HOGLAKE_ASSIGN_OR_RETURN(BoundExprPtr result, BindExpression(*w.result, ctx));
    conditions.push_back(cond);
    results.push_back(result);
  }
  BoundExprPtr else_result;
  if (c.else_result) {
    HOGLAKE_ASSIGN_OR_RETURN(else_result, BindExpression(*c.else_result, ctx));
  }
  return MakeCase(std::move(conditions), std::move(results), std::move(else_result));
}

Result<BoundExprPtr> BindGreatestLeast(const ast::MinMax& m, ExprContext& ctx) {
  std::vector<BoundExprPtr> args;
  HOGLAKE_RETURN_IF_ERROR(BindList(m.args, ctx, &args).status());
  HOGLAKE_ASSIGN_OR_RETURN(SqlType type, ResultType(args, m.greatest ? "GREATEST" : "LEAST"));
  HOGLAKE_ASSIGN_OR_RETURN(args, CastAllTo(std::move(args), type));
  BoundExprPtr acc = args[0];
  for (size_t i = 1; i < args.size(); ++i) {
    BoundExprPtr b = args[i];
    // NULLs are ignored: CASE WHEN acc IS NULL THEN b WHEN b IS NULL THEN acc
    // WHEN acc >= b (or <=) THEN acc ELSE b END.
    auto is_null = [](BoundExprPtr e) { return MakeNode(BoundKind::kIsNull, kBool, {e}); };
    HOGLAKE_ASSIGN_OR_RETURN(BoundExprPtr cmp, BindComparisonOf(m.greatest ? ">=" : "<=", acc, b));
    HOGLAKE_ASSIGN_OR_RETURN(acc, MakeCase({is_null(acc), is_null(b), cmp}, {b, acc, acc}, b));
  }
  return acc;
}

Result<BoundExprPtr> BindBooleanTest(const ast::BooleanTest& t, ExprContext& ctx) {
  HOGLAKE_ASSIGN_OR_RETURN(BoundExprPtr arg, BindExpression(*t.arg, ctx));
  HOGLAKE_ASSIGN_OR_RETURN(arg, AsBoolean(arg, "IS TRUE"));
  auto coalesce = [&](BoundExprPtr e, bool fallback) -> BoundExprPtr {
    return BoundExprPtr(MakeNode(BoundKind::kCoalesce, kBool, {e, MakeConstant(Value::Boolean(fallback))}));
  };
  switch (t.test) {
    case ast::BooleanTestKind::kIsTrue:
      return coalesce(arg, false);
    case ast::BooleanTestKind::kIsNotTrue:
      return Not(coalesce(arg, false));
    case ast::BooleanTestKind::kIsFalse:
      return Not(coalesce(arg, true));
    case ast::BooleanTestKind::kIsNotFalse:
      return coalesce(arg, true);
    case ast::BooleanTestKind::kIsUnknown:
      return BoundExprPtr(MakeNode(BoundKind::kIsNull, kBool, {arg}));
    case ast::BooleanTestKind::kIsNotUnknown: {
      auto e = MakeNode(BoundKind::kIsNull, kBool, {arg});
      e->negated = true;
      return BoundExprPtr(e);
    }
  }
  return Internal("boolean test");
}

Result<BoundExprPtr> BindValueFunction(const ast::ValueFunction& f, ExprContext& ctx) {
  constexpr int64_t kMicrosPerDay = int64_t{86400} * 1000000;
  int64_t now = ctx.statement_time_micros;
  switch (f.function) {
    case ast::ValueFunctionKind::kCurrentDate:
      return MakeConstant(Value::Integer(SqlTypeId::kDate, now / kMicrosPerDay));
    case ast::ValueFunctionKind::kCurrentTimestamp:
      return MakeConstant(Value::Integer(SqlTypeId::kTimestampTz, now));
    case ast::ValueFunctionKind::kLocalTimestamp:
      return MakeConstant(Value::Integer(SqlTypeId::kTimestamp, now));
    case ast::ValueFunctionKind::kLocalTime:
    case ast::ValueFunctionKind::kCurrentTime:
      return MakeConstant(Value::Integer(SqlTypeId::kTime, now % kMicrosPerDay));
    default:
      return SqlError(SqlErrorKind::kFeatureNotSupported,
                      "this SQL value function is not supported", Position(f.location));
  }
}

// a[i], a[l:u], m[k], (s).f, applied left to right (array_functions.h).
Result<BoundExprPtr> BindIndirection(const ast::Indirection& ind, ExprContext& ctx) {
  HOGLAKE_ASSIGN_OR_RETURN(BoundExprPtr base, BindExpression(*ind.arg, ctx));
  // PostgreSQL reads a[i][j] as one subscript per dimension of one array;
  // a subscript past an array's dimensions gives NULL.
  bool past_dimensions = false;
  for (const ast::IndirectionStep& step : ind.steps) {
    switch (step.kind) {
      case ast::IndirectionStep::kSubscript: {
        HOGLAKE_ASSIGN_OR_RETURN(BoundExprPtr index, BindExpression(*step.lower, ctx));
        if (past_dimensions || (base->type.id != SqlTypeId::kArray &&
                                base->type.id != SqlTypeId::kMap && base->kind == BoundKind::kCall &&
                                base->name == "[]" && base->args[0]->type.id == SqlTypeId::kArray)) {
          past_dimensions = true;
          base = MakeConstant(Value::Null(base->type));
          continue;
        }
        HOGLAKE_ASSIGN_OR_RETURN(base, BindSubscript(std::move(base), std::move(index)));
        break;
      }
      case ast::IndirectionStep::kSlice: {
        BoundExprPtr lower, upper;
        if (step.lower) {
          HOGLAKE_ASSIGN_OR_RETURN(lower, BindExpression(*step.lower, ctx));
        }
        if (step.upper) {
          HOGLAKE_ASSIGN_OR_RETURN(upper, BindExpression(*step.upper, ctx));
        }
        HOGLAKE_ASSIGN_OR_RETURN(base, BindSlice(std::move(base), std::move(lower), std::move(upper)));
        break;
      }
      case ast::IndirectionStep::kField: {
        HOGLAKE_ASSIGN_OR_RETURN(base, BindFieldSelect(std::move(base), step.field));
        break;
      }
      case ast::IndirectionStep::kStar:
        return SqlError(SqlErrorKind::kFeatureNotSupported, "(composite).* is not supported",
                        Position(ind.location));
    }
  }
  return base;
}

}  // namespace

Result<BoundExprPtr> BindExpressionAt(const ast::Expr& expr, ExprContext& ctx);

Result<BoundExprPtr> BindCondition(const ast::Expr& expr, ExprContext& ctx) {
  HOGLAKE_ASSIGN_OR_RETURN(BoundExprPtr e, BindExpression(expr, ctx));
  return AsBoolean(e, ctx.clause);
}

Result<BoundExprPtr> BindExpression(const ast::Expr& expr, ExprContext& ctx) {
  struct DepthGuard {
    int& depth;
    ~DepthGuard() { --depth; }
  } guard{++ctx.depth};
  if (ctx.depth > kMaxExpressionDepth) {
    return SqlError(SqlErrorKind::kFeatureNotSupported, "expression nesting too deep (more than ",
                    kMaxExpressionDepth, " levels)", Position(expr.location));
  }
  return BindExpressionAt(expr, ctx);
}

Result<BoundExprPtr> BindExpressionAt(const ast::Expr& expr, ExprContext& ctx) {
  switch (expr.kind) {
    case ExprKind::kColumnRef: {
      const auto& ref = static_cast<const ast::ColumnRef&>(expr);
      if (ref.star) {
        return SqlError(SqlErrorKind::kFeatureNotSupported, "a .* reference is allowed only in "
                        "a select list", Position(expr.location));
      }
      bool outer = false;
      HOGLAKE_ASSIGN_OR_RETURN(ScopeColumn column,
                               ctx.scope->Resolve(ref.parts, expr.location, &outer));
      if (outer && !ctx.allow_outer_refs) {
        return SqlError(SqlErrorKind::kFeatureNotSupported, "correlated reference to \"",
                        column.name, "\" is not supported here", Position(expr.location));
      }
      auto e = std::make_shared<BoundExpr>();
      e->kind = BoundKind::kColumn;
      e->column = column.index;
      e->type = column.type;
      e->name = column.name;
      e->outer_ref = outer;
      return BoundExprPtr(e);
    }
    case ExprKind::kStar:
      return SqlError(SqlErrorKind::kSyntaxError, "* is allowed only in a select list",
                      Position(expr.location));
    case ExprKind::kConstant:
      return BindConstant(static_cast<const ast::Constant&>(expr));
    case ExprKind::kParameter:
      return SqlError(SqlErrorKind::kFeatureNotSupported, "parameters ($n) are not supported",
                      Position(expr.location));
    case ExprKind::kOperator:
      return BindOperatorExpr(static_cast<const ast::Operator&>(expr), ctx);
    case ExprKind::kQuantified:
      return SqlError(SqlErrorKind::kFeatureNotSupported, "ANY/ALL over arrays is not supported",
                      Position(expr.location));
    case ExprKind::kDistinctFrom: {
      const auto& d = static_cast<const ast::DistinctFrom&>(expr);
      HOGLAKE_ASSIGN_OR_RETURN(BoundExprPtr l, BindExpression(*d.left, ctx));
      HOGLAKE_ASSIGN_OR_RETURN(BoundExprPtr r, BindExpression(*d.right, ctx));
      HOGLAKE_ASSIGN_OR_RETURN(BoundExprPtr eq, BindComparisonOf("=", l, r));
      return MakeCall(d.negated ? &kIsNotDistinctFrom : &kIsDistinctFrom, eq->args, kBool);
    }
    case ExprKind::kNullIf: {
      const auto& n = static_cast<const ast::NullIf&>(expr);
      HOGLAKE_ASSIGN_OR_RETURN(BoundExprPtr l, BindExpression(*n.left, ctx));
      HOGLAKE_ASSIGN_OR_RETURN(BoundExprPtr r, BindExpression(*n.right, ctx));
      HOGLAKE_ASSIGN_OR_RETURN(BoundExprPtr eq, BindComparisonOf("=", l, r));
      // The result is the first argument as the = operator takes it: an
      // unknown literal gets the other side's type, and a lower numeric group
      // is promoted (PostgreSQL has cross-type = within integers and within
      // floats only: nullif(1, 2.2) is numeric, nullif(1::smallint, 2) smallint).
      auto group = [](const SqlType& t) {
        return t.is_integer() ? 1 : t.id == SqlTypeId::kNumeric ? 2 : t.is_float() ? 3 : 0;
      };
      SqlType type = l->type;
      if (l->type.id == SqlTypeId::kUnknown ||
          (group(l->type) > 0 && group(l->type) < group(r->type))) {
        type = eq->args[0]->type;
      }
      HOGLAKE_ASSIGN_OR_RETURN(l, BindCast(l, type, false));
      return MakeCase({eq}, {MakeConstant(Value::Null(type))}, l);
    }
    case ExprKind::kInList:
      return BindInList(static_cast<const ast::InList&>(expr), ctx);
    case ExprKind::kBetween: {
      const auto& b = static_cast<const ast::Between&>(expr);
      if (b.symmetric) {
        return SqlError(SqlErrorKind::kFeatureNotSupported, "BETWEEN SYMMETRIC is not supported",
                        Position(expr.location));
      }
      HOGLAKE_ASSIGN_OR_RETURN(BoundExprPtr v, BindExpression(*b.value, ctx));
      HOGLAKE_ASSIGN_OR_RETURN(BoundExprPtr lo, BindExpression(*b.low, ctx));
      HOGLAKE_ASSIGN_OR_RETURN(BoundExprPtr hi, BindExpression(*b.high, ctx));
      HOGLAKE_ASSIGN_OR_RETURN(BoundExprPtr ge, BindComparisonOf(">=", v, lo));
      HOGLAKE_ASSIGN_OR_RETURN(BoundExprPtr le, BindComparisonOf("<=", v, hi));
      BoundExprPtr both = MakeNode(BoundKind::kAnd, kBool, {ge, le});
      return b.negated ? Not(both) : both;
    }
    case ExprKind::kLike:
      return BindLike(static_cast<const ast::Like&>(expr), ctx);
    case ExprKind::kBool: {
      const auto& b = static_cast<const ast::BoolExpr&>(expr);
      std::vector<BoundExprPtr> args;
      for (const ast::ExprPtr& a : b.args) {
        HOGLAKE_ASSIGN_OR_RETURN(BoundExprPtr bound, BindExpression(*a, ctx));
        HOGLAKE_ASSIGN_OR_RETURN(bound, AsBoolean(bound, b.op == ast::BoolOp::kAnd ? "AND"
                                                         : b.op == ast::BoolOp::kOr ? "OR"
                                                                                    : "NOT"));
        args.push_back(bound);
      }
      BoundKind kind = b.op == ast::BoolOp::kAnd  ? BoundKind::kAnd
                       : b.op == ast::BoolOp::kOr ? BoundKind::kOr
                                                  : BoundKind::kNot;
      return BoundExprPtr(MakeNode(kind, kBool, std::move(args)));
    }
    case ExprKind::kNullTest: {
      const auto& n = static_cast<const ast::NullTest&>(expr);
      HOGLAKE_ASSIGN_OR_RETURN(BoundExprPtr arg, BindExpression(*n.arg, ctx));
      auto e = MakeNode(BoundKind::kIsNull, kBool, {arg});
      e->negated = n.negated;
      return BoundExprPtr(e);
    }
    case ExprKind::kBooleanTest:
      return BindBooleanTest(static_cast<const ast::BooleanTest&>(expr), ctx);
    case ExprKind::kFunction:
      return BindFunction(static_cast<const ast::FunctionCall&>(expr), ctx);
    case ExprKind::kCast:
      return BindCastExpr(static_cast<const ast::Cast&>(expr), ctx);
    case ExprKind::kCase:
      return BindCaseExpr(static_cast<const ast::Case&>(expr), ctx);
    case ExprKind::kCoalesce: {
      const auto& c = static_cast<const ast::Coalesce&>(expr);
      std::vector<BoundExprPtr> args;
      HOGLAKE_RETURN_IF_ERROR(BindList(c.args, ctx, &args).status());
      HOGLAKE_ASSIGN_OR_RETURN(SqlType type, ResultType(args, "COALESCE"));
      HOGLAKE_ASSIGN_OR_RETURN(args, CastAllTo(std::move(args), type));
      return BoundExprPtr(MakeNode(BoundKind::kCoalesce, type, std::move(args)));
    }
    case ExprKind::kMinMax:
      return BindGreatestLeast(static_cast<const ast::MinMax&>(expr), ctx);
    case ExprKind::kSubquery:
      if (!ctx.on_subquery) {
        return SqlError(SqlErrorKind::kFeatureNotSupported, "subqueries are not allowed in ",
                        ctx.clause, Position(expr.location));
      }
      return ctx.on_subquery(static_cast<const ast::Subquery&>(expr));
    case ExprKind::kIndirection:
      return BindIndirection(static_cast<const ast::Indirection&>(expr), ctx);
    case ExprKind::kArray: {
      const auto& array = static_cast<const ast::ArrayExpr&>(expr);
      std::vector<BoundExprPtr> elements;
      HOGLAKE_RETURN_IF_ERROR(BindList(array.elements, ctx, &elements).status());
      return BindArrayConstructor(std::move(elements));
    }
    case ExprKind::kRow:
      return SqlError(SqlErrorKind::kFeatureNotSupported,
                      "row constructors are not supported", Position(expr.location));
    case ExprKind::kValueFunction:
      return BindValueFunction(static_cast<const ast::ValueFunction&>(expr), ctx);
  }
  return Internal("expression kind");
}

bool HasColumnRefs(const BoundExpr& expr) {
  if (expr.kind == BoundKind::kColumn) return true;
  for (const BoundExprPtr& a : expr.args) {
    if (HasColumnRefs(*a)) return true;
  }
  return false;
}

bool HasOuterRefs(const BoundExpr& expr) {
  if (expr.kind == BoundKind::kColumn) return expr.outer_ref;
  for (const BoundExprPtr& a : expr.args) {
    if (HasOuterRefs(*a)) return true;
  }
  return false;
}

Result<Value> FoldConstant(const BoundExpr& expr) {
  if (expr.kind == BoundKind::kConstant) return expr.value;
  columnar::RecordBatch one;
  one.num_rows = 1;
  HOGLAKE_ASSIGN_OR_RETURN(columnar::ArrayPtr v, Evaluate(expr, one));
  return ValueAt(*v, 0, expr.type);
}

}  // namespace hoglake::sql
