// Aggregate functions: which exist, their result types (PostgreSQL's: count
// → bigint; sum of smallint/integer → bigint, of bigint/numeric → numeric,
// of real/double → the same; avg of integers/numeric → numeric, of floats →
// double; min/max → the argument's type; bool_and/bool_or → boolean;
// stddev/variance (samp and pop) of integers/numeric → numeric, of floats →
// double), and how a call binds. The hash aggregate operator implements
// them (src/sql/execution/hash_aggregate.cc).
#pragma once

#include <string_view>
#include <vector>

#include "common/status.h"
#include "sql/planner/logical_plan.h"

namespace hoglake::sql {

enum class AggregateKind {
  kCountStar,
  kCount,
  kSum,
  kAvg,
  kMin,
  kMax,
  kBoolAnd,
  kBoolOr,
  kVarSamp,
  kVarPop,
  kStddevSamp,
  kStddevPop,
};

struct AggregateFunction {
  std::string_view name;
  AggregateKind kind;
};

// Whether `name` (lower case) is an aggregate we know.
bool IsAggregateName(std::string_view name);

// Binds name(args) (`star` for count(*)); the result's filter and distinct
// are the caller's. kUndefinedFunction when no overload fits.
Result<BoundAggregate> BindAggregate(std::string_view name, std::vector<BoundExprPtr> args,
                                     bool star);

// The scale avg and variance results carry for numeric inputs.
inline constexpr int kNumericDivisionScale = 16;

}  // namespace hoglake::sql
