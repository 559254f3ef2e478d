// Aggregate functions: which exist, their result types (PostgreSQL's: count
// → bigint; sum of smallint/integer → bigint, of bigint/numeric → numeric,
// of real/double → the same; avg of integers/numeric → numeric, of floats →
// double; min/max → the argument's type; bool_and/bool_or → boolean;
// stddev/variance (samp and pop) of integers/numeric → numeric, of floats →
// double; percentile_cont(double) WITHIN GROUP (ORDER BY double) → double;
// percentile_disc and mode → the ordered argument's type), and how a call
// binds. The ordered-set aggregates' direct argument must be a constant
// (0A000 otherwise); percentile_cont of intervals and arrays of fractions
// are 0A000 too. The hash aggregate operator implements
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
  // Ordered-set aggregates (f(direct) WITHIN GROUP (ORDER BY x)): args are
  // x then the direct arguments (constants).
  kPercentileCont,
  kPercentileDisc,
  kMode,
};

struct AggregateFunction {
  std::string_view name;
  AggregateKind kind;
};

// Whether `name` (lower case) is an aggregate we know.
bool IsAggregateName(std::string_view name);
// Whether it is an ordered-set aggregate (percentile_cont, percentile_disc,
// mode), which needs WITHIN GROUP (ORDER BY …) and takes no other form.
bool IsOrderedSetAggregateName(std::string_view name);

// Binds name(args) (`star` for count(*)); the result's filter and distinct
// are the caller's. kUndefinedFunction when no overload fits.
Result<BoundAggregate> BindAggregate(std::string_view name, std::vector<BoundExprPtr> args,
                                     bool star);

// The scale avg and variance results carry for numeric inputs.
inline constexpr int kNumericDivisionScale = 16;

}  // namespace hoglake::sql
