// Correlated subqueries inside expressions (the select list, CASE, HAVING,
// WHERE under OR or NOT), decorrelated into left joins — never re-run per
// row. Two shapes, each correlated only by WHERE conjuncts `inner = outer`:
//
//   (SELECT <aggregate expression> FROM … WHERE inner = outer AND …)
//       The subquery's FROM/WHERE grouped by its inner keys (keys, then
//       the aggregates) is left-joined on outer = inner; the expression is
//       computed above the join from the aggregate columns. An outer row
//       with no group sees what PostgreSQL's aggregates give over no rows:
//       count(*) and count(x) 0 (coalesced), every other aggregate NULL.
//   [NOT] EXISTS (SELECT … FROM … WHERE inner = outer AND …)
//       The same grouping with count(*) only, a mark join: EXISTS is
//       `count IS NOT NULL` above the left join.
//
// Grouping by the keys gives each outer row at most one partner, so the
// outer rows are neither lost nor repeated; a NULL key on either side
// matches nothing, as `inner = outer` is then not true in PostgreSQL either.
// Anything else (GROUP BY, DISTINCT, LIMIT in the subquery, a select list
// without aggregates that may return several rows, correlation other than
// equalities, outer columns outside WHERE) fails with a clear 0A000.
//
// While a block binds, the expression that stands for a subquery reads
// placeholder columns (`subquery_ref`, numbered over all the block's
// subquery joins); ApplyCorrelatedJoins adds the joins above the block's
// plan and PlaceSubqueryRefs turns the placeholders into its columns.
#pragma once

#include <functional>
#include <vector>

#include "common/status.h"
#include "sql/planner/logical_plan.h"

namespace hoglake::sql {

struct CorrelatedJoin {
  LogicalOpPtr right;                    // inner keys, then the aggregates
  std::vector<BoundExprPtr> outer_keys;  // over the outer scope (outer refs)
};

struct CorrelatedJoins {
  std::vector<CorrelatedJoin> joins;
  int width = 0;  // columns of all the joins' right sides so far
};

// `plan` left-joined with each subquery in turn on outer key = inner key.
// `outer_key` maps an outer key (outer refs over the block's scope) to an
// expression over `plan` (identity before grouping, Lift after).
Result<LogicalOpPtr> ApplyCorrelatedJoins(
    LogicalOpPtr plan, const CorrelatedJoins& joins,
    const std::function<Result<BoundExprPtr>(const BoundExprPtr&)>& outer_key);

// The outer key as a plain expression over the block's FROM (the
// `outer_key` of ApplyCorrelatedJoins below a grouping).
Result<BoundExprPtr> PlainOuterKey(const BoundExprPtr& key);

// `e` with each placeholder i read as column base + i (base: the plan's
// width before ApplyCorrelatedJoins).
BoundExprPtr PlaceSubqueryRefs(const BoundExprPtr& e, int base);

// Whether `e` reads a placeholder.
bool HasSubqueryRefs(const BoundExpr& e);

// The error for a correlated subquery where no join can be placed.
Error CorrelatedSubqueryNotSupportedHere(std::string_view clause, int location);

}  // namespace hoglake::sql
