#include "sql/binder/query_binder.h"

#include <algorithm>

#include "sql/binder/expression_binder.h"
#include "sql/binder/window_binder.h"
#include "sql/function/aggregate_function.h"
#include "sql/function/cast.h"
#include "sql/function/scalar_function.h"
#include "sql/optimizer/join_planner.h"
#include "sql/source/catalog_columns.h"
#include "sql/source/information_schema.h"
#include "sql/source/partition_specs.h"
#include "sql/sql_error.h"

namespace hoglake::sql {
namespace {

using ast::ExprKind;

std::string Position(int location) {
  return location >= 0 ? StrCat(" at position ", location + 1) : std::string();
}

// ---- names -------------------------------------------------------------------

// The name PostgreSQL gives an unaliased select-list expression.
std::string FigureName(const ast::Expr& e) {
  switch (e.kind) {
    case ExprKind::kColumnRef:
      return static_cast<const ast::ColumnRef&>(e).parts.back();
    case ExprKind::kFunction: {
      const auto& f = static_cast<const ast::FunctionCall&>(e);
      const std::string& n = f.name.back();
      if (n == "btrim" || n == "ltrim" || n == "rtrim") return n;
      return n;
    }
    case ExprKind::kCast: {
      const auto& c = static_cast<const ast::Cast&>(e);
      std::string inner = FigureName(*c.arg);
      if (inner != "?column?") return inner;
      const std::string& t = c.type.names.back();
      if (t == "int4") return "int4";
      if (t == "int8") return "int8";
      if (t == "float8") return "float8";
      if (t == "bool") return "bool";
      return t;
    }
    case ExprKind::kCase:
      return "case";
    case ExprKind::kCoalesce:
      return "coalesce";
    case ExprKind::kNullIf:
      return "nullif";
    case ExprKind::kMinMax:
      return static_cast<const ast::MinMax&>(e).greatest ? "greatest" : "least";
    case ExprKind::kSubquery: {
      const auto& s = static_cast<const ast::Subquery&>(e);
      if (s.subquery_kind == ast::SubqueryKind::kExists) return "exists";
      if (s.subquery_kind == ast::SubqueryKind::kArray) return "array";
      if (s.subquery_kind == ast::SubqueryKind::kScalar && s.query &&
          s.query->kind == ast::QueryKind::kSelect && s.query->targets.size() == 1) {
        const ast::SelectItem& item = s.query->targets[0];
        if (!item.alias.empty()) return item.alias;
        if (item.expr) return FigureName(*item.expr);
      }
      return "?column?";
    }
    case ExprKind::kValueFunction: {
      switch (static_cast<const ast::ValueFunction&>(e).function) {
        case ast::ValueFunctionKind::kCurrentDate:
          return "current_date";
        case ast::ValueFunctionKind::kCurrentTimestamp:
          return "current_timestamp";
        case ast::ValueFunctionKind::kLocalTimestamp:
          return "localtimestamp";
        default:
          return "?column?";
      }
    }
    default:
      return "?column?";
  }
}

bool ContainsCall(const ast::Expr* e, bool window);

bool ContainsCallIn(const std::vector<ast::ExprPtr>& list, bool window) {
  for (const auto& e : list) {
    if (ContainsCall(e.get(), window)) return true;
  }
  return false;
}

// The expressions an aggregate call aggregates, in BindAggregate's order:
// its arguments, or for f(direct…) WITHIN GROUP (ORDER BY x), x then the
// direct arguments. WITHIN GROUP on another aggregate, or an ordered-set
// aggregate without it, is 42883 (no such function), as in PostgreSQL.
Result<std::vector<const ast::Expr*>> AggregateInputs(const ast::FunctionCall& call) {
  const std::string& name = call.name.back();
  std::vector<const ast::Expr*> inputs;
  if (IsOrderedSetAggregateName(name) != call.within_group) {
    // As PostgreSQL: no such function with these arguments.
    return SqlError(SqlErrorKind::kUndefinedFunction, "function ", name, " does not exist ",
                    call.within_group ? "as an ordered-set aggregate" : "without WITHIN GROUP",
                    Position(call.location));
  }
  if (call.within_group) {
    if (call.order_by.size() != 1 || call.distinct) {
      return SqlError(SqlErrorKind::kFeatureNotSupported, name,
                      " with DISTINCT or several WITHIN GROUP keys is not supported",
                      Position(call.location));
    }
    inputs.push_back(call.order_by[0].expr.get());
  }
  for (const auto& a : call.args) inputs.push_back(a.get());
  return inputs;
}

// Whether an expression calls an aggregate (`window` false) or a window
// function (`window` true) at this query level. The arguments and window
// clauses of a window call belong to this level: `rank() OVER (ORDER BY
// sum(x))` groups.
bool ContainsCall(const ast::Expr* e, bool window) {
  if (e == nullptr) return false;
  switch (e->kind) {
    case ExprKind::kFunction: {
      const auto& f = static_cast<const ast::FunctionCall&>(*e);
      if (f.over) {
        if (window) return true;
        if (ContainsCallIn(f.args, false) || ContainsCall(f.filter.get(), false) ||
            ContainsCallIn(f.over->partition_by, false)) {
          return true;
        }
        for (const ast::OrderItem& o : f.over->order_by) {
          if (ContainsCall(o.expr.get(), false)) return true;
        }
        return false;
      }
      if (!window && (f.star || IsAggregateName(f.name.back()))) return true;
      return ContainsCallIn(f.args, window) || ContainsCall(f.filter.get(), window);
    }
    case ExprKind::kOperator: {
      const auto& o = static_cast<const ast::Operator&>(*e);
      return ContainsCall(o.left.get(), window) || ContainsCall(o.right.get(), window);
    }
    case ExprKind::kDistinctFrom: {
      const auto& o = static_cast<const ast::DistinctFrom&>(*e);
      return ContainsCall(o.left.get(), window) || ContainsCall(o.right.get(), window);
    }
    case ExprKind::kNullIf: {
      const auto& o = static_cast<const ast::NullIf&>(*e);
      return ContainsCall(o.left.get(), window) || ContainsCall(o.right.get(), window);
    }
    case ExprKind::kInList: {
      const auto& o = static_cast<const ast::InList&>(*e);
      return ContainsCall(o.value.get(), window) || ContainsCallIn(o.list, window);
    }
    case ExprKind::kBetween: {
      const auto& o = static_cast<const ast::Between&>(*e);
      return ContainsCall(o.value.get(), window) || ContainsCall(o.low.get(), window) ||
             ContainsCall(o.high.get(), window);
    }
    case ExprKind::kLike: {
      const auto& o = static_cast<const ast::Like&>(*e);
      return ContainsCall(o.value.get(), window) || ContainsCall(o.pattern.get(), window);
    }
    case ExprKind::kBool:
      return ContainsCallIn(static_cast<const ast::BoolExpr&>(*e).args, window);
    case ExprKind::kNullTest:
      return ContainsCall(static_cast<const ast::NullTest&>(*e).arg.get(), window);
    case ExprKind::kBooleanTest:
      return ContainsCall(static_cast<const ast::BooleanTest&>(*e).arg.get(), window);
    case ExprKind::kCast:
      return ContainsCall(static_cast<const ast::Cast&>(*e).arg.get(), window);
    case ExprKind::kCase: {
      const auto& c = static_cast<const ast::Case&>(*e);
      if (ContainsCall(c.arg.get(), window) || ContainsCall(c.else_result.get(), window))
        return true;
      for (const auto& w : c.whens) {
        if (ContainsCall(w.condition.get(), window) || ContainsCall(w.result.get(), window))
          return true;
      }
      return false;
    }
    case ExprKind::kCoalesce:
      return ContainsCallIn(static_cast<const ast::Coalesce&>(*e).args, window);
    case ExprKind::kMinMax:
      return ContainsCallIn(static_cast<const ast::MinMax&>(*e).args, window);
    case ExprKind::kSubquery:
      return ContainsCall(static_cast<const ast::Subquery&>(*e).test.get(), window);
    default:
      return false;
  }
}

}  // namespace

bool ContainsAggregate(const ast::Expr* e) { return ContainsCall(e, false); }
bool ContainsWindow(const ast::Expr* e) { return ContainsCall(e, true); }

namespace {

// Top-level AND conjuncts of a WHERE clause.
void SplitAstConjuncts(const ast::Expr* e, std::vector<const ast::Expr*>* out) {
  if (e == nullptr) return;
  if (e->kind == ExprKind::kBool) {
    const auto& b = static_cast<const ast::BoolExpr&>(*e);
    if (b.op == ast::BoolOp::kAnd) {
      for (const auto& a : b.args) SplitAstConjuncts(a.get(), out);
      return;
    }
  }
  out->push_back(e);
}

// A conjunct of the form [NOT] EXISTS (…) or x [NOT] IN (SELECT …).
const ast::Subquery* JoinableSubquery(const ast::Expr* e, bool* negated) {
  *negated = false;
  if (e->kind == ExprKind::kBool) {
    const auto& b = static_cast<const ast::BoolExpr&>(*e);
    if (b.op != ast::BoolOp::kNot) return nullptr;
    *negated = true;
    e = b.args[0].get();
  }
  if (e->kind != ExprKind::kSubquery) return nullptr;
  const auto& s = static_cast<const ast::Subquery&>(*e);
  if (s.subquery_kind == ast::SubqueryKind::kExists) return &s;
  if (s.subquery_kind == ast::SubqueryKind::kAny &&
      (s.operator_name.empty() || s.operator_name == "=")) {
    return &s;
  }
  return nullptr;
}

// (a AND b) OR (a AND c) → a AND (b OR c): conditions every branch of an
// OR repeats (TPC-H Q19's join key) become conjuncts of their own, so they
// can drive a hash join or a pushdown.
std::vector<BoundExprPtr> FactorOr(const BoundExprPtr& e) {
  if (e->kind != BoundKind::kOr) return {e};
  std::vector<std::vector<BoundExprPtr>> branches;
  for (const BoundExprPtr& arm : e->args) {
    std::vector<BoundExprPtr> parts;
    SplitConjuncts(arm, &parts);
    branches.push_back(std::move(parts));
  }
  std::vector<BoundExprPtr> common;
  for (const BoundExprPtr& candidate : branches[0]) {
    std::string text = candidate->Key();
    bool everywhere = true;
    for (size_t b = 1; b < branches.size() && everywhere; ++b) {
      bool found = false;
      for (const BoundExprPtr& x : branches[b]) found |= x->Key() == text;
      everywhere = found;
    }
    bool seen = false;
    for (const BoundExprPtr& c : common) seen |= c->Key() == text;
    if (everywhere && !seen) common.push_back(candidate);
  }
  if (common.empty()) return {e};
  std::vector<BoundExprPtr> rest_arms;
  for (const auto& parts : branches) {
    std::vector<BoundExprPtr> rest;
    for (const BoundExprPtr& x : parts) {
      bool is_common = false;
      for (const BoundExprPtr& c : common) is_common |= c->Key() == x->Key();
      if (!is_common) rest.push_back(x);
    }
    // A branch left with nothing is TRUE: the whole OR is then implied.
    if (rest.empty()) return common;
    rest_arms.push_back(CombineConjuncts(rest));
  }
  auto any = std::make_shared<BoundExpr>(*e);
  any->args = rest_arms;
  common.push_back(any);
  return common;
}

Scope Concat(const Scope& left, int left_width, const Scope& right) {
  Scope out = left;
  for (ScopeColumn c : right.columns) {
    c.index += left_width;
    out.columns.push_back(std::move(c));
  }
  return out;
}

LogicalOpPtr Dual() {
  auto op = std::make_shared<LogicalOp>();
  op->kind = LogicalKind::kValues;
  op->rows.push_back({});
  return op;
}

std::vector<std::string> Names(const LogicalOp& op) {
  std::vector<std::string> names;
  for (const OutputColumn& c : op.output) names.push_back(c.name);
  return names;
}

// An expression over the aggregate's output: group-key subtrees become key
// columns, aggregate refs stay; any other column is a grouping error.
Result<BoundExprPtr> Lift(const BoundExprPtr& e, const std::vector<BoundExprPtr>& keys,
                          const std::vector<std::string>& key_text) {
  if (e->post_aggregate) return e;
  if (e->kind != BoundKind::kConstant) {
    std::string text = e->Key();
    for (size_t k = 0; k < keys.size(); ++k) {
      if (key_text[k] == text && keys[k]->type == e->type) {
        auto ref = std::make_shared<BoundExpr>(*MakeColumn(static_cast<int>(k), e->type, e->name));
        ref->post_aggregate = true;
        return BoundExprPtr(ref);
      }
    }
  }
  if (e->kind == BoundKind::kColumn) {
    if (e->outer_ref) return e;
    return SqlError(SqlErrorKind::kGroupingError, "column \"", e->name,
                    "\" must appear in the GROUP BY clause or be used in an aggregate function");
  }
  if (e->args.empty()) return e;
  auto copy = std::make_shared<BoundExpr>(*e);
  for (BoundExprPtr& a : copy->args) {
    HOGLAKE_ASSIGN_OR_RETURN(a, Lift(a, keys, key_text));
  }
  return BoundExprPtr(copy);
}

Result<int64_t> BindLimitValue(const ast::Expr& e, const char* what, int64_t time) {
  Scope empty;
  ExprContext ctx;
  ctx.scope = &empty;
  ctx.clause = what;
  ctx.statement_time_micros = time;
  HOGLAKE_ASSIGN_OR_RETURN(BoundExprPtr bound, BindExpression(e, ctx));
  HOGLAKE_ASSIGN_OR_RETURN(bound, BindCast(bound, SqlType::Of(SqlTypeId::kBigint), false));
  HOGLAKE_ASSIGN_OR_RETURN(Value v, FoldConstant(*bound));
  if (v.is_null) return -1;
  if (v.i < 0) {
    return SqlError(std::string_view(what) == "OFFSET" ? SqlErrorKind::kInvalidRowCountInOffset
                                                       : SqlErrorKind::kInvalidRowCountInLimit,
                    what, " must not be negative");
  }
  return v.i;
}

}  // namespace

// ---- queries -----------------------------------------------------------------

Result<LogicalOpPtr> QueryBinder::BindQuery(const ast::QueryNode& query, const Scope* outer) {
  ctes_.emplace_back();
  struct Pop {
    std::vector<std::map<std::string, Cte>>* stack;
    ~Pop() { stack->pop_back(); }
  } pop{&ctes_};
  for (const ast::CommonTableExpr& cte : query.with) {
    if (cte.recursive) {
      return SqlError(SqlErrorKind::kFeatureNotSupported, "WITH RECURSIVE is not supported",
                      Position(cte.location));
    }
    if (ctes_.back().count(cte.name)) {
      return SqlError(SqlErrorKind::kDuplicateAlias, "WITH query name \"", cte.name,
                      "\" specified more than once", Position(cte.location));
    }
    HOGLAKE_ASSIGN_OR_RETURN(LogicalOpPtr plan, BindQuery(*cte.query, nullptr));
    std::vector<std::string> names = Names(*plan);
    if (cte.column_aliases.size() > names.size()) {
      return SqlError(SqlErrorKind::kInvalidColumnReference, "WITH query \"", cte.name, "\" has ",
                      names.size(), " columns available but ", cte.column_aliases.size(),
                      " columns specified");
    }
    for (size_t i = 0; i < cte.column_aliases.size(); ++i) names[i] = cte.column_aliases[i];
    ctes_.back()[cte.name] = Cte{plan, names};
  }
  switch (query.kind) {
    case ast::QueryKind::kSelect:
      return BindSelect(query, outer);
    case ast::QueryKind::kSetOperation: {
      HOGLAKE_ASSIGN_OR_RETURN(LogicalOpPtr plan, BindSetOperation(query, outer));
      return ApplyOrderLimit(query, plan);
    }
    case ast::QueryKind::kValues: {
      HOGLAKE_ASSIGN_OR_RETURN(LogicalOpPtr plan, BindValues(query));
      return ApplyOrderLimit(query, plan);
    }
  }
  return Internal("query kind");
}

Result<LogicalOpPtr> QueryBinder::BindValues(const ast::QueryNode& query) {
  Scope empty;
  ExprContext ctx;
  ctx.scope = &empty;
  ctx.clause = "VALUES";
  ctx.statement_time_micros = options_.statement_time_micros;
  auto op = std::make_shared<LogicalOp>();
  op->kind = LogicalKind::kValues;
  size_t width = query.values.empty() ? 0 : query.values[0].size();
  std::vector<std::vector<BoundExprPtr>> bound;
  for (const auto& row : query.values) {
    if (row.size() != width) {
      return SqlError(SqlErrorKind::kSyntaxError, "VALUES lists must all be the same length");
    }
    std::vector<BoundExprPtr> b;
    for (const auto& e : row) {
      HOGLAKE_ASSIGN_OR_RETURN(BoundExprPtr x, BindExpression(*e, ctx));
      b.push_back(x);
    }
    bound.push_back(std::move(b));
  }
  for (size_t c = 0; c < width; ++c) {
    std::vector<SqlType> types;
    for (const auto& row : bound) types.push_back(row[c]->type);
    HOGLAKE_ASSIGN_OR_RETURN(SqlType type, CommonType(types, "VALUES"));
    if (type.id == SqlTypeId::kNumeric) {
      int scale = 0;
      for (const SqlType& t : types)
        scale = std::max(scale, t.id == SqlTypeId::kNumeric ? t.scale : 0);
      type = SqlType::Numeric(-1, scale);
    }
    op->output.push_back(OutputColumn{StrCat("column", c + 1), type});
  }
  for (const auto& row : bound) {
    std::vector<Value> values;
    for (size_t c = 0; c < width; ++c) {
      HOGLAKE_ASSIGN_OR_RETURN(BoundExprPtr cast, BindCast(row[c], op->output[c].type, false));
      HOGLAKE_ASSIGN_OR_RETURN(Value v, FoldConstant(*cast));
      values.push_back(std::move(v));
    }
    op->rows.push_back(std::move(values));
  }
  return LogicalOpPtr(op);
}

Result<LogicalOpPtr> QueryBinder::BindSetOperation(const ast::QueryNode& query,
                                                   const Scope* outer) {
  HOGLAKE_ASSIGN_OR_RETURN(LogicalOpPtr left, BindQuery(*query.left, outer));
  HOGLAKE_ASSIGN_OR_RETURN(LogicalOpPtr right, BindQuery(*query.right, outer));
  const char* name = query.set_operation == ast::SetOperation::kUnion       ? "UNION"
                     : query.set_operation == ast::SetOperation::kIntersect ? "INTERSECT"
                                                                            : "EXCEPT";
  if (left->output.size() != right->output.size()) {
    return SqlError(SqlErrorKind::kSyntaxError, "each ", name,
                    " query must have the same number of columns");
  }
  std::vector<SqlType> types;
  for (size_t c = 0; c < left->output.size(); ++c) {
    HOGLAKE_ASSIGN_OR_RETURN(SqlType t,
                             CommonType({left->output[c].type, right->output[c].type}, name));
    if (t.id == SqlTypeId::kNumeric && !(left->output[c].type == right->output[c].type)) {
      t = SqlType::Numeric(
          kMaxNumericPrecision,
          std::max(
              left->output[c].type.id == SqlTypeId::kNumeric ? left->output[c].type.scale : 0,
              right->output[c].type.id == SqlTypeId::kNumeric ? right->output[c].type.scale : 0));
    }
    if (t.id == SqlTypeId::kUnknown) t = SqlType::Of(SqlTypeId::kText);
    types.push_back(t);
  }
  auto conform = [&](LogicalOpPtr side) -> Result<LogicalOpPtr> {
    bool same = true;
    for (size_t c = 0; c < types.size(); ++c) same &= side->output[c].type == types[c];
    if (same) return side;
    std::vector<BoundExprPtr> exprs;
    for (size_t c = 0; c < types.size(); ++c) {
      BoundExprPtr col =
          MakeColumn(static_cast<int>(c), side->output[c].type, side->output[c].name);
      HOGLAKE_ASSIGN_OR_RETURN(BoundExprPtr cast, BindCast(col, types[c], true));
      exprs.push_back(cast);
    }
    return MakeProject(side, std::move(exprs), Names(*side));
  };
  HOGLAKE_ASSIGN_OR_RETURN(left, conform(left));
  HOGLAKE_ASSIGN_OR_RETURN(right, conform(right));
  auto op = std::make_shared<LogicalOp>();
  op->output = left->output;
  op->children = {left, right};
  if (query.set_operation == ast::SetOperation::kUnion) {
    op->kind = LogicalKind::kUnion;
    if (query.set_all) return LogicalOpPtr(op);
    auto distinct = std::make_shared<LogicalOp>();
    distinct->kind = LogicalKind::kDistinct;
    distinct->output = op->output;
    distinct->children = {op};
    return LogicalOpPtr(distinct);
  }
  op->kind = LogicalKind::kSetOp;
  op->set_op = query.set_operation == ast::SetOperation::kIntersect ? SetOpKind::kIntersect
                                                                    : SetOpKind::kExcept;
  op->set_all = query.set_all;
  return LogicalOpPtr(op);
}

Result<LogicalOpPtr> QueryBinder::ApplyLimit(const ast::QueryNode& query, LogicalOpPtr plan) {
  if (query.limit_with_ties) {
    return SqlError(SqlErrorKind::kFeatureNotSupported, "FETCH … WITH TIES is not supported");
  }
  std::optional<int64_t> limit;
  int64_t offset = 0;
  if (query.limit) {
    HOGLAKE_ASSIGN_OR_RETURN(int64_t n,
                             BindLimitValue(*query.limit, "LIMIT", options_.statement_time_micros));
    if (n >= 0) limit = n;
  }
  if (query.offset) {
    HOGLAKE_ASSIGN_OR_RETURN(
        int64_t n, BindLimitValue(*query.offset, "OFFSET", options_.statement_time_micros));
    offset = std::max<int64_t>(n, 0);
  }
  if (!limit && offset == 0) return plan;
  auto op = std::make_shared<LogicalOp>();
  op->kind = LogicalKind::kLimit;
  op->output = plan->output;
  op->children = {plan};
  op->limit = limit;
  op->offset = offset;
  return LogicalOpPtr(op);
}

Result<LogicalOpPtr> QueryBinder::ApplyOrderLimit(const ast::QueryNode& query, LogicalOpPtr plan) {
  if (!query.order_by.empty()) {
    Scope scope;
    for (size_t c = 0; c < plan->output.size(); ++c) {
      scope.columns.push_back(
          ScopeColumn{"", plan->output[c].name, plan->output[c].type, static_cast<int>(c), false});
    }
    ExprContext ctx;
    ctx.scope = &scope;
    ctx.clause = "ORDER BY";
    ctx.statement_time_micros = options_.statement_time_micros;
    auto sort = std::make_shared<LogicalOp>();
    sort->kind = LogicalKind::kSort;
    sort->output = plan->output;
    sort->children = {plan};
    for (const ast::OrderItem& item : query.order_by) {
      if (item.using_operator) {
        return SqlError(SqlErrorKind::kFeatureNotSupported, "ORDER BY … USING is not supported");
      }
      BoundExprPtr key;
      if (item.expr->kind == ExprKind::kConstant &&
          static_cast<const ast::Constant&>(*item.expr).constant_kind ==
              ast::ConstantKind::kInteger) {
        int64_t n = static_cast<const ast::Constant&>(*item.expr).integer_value;
        if (n < 1 || n > static_cast<int64_t>(plan->output.size())) {
          return SqlError(SqlErrorKind::kInvalidColumnReference, "ORDER BY position ", n,
                          " is not in select list", Position(item.expr->location));
        }
        key =
            MakeColumn(static_cast<int>(n - 1), plan->output[n - 1].type, plan->output[n - 1].name);
      } else {
        if (query.kind == ast::QueryKind::kSetOperation &&
            item.expr->kind != ExprKind::kColumnRef) {
          // PostgreSQL sorts a set operation only by its output columns.
          return SqlError(SqlErrorKind::kFeatureNotSupported,
                          "invalid UNION/INTERSECT/EXCEPT ORDER BY clause",
                          Position(item.expr->location));
        }
        HOGLAKE_ASSIGN_OR_RETURN(key, BindExpression(*item.expr, ctx));
      }
      bool desc = item.direction == ast::SortDirection::kDescending;
      bool nulls_first =
          item.nulls == ast::NullsOrder::kDefault ? desc : item.nulls == ast::NullsOrder::kFirst;
      sort->sort_keys.push_back(SortKey{key, desc, nulls_first});
    }
    plan = sort;
  }
  return ApplyLimit(query, plan);
}

// ---- SELECT ------------------------------------------------------------------

Result<LogicalOpPtr> QueryBinder::BindSelect(const ast::QueryNode& query, const Scope* outer) {
  if (query.select_into) {
    return SqlError(SqlErrorKind::kWrongObjectType,
                    "SELECT … INTO creates a table; only queries are supported");
  }
  if (query.for_update) {
    return SqlError(SqlErrorKind::kFeatureNotSupported,
                    "locking clauses (FOR UPDATE/SHARE) are "
                    "not supported");
  }
  if (query.group_by_special) {
    return SqlError(SqlErrorKind::kFeatureNotSupported,
                    "GROUPING SETS, ROLLUP and CUBE are not supported yet");
  }
  HOGLAKE_ASSIGN_OR_RETURN(FromResult from, BindFrom(query.from, query.where.get(), outer));
  Scope& scope = from.scope;
  LogicalOpPtr plan = from.plan;

  ExprContext base;
  base.scope = &scope;
  base.statement_time_micros = options_.statement_time_micros;
  // Correlated subqueries of the select list, HAVING, ORDER BY: joined
  // above the FROM (or, grouped, above the aggregate) before HAVING.
  CorrelatedJoins subquery_joins;
  base.on_subquery = [&](const ast::Subquery& s) {
    return BindSubqueryValue(s, scope, &subquery_joins, "this clause");
  };
  // Those of aggregate arguments and FILTERs: joined below the aggregate.
  CorrelatedJoins input_joins;
  ExprContext input = base;
  input.on_subquery = [&](const ast::Subquery& s) {
    return BindSubqueryValue(s, scope, &input_joins, "this clause");
  };

  // Select items with `*` expanded: (AST expr or scope column, name).
  struct Item {
    const ast::Expr* expr = nullptr;
    std::optional<ScopeColumn> column;
    std::string name;
  };
  std::vector<Item> items;
  for (const ast::SelectItem& target : query.targets) {
    const ast::Expr& e = *target.expr;
    bool star = e.kind == ExprKind::kStar;
    bool relation_star =
        e.kind == ExprKind::kColumnRef && static_cast<const ast::ColumnRef&>(e).star;
    if (star || relation_star) {
      std::string relation;
      if (relation_star) relation = static_cast<const ast::ColumnRef&>(e).parts.back();
      bool any = false;
      for (const ScopeColumn& c : scope.columns) {
        if (star ? c.hidden : c.relation != relation) continue;
        items.push_back(Item{nullptr, c, c.name});
        any = true;
      }
      if (relation_star && !any) {
        return SqlError(SqlErrorKind::kUndefinedTable, "missing FROM-clause entry for table \"",
                        relation, "\"", Position(e.location));
      }
      if (star && query.from.empty()) {
        return SqlError(SqlErrorKind::kSyntaxError,
                        "SELECT * with no tables specified is not valid", Position(e.location));
      }
      continue;
    }
    items.push_back(Item{&e, std::nullopt, target.alias.empty() ? FigureName(e) : target.alias});
  }

  bool aggregate = !query.group_by.empty() || query.having != nullptr;
  for (const ast::SelectItem& target : query.targets)
    aggregate |= ContainsAggregate(target.expr.get());
  for (const ast::OrderItem& o : query.order_by) aggregate |= ContainsAggregate(o.expr.get());
  for (const ast::WindowSpec& w : query.windows) {
    for (const ast::ExprPtr& p : w.partition_by) aggregate |= ContainsAggregate(p.get());
    for (const ast::OrderItem& o : w.order_by) aggregate |= ContainsAggregate(o.expr.get());
  }

  std::vector<BoundExprPtr> keys;
  std::vector<std::string> key_text;
  std::vector<BoundAggregate> aggregates;
  std::vector<std::string> aggregate_text;
  ExprContext agg_ctx = base;
  if (aggregate) {
    agg_ctx.on_aggregate = [&](const ast::FunctionCall& call) -> Result<BoundExprPtr> {
      ExprContext arg_ctx = input;
      arg_ctx.clause = "aggregate function calls";
      std::vector<BoundExprPtr> args;
      // An ordered-set aggregate aggregates its WITHIN GROUP value; its own
      // arguments follow it, as constants.
      HOGLAKE_ASSIGN_OR_RETURN(std::vector<const ast::Expr*> inputs, AggregateInputs(call));
      for (const ast::Expr* a : inputs) {
        if (ContainsAggregate(a)) {
          return SqlError(SqlErrorKind::kGroupingError, "aggregate function calls cannot be nested",
                          Position(a->location));
        }
        HOGLAKE_ASSIGN_OR_RETURN(BoundExprPtr b, BindExpression(*a, arg_ctx));
        if (call.within_group && !args.empty()) {
          if (HasColumnRefs(*b)) {
            return SqlError(SqlErrorKind::kFeatureNotSupported, "the direct argument of ",
                            call.name.back(), " must be a constant", Position(a->location));
          }
          HOGLAKE_ASSIGN_OR_RETURN(Value v, FoldConstant(*b));
          b = MakeConstant(v);
        }
        args.push_back(b);
      }
      HOGLAKE_ASSIGN_OR_RETURN(BoundAggregate agg,
                               BindAggregate(call.name.back(), std::move(args), call.star));
      agg.distinct = call.distinct;
      agg.order_descending =
          call.within_group && call.order_by[0].direction == ast::SortDirection::kDescending;
      if (call.filter) {
        ExprContext filter_ctx = input;
        filter_ctx.clause = "FILTER";
        HOGLAKE_ASSIGN_OR_RETURN(agg.filter, BindCondition(*call.filter, filter_ctx));
      }
      std::string text =
          agg.name + (agg.distinct ? " distinct(" : "(") + (agg.order_descending ? "desc " : "");
      for (const auto& a : agg.args) text += a->Key() + ",";
      text += ")";
      if (agg.filter) text += " filter " + agg.filter->Key();
      size_t index = aggregates.size();
      for (size_t i = 0; i < aggregate_text.size(); ++i) {
        if (aggregate_text[i] == text) index = i;
      }
      if (index == aggregates.size()) {
        aggregates.push_back(agg);
        aggregate_text.push_back(text);
      }
      auto ref = std::make_shared<BoundExpr>(*MakeColumn(-1, agg.type, agg.name));
      ref->column = static_cast<int>(index);  // offset by the key count below
      ref->post_aggregate = true;
      ref->negated = true;  // marks "aggregate index, not yet offset"
      return BoundExprPtr(ref);
    };
    for (const ast::ExprPtr& g : query.group_by) {
      ExprContext key_ctx = base;
      key_ctx.clause = "GROUP BY";
      BoundExprPtr key;
      if (g->kind == ExprKind::kConstant &&
          static_cast<const ast::Constant&>(*g).constant_kind == ast::ConstantKind::kInteger) {
        int64_t n = static_cast<const ast::Constant&>(*g).integer_value;
        if (n < 1 || n > static_cast<int64_t>(items.size())) {
          return SqlError(SqlErrorKind::kInvalidColumnReference, "GROUP BY position ", n,
                          " is not in select list", Position(g->location));
        }
        const Item& item = items[n - 1];
        if (item.column) {
          key = MakeColumn(item.column->index, item.column->type, item.column->name);
        } else {
          if (ContainsAggregate(item.expr)) {
            return SqlError(SqlErrorKind::kGroupingError,
                            "aggregate functions are not allowed in GROUP BY",
                            Position(g->location));
          }
          HOGLAKE_ASSIGN_OR_RETURN(key, BindExpression(*item.expr, key_ctx));
        }
      } else {
        auto bound = BindExpression(*g, key_ctx);
        if (!bound.ok() && g->kind == ExprKind::kColumnRef &&
            static_cast<const ast::ColumnRef&>(*g).parts.size() == 1) {
          // An output column name (PostgreSQL tries input columns first).
          const std::string& name = static_cast<const ast::ColumnRef&>(*g).parts[0];
          for (const Item& item : items) {
            if (item.name == name && item.expr != nullptr && !ContainsAggregate(item.expr)) {
              bound = BindExpression(*item.expr, key_ctx);
              break;
            }
          }
        }
        HOGLAKE_RETURN_IF_ERROR(bound.status());
        key = *bound;
      }
      if (key->type.is_nested()) {
        return SqlError(SqlErrorKind::kFeatureNotSupported, "grouping by ", PgTypeName(key->type),
                        " values is not supported");
      }
      if (HasSubqueryRefs(*key)) return CorrelatedSubqueryNotSupportedHere("GROUP BY", g->location);
      keys.push_back(key);
      key_text.push_back(key->Key());
    }
  }

  // Window calls (select list and ORDER BY): bound over the aggregate's
  // output when there is one; each distinct call is one window column, a
  // `window_ref` until the Window operator is placed.
  std::vector<BoundWindow> windows;
  std::vector<std::string> window_text;
  auto on_window = [&](const ast::FunctionCall& call) -> Result<BoundExprPtr> {
    WindowBinding binding;
    binding.ctx = aggregate ? agg_ctx : base;
    if (aggregate) {
      binding.lift = [&](const BoundExprPtr& e) { return Lift(e, keys, key_text); };
    }
    binding.named = &query.windows;
    HOGLAKE_ASSIGN_OR_RETURN(BoundWindow w, BindWindowCall(call, binding));
    std::string text = w.Key();
    size_t index = windows.size();
    for (size_t i = 0; i < window_text.size(); ++i) {
      if (window_text[i] == text) index = i;
    }
    if (index == windows.size()) {
      windows.push_back(w);
      window_text.push_back(text);
    }
    auto ref = std::make_shared<BoundExpr>(*MakeColumn(static_cast<int>(index), w.type, w.name));
    ref->window_ref = true;
    ref->post_aggregate = true;  // (Lift leaves it be)
    return BoundExprPtr(ref);
  };

  // Binds a select-list/HAVING/ORDER BY expression, lifted above the
  // aggregate when there is one.
  auto bind_output_expr = [&](const ast::Expr& e, std::string_view clause) -> Result<BoundExprPtr> {
    ExprContext ctx = aggregate ? agg_ctx : base;
    ctx.clause = clause;
    if (clause == "SELECT" || clause == "ORDER BY" || clause == "DISTINCT ON") {
      ctx.on_window = on_window;
    }
    HOGLAKE_ASSIGN_OR_RETURN(BoundExprPtr bound, BindExpression(e, ctx));
    if (!aggregate) return bound;
    return Lift(bound, keys, key_text);
  };

  std::vector<BoundExprPtr> projections;
  std::vector<std::string> names;
  for (const Item& item : items) {
    if (item.column) {
      BoundExprPtr col = MakeColumn(item.column->index, item.column->type, item.column->name);
      if (aggregate) {
        HOGLAKE_ASSIGN_OR_RETURN(col, Lift(col, keys, key_text));
      }
      projections.push_back(col);
    } else {
      HOGLAKE_ASSIGN_OR_RETURN(BoundExprPtr bound, bind_output_expr(*item.expr, "SELECT"));
      projections.push_back(bound);
    }
    names.push_back(item.name);
  }
  BoundExprPtr having;
  if (query.having) {
    HOGLAKE_ASSIGN_OR_RETURN(having, bind_output_expr(*query.having, "HAVING"));
    if (having->type.id != SqlTypeId::kBoolean) {
      return SqlError(SqlErrorKind::kDatatypeMismatch,
                      "argument of HAVING must be type boolean, "
                      "not type ",
                      PgTypeName(having->type));
    }
  }
  // ORDER BY and DISTINCT ON keys: positions in the projection (hidden
  // columns appended when an expression is not in the select list).
  size_t visible = projections.size();
  auto key_position = [&](const ast::Expr& e, const char* clause) -> Result<int> {
    if (e.kind == ExprKind::kConstant &&
        static_cast<const ast::Constant&>(e).constant_kind == ast::ConstantKind::kInteger) {
      int64_t n = static_cast<const ast::Constant&>(e).integer_value;
      if (n < 1 || n > static_cast<int64_t>(visible)) {
        return SqlError(SqlErrorKind::kInvalidColumnReference, clause, " position ", n,
                        " is not in select list", Position(e.location));
      }
      return static_cast<int>(n - 1);
    }
    if (e.kind == ExprKind::kColumnRef) {
      const auto& ref = static_cast<const ast::ColumnRef&>(e);
      if (ref.parts.size() == 1 && !ref.star) {
        int found = -1;
        for (size_t i = 0; i < visible; ++i) {
          if (names[i] == ref.parts[0]) {
            if (found >= 0 && projections[found]->Key() != projections[i]->Key()) {
              return SqlError(SqlErrorKind::kAmbiguousColumn, clause, " \"", ref.parts[0],
                              "\" is ambiguous", Position(e.location));
            }
            if (found < 0) found = static_cast<int>(i);
          }
        }
        if (found >= 0) return found;
      }
    }
    HOGLAKE_ASSIGN_OR_RETURN(BoundExprPtr bound, bind_output_expr(e, clause));
    std::string text = bound->Key();
    for (size_t i = 0; i < projections.size(); ++i) {
      if (projections[i]->Key() == text) return static_cast<int>(i);
    }
    if (query.distinct && query.distinct_on.empty()) {
      return SqlError(SqlErrorKind::kInvalidColumnReference,
                      "for SELECT DISTINCT, ORDER BY expressions must appear in select list",
                      Position(e.location));
    }
    projections.push_back(bound);
    names.push_back("?hidden?");
    return static_cast<int>(projections.size() - 1);
  };
  std::vector<SortKey> sort_keys;
  std::vector<int> distinct_keys;
  for (const ast::ExprPtr& d : query.distinct_on) {
    HOGLAKE_ASSIGN_OR_RETURN(int at, key_position(*d, "DISTINCT ON"));
    distinct_keys.push_back(at);
  }
  std::vector<std::pair<int, const ast::OrderItem*>> order_positions;
  for (const ast::OrderItem& item : query.order_by) {
    if (item.using_operator) {
      return SqlError(SqlErrorKind::kFeatureNotSupported, "ORDER BY … USING is not supported");
    }
    HOGLAKE_ASSIGN_OR_RETURN(int at, key_position(*item.expr, "ORDER BY"));
    order_positions.emplace_back(at, &item);
  }

  // The aggregate (keys, then aggregates) and HAVING.
  if (aggregate) {
    if (!input_joins.joins.empty()) {
      const int base_width = static_cast<int>(plan->output.size());
      HOGLAKE_ASSIGN_OR_RETURN(plan, ApplyCorrelatedJoins(plan, input_joins, PlainOuterKey));
      for (BoundAggregate& a : aggregates) {
        for (BoundExprPtr& arg : a.args) arg = PlaceSubqueryRefs(arg, base_width);
        if (a.filter) a.filter = PlaceSubqueryRefs(a.filter, base_width);
      }
    }
    auto agg = std::make_shared<LogicalOp>();
    agg->kind = LogicalKind::kAggregate;
    agg->children = {plan};
    agg->group_keys = keys;
    agg->aggregates = aggregates;
    for (const BoundExprPtr& k : keys) {
      agg->output.push_back(OutputColumn{k->name.empty() ? k->ToString() : k->name, k->type});
    }
    for (const BoundAggregate& a : aggregates) agg->output.push_back(OutputColumn{a.name, a.type});
    plan = agg;
    // Aggregate refs were numbered among aggregates; offset them past the keys.
    int key_count = static_cast<int>(keys.size());
    auto offset = [&](const BoundExprPtr& e) {
      std::function<BoundExprPtr(const BoundExprPtr&)> walk =
          [&](const BoundExprPtr& x) -> BoundExprPtr {
        if (x->kind == BoundKind::kColumn && x->post_aggregate && x->negated) {
          auto c = std::make_shared<BoundExpr>(*x);
          c->column += key_count;
          c->negated = false;
          return c;
        }
        if (x->args.empty()) return x;
        auto c = std::make_shared<BoundExpr>(*x);
        for (BoundExprPtr& a : c->args) a = walk(a);
        return c;
      };
      return walk(e);
    };
    for (BoundExprPtr& p : projections) p = offset(p);
    if (having) having = offset(having);
    for (BoundWindow& w : windows) {
      HOGLAKE_ASSIGN_OR_RETURN(
          w, MapWindowExprs(
                 w, [&](const BoundExprPtr& e) -> Result<BoundExprPtr> { return offset(e); }));
    }
  }
  // The correlated subqueries' joins; their outer keys read the group keys
  // when grouped (any other outer column is a grouping error).
  if (!subquery_joins.joins.empty()) {
    const int base_width = static_cast<int>(plan->output.size());
    HOGLAKE_ASSIGN_OR_RETURN(
        plan, ApplyCorrelatedJoins(plan, subquery_joins,
                                   [&](const BoundExprPtr& key) -> Result<BoundExprPtr> {
                                     HOGLAKE_ASSIGN_OR_RETURN(BoundExprPtr plain,
                                                              PlainOuterKey(key));
                                     if (!aggregate) return plain;
                                     return Lift(plain, keys, key_text);
                                   }));
    for (BoundExprPtr& p : projections) p = PlaceSubqueryRefs(p, base_width);
    if (having) having = PlaceSubqueryRefs(having, base_width);
    for (BoundWindow& w : windows) {
      HOGLAKE_ASSIGN_OR_RETURN(
          w, MapWindowExprs(w, [&](const BoundExprPtr& e) -> Result<BoundExprPtr> {
            return PlaceSubqueryRefs(e, base_width);
          }));
    }
  }
  if (having) plan = MakeFilter(plan, having);
  // The windows, after grouping and HAVING, before DISTINCT and ORDER BY.
  if (!windows.empty()) {
    auto window = std::make_shared<LogicalOp>();
    window->kind = LogicalKind::kWindow;
    window->children = {plan};
    window->output = plan->output;
    const int width = static_cast<int>(plan->output.size());
    for (const BoundWindow& w : windows) window->output.push_back(OutputColumn{w.name, w.type});
    window->windows = windows;
    plan = window;
    std::function<BoundExprPtr(const BoundExprPtr&)> place =
        [&](const BoundExprPtr& x) -> BoundExprPtr {
      if (x->kind == BoundKind::kColumn && x->window_ref) {
        return MakeColumn(width + x->column, x->type, x->name);
      }
      if (x->args.empty()) return x;
      auto c = std::make_shared<BoundExpr>(*x);
      for (BoundExprPtr& a : c->args) a = place(a);
      return c;
    };
    for (BoundExprPtr& p : projections) p = place(p);
  }
  plan = MakeProject(plan, projections, names);
  if (!distinct_keys.empty()) {
    auto sort = std::make_shared<LogicalOp>();
    sort->kind = LogicalKind::kSort;
    sort->output = plan->output;
    sort->children = {plan};
    for (int k : distinct_keys) {
      sort->sort_keys.push_back(
          SortKey{MakeColumn(k, plan->output[k].type, plan->output[k].name), false, false});
    }
    for (const auto& [at, item] : order_positions) {
      bool desc = item->direction == ast::SortDirection::kDescending;
      bool nulls_first =
          item->nulls == ast::NullsOrder::kDefault ? desc : item->nulls == ast::NullsOrder::kFirst;
      sort->sort_keys.push_back(
          SortKey{MakeColumn(at, plan->output[at].type, plan->output[at].name), desc, nulls_first});
    }
    // DISTINCT ON keys must lead the ORDER BY; their sort order then decides.
    if (!order_positions.empty()) {
      sort->sort_keys.erase(sort->sort_keys.begin(),
                            sort->sort_keys.begin() + static_cast<long>(distinct_keys.size()));
    }
    plan = sort;
    auto distinct = std::make_shared<LogicalOp>();
    distinct->kind = LogicalKind::kDistinct;
    distinct->output = plan->output;
    distinct->children = {plan};
    distinct->distinct_keys = distinct_keys;
    plan = distinct;
    order_positions.clear();
  } else if (query.distinct) {
    auto distinct = std::make_shared<LogicalOp>();
    distinct->kind = LogicalKind::kDistinct;
    distinct->output = plan->output;
    distinct->children = {plan};
    plan = distinct;
  }
  if (!order_positions.empty()) {
    auto sort = std::make_shared<LogicalOp>();
    sort->kind = LogicalKind::kSort;
    sort->output = plan->output;
    sort->children = {plan};
    for (const auto& [at, item] : order_positions) {
      bool desc = item->direction == ast::SortDirection::kDescending;
      bool nulls_first =
          item->nulls == ast::NullsOrder::kDefault ? desc : item->nulls == ast::NullsOrder::kFirst;
      sort->sort_keys.push_back(
          SortKey{MakeColumn(at, plan->output[at].type, plan->output[at].name), desc, nulls_first});
    }
    plan = sort;
  }
  HOGLAKE_ASSIGN_OR_RETURN(plan, ApplyLimit(query, plan));
  if (projections.size() > visible) {
    std::vector<BoundExprPtr> exprs;
    std::vector<std::string> visible_names;
    for (size_t i = 0; i < visible; ++i) {
      exprs.push_back(MakeColumn(static_cast<int>(i), plan->output[i].type, plan->output[i].name));
      visible_names.push_back(plan->output[i].name);
    }
    plan = MakeProject(plan, std::move(exprs), std::move(visible_names));
  }
  return plan;
}

// ---- FROM --------------------------------------------------------------------

Result<QueryBinder::FromResult> QueryBinder::BindBaseTable(const ast::BaseTableRef& ref) {
  if (ref.catalog.empty() && ref.schema.empty()) {
    for (auto frame = ctes_.rbegin(); frame != ctes_.rend(); ++frame) {
      auto it = frame->find(ref.name);
      if (it == frame->end()) continue;
      FromResult out;
      out.plan = it->second.plan;
      std::string relation = ref.alias.empty() ? ref.name : ref.alias;
      for (size_t c = 0; c < it->second.names.size(); ++c) {
        std::string name =
            c < ref.column_aliases.size() ? ref.column_aliases[c] : it->second.names[c];
        out.scope.columns.push_back(
            ScopeColumn{relation, name, out.plan->output[c].type, static_cast<int>(c), false});
      }
      return out;
    }
  }
  if ((ref.schema.empty() ? options_.default_schema : ref.schema) == kInformationSchema &&
      options_.listing != nullptr) {
    return BindInformationSchema(ref);
  }
  if (options_.tables == nullptr) {
    return SqlError(SqlErrorKind::kUndefinedTable, "relation \"", ref.name, "\" does not exist",
                    Position(ref.location));
  }
  std::string catalog = ref.catalog.empty() ? options_.default_catalog : ref.catalog;
  if (auto alias = options_.catalog_aliases.find(catalog);
      alias != options_.catalog_aliases.end()) {
    catalog = alias->second;
  }
  std::string schema = ref.schema.empty() ? options_.default_schema : ref.schema;
  std::string shown = (ref.schema.empty() ? "" : ref.schema + ".") + ref.name;
  Result<catalog::ResolvedTable> resolved =
      catalog.empty() || schema.empty()
          ? Result<catalog::ResolvedTable>(MakeError(ErrorCode::kNotFound, "no default"))
          : options_.tables->Resolve(catalog, schema, ref.name, options_.at);
  if (!resolved.ok() && resolved.error().code == ErrorCode::kNotFound && options_.search_lake &&
      ref.catalog.empty()) {
    HOGLAKE_ASSIGN_OR_RETURN(std::optional<catalog::ResolvedTable> found, SearchLake(ref));
    if (found) resolved = std::move(*found);
  }
  if (!resolved.ok() && resolved.error().code == ErrorCode::kNotFound && !catalog.empty() &&
      options_.listing != nullptr) {
    if (Status readable = options_.listing->CheckReadable(catalog); !readable.ok()) {
      Error error = readable.error();
      if (!error.detail.sqlstate.empty()) error.message += Position(ref.location);
      return error;
    }
  }
  if (!resolved.ok() && (catalog.empty() || schema.empty())) {
    return SqlError(SqlErrorKind::kUndefinedTable, "relation \"", shown,
                    "\" does not exist (no default ", catalog.empty() ? "catalog" : "schema",
                    " is set; write catalog.schema.table)", Position(ref.location));
  }
  if (!resolved.ok()) {
    if (resolved.error().code == ErrorCode::kNotFound) {
      return SqlError(SqlErrorKind::kUndefinedTable, "relation \"", shown, "\" does not exist (",
                      resolved.error().message, ")", Position(ref.location));
    }
    return resolved.status();
  }
  auto spec = std::make_shared<ScanSpec>();
  spec->table = std::move(*resolved);
  HOGLAKE_ASSIGN_OR_RETURN(spec->files, options_.tables->LiveFiles(spec->table));
  HOGLAKE_RETURN_IF_ERROR(AddPartitionSpecsOfFiles(*options_.tables, spec->table, spec->files));
  auto op = std::make_shared<LogicalOp>();
  op->kind = LogicalKind::kScan;
  std::string relation = ref.alias.empty() ? ref.name : ref.alias;
  FromResult out;
  int c = 0;
  for (const catalog::ColumnNode& column : spec->table.info.columns) {
    HOGLAKE_ASSIGN_OR_RETURN(columnar::Field field, CatalogColumnField(column));
    HOGLAKE_ASSIGN_OR_RETURN(SqlType type, SqlTypeOfField(field));
    spec->field_ids.push_back(column.field_id);
    spec->fields.push_back(field);
    std::string name =
        c < static_cast<int>(ref.column_aliases.size()) ? ref.column_aliases[c] : column.name;
    op->output.push_back(OutputColumn{column.name, type});
    out.scope.columns.push_back(ScopeColumn{relation, name, type, c, false});
    ++c;
  }
  op->scan = spec;
  out.plan = op;
  return out;
}

Result<QueryBinder::FromResult> QueryBinder::BindInformationSchema(const ast::BaseTableRef& ref) {
  std::optional<std::string> catalog;
  if (!ref.catalog.empty()) {
    catalog = ref.catalog;
    if (auto alias = options_.catalog_aliases.find(*catalog);
        alias != options_.catalog_aliases.end()) {
      catalog = alias->second;
    }
  }
  Result<LogicalOpPtr> view = InformationSchemaView(ref.name, catalog, *options_.listing);
  if (!view.ok()) {
    Error error = view.error();
    if (!error.detail.sqlstate.empty()) error.message += Position(ref.location);
    return error;
  }
  FromResult out;
  out.plan = *view;
  std::string relation = ref.alias.empty() ? ref.name : ref.alias;
  for (size_t c = 0; c < out.plan->output.size(); ++c) {
    std::string name =
        c < ref.column_aliases.size() ? ref.column_aliases[c] : out.plan->output[c].name;
    out.scope.columns.push_back(
        ScopeColumn{relation, name, out.plan->output[c].type, static_cast<int>(c), false});
  }
  return out;
}

Result<std::optional<catalog::ResolvedTable>> QueryBinder::SearchLake(
    const ast::BaseTableRef& ref) {
  std::vector<std::pair<std::string, std::string>> matches;  // (catalog, schema)
  HOGLAKE_ASSIGN_OR_RETURN(std::vector<std::string> catalogs, options_.tables->ListCatalogNames());
  for (const std::string& catalog : catalogs) {
    std::vector<std::string> schemas;
    if (ref.schema.empty()) {
      HOGLAKE_ASSIGN_OR_RETURN(schemas, options_.tables->ListNamespaceNames(catalog));
    } else {
      schemas.push_back(ref.schema);
    }
    for (const std::string& schema : schemas) {
      Result<std::vector<std::string>> tables = options_.tables->ListTableNames(catalog, schema);
      if (!tables.ok()) {
        if (tables.error().code == ErrorCode::kNotFound) continue;
        return tables.error();
      }
      for (const std::string& name : *tables) {
        if (name == ref.name) matches.emplace_back(catalog, schema);
      }
    }
  }
  if (matches.empty()) return std::optional<catalog::ResolvedTable>();
  if (matches.size() > 1) {
    std::string where;
    for (const auto& [catalog, schema] : matches) {
      where += (where.empty() ? "" : ", ") + catalog + "." + schema + "." + ref.name;
    }
    return SqlError(SqlErrorKind::kUndefinedTable, "relation \"", ref.name,
                    "\" is ambiguous without a catalog and schema: it exists as ", where,
                    Position(ref.location));
  }
  HOGLAKE_ASSIGN_OR_RETURN(
      catalog::ResolvedTable table,
      options_.tables->Resolve(matches[0].first, matches[0].second, ref.name, options_.at));
  return std::optional<catalog::ResolvedTable>(std::move(table));
}

Result<QueryBinder::FromResult> QueryBinder::BindJoin(const ast::JoinRef& ref, const Scope* outer) {
  HOGLAKE_ASSIGN_OR_RETURN(FromResult left, BindTableRef(*ref.left, outer));
  HOGLAKE_ASSIGN_OR_RETURN(FromResult right, BindTableRef(*ref.right, outer));
  int left_width = static_cast<int>(left.plan->output.size());
  Scope scope = Concat(left.scope, left_width, right.scope);
  auto join = std::make_shared<LogicalOp>();
  join->kind = LogicalKind::kJoin;
  join->children = {left.plan, right.plan};
  join->output = left.plan->output;
  join->output.insert(join->output.end(), right.plan->output.begin(), right.plan->output.end());
  switch (ref.join_type) {
    case ast::JoinType::kInner:
    case ast::JoinType::kCross:
      join->join_kind = JoinKind::kInner;
      break;
    case ast::JoinType::kLeft:
      join->join_kind = JoinKind::kLeft;
      break;
    case ast::JoinType::kRight:
      join->join_kind = JoinKind::kRight;
      break;
    case ast::JoinType::kFull:
      join->join_kind = JoinKind::kFull;
      break;
  }
  std::vector<BoundExprPtr> conjuncts;
  std::vector<std::string> using_columns = ref.using_columns;
  if (ref.natural) {
    for (const ScopeColumn& l : left.scope.columns) {
      if (l.hidden) continue;
      for (const ScopeColumn& r : right.scope.columns) {
        if (!r.hidden && r.name == l.name) using_columns.push_back(l.name);
      }
    }
  }
  std::vector<std::pair<ScopeColumn, ScopeColumn>> merged;
  for (const std::string& name : using_columns) {
    bool outer_found = false;
    HOGLAKE_ASSIGN_OR_RETURN(ScopeColumn l, left.scope.Resolve({name}, ref.location, &outer_found));
    HOGLAKE_ASSIGN_OR_RETURN(ScopeColumn r,
                             right.scope.Resolve({name}, ref.location, &outer_found));
    r.index += left_width;
    HOGLAKE_ASSIGN_OR_RETURN(BoundExprPtr eq, BindOperator("=", MakeColumn(l.index, l.type, l.name),
                                                           MakeColumn(r.index, r.type, r.name)));
    conjuncts.push_back(eq);
    merged.emplace_back(l, r);
  }
  if (ref.condition) {
    ExprContext ctx;
    ctx.scope = &scope;
    ctx.clause = "JOIN/ON";
    ctx.statement_time_micros = options_.statement_time_micros;
    ctx.on_subquery = [&](const ast::Subquery& s) {
      return BindSubqueryValue(s, scope, nullptr, "JOIN conditions");
    };
    HOGLAKE_ASSIGN_OR_RETURN(BoundExprPtr cond, BindCondition(*ref.condition, ctx));
    SplitConjuncts(cond, &conjuncts);
  }
  HOGLAKE_RETURN_IF_ERROR(SplitJoinCondition(conjuncts, left_width, &join->left_keys,
                                             &join->right_keys, &join->join_condition));
  FromResult out;
  out.plan = join;
  if (merged.empty()) {
    out.scope = scope;
  } else {
    // USING columns come first, once; the sides' own copies stay reachable
    // qualified. FULL JOIN's merged column is COALESCE of the two.
    std::vector<BoundExprPtr> exprs;
    std::vector<std::string> names;
    for (size_t i = 0; i < join->output.size(); ++i) {
      exprs.push_back(MakeColumn(static_cast<int>(i), join->output[i].type, join->output[i].name));
      names.push_back(join->output[i].name);
    }
    for (const auto& [l, r] : merged) {
      BoundExprPtr value;
      // Of the two sides' common type, for every join kind (integer USING
      // bigint is bigint even for an inner join).
      HOGLAKE_ASSIGN_OR_RETURN(SqlType type, CommonType({l.type, r.type}, "JOIN/USING"));
      if (join->join_kind == JoinKind::kFull) {
        HOGLAKE_ASSIGN_OR_RETURN(BoundExprPtr lc,
                                 BindCast(MakeColumn(l.index, l.type, l.name), type, false));
        HOGLAKE_ASSIGN_OR_RETURN(BoundExprPtr rc,
                                 BindCast(MakeColumn(r.index, r.type, r.name), type, false));
        auto c = std::make_shared<BoundExpr>();
        c->kind = BoundKind::kCoalesce;
        c->type = type;
        c->args = {lc, rc};
        value = c;
      } else {
        const ScopeColumn& side = join->join_kind == JoinKind::kRight ? r : l;
        HOGLAKE_ASSIGN_OR_RETURN(
            value, BindCast(MakeColumn(side.index, side.type, side.name), type, false));
        type = value->type;
      }
      out.scope.columns.push_back(
          ScopeColumn{"", l.name, type, static_cast<int>(exprs.size()), false});
      exprs.push_back(value);
      names.push_back(l.name);
    }
    for (ScopeColumn c : scope.columns) {
      for (const auto& [l, r] : merged) {
        if (c.index == l.index || c.index == r.index) c.hidden = true;
      }
      out.scope.columns.push_back(c);
    }
    out.plan = MakeProject(join, std::move(exprs), std::move(names));
  }
  if (!ref.alias.empty()) {
    // An alias hides the joined tables: only the join's own columns (the
    // merged USING columns once) remain, under the alias.
    std::erase_if(out.scope.columns, [](const ScopeColumn& c) { return c.hidden; });
    for (ScopeColumn& c : out.scope.columns) c.relation = ref.alias;
  }
  return out;
}

Result<QueryBinder::FromResult> QueryBinder::BindTableRef(const ast::TableRef& ref,
                                                          const Scope* outer) {
  switch (ref.kind) {
    case ast::TableRefKind::kBaseTable:
      return BindBaseTable(static_cast<const ast::BaseTableRef&>(ref));
    case ast::TableRefKind::kSubquery: {
      const auto& sub = static_cast<const ast::SubqueryRef&>(ref);
      if (sub.lateral) {
        return SqlError(SqlErrorKind::kFeatureNotSupported, "LATERAL is not supported",
                        Position(ref.location));
      }
      HOGLAKE_ASSIGN_OR_RETURN(LogicalOpPtr plan, BindQuery(*sub.query, nullptr));
      FromResult out;
      out.plan = plan;
      for (size_t c = 0; c < plan->output.size(); ++c) {
        std::string name =
            c < sub.column_aliases.size() ? sub.column_aliases[c] : plan->output[c].name;
        out.scope.columns.push_back(
            ScopeColumn{sub.alias, name, plan->output[c].type, static_cast<int>(c), false});
      }
      return out;
    }
    case ast::TableRefKind::kJoin:
      return BindJoin(static_cast<const ast::JoinRef&>(ref), outer);
    case ast::TableRefKind::kFunction:
      return SqlError(SqlErrorKind::kFeatureNotSupported,
                      "functions in FROM (generate_series, unnest, …) are not supported yet",
                      Position(ref.location));
  }
  return Internal("table ref kind");
}

Result<QueryBinder::FromResult> QueryBinder::BindFrom(const std::vector<ast::TableRefPtr>& from,
                                                      const ast::Expr* where, const Scope* outer,
                                                      std::vector<BoundExprPtr>* correlated) {
  std::vector<LogicalOpPtr> items;
  Scope scope;
  int width = 0;
  for (const ast::TableRefPtr& ref : from) {
    HOGLAKE_ASSIGN_OR_RETURN(FromResult item, BindTableRef(*ref, outer));
    for (const ScopeColumn& c : item.scope.columns) {
      for (const ScopeColumn& existing : scope.columns) {
        if (!c.relation.empty() && existing.relation == c.relation && existing.index < width) {
          return SqlError(SqlErrorKind::kDuplicateAlias, "table name \"", c.relation,
                          "\" specified more than once", Position(ref->location));
        }
      }
    }
    Scope shifted = Concat(Scope{}, 0, item.scope);
    for (ScopeColumn& c : shifted.columns) c.index += width;
    scope.columns.insert(scope.columns.end(), shifted.columns.begin(), shifted.columns.end());
    width += static_cast<int>(item.plan->output.size());
    items.push_back(item.plan);
  }
  scope.outer = outer;
  std::vector<const ast::Expr*> ast_conjuncts;
  SplitAstConjuncts(where, &ast_conjuncts);
  std::vector<BoundExprPtr> conjuncts;
  std::vector<const ast::Expr*> subquery_conjuncts;
  // Conjuncts reading correlated subqueries' joins, applied above them.
  CorrelatedJoins deferred_joins;
  std::vector<BoundExprPtr> deferred;
  for (const ast::Expr* c : ast_conjuncts) {
    bool negated;
    if (JoinableSubquery(c, &negated) != nullptr) {
      subquery_conjuncts.push_back(c);
      continue;
    }
    if (ContainsAggregate(c)) {
      return SqlError(SqlErrorKind::kGroupingError, "aggregate functions are not allowed in WHERE",
                      Position(c->location));
    }
    ExprContext ctx;
    ctx.scope = &scope;
    ctx.clause = "WHERE";
    ctx.allow_outer_refs = correlated != nullptr;
    ctx.statement_time_micros = options_.statement_time_micros;
    ctx.on_subquery = [&](const ast::Subquery& s) {
      return BindSubqueryValue(s, scope, &deferred_joins, "WHERE");
    };
    auto bound = BindCondition(*c, ctx);
    HOGLAKE_RETURN_IF_ERROR(bound.status());
    if (HasSubqueryRefs(**bound)) {
      if (HasOuterRefs(**bound)) {
        return SqlError(SqlErrorKind::kFeatureNotSupported,
                        "a correlated condition holding a correlated subquery is not supported",
                        Position(c->location));
      }
      deferred.push_back(*bound);
      continue;
    }
    if (correlated != nullptr && HasOuterRefs(**bound)) {
      correlated->push_back(*bound);
      continue;
    }
    for (const BoundExprPtr& c : FactorOr(*bound)) SplitConjuncts(c, &conjuncts);
  }
  LogicalOpPtr plan;
  if (items.empty()) {
    plan = Dual();
    if (!conjuncts.empty()) plan = MakeFilter(plan, CombineConjuncts(conjuncts));
  } else if (items.size() == 1) {
    plan = items[0];
    if (!conjuncts.empty()) plan = MakeFilter(plan, CombineConjuncts(conjuncts));
  } else {
    HOGLAKE_ASSIGN_OR_RETURN(plan, PlanJoins(std::move(items), std::move(conjuncts)));
  }
  for (const ast::Expr* c : subquery_conjuncts) {
    HOGLAKE_ASSIGN_OR_RETURN(plan, ApplySubqueryConjunct(*c, plan, scope));
  }
  if (!deferred.empty()) {
    // Joined with the subqueries, filtered, and back to the FROM's columns.
    const int width = static_cast<int>(plan->output.size());
    std::vector<BoundExprPtr> keep;
    for (int i = 0; i < width; ++i) {
      keep.push_back(MakeColumn(i, plan->output[i].type, plan->output[i].name));
    }
    std::vector<std::string> names = Names(*plan);
    HOGLAKE_ASSIGN_OR_RETURN(plan, ApplyCorrelatedJoins(plan, deferred_joins, PlainOuterKey));
    for (BoundExprPtr& d : deferred) d = PlaceSubqueryRefs(d, width);
    plan = MakeFilter(plan, CombineConjuncts(deferred));
    plan = MakeProject(plan, std::move(keep), std::move(names));
  }
  return FromResult{plan, scope};
}

// ---- subqueries ----------------------------------------------------------------

Result<LogicalOpPtr> QueryBinder::ApplySubqueryConjunct(const ast::Expr& conjunct,
                                                        LogicalOpPtr plan, const Scope& scope) {
  bool negated;
  const ast::Subquery* sub = JoinableSubquery(&conjunct, &negated);
  const ast::QueryNode& q = *sub->query;
  bool is_in = sub->subquery_kind == ast::SubqueryKind::kAny;
  int left_width = static_cast<int>(plan->output.size());

  // Left key for IN.
  BoundExprPtr left_key;
  if (is_in) {
    ExprContext ctx;
    ctx.scope = &scope;
    ctx.clause = "IN";
    ctx.statement_time_micros = options_.statement_time_micros;
    HOGLAKE_ASSIGN_OR_RETURN(left_key, BindExpression(*sub->test, ctx));
  }

  // The subquery's plan and the conditions joining it: either the whole
  // subquery (uncorrelated), or, for a simple correlated block, its FROM with
  // the correlated conjuncts of its WHERE as the join condition.
  LogicalOpPtr right;
  BoundExprPtr right_key;
  std::vector<BoundExprPtr> join_conjuncts;  // over left ++ right
  Scope probe;
  probe.outer = nullptr;
  auto uncorrelated = BindQuery(q, &scope);
  if (uncorrelated.ok()) {
    right = *uncorrelated;
    if (is_in) {
      if (right->output.size() != 1) {
        return SqlError(SqlErrorKind::kSyntaxError, "subquery has too many columns",
                        Position(sub->location));
      }
      right_key = MakeColumn(0, right->output[0].type, right->output[0].name);
    }
  } else {
    bool simple = q.kind == ast::QueryKind::kSelect && q.group_by.empty() && !q.having &&
                  !q.distinct && q.distinct_on.empty() && !q.limit && !q.offset && q.with.empty();
    for (const ast::SelectItem& t : q.targets) {
      simple &= !ContainsAggregate(t.expr.get()) && !ContainsWindow(t.expr.get());
    }
    if (!simple || uncorrelated.error().detail.sqlstate != "0A000") return uncorrelated.status();
    std::vector<BoundExprPtr> correlated;
    HOGLAKE_ASSIGN_OR_RETURN(FromResult inner,
                             BindFrom(q.from, q.where.get(), &scope, &correlated));
    right = inner.plan;
    Scope inner_scope = inner.scope;
    for (const BoundExprPtr& c : correlated) {
      join_conjuncts.push_back(
          RemapColumns(c, [&](int i, bool outer_ref) { return outer_ref ? i : i + left_width; }));
    }
    if (is_in) {
      if (q.targets.size() != 1) {
        return SqlError(SqlErrorKind::kSyntaxError, "subquery has too many columns",
                        Position(sub->location));
      }
      ExprContext ctx;
      ctx.scope = &inner_scope;
      ctx.clause = "IN";
      ctx.statement_time_micros = options_.statement_time_micros;
      HOGLAKE_ASSIGN_OR_RETURN(right_key, BindExpression(*q.targets[0].expr, ctx));
    }
  }
  if (is_in) {
    HOGLAKE_ASSIGN_OR_RETURN(BoundExprPtr eq,
                             BindOperator("=", left_key, RemapColumns(right_key, [&](int i, bool) {
                                            return i + left_width;
                                          })));
    join_conjuncts.insert(join_conjuncts.begin(), eq);
    if (negated) {
      if (!uncorrelated.ok()) {
        return SqlError(SqlErrorKind::kFeatureNotSupported,
                        "correlated NOT IN subqueries are not supported yet; use NOT EXISTS",
                        Position(sub->location));
      }
      // x NOT IN (S): false when S holds a NULL (unless S is empty); NULL
      // (so not true) when x is NULL and S is not empty.
      HOGLAKE_ASSIGN_OR_RETURN(std::vector<std::vector<Value>> rows, options_.run_plan(right));
      bool has_null = false;
      for (const auto& row : rows) has_null |= row[0].is_null;
      if (!rows.empty()) {
        if (has_null) return MakeFilter(plan, MakeConstant(Value::Boolean(false)));
        auto not_null = std::make_shared<BoundExpr>();
        not_null->kind = BoundKind::kIsNull;
        not_null->negated = true;
        not_null->type = SqlType::Of(SqlTypeId::kBoolean);
        not_null->args = {left_key};
        plan = MakeFilter(plan, not_null);
      }
    }
  }
  auto join = std::make_shared<LogicalOp>();
  join->kind = LogicalKind::kJoin;
  join->join_kind = negated ? JoinKind::kAnti : JoinKind::kSemi;
  join->children = {plan, right};
  join->output = plan->output;
  HOGLAKE_RETURN_IF_ERROR(SplitJoinCondition(join_conjuncts, left_width, &join->left_keys,
                                             &join->right_keys, &join->join_condition));
  return LogicalOpPtr(join);
}

Result<BoundExprPtr> QueryBinder::BindSubqueryValue(const ast::Subquery& sub, const Scope& scope,
                                                     CorrelatedJoins* joins,
                                                     std::string_view clause) {
  auto bound = BindQuery(*sub.query, &scope);
  if (!bound.ok()) {
    if (bound.error().detail.sqlstate == "0A000" &&
        bound.error().message.find("correlated") != std::string::npos) {
      if (joins == nullptr) return CorrelatedSubqueryNotSupportedHere(clause, sub.location);
      return BindCorrelatedSubquery(sub, scope, joins);
    }
    return bound.status();
  }
  LogicalOpPtr plan = *bound;
  if (!options_.run_plan) {
    return SqlError(SqlErrorKind::kFeatureNotSupported, "subqueries cannot run here");
  }
  switch (sub.subquery_kind) {
    case ast::SubqueryKind::kExists: {
      HOGLAKE_ASSIGN_OR_RETURN(std::vector<std::vector<Value>> rows, options_.run_plan(plan));
      return MakeConstant(Value::Boolean(!rows.empty()));
    }
    case ast::SubqueryKind::kScalar: {
      if (plan->output.size() != 1) {
        return SqlError(SqlErrorKind::kSyntaxError, "subquery must return only one column",
                        Position(sub.location));
      }
      HOGLAKE_ASSIGN_OR_RETURN(std::vector<std::vector<Value>> rows, options_.run_plan(plan));
      if (rows.size() > 1) {
        return SqlError(SqlErrorKind::kCardinalityViolation,
                        "more than one row returned by a subquery used as an expression");
      }
      SqlType type = plan->output[0].type;
      if (rows.empty()) return MakeConstant(Value::Null(type));
      Value v = rows[0][0];
      v.type = type;
      return MakeConstant(v);
    }
    case ast::SubqueryKind::kAny: {
      if (!sub.operator_name.empty() && sub.operator_name != "=") break;
      if (plan->output.size() != 1) {
        return SqlError(SqlErrorKind::kSyntaxError, "subquery has too many columns",
                        Position(sub.location));
      }
      ExprContext ctx;
      ctx.scope = &scope;
      ctx.clause = "IN";
      ctx.statement_time_micros = options_.statement_time_micros;
      HOGLAKE_ASSIGN_OR_RETURN(BoundExprPtr test, BindExpression(*sub.test, ctx));
      HOGLAKE_ASSIGN_OR_RETURN(std::vector<std::vector<Value>> rows, options_.run_plan(plan));
      if (rows.size() > 100000) {
        return SqlError(SqlErrorKind::kFeatureNotSupported,
                        "IN (subquery) outside a WHERE condition returns more than 100,000 rows");
      }
      if (rows.empty()) return MakeConstant(Value::Boolean(false));
      std::vector<BoundExprPtr> ors;
      for (const auto& row : rows) {
        Value v = row[0];
        v.type = plan->output[0].type;
        HOGLAKE_ASSIGN_OR_RETURN(BoundExprPtr eq, BindOperator("=", test, MakeConstant(v)));
        ors.push_back(eq);
      }
      if (ors.size() == 1) return ors[0];
      auto any = std::make_shared<BoundExpr>();
      any->kind = BoundKind::kOr;
      any->type = SqlType::Of(SqlTypeId::kBoolean);
      any->args = ors;
      return BoundExprPtr(any);
    }
    default:
      break;
  }
  return SqlError(SqlErrorKind::kFeatureNotSupported, "this kind of subquery is not supported yet",
                  Position(sub.location));
}

}  // namespace hoglake::sql
