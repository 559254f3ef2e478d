// Comparisons of a column against constants, without broadcasting the
// constants into arrays: `x op c` (op one of = <> < <= > >=) and
// `x = c1 OR x = c2 OR …` (an IN list, as the binder writes it). Text and
// bytes compare lengths before bytes; a long list of text constants is a
// hash set. Results are exactly those of the comparison kernels and OR:
// NULL where x is NULL or the constant is NULL; an IN list is true where x
// equals a constant, else NULL where x or any constant is NULL, else false.
#pragma once

#include <optional>
#include <vector>

#include "columnar/array.h"
#include "common/status.h"
#include "sql/planner/logical_plan.h"

namespace hoglake::sql {

enum class ComparisonOp { kEq, kNe, kLt, kLe, kGt, kGe };

// The operator of a comparison call (kEqual … kGreaterEqual); nullopt for
// any other expression.
std::optional<ComparisonOp> ComparisonOf(const BoundExpr& expr);

// The operator that gives the same answer with its operands swapped
// (c < x is x > c).
ComparisonOp Mirrored(ComparisonOp op);

// `values op constant` for each of `rows` rows; `type` is the values' SQL
// type, constant.type the constant's (numerics may differ in scale).
Result<columnar::ArrayPtr> CompareToConstant(const columnar::ArrayData& values,
                                             const SqlType& type, ComparisonOp op,
                                             const Value& constant, int64_t rows);

// `values IN (constants)` for each of `rows` rows.
Result<columnar::ArrayPtr> InConstants(const columnar::ArrayData& values, const SqlType& type,
                                       const std::vector<const Value*>& constants, int64_t rows);

}  // namespace hoglake::sql
