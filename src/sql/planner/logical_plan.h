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
  // kColumn: a window function's result while a SELECT binds (column is
  // its index among the block's window functions); resolved to a column of
  // the Window operator's output before the plan is built.
  bool window_ref = false;
  // kColumn: a column of a correlated subquery's join while a block binds
  // (column is its index among the block's subquery join columns); placed
  // on the join's output before the plan is built (correlated_subquery.h).
  bool subquery_ref = false;
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

struct SortKey {
  BoundExprPtr expr;
  bool descending = false;
  bool nulls_first = false;
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

// Window functions (OVER …): the ranking and offset functions, or any
// aggregate of aggregate_function.h computed over a frame.
enum class WindowFunctionKind {
  kAggregate,
  kRowNumber,
  kRank,
  kDenseRank,
  kPercentRank,
  kCumeDist,
  kNtile,
  kLag,
  kLead,
  kFirstValue,
  kLastValue,
  kNthValue,
};

enum class FrameUnit { kRows, kRange, kGroups };
enum class FrameBound {
  kUnboundedPreceding,
  kPreceding,  // offset PRECEDING
  kCurrentRow,
  kFollowing,  // offset FOLLOWING
  kUnboundedFollowing,
};

// A window frame. Offsets are constants; ROWS/GROUPS offsets are bigint.
// A RANGE offset frame bound compares `range_key` (the single ORDER BY key,
// cast to the bound's type) of other rows with start_value/end_value, the
// current row's key minus/plus the offset (plus/minus under DESC).
struct WindowFrame {
  FrameUnit unit = FrameUnit::kRange;
  FrameBound start = FrameBound::kUnboundedPreceding;
  FrameBound end = FrameBound::kCurrentRow;
  Value start_offset;
  Value end_offset;
  BoundExprPtr range_key;
  BoundExprPtr start_value;
  BoundExprPtr end_value;
};

struct BoundWindow {
  WindowFunctionKind kind = WindowFunctionKind::kRowNumber;
  BoundAggregate aggregate;        // kAggregate: function, args, filter
  std::vector<BoundExprPtr> args;  // the other kinds' arguments (lag: x, offset, default)
  std::vector<BoundExprPtr> partition_by;
  std::vector<SortKey> order_by;
  WindowFrame frame;
  SqlType type;
  std::string name;

  // "row_number() OVER (PARTITION BY … ORDER BY … ROWS …)" for EXPLAIN.
  std::string ToString() const;
  // Two windows with one Key() compute the same column.
  std::string Key() const;
  // Windows with one SpecKey() share a sort (same PARTITION BY, ORDER BY).
  std::string SpecKey() const;
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
  kDistinct,  // the first row of each distinct key (all columns, or distinct_keys)
  kUnion,     // UNION ALL of children (set semantics: a kDistinct above)
  kSetOp,     // INTERSECT / EXCEPT [ALL]
  kWindow,    // the input's columns, then one column per window function
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
  // kWindow
  std::vector<BoundWindow> windows;
  // kSetOp
  SetOpKind set_op = SetOpKind::kIntersect;
  bool set_all = false;

  // EXPLAIN text, one operator per line, indented by depth.
  std::string ToString(int depth = 0) const;
};

}  // namespace hoglake::sql
