#include "sql/optimizer/column_pruning.h"

#include "sql/binder/query_binder.h"

namespace hoglake::sql {
namespace {

struct Pruned {
  LogicalOpPtr op;
  std::vector<int> map;  // old output index → new index, −1 when dropped
};

void Need(const BoundExprPtr& e, std::vector<bool>* need, int base = 0) {
  if (!e) return;
  std::vector<int> cols;
  CollectColumns(*e, &cols);
  for (int c : cols) {
    int i = c - base;
    if (i >= 0 && i < static_cast<int>(need->size())) (*need)[i] = true;
  }
}

BoundExprPtr Remap(const BoundExprPtr& e, const std::vector<int>& map) {
  if (!e) return e;
  return RemapColumns(e, [&](int i, bool) { return map[i]; });
}

Result<Pruned> Prune(const LogicalOpPtr& op, const std::vector<bool>& required);

Pruned Identity(const LogicalOpPtr& op) {
  Pruned p{op, {}};
  for (size_t i = 0; i < op->output.size(); ++i) p.map.push_back(static_cast<int>(i));
  return p;
}

Result<Pruned> PruneAllChildren(const LogicalOpPtr& op) {
  auto copy = std::make_shared<LogicalOp>(*op);
  for (LogicalOpPtr& child : copy->children) {
    HOGLAKE_ASSIGN_OR_RETURN(Pruned c, Prune(child, std::vector<bool>(child->output.size(), true)));
    child = c.op;
  }
  return Identity(copy);
}

Result<Pruned> Prune(const LogicalOpPtr& op, const std::vector<bool>& required) {
  switch (op->kind) {
    case LogicalKind::kScan: {
      std::vector<bool> need = required;
      for (const BoundExprPtr& f : op->scan->filters) Need(f, &need);
      auto copy = std::make_shared<LogicalOp>(*op);
      auto spec = std::make_shared<ScanSpec>(*op->scan);
      spec->field_ids.clear();
      spec->fields.clear();
      copy->output.clear();
      Pruned p;
      for (size_t i = 0; i < op->output.size(); ++i) {
        if (!need[i]) {
          p.map.push_back(-1);
          continue;
        }
        p.map.push_back(static_cast<int>(copy->output.size()));
        copy->output.push_back(op->output[i]);
        spec->field_ids.push_back(op->scan->field_ids[i]);
        spec->fields.push_back(op->scan->fields[i]);
      }
      for (BoundExprPtr& f : spec->filters) f = Remap(f, p.map);
      copy->scan = spec;
      p.op = copy;
      return p;
    }
    case LogicalKind::kValues:
      return Identity(op);
    case LogicalKind::kFilter: {
      std::vector<bool> need = required;
      Need(op->predicate, &need);
      HOGLAKE_ASSIGN_OR_RETURN(Pruned child, Prune(op->children[0], need));
      auto copy = std::make_shared<LogicalOp>(*op);
      copy->children = {child.op};
      copy->output = child.op->output;
      copy->predicate = Remap(op->predicate, child.map);
      return Pruned{copy, child.map};
    }
    case LogicalKind::kProject: {
      std::vector<bool> need(op->children[0]->output.size(), false);
      for (size_t i = 0; i < op->expressions.size(); ++i) {
        if (required[i]) Need(op->expressions[i], &need);
      }
      HOGLAKE_ASSIGN_OR_RETURN(Pruned child, Prune(op->children[0], need));
      auto copy = std::make_shared<LogicalOp>(*op);
      copy->children = {child.op};
      copy->expressions.clear();
      copy->output.clear();
      Pruned p;
      for (size_t i = 0; i < op->expressions.size(); ++i) {
        if (!required[i]) {
          p.map.push_back(-1);
          continue;
        }
        p.map.push_back(static_cast<int>(copy->expressions.size()));
        copy->expressions.push_back(Remap(op->expressions[i], child.map));
        copy->output.push_back(op->output[i]);
      }
      p.op = copy;
      return p;
    }
    case LogicalKind::kAggregate: {
      std::vector<bool> need(op->children[0]->output.size(), false);
      for (const BoundExprPtr& k : op->group_keys) Need(k, &need);
      for (const BoundAggregate& a : op->aggregates) {
        for (const BoundExprPtr& arg : a.args) Need(arg, &need);
        Need(a.filter, &need);
      }
      HOGLAKE_ASSIGN_OR_RETURN(Pruned child, Prune(op->children[0], need));
      auto copy = std::make_shared<LogicalOp>(*op);
      copy->children = {child.op};
      for (BoundExprPtr& k : copy->group_keys) k = Remap(k, child.map);
      for (BoundAggregate& a : copy->aggregates) {
        for (BoundExprPtr& arg : a.args) arg = Remap(arg, child.map);
        a.filter = Remap(a.filter, child.map);
      }
      return Identity(copy);
    }
    case LogicalKind::kJoin: {
      const LogicalOpPtr& l = op->children[0];
      const LogicalOpPtr& r = op->children[1];
      int ln = static_cast<int>(l->output.size());
      int rn = static_cast<int>(r->output.size());
      bool left_only = op->join_kind == JoinKind::kSemi || op->join_kind == JoinKind::kAnti;
      std::vector<bool> need_l(ln, false), need_r(rn, false);
      for (int i = 0; i < ln; ++i) need_l[i] = required[i];
      for (int i = 0; i < rn && !left_only; ++i) need_r[i] = required[ln + i];
      for (const BoundExprPtr& k : op->left_keys) Need(k, &need_l);
      for (const BoundExprPtr& k : op->right_keys) Need(k, &need_r);
      Need(op->join_condition, &need_l);
      Need(op->join_condition, &need_r, ln);
      HOGLAKE_ASSIGN_OR_RETURN(Pruned pl, Prune(l, need_l));
      HOGLAKE_ASSIGN_OR_RETURN(Pruned pr, Prune(r, need_r));
      int new_ln = static_cast<int>(pl.op->output.size());
      auto copy = std::make_shared<LogicalOp>(*op);
      copy->children = {pl.op, pr.op};
      for (BoundExprPtr& k : copy->left_keys) k = Remap(k, pl.map);
      for (BoundExprPtr& k : copy->right_keys) k = Remap(k, pr.map);
      if (op->join_condition) {
        copy->join_condition = RemapColumns(op->join_condition, [&](int i, bool) {
          return i < ln ? pl.map[i] : new_ln + pr.map[i - ln];
        });
      }
      copy->output = pl.op->output;
      Pruned p{copy, pl.map};
      if (!left_only) {
        copy->output.insert(copy->output.end(), pr.op->output.begin(), pr.op->output.end());
        for (int i = 0; i < rn; ++i) p.map.push_back(pr.map[i] < 0 ? -1 : new_ln + pr.map[i]);
      }
      return p;
    }
    case LogicalKind::kSort: {
      std::vector<bool> need = required;
      for (const SortKey& k : op->sort_keys) Need(k.expr, &need);
      HOGLAKE_ASSIGN_OR_RETURN(Pruned child, Prune(op->children[0], need));
      auto copy = std::make_shared<LogicalOp>(*op);
      copy->children = {child.op};
      copy->output = child.op->output;
      for (SortKey& k : copy->sort_keys) k.expr = Remap(k.expr, child.map);
      return Pruned{copy, child.map};
    }
    case LogicalKind::kLimit: {
      HOGLAKE_ASSIGN_OR_RETURN(Pruned child, Prune(op->children[0], required));
      auto copy = std::make_shared<LogicalOp>(*op);
      copy->children = {child.op};
      copy->output = child.op->output;
      return Pruned{copy, child.map};
    }
    case LogicalKind::kWindow: {
      // Child columns the output needs or a kept window reads; windows
      // nobody reads are dropped.
      const int width = static_cast<int>(op->children[0]->output.size());
      std::vector<bool> need(required.begin(), required.begin() + width);
      for (size_t w = 0; w < op->windows.size(); ++w) {
        if (!required[width + w]) continue;
        const BoundWindow& win = op->windows[w];
        for (const BoundExprPtr& a : win.args) Need(a, &need);
        for (const BoundExprPtr& a : win.aggregate.args) Need(a, &need);
        Need(win.aggregate.filter, &need);
        for (const BoundExprPtr& p : win.partition_by) Need(p, &need);
        for (const SortKey& k : win.order_by) Need(k.expr, &need);
        Need(win.frame.range_key, &need);
        Need(win.frame.start_value, &need);
        Need(win.frame.end_value, &need);
      }
      HOGLAKE_ASSIGN_OR_RETURN(Pruned child, Prune(op->children[0], need));
      auto copy = std::make_shared<LogicalOp>(*op);
      copy->children = {child.op};
      copy->output = child.op->output;
      copy->windows.clear();
      Pruned p{copy, child.map};
      for (size_t w = 0; w < op->windows.size(); ++w) {
        if (!required[width + w]) {
          p.map.push_back(-1);
          continue;
        }
        BoundWindow win = op->windows[w];
        for (BoundExprPtr& a : win.args) a = Remap(a, child.map);
        for (BoundExprPtr& a : win.aggregate.args) a = Remap(a, child.map);
        win.aggregate.filter = Remap(win.aggregate.filter, child.map);
        for (BoundExprPtr& e : win.partition_by) e = Remap(e, child.map);
        for (SortKey& k : win.order_by) k.expr = Remap(k.expr, child.map);
        win.frame.range_key = Remap(win.frame.range_key, child.map);
        win.frame.start_value = Remap(win.frame.start_value, child.map);
        win.frame.end_value = Remap(win.frame.end_value, child.map);
        p.map.push_back(static_cast<int>(copy->output.size()));
        copy->output.push_back(op->output[width + w]);
        copy->windows.push_back(std::move(win));
      }
      if (copy->windows.empty()) {
        child.map.resize(op->output.size(), -1);
        return child;
      }
      return p;
    }
    case LogicalKind::kDistinct:
    case LogicalKind::kUnion:
    case LogicalKind::kSetOp:
      return PruneAllChildren(op);
  }
  return Internal("plan kind");
}

}  // namespace

Result<LogicalOpPtr> PruneColumns(const LogicalOpPtr& plan) {
  HOGLAKE_ASSIGN_OR_RETURN(Pruned p, Prune(plan, std::vector<bool>(plan->output.size(), true)));
  return p.op;
}

}  // namespace hoglake::sql
