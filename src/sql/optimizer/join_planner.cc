#include "sql/optimizer/join_planner.h"

#include <algorithm>
#include <functional>
#include <set>

#include "iceberg/arrow_mapping.h"
#include "iceberg/bounds.h"
#include "sql/binder/query_binder.h"
#include "sql/function/cast.h"
#include "sql/function/scalar_function.h"

namespace hoglake::sql {
namespace {

std::vector<std::string> OutputNames(const LogicalOp& op) {
  std::vector<std::string> names;
  for (const OutputColumn& c : op.output) names.push_back(c.name);
  return names;
}

// Distinct values of column `column` of a FROM item: for integer and date
// columns of a scan (below filters) the span of the files' bounds, else
// the item's rows (as if the column were a key).
double DistinctEstimate(const LogicalOp& item, int column, double rows) {
  const LogicalOp* op = &item;
  while (op->kind == LogicalKind::kFilter) op = op->children[0].get();
  if (op->kind != LogicalKind::kScan || column >= static_cast<int>(op->scan->field_ids.size())) {
    return rows;
  }
  auto type = iceberg::ColumnTypeFromArrow(op->scan->fields[column]);
  if (!type.ok() || !(iceberg::IsIntegerType(type->type) ||
                      type->type == iceberg::ColumnType::kDate)) {
    return rows;
  }
  int32_t field_id = op->scan->field_ids[column];
  std::optional<int64_t> lo, hi;
  for (const catalog::DataFileInfo& f : op->scan->files) {
    bool found = false;
    for (const catalog::ColumnStatRow& s : f.column_stats ? *f.column_stats
                                                          : std::vector<catalog::ColumnStatRow>{}) {
      if (s.field_id != field_id || !s.lower_bound || !s.upper_bound) continue;
      auto l = iceberg::DecodeBound(*type, *s.lower_bound);
      auto u = iceberg::DecodeBound(*type, *s.upper_bound);
      if (!l.ok() || !u.ok()) continue;
      lo = lo ? std::min(*lo, l->i) : l->i;
      hi = hi ? std::max(*hi, u->i) : u->i;
      found = true;
    }
    if (!found) return rows;
  }
  if (!lo || !hi) return rows;
  double span = static_cast<double>(*hi) - static_cast<double>(*lo) + 1;
  return std::max(1.0, std::min(rows, span));
}

// Whether evaluating `e` on rows it was not meant for cannot fail: column
// references, constants, comparisons and LIKE of those, IS NULL, AND, OR
// and NOT, and the casts that only widen (to unconstrained numeric, date
// to timestamp).
bool CannotFail(const BoundExpr& e) {
  switch (e.kind) {
    case BoundKind::kColumn:
    case BoundKind::kConstant:
      return true;
    case BoundKind::kCast: {
      const SqlTypeId from = e.args[0]->type.id, to = e.type.id;
      bool widening = (to == SqlTypeId::kNumeric && e.type.precision < 0 &&
                       (from == SqlTypeId::kNumeric || from == SqlTypeId::kSmallint ||
                        from == SqlTypeId::kInteger || from == SqlTypeId::kBigint)) ||
                      (from == SqlTypeId::kDate && (to == SqlTypeId::kTimestamp));
      return widening && CannotFail(*e.args[0]);
    }
    case BoundKind::kCall:
      if (e.function != &kEqual && e.function != &kNotEqual && e.function != &kLess &&
          e.function != &kLessEqual && e.function != &kGreater && e.function != &kGreaterEqual) {
        return false;
      }
      break;
    case BoundKind::kAnd:
    case BoundKind::kOr:
    case BoundKind::kNot:
    case BoundKind::kIsNull:
      break;
    default:
      return false;
  }
  for (const BoundExprPtr& arg : e.args) {
    if (arg->type.is_nested() || !CannotFail(*arg)) return false;
  }
  return true;
}

// A condition on item `item` alone that an OR over several items implies:
// (a1 AND b1) OR (a2 AND b2), with a1 and a2 on one item, implies a1 OR a2
// there. Null when some branch has no conjunct on that item alone (or
// one that could fail where the OR would not have run it). The OR itself
// stays where it was; the implied condition only drops rows earlier.
BoundExprPtr ImpliedOnItem(const BoundExprPtr& condition, size_t item,
                           const std::function<size_t(int)>& item_of) {
  if (condition->kind != BoundKind::kOr) return nullptr;
  std::vector<BoundExprPtr> branches;
  for (const BoundExprPtr& branch : condition->args) {
    std::vector<BoundExprPtr> parts, mine;
    SplitConjuncts(branch, &parts);
    for (const BoundExprPtr& part : parts) {
      std::vector<int> cols;
      CollectColumns(*part, &cols);
      bool on_item = !cols.empty();
      for (int col : cols) on_item &= item_of(col) == item;
      if (on_item && CannotFail(*part)) mine.push_back(part);
    }
    if (mine.empty()) return nullptr;
    branches.push_back(CombineConjuncts(mine));
  }
  auto implied = std::make_shared<BoundExpr>(*condition);
  implied->args = std::move(branches);
  return implied;
}

}  // namespace

double EstimateRows(const LogicalOp& op) {
  switch (op.kind) {
    case LogicalKind::kScan: {
      double rows = 0;
      for (const auto& f : op.scan->files) rows += static_cast<double>(f.record_count);
      for (size_t i = 0; i < op.scan->filters.size(); ++i) rows *= 0.25;
      return std::max(rows, 1.0);
    }
    case LogicalKind::kValues:
      return static_cast<double>(op.rows.size());
    case LogicalKind::kFilter: {
      // A quarter per conjunct, as the scan's pushed-down filters count.
      std::vector<BoundExprPtr> conjuncts;
      SplitConjuncts(op.predicate, &conjuncts);
      double rows = EstimateRows(*op.children[0]);
      for (size_t i = 0; i < conjuncts.size(); ++i) rows *= 0.25;
      return std::max(rows, 1.0);
    }
    case LogicalKind::kAggregate:
      return op.group_keys.empty() ? 1 : std::max(1.0, EstimateRows(*op.children[0]) * 0.1);
    case LogicalKind::kJoin: {
      double l = EstimateRows(*op.children[0]), r = EstimateRows(*op.children[1]);
      if (op.join_kind == JoinKind::kSemi || op.join_kind == JoinKind::kAnti) return l;
      if (op.left_keys.empty() && !op.join_condition) return l * r;
      return std::max(l, r);
    }
    case LogicalKind::kLimit:
      return op.limit ? std::min<double>(static_cast<double>(*op.limit),
                                         EstimateRows(*op.children[0]))
                      : EstimateRows(*op.children[0]);
    default: {
      double rows = 0;
      for (const auto& c : op.children) rows += EstimateRows(*c);
      return std::max(rows, 1.0);
    }
  }
}

Status SplitJoinCondition(const std::vector<BoundExprPtr>& conjuncts, int left_width,
                          std::vector<BoundExprPtr>* left_keys,
                          std::vector<BoundExprPtr>* right_keys, BoundExprPtr* residual) {
  std::vector<BoundExprPtr> rest;
  for (const BoundExprPtr& c : conjuncts) {
    if (c->kind == BoundKind::kCall && c->function == &kEqual) {
      std::vector<int> lc, rc;
      CollectColumns(*c->args[0], &lc);
      CollectColumns(*c->args[1], &rc);
      auto all_below = [&](const std::vector<int>& cols) {
        return !cols.empty() &&
               std::all_of(cols.begin(), cols.end(), [&](int i) { return i < left_width; });
      };
      auto all_above = [&](const std::vector<int>& cols) {
        return !cols.empty() &&
               std::all_of(cols.begin(), cols.end(), [&](int i) { return i >= left_width; });
      };
      BoundExprPtr l, r;
      if (all_below(lc) && all_above(rc)) {
        l = c->args[0];
        r = c->args[1];
      } else if (all_above(lc) && all_below(rc)) {
        l = c->args[1];
        r = c->args[0];
      }
      if (l && l->type == r->type) {
        // Both sides hash alike only at one scale: numeric keys at the wider.
        if (l->type.id == SqlTypeId::kNumeric && l->type.scale != r->type.scale) {
          SqlType wide = SqlType::Numeric(kMaxNumericPrecision, std::max(l->type.scale, r->type.scale));
          HOGLAKE_ASSIGN_OR_RETURN(l, BindCast(l, wide, true));
          HOGLAKE_ASSIGN_OR_RETURN(r, BindCast(r, wide, true));
        }
        left_keys->push_back(l);
        right_keys->push_back(
            RemapColumns(r, [&](int i, bool) { return i - left_width; }));
        continue;
      }
    }
    rest.push_back(c);
  }
  *residual = rest.empty() ? nullptr : CombineConjuncts(rest);
  return Status::Ok();
}

Result<LogicalOpPtr> PlanJoins(std::vector<LogicalOpPtr> items,
                               std::vector<BoundExprPtr> conjuncts) {
  const size_t n = items.size();
  std::vector<int> start(n), width(n);
  int total = 0;
  for (size_t i = 0; i < n; ++i) {
    start[i] = total;
    width[i] = static_cast<int>(items[i]->output.size());
    total += width[i];
  }
  auto item_of = [&](int column) {
    size_t i = 0;
    while (i + 1 < n && column >= start[i + 1]) ++i;
    return i;
  };
  // Conjuncts on one item go below the joins.
  std::vector<std::set<size_t>> refs;
  std::vector<BoundExprPtr> pending, constant;
  std::vector<std::vector<BoundExprPtr>> local(n);
  for (const BoundExprPtr& c : conjuncts) {
    std::vector<int> cols;
    CollectColumns(*c, &cols);
    std::set<size_t> items_used;
    for (int col : cols) items_used.insert(item_of(col));
    if (items_used.empty()) {
      constant.push_back(c);
    } else if (items_used.size() == 1) {
      size_t i = *items_used.begin();
      local[i].push_back(RemapColumns(c, [&](int col, bool) { return col - start[i]; }));
    } else {
      pending.push_back(c);
      refs.push_back(items_used);
      for (size_t i : items_used) {
        if (BoundExprPtr implied = ImpliedOnItem(c, i, item_of)) {
          local[i].push_back(RemapColumns(implied, [&](int col, bool) { return col - start[i]; }));
        }
      }
    }
  }
  for (size_t i = 0; i < n; ++i) {
    if (!local[i].empty()) items[i] = MakeFilter(items[i], CombineConjuncts(local[i]));
  }
  std::vector<double> rows(n);
  for (size_t i = 0; i < n; ++i) rows[i] = EstimateRows(*items[i]);

  std::vector<bool> joined(n, false);
  std::vector<int> position(n, -1);  // start of item i in the current plan
  size_t first = 0;
  for (size_t i = 1; i < n; ++i) {
    if (rows[i] > rows[first]) first = i;
  }
  LogicalOpPtr plan = items[first];
  joined[first] = true;
  position[first] = 0;
  int plan_width = width[first];
  std::vector<bool> applied(pending.size(), false);
  double current_rows = rows[first];
  // The estimated rows of joining item i to `set` (of `set_rows` rows): an
  // equality with the set divides the product by the larger key's
  // distinct count (from the files' bounds where they tell), no equality
  // leaves the cross product.
  auto join_estimate = [&](size_t i, const std::vector<bool>& set, double set_rows) {
    double divisor = 1;
    for (size_t c = 0; c < pending.size(); ++c) {
      if (applied[c] || !refs[c].count(i) || refs[c].size() != 2) continue;
      bool others_joined = true;
      for (size_t j : refs[c]) others_joined &= (j == i || set[j]);
      if (!others_joined) continue;
      const BoundExpr& e = *pending[c];
      if (e.kind != BoundKind::kCall || e.function != &kEqual) continue;
      double ndv = 1;
      for (const BoundExprPtr& side : e.args) {
        std::vector<int> cols;
        CollectColumns(*side, &cols);
        if (cols.size() != 1) continue;
        size_t item = item_of(cols[0]);
        ndv = std::max(ndv, DistinctEstimate(*items[item], cols[0] - start[item], rows[item]));
      }
      divisor = std::max(divisor, ndv);
    }
    return set_rows * rows[i] / divisor;
  };
  for (size_t step = 1; step < n; ++step) {
    // The item that, with the best item joined after it, gives the fewest
    // estimated rows over those two joins: looking one join ahead finds a
    // join that does not shrink the rows itself but reaches a filtered
    // item that does (lineitem ⋈ supplier before ⋈ nation). Ties go to
    // the smaller item.
    std::optional<size_t> pick;
    double best = 0, best_cost = 0;
    for (size_t i = 0; i < n; ++i) {
      if (joined[i]) continue;
      double estimate = join_estimate(i, joined, current_rows);
      std::vector<bool> after = joined;
      after[i] = true;
      std::optional<double> ahead;
      for (size_t j = 0; j < n; ++j) {
        if (after[j]) continue;
        double e = join_estimate(j, after, std::max(1.0, estimate));
        if (!ahead || e < *ahead) ahead = e;
      }
      double cost = estimate + ahead.value_or(0);
      if (!pick || cost < best_cost || (cost == best_cost && rows[i] < rows[*pick])) {
        pick = i;
        best = estimate;
        best_cost = cost;
      }
    }
    size_t next = *pick;
    current_rows = std::max(1.0, best);
    position[next] = plan_width;
    joined[next] = true;
    std::vector<BoundExprPtr> now;
    for (size_t c = 0; c < pending.size(); ++c) {
      if (applied[c]) continue;
      bool ready = true;
      for (size_t j : refs[c]) ready &= joined[j];
      if (!ready) continue;
      applied[c] = true;
      now.push_back(RemapColumns(pending[c], [&](int col, bool) {
        size_t i = item_of(col);
        return position[i] + (col - start[i]);
      }));
    }
    auto join = std::make_shared<LogicalOp>();
    join->kind = LogicalKind::kJoin;
    join->join_kind = JoinKind::kInner;
    join->children = {plan, items[next]};
    join->output = plan->output;
    join->output.insert(join->output.end(), items[next]->output.begin(),
                        items[next]->output.end());
    HOGLAKE_RETURN_IF_ERROR(SplitJoinCondition(now, plan_width, &join->left_keys,
                                               &join->right_keys, &join->join_condition));
    plan = join;
    plan_width += width[next];
  }
  // Back to the FROM list's column order.
  std::vector<BoundExprPtr> exprs;
  std::vector<std::string> names;
  bool identity = true;
  for (size_t i = 0; i < n; ++i) {
    for (int k = 0; k < width[i]; ++k) {
      int at = position[i] + k;
      identity &= at == static_cast<int>(exprs.size());
      const OutputColumn& col = plan->output[at];
      exprs.push_back(MakeColumn(at, col.type, col.name));
      names.push_back(col.name);
    }
  }
  if (!identity) plan = MakeProject(plan, std::move(exprs), std::move(names));
  if (!constant.empty()) plan = MakeFilter(plan, CombineConjuncts(constant));
  (void)OutputNames;
  return plan;
}

}  // namespace hoglake::sql

namespace hoglake::sql {
namespace {

void RenderExplain(const LogicalOp& op, int depth, std::string* out) {
  std::string line = op.ToString(depth);
  line.resize(line.find('\n'));
  *out += line + StrCat(" (est. rows=", static_cast<int64_t>(EstimateRows(op) + 0.5), ")\n");
  for (const LogicalOpPtr& child : op.children) RenderExplain(*child, depth + 1, out);
}

}  // namespace

std::string ExplainText(const LogicalOp& plan) {
  std::string out;
  RenderExplain(plan, 0, &out);
  return out;
}

}  // namespace hoglake::sql
