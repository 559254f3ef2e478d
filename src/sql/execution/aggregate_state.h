// The running state of one aggregate of aggregate_function.h over some rows,
// shared by hash aggregation (one state per group) and window aggregates
// (one state per frame, moved along the partition). Sums are exact
// (128-bit) for integers and numerics; overflow past the result type is an
// error, as in PostgreSQL. Internal to src/sql/execution.
#pragma once

#include <vector>

#include <cstdint>

#include "columnar/array.h"
#include "common/status.h"
#include "sql/planner/logical_plan.h"
#include "sql/types/value.h"

namespace hoglake::sql {

struct AggState {
  int64_t count = 0;
  bool has = false;
  __int128 isum = 0;   // integers and numerics (unscaled)
  __int128 sq = 0;     // sum of squares (variance of integers/numerics)
  __int128 shift = 0;  // variance sums are of x − the first x (same variance, smaller sums)
  double dsum = 0;     // floats
  double mean = 0;     // Welford (variance of floats)
  double m2 = 0;
  bool b = false;
  Value extreme;              // min/max
  std::vector<Value> values;  // ordered-set aggregates: the non-null inputs
};

// Adds row `row` of `arg` (the evaluated argument; null for count(*)).
Status Update(const BoundAggregate& agg, AggState& st, const columnar::ArrayData* arg, int64_t row);

// Adds every row i in [0, rows) of `arg` whose `filter` (when given) is
// true to states[group_of[i]]: Update over a batch, with the common
// aggregates (count, sum and avg of integers and numerics) in tight loops.
Status UpdateRows(const BoundAggregate& agg, AggState* states, const int64_t* group_of,
                  const columnar::ArrayData* arg, const columnar::ArrayData* filter, int64_t rows);

// Whether two states over disjoint rows can be merged into the state of
// all of them, giving exactly what one state over those rows would: count,
// sum and avg of integers and numerics, min, max, bool_and and bool_or.
// (Not DISTINCT aggregates, floats' sums, variances or ordered-set
// aggregates.)
bool IsMergeable(const BoundAggregate& agg);

// Adds `from`'s rows to `into` (IsMergeable aggregates only).
Status Merge(const BoundAggregate& agg, AggState& into, const AggState& from);

// Whether Remove can take a row back out of a state exactly: count, and sum
// and avg of integers and numerics (floats are not: their rounding would
// differ from a fresh sum's).
bool IsInvertible(const BoundAggregate& agg);

// Takes back a row Update added (IsInvertible aggregates only).
void Remove(const BoundAggregate& agg, AggState& st, const columnar::ArrayData* arg, int64_t row);

// The aggregate's value over the rows added (count → 0, others NULL when
// no non-null row was added).
Result<Value> Finalize(const BoundAggregate& agg, const AggState& st);

}  // namespace hoglake::sql
