// Binds queries (SELECT blocks, set operations, VALUES, WITH) into logical
// plans: FROM items resolved (lake tables through catalog::LakeTables at the
// session's snapshot, CTEs, derived tables, joins with ON/USING/NATURAL),
// information_schema views (information_schema.h), WHERE, GROUP BY with aggregates and HAVING, the select list with `*`
// expansion, DISTINCT [ON], ORDER BY (ordinals, output names, expressions),
// LIMIT/OFFSET. Subqueries: [NOT] EXISTS and [NOT] IN as WHERE conjuncts
// become semi/anti joins (correlated equality predicates become join
// conditions); correlated scalar aggregate subqueries and EXISTS elsewhere
// in WHERE, the select list and HAVING become left joins
// (correlated_subquery.h); other uncorrelated subqueries are run once while
// binding, as PostgreSQL's InitPlans are, and stand in the plan as constants.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "catalog/lake_tables.h"
#include "common/status.h"
#include "sql/binder/correlated_subquery.h"
#include "sql/binder/scope.h"
#include "sql/parser/ast.h"
#include "sql/planner/logical_plan.h"
#include "sql/source/schema_listing.h"

namespace hoglake::sql {

struct BinderOptions {
  catalog::LakeTables* tables = nullptr;
  std::string default_catalog;
  std::string default_schema;
  // Catalog names a query may use for another catalog (a Hotdata database's
  // "default"): a table's catalog name found here is read as its value.
  std::map<std::string, std::string> catalog_aliases;
  // An unqualified name (or schema.table) that the defaults do not resolve
  // is looked up across the whole lake and used when exactly one table
  // matches (an error names every match when several do).
  bool search_lake = false;
  catalog::SnapshotSelector at;
  // What information_schema.{schemata,tables,columns} list; null: those
  // views do not exist.
  SchemaListing* listing = nullptr;
  int64_t statement_time_micros = 0;
  // Runs a plan to completion and returns its rows (uncorrelated subqueries).
  std::function<Result<std::vector<std::vector<Value>>>(const LogicalOpPtr&)> run_plan;
};

class QueryBinder {
 public:
  explicit QueryBinder(BinderOptions options) : options_(std::move(options)) {}

  // A whole query; `outer` is the enclosing scope for correlated subqueries.
  Result<LogicalOpPtr> BindQuery(const ast::QueryNode& query, const Scope* outer = nullptr);

  struct FromResult {
    LogicalOpPtr plan;
    Scope scope;
  };

 private:
  struct Cte {
    LogicalOpPtr plan;
    std::vector<std::string> names;
  };

  Result<LogicalOpPtr> BindSelect(const ast::QueryNode& query, const Scope* outer);
  Result<LogicalOpPtr> BindSetOperation(const ast::QueryNode& query, const Scope* outer);
  Result<LogicalOpPtr> BindValues(const ast::QueryNode& query);
  Result<LogicalOpPtr> ApplyOrderLimit(const ast::QueryNode& query, LogicalOpPtr plan);
  // LIMIT / OFFSET / FETCH FIRST of `query` above `plan` (constant, non-negative).
  Result<LogicalOpPtr> ApplyLimit(const ast::QueryNode& query, LogicalOpPtr plan);

  // FROM and WHERE of one block. With `correlated` set, WHERE conjuncts
  // referring to the enclosing scope (`outer`) are returned there (columns
  // of this block as plain indices, the enclosing block's as outer refs)
  // instead of being applied.
  Result<FromResult> BindFrom(const std::vector<ast::TableRefPtr>& from, const ast::Expr* where,
                              const Scope* outer, std::vector<BoundExprPtr>* correlated = nullptr);
  Result<FromResult> BindTableRef(const ast::TableRef& ref, const Scope* outer);
  Result<FromResult> BindBaseTable(const ast::BaseTableRef& ref);
  Result<FromResult> BindInformationSchema(const ast::BaseTableRef& ref);
  Result<FromResult> BindJoin(const ast::JoinRef& ref, const Scope* outer);
  // The one table of ref's name anywhere in the lake (BinderOptions::search_lake).
  Result<std::optional<catalog::ResolvedTable>> SearchLake(const ast::BaseTableRef& ref);

  // WHERE conjuncts holding subqueries, applied as semi/anti joins.
  Result<LogicalOpPtr> ApplySubqueryConjunct(const ast::Expr& conjunct, LogicalOpPtr plan,
                                             const Scope& scope);
  // A subquery in an expression: an uncorrelated one is run now; a
  // correlated one is added to `joins` (BindCorrelatedSubquery), or refused
  // naming `clause` when `joins` is null.
  Result<BoundExprPtr> BindSubqueryValue(const ast::Subquery& subquery, const Scope& scope,
                                         CorrelatedJoins* joins, std::string_view clause);
  // A correlated scalar aggregate subquery or EXISTS: its grouped join is
  // added to `joins`; returns the expression standing for its value, over
  // placeholder columns (correlated_subquery.h).
  Result<BoundExprPtr> BindCorrelatedSubquery(const ast::Subquery& subquery, const Scope& scope,
                                              CorrelatedJoins* joins);

  BinderOptions options_;
  std::vector<std::map<std::string, Cte>> ctes_;
};

// Logical plan helpers shared by the binder and the optimizer.
LogicalOpPtr MakeProject(LogicalOpPtr child, std::vector<BoundExprPtr> exprs,
                         std::vector<std::string> names);
LogicalOpPtr MakeFilter(LogicalOpPtr child, BoundExprPtr predicate);
// Splits AND trees into conjuncts.
void SplitConjuncts(const BoundExprPtr& expr, std::vector<BoundExprPtr>* out);
BoundExprPtr CombineConjuncts(const std::vector<BoundExprPtr>& conjuncts);
// The expression with every column index i replaced by map[i] (and, for
// indices ≥ shift_from, shifted by `shift`); outer refs become plain columns
// when `outer_to_inner` is set.
BoundExprPtr RemapColumns(const BoundExprPtr& expr, const std::function<int(int, bool)>& map);
// Whether a syntax-tree expression holds an aggregate call (outside OVER) /
// a window call, not looking into subqueries.
bool ContainsAggregate(const ast::Expr* e);
bool ContainsWindow(const ast::Expr* e);
// Column indices an expression reads (this level only).
void CollectColumns(const BoundExpr& expr, std::vector<int>* out, bool outer_refs = false);

}  // namespace hoglake::sql
