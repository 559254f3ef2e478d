#include "sql/planner/logical_plan.h"

#include "sql/function/aggregate_function.h"
#include "sql/function/scalar_function.h"

namespace hoglake::sql {

BoundExprPtr MakeColumn(int column, SqlType type, std::string name) {
  auto e = std::make_shared<BoundExpr>();
  e->kind = BoundKind::kColumn;
  e->column = column;
  e->type = std::move(type);
  e->name = std::move(name);
  return e;
}

BoundExprPtr MakeConstant(Value value) {
  auto e = std::make_shared<BoundExpr>();
  e->kind = BoundKind::kConstant;
  e->type = value.type;
  e->value = std::move(value);
  return e;
}

BoundExprPtr MakeCast(BoundExprPtr arg, SqlType type) {
  auto e = std::make_shared<BoundExpr>();
  e->kind = BoundKind::kCast;
  e->type = std::move(type);
  e->args = {std::move(arg)};
  return e;
}

std::string BoundExpr::ToString() const {
  auto list = [&](std::string_view sep) {
    std::string out;
    for (size_t i = 0; i < args.size(); ++i) {
      if (i > 0) out += sep;
      out += args[i]->ToString();
    }
    return out;
  };
  switch (kind) {
    case BoundKind::kColumn:
      return name.empty() ? StrCat("#", column) : name;
    case BoundKind::kConstant:
      if (value.is_null) return "NULL";
      if (type.is_string() || type.id == SqlTypeId::kUnknown) return "'" + value.s + "'";
      return ValueToString(value);
    case BoundKind::kCall:
      if (function != nullptr && args.size() == 2 &&
          !std::isalpha(static_cast<unsigned char>(function->name[0]))) {
        return "(" + args[0]->ToString() + " " + name + " " + args[1]->ToString() + ")";
      }
      return name + "(" + list(", ") + ")";
    case BoundKind::kCast:
      return args[0]->ToString() + "::" + PgTypeName(type);
    case BoundKind::kAnd:
      return "(" + list(" AND ") + ")";
    case BoundKind::kOr:
      return "(" + list(" OR ") + ")";
    case BoundKind::kNot:
      return "NOT " + args[0]->ToString();
    case BoundKind::kIsNull:
      return args[0]->ToString() + (negated ? " IS NOT NULL" : " IS NULL");
    case BoundKind::kCase:
      return "CASE(" + list(", ") + ")";
    case BoundKind::kCoalesce:
      return "COALESCE(" + list(", ") + ")";
  }
  return "?";
}

std::string BoundExpr::Key() const {
  std::string out;
  switch (kind) {
    case BoundKind::kColumn:
      // (While a SELECT binds, aggregate refs are numbered among the
      // aggregates and flagged `negated`; group key refs among the keys.)
      return StrCat(outer_ref         ? "outer#"
                    : window_ref      ? "window#"
                    : subquery_ref    ? "subquery#"
                    : !post_aggregate ? "#"
                    : negated         ? "aggregate#"
                                      : "key#",
                    column);
    case BoundKind::kConstant:
      return "const(" + PgTypeName(type) + ":" + (value.is_null ? "NULL" : ValueToString(value)) + ")";
    default:
      break;
  }
  out = StrCat(static_cast<int>(kind), ":", name, ":", PgTypeName(type), negated ? ":not" : "",
               has_else ? ":else" : "", "(");
  if (function != nullptr) out += std::string(function->name) + ";";
  for (size_t i = 0; i < args.size(); ++i) {
    if (i > 0) out += ",";
    out += args[i]->Key();
  }
  return out + ")";
}

namespace {

std::string ExprList(const std::vector<BoundExprPtr>& exprs) {
  std::string out;
  for (size_t i = 0; i < exprs.size(); ++i) {
    if (i > 0) out += ", ";
    out += exprs[i]->ToString();
  }
  return out;
}

const char* JoinName(JoinKind kind) {
  switch (kind) {
    case JoinKind::kInner:
      return "Inner";
    case JoinKind::kLeft:
      return "Left";
    case JoinKind::kRight:
      return "Right";
    case JoinKind::kFull:
      return "Full";
    case JoinKind::kSemi:
      return "Semi";
    case JoinKind::kAnti:
      return "Anti";
  }
  return "?";
}

std::string FrameBoundText(FrameBound bound, const Value& offset) {
  switch (bound) {
    case FrameBound::kUnboundedPreceding:
      return "UNBOUNDED PRECEDING";
    case FrameBound::kPreceding:
      return ValueToString(offset) + " PRECEDING";
    case FrameBound::kCurrentRow:
      return "CURRENT ROW";
    case FrameBound::kFollowing:
      return ValueToString(offset) + " FOLLOWING";
    case FrameBound::kUnboundedFollowing:
      return "UNBOUNDED FOLLOWING";
  }
  return "?";
}

std::string SortKeyList(const std::vector<SortKey>& keys, bool by_key) {
  std::string out;
  for (size_t i = 0; i < keys.size(); ++i) {
    out += (i ? ", " : "") + (by_key ? keys[i].expr->Key() : keys[i].expr->ToString()) +
           (keys[i].descending ? " DESC" : "") +
           (keys[i].nulls_first ? " NULLS FIRST" : " NULLS LAST");
  }
  return out;
}

}  // namespace

std::string BoundWindow::SpecKey() const {
  std::string out = "partition(";
  for (const BoundExprPtr& p : partition_by) out += p->Key() + ",";
  return out + ") order(" + SortKeyList(order_by, true) + ")";
}

std::string BoundWindow::Key() const {
  std::string out = StrCat(static_cast<int>(kind), ":", name, ":", PgTypeName(type), "(");
  const std::vector<BoundExprPtr>& list =
      kind == WindowFunctionKind::kAggregate ? aggregate.args : args;
  for (const BoundExprPtr& a : list) out += a->Key() + ",";
  out += ")";
  if (aggregate.filter) out += " filter " + aggregate.filter->Key();
  out += " " + SpecKey();
  out += StrCat(" frame ", static_cast<int>(frame.unit), ":", static_cast<int>(frame.start), ":",
                static_cast<int>(frame.end), ":", ValueToString(frame.start_offset), ":",
                PgTypeName(frame.start_offset.type), ":", ValueToString(frame.end_offset), ":",
                PgTypeName(frame.end_offset.type));
  return out;
}

std::string BoundWindow::ToString() const {
  const std::vector<BoundExprPtr>& list =
      kind == WindowFunctionKind::kAggregate ? aggregate.args : args;
  std::string out = name + "(" +
                    (kind == WindowFunctionKind::kAggregate && aggregate.function != nullptr &&
                             aggregate.function->kind == AggregateKind::kCountStar
                         ? std::string("*")
                         : ExprList(list)) +
                    ")";
  if (aggregate.filter) out += " FILTER (WHERE " + aggregate.filter->ToString() + ")";
  out += " OVER (";
  std::string spec;
  if (!partition_by.empty()) spec += "PARTITION BY " + ExprList(partition_by);
  if (!order_by.empty())
    spec += (spec.empty() ? "" : " ") + ("ORDER BY " + SortKeyList(order_by, false));
  const char* unit = frame.unit == FrameUnit::kRows    ? "ROWS"
                     : frame.unit == FrameUnit::kRange ? "RANGE"
                                                       : "GROUPS";
  spec += (spec.empty() ? "" : " ") + StrCat(unit, " BETWEEN ",
                                             FrameBoundText(frame.start, frame.start_offset),
                                             " AND ", FrameBoundText(frame.end, frame.end_offset));
  return out + spec + ")";
}

std::string LogicalOp::ToString(int depth) const {
  std::string line(static_cast<size_t>(depth) * 2, ' ');
  switch (kind) {
    case LogicalKind::kScan:
      line += "Scan " + scan->table.catalog + "." + scan->table.namespace_name + "." +
              scan->table.name + " @" + std::to_string(scan->table.snapshot_id) + " [";
      for (size_t i = 0; i < output.size(); ++i) line += (i ? ", " : "") + output[i].name;
      line += "]";
      if (!scan->filters.empty()) line += " filters: " + ExprList(scan->filters);
      break;
    case LogicalKind::kValues:
      line += StrCat("Values (", rows.size(), " rows)");
      break;
    case LogicalKind::kFilter:
      line += "Filter " + predicate->ToString();
      break;
    case LogicalKind::kProject:
      line += "Project " + ExprList(expressions);
      break;
    case LogicalKind::kAggregate: {
      line += "Aggregate keys [" + ExprList(group_keys) + "] aggregates [";
      for (size_t i = 0; i < aggregates.size(); ++i) {
        line += (i ? ", " : "") + aggregates[i].name + "(" +
                (aggregates[i].distinct ? "DISTINCT " : "") + ExprList(aggregates[i].args) + ")";
      }
      line += "]";
      break;
    }
    case LogicalKind::kJoin:
      line += std::string(JoinName(join_kind)) + " Join";
      if (!left_keys.empty()) {
        line += " on [" + ExprList(left_keys) + "] = [" + ExprList(right_keys) + "]";
      }
      if (join_condition) line += " where " + join_condition->ToString();
      break;
    case LogicalKind::kSort: {
      line += "Sort ";
      for (size_t i = 0; i < sort_keys.size(); ++i) {
        line += (i ? ", " : "") + sort_keys[i].expr->ToString() +
                (sort_keys[i].descending ? " DESC" : "") +
                (sort_keys[i].nulls_first ? " NULLS FIRST" : " NULLS LAST");
      }
      break;
    }
    case LogicalKind::kLimit:
      line += "Limit " + (limit ? std::to_string(*limit) : std::string("ALL")) + " offset " +
              std::to_string(offset);
      break;
    case LogicalKind::kDistinct:
      line += distinct_keys.empty() ? "Distinct" : StrCat("Distinct on ", distinct_keys.size(), " keys");
      break;
    case LogicalKind::kUnion:
      line += "Union All";
      break;
    case LogicalKind::kWindow:
      line += "Window ";
      for (size_t i = 0; i < windows.size(); ++i) line += (i ? ", " : "") + windows[i].ToString();
      break;
    case LogicalKind::kSetOp:
      line += std::string(set_op == SetOpKind::kIntersect ? "Intersect" : "Except") +
              (set_all ? " All" : "");
      break;
  }
  line += "\n";
  for (const LogicalOpPtr& child : children) line += child->ToString(depth + 1);
  return line;
}

}  // namespace hoglake::sql
