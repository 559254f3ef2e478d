// The engine's plans: bound expressions over the rows of an operator's input,
// and the logical operator tree the binder produces and the optimizer
// rewrites. Plans are immutable once built; execution state lives elsewhere.
//
// Columns are addressed by position in the input operator's output
// (BoundExpr::column); an operator's output columns are listed in
// LogicalOp::output (name and type for each).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "catalog/lake_tables.h"
#include "sql/types/sql_type.h"
#include "sql/types/value.h"

namespace hoglake::sql {

struct ScalarFunction;
struct AggregateFunction;

enum class BoundKind {
  kColumn,    // input column `column`
  kConstant,  // `value`
  kCall,      // scalar function `function` over args
  kCast,      // args[0] cast to `type`
  kAnd,       // args, three-valued
  kOr,
  kNot,
  kIsNull,     // args[0] IS NULL (negated: IS NOT NULL)
  kCase,       // args: cond0, result0, cond1, result1, …, [else]; has_else
  kCoalesce,   // first non-null of args
};

struct BoundExpr;
using BoundExprPtr = std::shared_ptr<const BoundExpr>;

struct BoundExpr {
  BoundKind kind = BoundKind::kConstant;
  SqlType type;  // the result type
  int column = -1;
  Value value;
  const ScalarFunction* function = nullptr;
  std::vector<BoundExprPtr> args;
  // kColumn: a column of the enclosing query's scope (a correlated
  // reference), resolved away by decorrelation before execution.
  bool outer_ref = false;
  // kColumn: a column of the aggregate's output (a group key or an
  // aggregate), as SELECT/HAVING/ORDER BY see it after grouping.
  bool post_aggregate = false;
  bool negated = false;   // kIsNull
  bool has_else = false;  // kCase
  std::string name;       // a display name: the column's or function's

  // For people (EXPLAIN, messages): columns by name.
  std::string ToString() const;
  // For matching one expression against another (GROUP BY keys, repeated
  // OR conditions, ORDER BY items): columns by position and scope, constants
  // with their types — two different columns of one name differ.
  std::string Key() const;
};

BoundExprPtr MakeColumn(int column, SqlType type, std::string name);
BoundExprPtr MakeConstant(Value value);
BoundExprPtr MakeCast(BoundExprPtr arg, SqlType type);

struct OutputColumn {
  std::string name;
  SqlType type;
};

struct BoundAggregate {
  const AggregateFunction* function = nullptr;
  std::vector<BoundExprPtr> args;  // over the aggregate's input
  bool distinct = false;
  BoundExprPtr filter;  // FILTER (WHERE …) or null
  SqlType type;         // the result type
  std::string name;
  bool order_descending = false;  // ordered-set aggregates: WITHIN GROUP (ORDER BY x DESC)
};

struct SortKey {
  BoundExprPtr expr;
  bool descending = false;
  bool nulls_first = false;
};

enum class LogicalKind {
  kScan,       // a lake table at a pinned snapshot
  kValues,     // literal rows
  kFilter,     // rows where predicate is true
  kProject,    // expressions
  kAggregate,  // group keys then aggregates
  kJoin,       // inner/left/right/full/semi/anti
  kSort,
  kLimit,
  kDistinct,   // the first row of each distinct key (all columns, or distinct_keys)
  kUnion,      // UNION ALL of children (set semantics: a kDistinct above)
  kSetOp,      // INTERSECT / EXCEPT [ALL]
};

enum class JoinKind { kInner, kLeft, kRight, kFull, kSemi, kAnti };
enum class SetOpKind { kIntersect, kExcept };

struct LogicalOp;
using LogicalOpPtr = std::shared_ptr<LogicalOp>;

struct ScanSpec {
  catalog::ResolvedTable table;
  // The table's top-level columns read, by field id, with their SQL types.
  std::vector<int32_t> field_ids;
  std::vector<columnar::Field> fields;  // the table's current field per column
  // The data files live at the pinned snapshot, with their statistics.
  std::vector<catalog::DataFileInfo> files;
  // Conjuncts over the scan's output the optimizer pushed down: used to skip
  // files and row groups by statistics, and applied to every row read.
  std::vector<BoundExprPtr> filters;
};

struct LogicalOp {
  LogicalKind kind = LogicalKind::kScan;
  std::vector<LogicalOpPtr> children;
  std::vector<OutputColumn> output;

  // kScan
  std::shared_ptr<ScanSpec> scan;
  // kValues
  std::vector<std::vector<Value>> rows;
  // kFilter
  BoundExprPtr predicate;
  // kProject
  std::vector<BoundExprPtr> expressions;
  // kAggregate: output = group keys, then aggregates
  std::vector<BoundExprPtr> group_keys;
  std::vector<BoundAggregate> aggregates;
  // kJoin: output = left columns then right columns (semi/anti: left only)
  JoinKind join_kind = JoinKind::kInner;
  std::vector<BoundExprPtr> left_keys;   // equi-join keys over the left input
  std::vector<BoundExprPtr> right_keys;  // … and the right input
  BoundExprPtr join_condition;  // the rest, over left ++ right columns; null = true
  // kSort
  std::vector<SortKey> sort_keys;
  // kLimit
  std::optional<int64_t> limit;
  int64_t offset = 0;
  // kDistinct: the key columns (DISTINCT ON); empty = all columns
  std::vector<int> distinct_keys;
  // kSetOp
  SetOpKind set_op = SetOpKind::kIntersect;
  bool set_all = false;

  // EXPLAIN text, one operator per line, indented by depth.
  std::string ToString(int depth = 0) const;
};

}  // namespace hoglake::sql
