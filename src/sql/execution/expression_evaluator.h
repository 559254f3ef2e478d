// Evaluates bound expressions over a batch, one result array per call.
//
// Evaluation is column-at-a-time through the kernels. Constructs whose
// later parts PostgreSQL evaluates only for some rows — CASE branches,
// COALESCE's later arguments, AND/OR's right side — are evaluated only on
// the rows that need them, so `CASE WHEN x = 0 THEN 0 ELSE 1 / x END` never
// divides by zero.
#pragma once

#include "columnar/array.h"
#include "common/status.h"
#include "sql/planner/logical_plan.h"

namespace hoglake::sql {

Result<columnar::ArrayPtr> Evaluate(const BoundExpr& expr, const columnar::RecordBatch& batch);

// The rows of `batch` where `predicate` is true, as indices.
Result<std::vector<int64_t>> SelectTrue(const BoundExpr& predicate,
                                        const columnar::RecordBatch& batch);

}  // namespace hoglake::sql
