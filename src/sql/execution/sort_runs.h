// Ordering rows held in runs, for ORDER BY: every run is sorted on a worker
// of its own by normalized keys (sort_key_encoding.h), then the sorted runs
// are merged — split, when the result is large, into key ranges merged on
// several workers at once. Ties fall in a total, deterministic order: the
// lower run first, then the lower row.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "columnar/array.h"
#include "sql/execution/operator.h"
#include "sql/planner/logical_plan.h"

namespace hoglake::sql {

// Rows base .. base + rows − 1 of the rows being ordered, with their sort
// keys (one array of `rows` values per key).
struct SortRun {
  int64_t base = 0;
  int64_t rows = 0;
  std::vector<columnar::ArrayPtr> keys;
};

// The rows of `runs` (numbered by base + row) in the order of `keys`; only
// the first `keep` when given (top-N: each run keeps only its own first
// `keep`). Runs on up to `workers` threads; the sort's scratch memory is
// reserved in `ctx`, and cancellation is checked between runs and while
// merging.
Result<std::vector<int64_t>> OrderRuns(const std::vector<SortRun>& runs,
                                       const std::vector<SortKey>& keys,
                                       std::optional<int64_t> keep, ExecContext& ctx,
                                       int workers);

}  // namespace hoglake::sql
