// Join order for a FROM list joined by WHERE conditions: conditions on one
// relation are pushed below the joins as filters; the rest are turned into
// hash joins (equalities between the joined side and the next relation are
// join keys, other conditions a residual), adding relations greedily —
// the largest relation as the probe side first, then always the smallest
// relation connected to what is joined so far, so build sides stay small.
// Row estimates come from the catalog's per-file record counts. The result
// keeps the FROM list's column order.
#pragma once

#include <vector>

#include "common/status.h"
#include "sql/planner/logical_plan.h"

namespace hoglake::sql {

// `items` are the FROM relations; `conjuncts` are over their outputs
// concatenated in order.
Result<LogicalOpPtr> PlanJoins(std::vector<LogicalOpPtr> items,
                               std::vector<BoundExprPtr> conjuncts);

// Splits join conjuncts over left ++ right (left has `left_width` columns)
// into equi keys (left expr = right expr, each side's columns only; the key
// pair cast to one type) and a residual condition (null when none).
Status SplitJoinCondition(const std::vector<BoundExprPtr>& conjuncts, int left_width,
                          std::vector<BoundExprPtr>* left_keys,
                          std::vector<BoundExprPtr>* right_keys, BoundExprPtr* residual);

// Estimated output rows of a plan (for join order).
double EstimateRows(const LogicalOp& op);

// EXPLAIN's text: the plan, one operator per line, each with its estimated
// rows.
std::string ExplainText(const LogicalOp& plan);

}  // namespace hoglake::sql
