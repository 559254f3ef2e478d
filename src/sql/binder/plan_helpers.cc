// Small logical-plan constructors and expression rewrites shared by the
// binder and the optimizer (declared in query_binder.h).
#include "sql/binder/query_binder.h"

namespace hoglake::sql {

LogicalOpPtr MakeProject(LogicalOpPtr child, std::vector<BoundExprPtr> exprs,
                         std::vector<std::string> names) {
  auto op = std::make_shared<LogicalOp>();
  op->kind = LogicalKind::kProject;
  for (size_t i = 0; i < exprs.size(); ++i) {
    op->output.push_back(OutputColumn{names[i], exprs[i]->type});
  }
  op->expressions = std::move(exprs);
  op->children = {std::move(child)};
  return op;
}

LogicalOpPtr MakeFilter(LogicalOpPtr child, BoundExprPtr predicate) {
  auto op = std::make_shared<LogicalOp>();
  op->kind = LogicalKind::kFilter;
  op->output = child->output;
  op->predicate = std::move(predicate);
  op->children = {std::move(child)};
  return op;
}

void SplitConjuncts(const BoundExprPtr& expr, std::vector<BoundExprPtr>* out) {
  if (expr->kind == BoundKind::kAnd) {
    for (const BoundExprPtr& a : expr->args) SplitConjuncts(a, out);
    return;
  }
  out->push_back(expr);
}

BoundExprPtr CombineConjuncts(const std::vector<BoundExprPtr>& conjuncts) {
  if (conjuncts.size() == 1) return conjuncts[0];
  auto e = std::make_shared<BoundExpr>();
  e->kind = BoundKind::kAnd;
  e->type = SqlType::Of(SqlTypeId::kBoolean);
  e->args = conjuncts;
  return e;
}

BoundExprPtr RemapColumns(const BoundExprPtr& expr, const std::function<int(int, bool)>& map) {
  if (expr->kind == BoundKind::kColumn) {
    auto e = std::make_shared<BoundExpr>(*expr);
    e->column = map(expr->column, expr->outer_ref);
    e->outer_ref = false;
    return e;
  }
  if (expr->args.empty()) return expr;
  auto e = std::make_shared<BoundExpr>(*expr);
  for (BoundExprPtr& a : e->args) a = RemapColumns(a, map);
  return e;
}

void CollectColumns(const BoundExpr& expr, std::vector<int>* out, bool outer_refs) {
  if (expr.kind == BoundKind::kColumn) {
    if (expr.outer_ref == outer_refs) out->push_back(expr.column);
    return;
  }
  for (const BoundExprPtr& a : expr.args) CollectColumns(*a, out, outer_refs);
}

}  // namespace hoglake::sql
