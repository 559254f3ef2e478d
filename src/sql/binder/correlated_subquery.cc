#include "sql/binder/correlated_subquery.h"

#include "sql/binder/expression_binder.h"
#include "sql/binder/query_binder.h"
#include "sql/function/aggregate_function.h"
#include "sql/function/scalar_function.h"
#include "sql/optimizer/join_planner.h"
#include "sql/sql_error.h"

namespace hoglake::sql {
namespace {

std::string Position(int location) {
  return location >= 0 ? StrCat(" at position ", location + 1) : std::string();
}

BoundExprPtr SubqueryRef(int index, const SqlType& type, const std::string& name) {
  auto ref = std::make_shared<BoundExpr>(*MakeColumn(index, type, name));
  ref->subquery_ref = true;
  ref->post_aggregate = true;  // (an outer block's Lift leaves it be)
  return ref;
}

}  // namespace

bool HasSubqueryRefs(const BoundExpr& e) {
  if (e.kind == BoundKind::kColumn) return e.subquery_ref;
  for (const BoundExprPtr& a : e.args) {
    if (HasSubqueryRefs(*a)) return true;
  }
  return false;
}

BoundExprPtr PlaceSubqueryRefs(const BoundExprPtr& e, int base) {
  if (e->kind == BoundKind::kColumn) {
    if (!e->subquery_ref) return e;
    return MakeColumn(base + e->column, e->type, e->name);
  }
  if (e->args.empty()) return e;
  auto copy = std::make_shared<BoundExpr>(*e);
  for (BoundExprPtr& a : copy->args) a = PlaceSubqueryRefs(a, base);
  return copy;
}

Result<BoundExprPtr> PlainOuterKey(const BoundExprPtr& key) {
  return RemapColumns(key, [](int i, bool) { return i; });
}

Error CorrelatedSubqueryNotSupportedHere(std::string_view clause, int location) {
  return SqlError(SqlErrorKind::kFeatureNotSupported, "correlated subqueries are not supported in ",
                  clause, Position(location));
}

Result<LogicalOpPtr> ApplyCorrelatedJoins(
    LogicalOpPtr plan, const CorrelatedJoins& joins,
    const std::function<Result<BoundExprPtr>(const BoundExprPtr&)>& outer_key) {
  for (const CorrelatedJoin& j : joins.joins) {
    const int left_width = static_cast<int>(plan->output.size());
    std::vector<BoundExprPtr> conjuncts;
    for (size_t k = 0; k < j.outer_keys.size(); ++k) {
      HOGLAKE_ASSIGN_OR_RETURN(BoundExprPtr left, outer_key(j.outer_keys[k]));
      const OutputColumn& key = j.right->output[k];
      HOGLAKE_ASSIGN_OR_RETURN(
          BoundExprPtr eq,
          BindOperator("=", left, MakeColumn(left_width + static_cast<int>(k), key.type, key.name)));
      conjuncts.push_back(eq);
    }
    auto join = std::make_shared<LogicalOp>();
    join->kind = LogicalKind::kJoin;
    join->join_kind = JoinKind::kLeft;
    join->children = {plan, j.right};
    join->output = plan->output;
    join->output.insert(join->output.end(), j.right->output.begin(), j.right->output.end());
    HOGLAKE_RETURN_IF_ERROR(SplitJoinCondition(conjuncts, left_width, &join->left_keys,
                                               &join->right_keys, &join->join_condition));
    plan = join;
  }
  return plan;
}

Result<BoundExprPtr> QueryBinder::BindCorrelatedSubquery(const ast::Subquery& sub,
                                                         const Scope& scope,
                                                         CorrelatedJoins* joins) {
  const ast::QueryNode& q = *sub.query;
  const bool exists = sub.subquery_kind == ast::SubqueryKind::kExists;
  auto unsupported = [&](std::string_view why) {
    return SqlError(SqlErrorKind::kFeatureNotSupported,
                    exists ? "correlated EXISTS subquery: " : "correlated scalar subquery: ", why,
                    Position(sub.location));
  };
  if (!exists && sub.subquery_kind != ast::SubqueryKind::kScalar) {
    return SqlError(SqlErrorKind::kFeatureNotSupported,
                    "correlated IN, ANY, ALL and ARRAY subqueries are supported only as "
                    "[NOT] IN conditions of WHERE",
                    Position(sub.location));
  }
  if (q.kind != ast::QueryKind::kSelect || !q.group_by.empty() || q.having || q.distinct ||
      !q.distinct_on.empty() || q.limit || q.offset || !q.with.empty() || q.group_by_special) {
    return unsupported(
        "only SELECT … FROM … WHERE … (no GROUP BY, HAVING, DISTINCT, LIMIT, OFFSET or WITH) "
        "is supported");
  }
  if (!exists && q.targets.size() != 1) {
    return SqlError(SqlErrorKind::kSyntaxError, "subquery must return only one column",
                    Position(sub.location));
  }
  for (const ast::SelectItem& t : q.targets) {
    if (ContainsWindow(t.expr.get())) {
      return unsupported("window functions are not supported here");
    }
    if (exists && ContainsAggregate(t.expr.get())) {
      return unsupported("aggregates in the select list are not supported");
    }
  }
  if (!exists && !ContainsAggregate(q.targets[0].expr.get())) {
    return unsupported(
        "the select list must be an aggregate expression (a subquery that may return "
        "several rows is not supported)");
  }

  std::vector<BoundExprPtr> correlated;
  HOGLAKE_ASSIGN_OR_RETURN(FromResult inner,
                           BindFrom(q.from, q.where.get(), &scope, &correlated));
  if (correlated.empty()) {
    return unsupported("outer columns are supported only in WHERE conditions inner = outer");
  }
  // Each correlated conjunct: inner_expr = outer_expr.
  std::vector<BoundExprPtr> inner_keys, outer_keys;
  for (const BoundExprPtr& c : correlated) {
    bool ok = c->kind == BoundKind::kCall && c->function == &kEqual;
    if (ok) {
      const BoundExprPtr& a = c->args[0];
      const BoundExprPtr& b = c->args[1];
      std::vector<int> a_inner, b_inner;
      CollectColumns(*a, &a_inner);
      CollectColumns(*b, &b_inner);
      if (!HasOuterRefs(*a) && b_inner.empty() && !a_inner.empty()) {
        inner_keys.push_back(a);
        outer_keys.push_back(b);
      } else if (!HasOuterRefs(*b) && a_inner.empty() && !b_inner.empty()) {
        inner_keys.push_back(b);
        outer_keys.push_back(a);
      } else {
        ok = false;
      }
    }
    if (!ok) return unsupported("correlation must be equalities between inner and outer columns");
  }
  for (const BoundExprPtr& k : inner_keys) {
    if (k->type.is_nested()) return unsupported("correlation keys of nested types");
  }

  // The aggregates, each a placeholder column after the keys; count's is
  // coalesced to 0 for outer rows without a group.
  const int first = joins->width + static_cast<int>(inner_keys.size());
  std::vector<BoundAggregate> aggregates;
  BoundExprPtr value;
  if (exists) {
    HOGLAKE_ASSIGN_OR_RETURN(BoundAggregate count, BindAggregate("count", {}, true));
    auto matched = std::make_shared<BoundExpr>();
    matched->kind = BoundKind::kIsNull;
    matched->negated = true;
    matched->type = SqlType::Of(SqlTypeId::kBoolean);
    matched->args = {SubqueryRef(first, count.type, count.name)};
    value = matched;
    aggregates.push_back(std::move(count));
  } else {
    ExprContext agg_ctx;
    agg_ctx.scope = &inner.scope;
    agg_ctx.clause = "SELECT";
    agg_ctx.statement_time_micros = options_.statement_time_micros;
    agg_ctx.on_aggregate = [&](const ast::FunctionCall& call) -> Result<BoundExprPtr> {
      if (call.within_group) return unsupported("ordered-set aggregates are not supported here");
      ExprContext arg_ctx;
      arg_ctx.scope = &inner.scope;
      arg_ctx.clause = "aggregate function calls";
      arg_ctx.statement_time_micros = options_.statement_time_micros;
      std::vector<BoundExprPtr> args;
      for (const auto& a : call.args) {
        if (ContainsAggregate(a.get())) {
          return SqlError(SqlErrorKind::kGroupingError, "aggregate function calls cannot be nested",
                          Position(a->location));
        }
        HOGLAKE_ASSIGN_OR_RETURN(BoundExprPtr b, BindExpression(*a, arg_ctx));
        args.push_back(b);
      }
      HOGLAKE_ASSIGN_OR_RETURN(BoundAggregate agg,
                               BindAggregate(call.name.back(), std::move(args), call.star));
      agg.distinct = call.distinct;
      if (call.filter) {
        ExprContext filter_ctx = arg_ctx;
        filter_ctx.clause = "FILTER";
        HOGLAKE_ASSIGN_OR_RETURN(agg.filter, BindCondition(*call.filter, filter_ctx));
      }
      BoundExprPtr ref =
          SubqueryRef(first + static_cast<int>(aggregates.size()), agg.type, agg.name);
      const AggregateKind kind = agg.function->kind;
      aggregates.push_back(std::move(agg));
      if (kind != AggregateKind::kCount && kind != AggregateKind::kCountStar) return ref;
      // count over no rows is 0, where the missing group gives NULL.
      auto zero = std::make_shared<BoundExpr>();
      zero->kind = BoundKind::kCoalesce;
      zero->type = ref->type;
      zero->name = ref->name;
      zero->args = {ref, MakeConstant(Value::Integer(ref->type.id, 0))};
      return BoundExprPtr(zero);
    };
    HOGLAKE_ASSIGN_OR_RETURN(value, BindExpression(*q.targets[0].expr, agg_ctx));
    // Outside the aggregates only constants: an inner column there is
    // ungrouped, as in PostgreSQL.
    std::vector<int> ungrouped;
    std::function<void(const BoundExpr&)> find = [&](const BoundExpr& e) {
      if (e.kind == BoundKind::kColumn) {
        if (!e.subquery_ref) ungrouped.push_back(e.column);
        return;
      }
      for (const BoundExprPtr& a : e.args) find(*a);
    };
    find(*value);
    if (!ungrouped.empty()) {
      return SqlError(SqlErrorKind::kGroupingError, "column \"",
                      inner.plan->output[ungrouped[0]].name,
                      "\" must appear in the GROUP BY clause or be used in an aggregate function",
                      Position(sub.location));
    }
  }

  auto grouped = std::make_shared<LogicalOp>();
  grouped->kind = LogicalKind::kAggregate;
  grouped->children = {inner.plan};
  grouped->group_keys = inner_keys;
  grouped->aggregates = aggregates;
  for (size_t k = 0; k < inner_keys.size(); ++k) {
    grouped->output.push_back(OutputColumn{StrCat("key", k), inner_keys[k]->type});
  }
  for (const BoundAggregate& a : aggregates) {
    grouped->output.push_back(OutputColumn{a.name, a.type});
  }
  joins->joins.push_back(CorrelatedJoin{grouped, outer_keys});
  joins->width += static_cast<int>(grouped->output.size());
  return value;
}

}  // namespace hoglake::sql
