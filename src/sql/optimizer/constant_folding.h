// Constant folding: every call or cast whose arguments are all constants
// (after folding them) is evaluated once, at plan time, and replaced by its
// value — `date '1995-01-01' + interval '1' year`, `0.06 - 0.01` — so no
// operator recomputes it per row, and scan pruning sees a plain constant.
// A volatile call (random()) is left alone, and so is a call that fails
// (`1 / 0` in a CASE branch no row reaches): its error stays the run's,
// raised only if a row evaluates it. CASE, COALESCE, AND and OR are not
// folded themselves (their arguments are).
#pragma once

#include "sql/planner/logical_plan.h"

namespace hoglake::sql {

// Folds the expressions of `plan` and its inputs in place.
void FoldConstants(LogicalOp& plan);

}  // namespace hoglake::sql
