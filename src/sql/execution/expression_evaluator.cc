#include "sql/execution/expression_evaluator.h"

#include "columnar/builder.h"
#include "columnar/take.h"
#include "sql/execution/vector_ops.h"
#include "sql/function/cast.h"
#include "sql/function/constant_comparison.h"
#include "sql/function/scalar_function.h"

namespace hoglake::sql {
namespace {

using columnar::ArrayPtr;
using columnar::RecordBatch;

// Marks the batch columns `expr` reads.
void MarkColumns(const BoundExpr& expr, std::vector<bool>* used) {
  if (expr.kind == BoundKind::kColumn && expr.column >= 0 &&
      expr.column < static_cast<int>(used->size())) {
    (*used)[expr.column] = true;
  }
  for (const BoundExprPtr& arg : expr.args) MarkColumns(*arg, used);
}

// The batch narrowed to `rows`, for evaluating `expr` on them: only the
// columns `expr` reads are taken, the others left null (nothing reads them).
Result<RecordBatch> TakeBatch(const RecordBatch& batch, const std::vector<int64_t>& rows,
                              const BoundExpr& expr) {
  if (static_cast<int64_t>(rows.size()) == batch.num_rows) return batch;
  std::vector<bool> used(batch.columns.size(), false);
  MarkColumns(expr, &used);
  RecordBatch out;
  out.schema = batch.schema;
  out.num_rows = static_cast<int64_t>(rows.size());
  out.columns.resize(batch.columns.size());
  for (size_t c = 0; c < batch.columns.size(); ++c) {
    if (!used[c]) continue;
    HOGLAKE_ASSIGN_OR_RETURN(out.columns[c], columnar::TakeRows(*batch.columns[c], rows));
  }
  return out;
}

// A comparison of an expression with a constant: `operand op constant`
// (a constant on the left is moved to the right, the operator mirrored).
struct ConstantComparison {
  const BoundExpr* operand = nullptr;
  const Value* constant = nullptr;
  ComparisonOp op = ComparisonOp::kEq;
};

std::optional<ConstantComparison> MatchConstantComparison(const BoundExpr& expr) {
  std::optional<ComparisonOp> op = ComparisonOf(expr);
  if (!op) return std::nullopt;
  const BoundExpr& left = *expr.args[0];
  const BoundExpr& right = *expr.args[1];
  const bool left_constant = left.kind == BoundKind::kConstant;
  const bool right_constant = right.kind == BoundKind::kConstant;
  if (left_constant == right_constant) return std::nullopt;
  if (right_constant) return ConstantComparison{&left, &right.value, *op};
  return ConstantComparison{&right, &left.value, Mirrored(*op)};
}

// `x = c1 OR x = c2 OR …` over one x (an IN list as bound): x and the
// constants; nullopt for any other OR.
struct InListMatch {
  const BoundExpr* operand = nullptr;
  std::vector<const Value*> constants;
};

std::optional<InListMatch> MatchInList(const BoundExpr& expr) {
  InListMatch match;
  std::string operand_key;
  for (const BoundExprPtr& arm : expr.args) {
    std::optional<ConstantComparison> c = MatchConstantComparison(*arm);
    if (!c || c->op != ComparisonOp::kEq) return std::nullopt;
    if (!match.operand) {
      match.operand = c->operand;
    } else if (c->operand != match.operand) {
      if (operand_key.empty()) operand_key = match.operand->Key();
      if (c->operand->Key() != operand_key) return std::nullopt;
    }
    match.constants.push_back(c->constant);
  }
  if (!match.operand) return std::nullopt;
  return match;
}

// Builds the result row by row: row i comes from parts[pick[i].first] at
// pick[i].second (a null part index −1 means NULL).
Result<ArrayPtr> Interleave(const SqlType& type, const std::vector<ArrayPtr>& parts,
                            const std::vector<SqlType>& part_types,
                            const std::vector<std::pair<int, int64_t>>& pick) {
  std::unique_ptr<columnar::ArrayBuilder> builder = columnar::MakeBuilder(CarrierType(type));
  for (const auto& [part, row] : pick) {
    if (part < 0) {
      builder->AppendNull();
      continue;
    }
    Value v = ValueAt(*parts[part], row, part_types[part]);
    v.type = type;
    if (type.id == SqlTypeId::kNumeric && part_types[part].scale != type.scale && !v.is_null) {
      HOGLAKE_ASSIGN_OR_RETURN(v, CastValue(ValueAt(*parts[part], row, part_types[part]), type));
      v.type = type;
    }
    HOGLAKE_RETURN_IF_ERROR(AppendValue(builder.get(), v));
  }
  return builder->Finish();
}

Result<ArrayPtr> EvaluateAndOr(const BoundExpr& expr, const RecordBatch& batch) {
  bool is_and = expr.kind == BoundKind::kAnd;
  const int64_t n = batch.num_rows;
  // state: 0 false, 1 true, 2 null
  std::vector<uint8_t> state(n, is_and ? 1 : 0);
  std::vector<int64_t> open(n);
  for (int64_t i = 0; i < n; ++i) open[i] = i;
  for (const BoundExprPtr& arg : expr.args) {
    if (open.empty()) break;
    HOGLAKE_ASSIGN_OR_RETURN(RecordBatch sub, TakeBatch(batch, open, *arg));
    HOGLAKE_ASSIGN_OR_RETURN(ArrayPtr v, Evaluate(*arg, sub));
    std::vector<int64_t> still;
    for (size_t k = 0; k < open.size(); ++k) {
      int64_t row = open[k];
      if (v->IsNull(k)) {
        state[row] = 2;
        still.push_back(row);
      } else if (v->GetBool(k) != is_and) {
        state[row] = is_and ? 0 : 1;  // decided
      } else {
        still.push_back(row);
      }
    }
    open = std::move(still);
  }
  BoolOutput out(n);
  for (int64_t i = 0; i < n; ++i) {
    if (state[i] == 2) {
      out.SetNull(i);
    } else {
      out.Set(i, state[i] == 1);
    }
  }
  return out.Finish();
}

Result<ArrayPtr> EvaluateCase(const BoundExpr& expr, const RecordBatch& batch) {
  const int64_t n = batch.num_rows;
  std::vector<int64_t> open(n);
  for (int64_t i = 0; i < n; ++i) open[i] = i;
  std::vector<std::pair<int, int64_t>> pick(n, {-1, 0});
  std::vector<ArrayPtr> parts;
  std::vector<SqlType> part_types;
  size_t pairs = (expr.args.size() - (expr.has_else ? 1 : 0)) / 2;
  for (size_t w = 0; w < pairs && !open.empty(); ++w) {
    HOGLAKE_ASSIGN_OR_RETURN(RecordBatch sub, TakeBatch(batch, open, *expr.args[2 * w]));
    HOGLAKE_ASSIGN_OR_RETURN(ArrayPtr cond, Evaluate(*expr.args[2 * w], sub));
    std::vector<int64_t> chosen, rest;
    for (size_t k = 0; k < open.size(); ++k) {
      (IsTrue(*cond, k) ? chosen : rest).push_back(open[k]);
    }
    if (!chosen.empty()) {
      HOGLAKE_ASSIGN_OR_RETURN(RecordBatch csub, TakeBatch(batch, chosen, *expr.args[2 * w + 1]));
      HOGLAKE_ASSIGN_OR_RETURN(ArrayPtr result, Evaluate(*expr.args[2 * w + 1], csub));
      int part = static_cast<int>(parts.size());
      parts.push_back(result);
      part_types.push_back(expr.args[2 * w + 1]->type);
      for (size_t k = 0; k < chosen.size(); ++k) pick[chosen[k]] = {part, static_cast<int64_t>(k)};
    }
    open = std::move(rest);
  }
  if (expr.has_else && !open.empty()) {
    HOGLAKE_ASSIGN_OR_RETURN(RecordBatch sub, TakeBatch(batch, open, *expr.args.back()));
    HOGLAKE_ASSIGN_OR_RETURN(ArrayPtr result, Evaluate(*expr.args.back(), sub));
    int part = static_cast<int>(parts.size());
    parts.push_back(result);
    part_types.push_back(expr.args.back()->type);
    for (size_t k = 0; k < open.size(); ++k) pick[open[k]] = {part, static_cast<int64_t>(k)};
  }
  return Interleave(expr.type, parts, part_types, pick);
}

Result<ArrayPtr> EvaluateCoalesce(const BoundExpr& expr, const RecordBatch& batch) {
  const int64_t n = batch.num_rows;
  std::vector<int64_t> open(n);
  for (int64_t i = 0; i < n; ++i) open[i] = i;
  std::vector<std::pair<int, int64_t>> pick(n, {-1, 0});
  std::vector<ArrayPtr> parts;
  std::vector<SqlType> part_types;
  for (const BoundExprPtr& arg : expr.args) {
    if (open.empty()) break;
    HOGLAKE_ASSIGN_OR_RETURN(RecordBatch sub, TakeBatch(batch, open, *arg));
    HOGLAKE_ASSIGN_OR_RETURN(ArrayPtr v, Evaluate(*arg, sub));
    if (parts.empty() && v->null_count == 0 && arg->type == expr.type) return v;
    int part = static_cast<int>(parts.size());
    parts.push_back(v);
    part_types.push_back(arg->type);
    std::vector<int64_t> rest;
    for (size_t k = 0; k < open.size(); ++k) {
      if (v->IsNull(k)) {
        rest.push_back(open[k]);
      } else {
        pick[open[k]] = {part, static_cast<int64_t>(k)};
      }
    }
    open = std::move(rest);
  }
  return Interleave(expr.type, parts, part_types, pick);
}

}  // namespace

Result<ArrayPtr> Evaluate(const BoundExpr& expr, const RecordBatch& batch) {
  switch (expr.kind) {
    case BoundKind::kColumn:
      return batch.columns[expr.column];
    case BoundKind::kConstant:
      return BroadcastValue(expr.value, batch.num_rows);
    case BoundKind::kCall: {
      if (std::optional<ConstantComparison> c = MatchConstantComparison(expr)) {
        HOGLAKE_ASSIGN_OR_RETURN(ArrayPtr v, Evaluate(*c->operand, batch));
        return CompareToConstant(*v, c->operand->type, c->op, *c->constant, batch.num_rows);
      }
      std::vector<ArrayPtr> args;
      args.reserve(expr.args.size());
      for (const BoundExprPtr& arg : expr.args) {
        HOGLAKE_ASSIGN_OR_RETURN(ArrayPtr v, Evaluate(*arg, batch));
        args.push_back(std::move(v));
      }
      return expr.function->kernel(args, expr, batch.num_rows);
    }
    case BoundKind::kCast: {
      HOGLAKE_ASSIGN_OR_RETURN(ArrayPtr v, Evaluate(*expr.args[0], batch));
      return CastArray(v, expr.args[0]->type, expr.type);
    }
    case BoundKind::kOr:
      if (std::optional<InListMatch> in = MatchInList(expr)) {
        HOGLAKE_ASSIGN_OR_RETURN(ArrayPtr v, Evaluate(*in->operand, batch));
        return InConstants(*v, in->operand->type, in->constants, batch.num_rows);
      }
      return EvaluateAndOr(expr, batch);
    case BoundKind::kAnd:
      return EvaluateAndOr(expr, batch);
    case BoundKind::kNot: {
      HOGLAKE_ASSIGN_OR_RETURN(ArrayPtr v, Evaluate(*expr.args[0], batch));
      BoolOutput out(batch.num_rows);
      for (int64_t i = 0; i < batch.num_rows; ++i) {
        if (v->IsNull(i)) {
          out.SetNull(i);
        } else {
          out.Set(i, !v->GetBool(i));
        }
      }
      return out.Finish();
    }
    case BoundKind::kIsNull: {
      HOGLAKE_ASSIGN_OR_RETURN(ArrayPtr v, Evaluate(*expr.args[0], batch));
      BoolOutput out(batch.num_rows);
      for (int64_t i = 0; i < batch.num_rows; ++i) out.Set(i, v->IsNull(i) != expr.negated);
      return out.Finish();
    }
    case BoundKind::kCase:
      return EvaluateCase(expr, batch);
    case BoundKind::kCoalesce:
      return EvaluateCoalesce(expr, batch);
  }
  return Internal("unknown bound expression kind");
}

Result<std::vector<int64_t>> SelectTrue(const BoundExpr& predicate, const RecordBatch& batch) {
  // A conjunction is narrowed conjunct by conjunct: each is evaluated only
  // on the rows no earlier conjunct made false (a row an earlier conjunct
  // made NULL is still evaluated, as AND does, but can no longer pass).
  std::vector<const BoundExpr*> conjuncts;
  if (predicate.kind == BoundKind::kAnd) {
    for (const BoundExprPtr& arg : predicate.args) conjuncts.push_back(arg.get());
  } else {
    conjuncts.push_back(&predicate);
  }
  std::vector<int64_t> open(batch.num_rows);
  for (int64_t i = 0; i < batch.num_rows; ++i) open[i] = i;
  std::vector<bool> null_seen;  // parallel to `open`, once some conjunct was NULL
  for (const BoundExpr* conjunct : conjuncts) {
    if (open.empty()) break;
    HOGLAKE_ASSIGN_OR_RETURN(RecordBatch sub, TakeBatch(batch, open, *conjunct));
    HOGLAKE_ASSIGN_OR_RETURN(ArrayPtr v, Evaluate(*conjunct, sub));
    const int64_t n = static_cast<int64_t>(open.size());
    if (v->null_count > 0 && null_seen.empty()) null_seen.assign(open.size(), false);
    int64_t kept = 0;
    for (int64_t k = 0; k < n; ++k) {
      const bool is_null = v->IsNull(k);
      if (!is_null && !v->GetBool(k)) continue;
      open[kept] = open[k];
      if (!null_seen.empty()) null_seen[kept] = null_seen[k] || is_null;
      ++kept;
    }
    open.resize(kept);
    if (!null_seen.empty()) null_seen.resize(kept);
  }
  if (null_seen.empty()) return open;
  std::vector<int64_t> rows;
  rows.reserve(open.size());
  for (size_t k = 0; k < open.size(); ++k) {
    if (!null_seen[k]) rows.push_back(open[k]);
  }
  return rows;
}

}  // namespace hoglake::sql
