// The streaming operators: VALUES, filter, projection, limit/offset and
// UNION ALL. Each handles one batch at a time.
#include "columnar/builder.h"
#include "columnar/slice.h"
#include "columnar/take.h"
#include "sql/execution/expression_evaluator.h"
#include "sql/execution/operators.h"
#include "sql/function/cast.h"

namespace hoglake::sql {

int64_t ArrayBytes(const columnar::ArrayData& array) {
  int64_t bytes = 0;
  for (const auto& buffer : array.buffers) {
    if (buffer) bytes += buffer->size();
  }
  for (const auto& child : array.children) bytes += ArrayBytes(*child);
  return bytes;
}

int64_t BatchBytes(const columnar::RecordBatch& batch) {
  int64_t bytes = 0;
  for (const auto& column : batch.columns) bytes += ArrayBytes(*column);
  return bytes;
}

namespace {

class ValuesOperator : public PhysicalOperator {
 public:
  using PhysicalOperator::PhysicalOperator;

 protected:
  Result<std::optional<columnar::RecordBatch>> NextImpl() override {
    if (done_ || plan_.rows.empty()) return EndOfStream();
    done_ = true;
    std::vector<columnar::ArrayPtr> columns;
    for (size_t c = 0; c < plan_.output.size(); ++c) {
      std::unique_ptr<columnar::ArrayBuilder> builder =
          columnar::MakeBuilder(CarrierType(plan_.output[c].type));
      // An unconstrained numeric column's values are carried at its scale
      // (a cast to unconstrained numeric keeps each value's own).
      SqlType target = plan_.output[c].type;
      if (target.id == SqlTypeId::kNumeric && target.precision < 0) {
        target = SqlType::Numeric(kMaxNumericPrecision, target.scale);
      }
      for (const std::vector<Value>& row : plan_.rows) {
        HOGLAKE_ASSIGN_OR_RETURN(Value v, CastValue(row[c], target));
        v.type = plan_.output[c].type;
        HOGLAKE_RETURN_IF_ERROR(AppendValue(builder.get(), v));
      }
      HOGLAKE_ASSIGN_OR_RETURN(columnar::ArrayPtr array, builder->Finish());
      columns.push_back(array);
    }
    return Emit(MakeBatch(std::move(columns), static_cast<int64_t>(plan_.rows.size())));
  }

 private:
  bool done_ = false;
};

class UnaryOperator : public PhysicalOperator {
 public:
  UnaryOperator(const LogicalOp& plan, ExecContext& ctx, Children children)
      : PhysicalOperator(plan), ctx_(ctx) {
    children_ = std::move(children);
  }

 protected:
  PhysicalOperator& child() { return *children_[0]; }
  ExecContext& ctx_;
};

class FilterOperator : public UnaryOperator {
 public:
  using UnaryOperator::UnaryOperator;
  bool concurrent() const override { return true; }

 protected:
  Result<std::optional<columnar::RecordBatch>> NextImpl() override {
    while (true) {
      HOGLAKE_RETURN_IF_ERROR(ctx_.CheckCancelled());
      HOGLAKE_ASSIGN_OR_RETURN(std::optional<columnar::RecordBatch> batch, child().Next());
      if (!batch) return EndOfStream();
      HOGLAKE_ASSIGN_OR_RETURN(std::vector<int64_t> rows, SelectTrue(*plan_.predicate, *batch));
      if (rows.empty()) continue;
      if (static_cast<int64_t>(rows.size()) == batch->num_rows) {
        batch->schema = schema_;
        return Emit(std::move(batch));
      }
      HOGLAKE_ASSIGN_OR_RETURN(columnar::RecordBatch taken, columnar::TakeRows(*batch, rows));
      taken.schema = schema_;
      return Emit(std::move(taken));
    }
  }
};

class ProjectOperator : public UnaryOperator {
 public:
  using UnaryOperator::UnaryOperator;
  bool concurrent() const override { return true; }

 protected:
  Result<std::optional<columnar::RecordBatch>> NextImpl() override {
    HOGLAKE_RETURN_IF_ERROR(ctx_.CheckCancelled());
    HOGLAKE_ASSIGN_OR_RETURN(std::optional<columnar::RecordBatch> batch, child().Next());
    if (!batch) return EndOfStream();
    std::vector<columnar::ArrayPtr> columns;
    columns.reserve(plan_.expressions.size());
    for (const BoundExprPtr& expr : plan_.expressions) {
      HOGLAKE_ASSIGN_OR_RETURN(columnar::ArrayPtr column, Evaluate(*expr, *batch));
      columns.push_back(std::move(column));
    }
    return Emit(MakeBatch(std::move(columns), batch->num_rows));
  }
};

class LimitOperator : public UnaryOperator {
 public:
  using UnaryOperator::UnaryOperator;

 protected:
  Result<std::optional<columnar::RecordBatch>> NextImpl() override {
    while (true) {
      if (plan_.limit && emitted_ >= *plan_.limit) return EndOfStream();
      HOGLAKE_RETURN_IF_ERROR(ctx_.CheckCancelled());
      HOGLAKE_ASSIGN_OR_RETURN(std::optional<columnar::RecordBatch> batch, child().Next());
      if (!batch) return EndOfStream();
      int64_t start = 0;
      if (skipped_ < plan_.offset) {
        int64_t skip = std::min(plan_.offset - skipped_, batch->num_rows);
        skipped_ += skip;
        start = skip;
      }
      int64_t length = batch->num_rows - start;
      if (plan_.limit) length = std::min(length, *plan_.limit - emitted_);
      if (length <= 0) continue;
      emitted_ += length;
      HOGLAKE_ASSIGN_OR_RETURN(columnar::RecordBatch out,
                               columnar::SliceBatch(*batch, start, length));
      out.schema = schema_;
      return Emit(std::move(out));
    }
  }

 private:
  int64_t skipped_ = 0;
  int64_t emitted_ = 0;
};

class UnionOperator : public UnaryOperator {
 public:
  using UnaryOperator::UnaryOperator;

 protected:
  Result<std::optional<columnar::RecordBatch>> NextImpl() override {
    while (current_ < children_.size()) {
      HOGLAKE_RETURN_IF_ERROR(ctx_.CheckCancelled());
      HOGLAKE_ASSIGN_OR_RETURN(std::optional<columnar::RecordBatch> batch,
                               children_[current_]->Next());
      if (!batch) {
        ++current_;
        continue;
      }
      batch->schema = schema_;
      return Emit(std::move(batch));
    }
    return EndOfStream();
  }

 private:
  size_t current_ = 0;
};

}  // namespace

Result<OperatorPtr> MakeValuesOperator(const LogicalOp& plan, ExecContext&) {
  return OperatorPtr(new ValuesOperator(plan));
}
Result<OperatorPtr> MakeFilterOperator(const LogicalOp& plan, ExecContext& ctx,
                                       Children children) {
  return OperatorPtr(new FilterOperator(plan, ctx, std::move(children)));
}
Result<OperatorPtr> MakeProjectOperator(const LogicalOp& plan, ExecContext& ctx,
                                        Children children) {
  return OperatorPtr(new ProjectOperator(plan, ctx, std::move(children)));
}
Result<OperatorPtr> MakeLimitOperator(const LogicalOp& plan, ExecContext& ctx,
                                      Children children) {
  return OperatorPtr(new LimitOperator(plan, ctx, std::move(children)));
}
Result<OperatorPtr> MakeUnionOperator(const LogicalOp& plan, ExecContext& ctx,
                                      Children children) {
  return OperatorPtr(new UnionOperator(plan, ctx, std::move(children)));
}

}  // namespace hoglake::sql
