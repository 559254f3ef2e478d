// Window-only functions (PostgreSQL's: row_number, rank, dense_rank,
// percent_rank, cume_dist, ntile, lag, lead, first_value, last_value,
// nth_value): which exist, their argument and result types, and how a call
// binds. Aggregates used as window functions bind through
// aggregate_function.h. The window operator implements both
// (src/sql/execution/window.cc).
//
// Types: row_number/rank/dense_rank → bigint; percent_rank/cume_dist →
// double precision; ntile(integer) → integer; lag/lead(x [, integer [,
// default]]) → the common type of x and default; first_value/last_value(x)
// and nth_value(x, integer) → x's type.
#pragma once

#include <string_view>
#include <vector>

#include "common/status.h"
#include "sql/planner/logical_plan.h"

namespace hoglake::sql {

// Whether `name` (lower case) is a window-only function.
bool IsWindowOnlyFunctionName(std::string_view name);

// Binds a window-only function over `args`: kind, args (cast to the
// parameter types), type and name of the result. kUndefinedFunction when no
// overload fits. The window clause is the caller's.
Result<BoundWindow> BindWindowFunction(std::string_view name, std::vector<BoundExprPtr> args);

}  // namespace hoglake::sql
