// Binds syntax-tree expressions to typed BoundExprs over a scope: names
// resolved, literals typed, operators and functions resolved with
// PostgreSQL's casts, CASE/COALESCE/IN/BETWEEN/LIKE/NULLIF/GREATEST/LEAST
// lowered to the engine's few bound forms.
//
// Aggregates, window calls, subqueries and correlated references are the caller's
// business: the context says whether each is allowed here and, when it is,
// hands it to the caller's callback, which returns the expression that
// stands for it (a column of the aggregate's output, a constant from an
// uncorrelated subquery already run, …).
#pragma once

#include <functional>
#include <string_view>

#include "common/status.h"
#include "sql/binder/scope.h"
#include "sql/parser/ast.h"
#include "sql/planner/logical_plan.h"

namespace hoglake::sql {

struct ExprContext {
  const Scope* scope = nullptr;
  std::string_view clause = "expression";  // "WHERE", "GROUP BY", … for messages
  // Aggregate calls (null: aggregates are not allowed here).
  std::function<Result<BoundExprPtr>(const ast::FunctionCall&)> on_aggregate;
  // Window function calls, f(…) OVER (…) (null: not allowed here; 42P20).
  std::function<Result<BoundExprPtr>(const ast::FunctionCall&)> on_window;
  // Subquery expressions (null: not allowed here).
  std::function<Result<BoundExprPtr>(const ast::Subquery&)> on_subquery;
  // Whether references to the enclosing scope may appear (they bind as
  // kColumn with outer_ref set).
  bool allow_outer_refs = false;
  // The statement's start time (CURRENT_DATE and friends), µs since epoch.
  int64_t statement_time_micros = 0;
  // Nesting of the expression being bound (kMaxExpressionDepth bounds it).
  int depth = 0;
};

// Expressions nested deeper than this fail with 0A000 (the binder and the
// evaluator recurse once per level).
inline constexpr int kMaxExpressionDepth = 128;

Result<BoundExprPtr> BindExpression(const ast::Expr& expr, ExprContext& ctx);

// A boolean condition (WHERE, ON, HAVING, CASE WHEN): unknown literals are
// read as boolean; other types are 42804 "argument of WHERE must be type
// boolean, not type integer".
Result<BoundExprPtr> BindCondition(const ast::Expr& expr, ExprContext& ctx);

// Whether a bound expression refers to any column (of this or an outer scope).
bool HasColumnRefs(const BoundExpr& expr);
bool HasOuterRefs(const BoundExpr& expr);

// The value of an expression without column references, computed now;
// errors are the expression's (division by zero, bad casts).
Result<Value> FoldConstant(const BoundExpr& expr);

}  // namespace hoglake::sql
