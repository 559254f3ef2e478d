// Binds window calls, f(…) OVER (…), into BoundWindows: the window clause
// (a named window of the block's WINDOW clause resolved with PostgreSQL's
// rules for OVER w and OVER (w …)), the function (a window-only function of
// window_function.h or an aggregate, FILTER allowed, DISTINCT not), and the
// frame (PostgreSQL's default when none is written: RANGE BETWEEN UNBOUNDED
// PRECEDING AND CURRENT ROW; ROWS/GROUPS offsets as bigint constants;
// RANGE offsets for numeric, date and timestamp keys as the bound values
// computed from the key, see WindowFrame).
//
// Errors are PostgreSQL's: 42P20 for misplaced or nested windows and bad
// window clauses, 42704 for an unknown window name, 42809 for OVER on a
// function that is neither; 0A000 for RANGE offsets of other key or offset
// types and what the engine does not do (EXCLUDE, DISTINCT, an aggregate's
// ORDER BY).
#pragma once

#include <functional>
#include <vector>

#include "common/status.h"
#include "sql/binder/expression_binder.h"
#include "sql/parser/ast.h"
#include "sql/planner/logical_plan.h"

namespace hoglake::sql {

struct WindowBinding {
  // Binds the arguments, PARTITION BY and ORDER BY expressions (aggregates
  // allowed when the block groups; window calls in it are refused as nested).
  ExprContext ctx;
  // Applied to each bound expression (lifting it above the block's
  // aggregate); null for none.
  std::function<Result<BoundExprPtr>(const BoundExprPtr&)> lift;
  // The block's WINDOW clause.
  const std::vector<ast::WindowSpec>* named = nullptr;
};

Result<BoundWindow> BindWindowCall(const ast::FunctionCall& call, const WindowBinding& binding);

// `window` with fn applied to every expression it holds.
Result<BoundWindow> MapWindowExprs(
    const BoundWindow& window, const std::function<Result<BoundExprPtr>(const BoundExprPtr&)>& fn);

}  // namespace hoglake::sql
