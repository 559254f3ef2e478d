#include "sql/optimizer/constant_folding.h"

#include <string_view>

#include "sql/binder/expression_binder.h"
#include "sql/function/scalar_function.h"

namespace hoglake::sql {
namespace {

bool IsVolatile(const BoundExpr& expr) {
  return expr.kind == BoundKind::kCall && expr.function != nullptr &&
         expr.function->name == std::string_view("random");
}

BoundExprPtr Fold(const BoundExprPtr& expr) {
  if (!expr || expr->kind == BoundKind::kConstant || expr->kind == BoundKind::kColumn) {
    return expr;
  }
  std::vector<BoundExprPtr> args;
  args.reserve(expr->args.size());
  bool changed = false;
  bool all_constant = true;
  for (const BoundExprPtr& arg : expr->args) {
    BoundExprPtr folded = Fold(arg);
    changed = changed || folded != arg;
    all_constant = all_constant && folded && folded->kind == BoundKind::kConstant;
    args.push_back(std::move(folded));
  }
  BoundExprPtr current = expr;
  if (changed) {
    auto copy = std::make_shared<BoundExpr>(*expr);
    copy->args = std::move(args);
    current = copy;
  }
  if ((current->kind != BoundKind::kCall && current->kind != BoundKind::kCast) || !all_constant ||
      IsVolatile(*current)) {
    return current;
  }
  Result<Value> value = FoldConstant(*current);
  if (!value.ok()) return current;
  auto constant = std::make_shared<BoundExpr>();
  constant->kind = BoundKind::kConstant;
  constant->type = current->type;
  constant->value = std::move(*value);
  constant->value.type = current->type;
  constant->name = current->name;
  return constant;
}

void FoldAll(std::vector<BoundExprPtr>& exprs) {
  for (BoundExprPtr& e : exprs) e = Fold(e);
}

}  // namespace

void FoldConstants(LogicalOp& plan) {
  for (const LogicalOpPtr& child : plan.children) FoldConstants(*child);
  if (plan.scan) FoldAll(plan.scan->filters);
  plan.predicate = Fold(plan.predicate);
  FoldAll(plan.expressions);
  FoldAll(plan.group_keys);
  for (BoundAggregate& agg : plan.aggregates) {
    FoldAll(agg.args);
    agg.filter = Fold(agg.filter);
  }
  FoldAll(plan.left_keys);
  FoldAll(plan.right_keys);
  plan.join_condition = Fold(plan.join_condition);
  for (SortKey& key : plan.sort_keys) key.expr = Fold(key.expr);
}

}  // namespace hoglake::sql
