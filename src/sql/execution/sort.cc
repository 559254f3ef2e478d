// ORDER BY: gathers its input, sorts row indices by the keys (PostgreSQL's
// ordering: NULLS LAST ascending and FIRST descending unless said; NaN
// above every number) with a stable sort, and emits the rows in morsels.
#include <algorithm>
#include <numeric>

#include "columnar/concat.h"
#include "columnar/slice.h"
#include "columnar/take.h"
#include "sql/execution/expression_evaluator.h"
#include "sql/execution/operators.h"
#include "sql/function/compare_values.h"

namespace hoglake::sql {
namespace {

constexpr int64_t kMorselRows = 8192;

class SortOperator : public PhysicalOperator {
 public:
  SortOperator(const LogicalOp& plan, ExecContext& ctx, Children children)
      : PhysicalOperator(plan), ctx_(ctx) {
    children_ = std::move(children);
  }
  ~SortOperator() override { ctx_.Release(held_); }

 protected:
  Result<std::optional<columnar::RecordBatch>> NextImpl() override {
    if (!sorted_) {
      HOGLAKE_RETURN_IF_ERROR(SortInput());
      sorted_ = true;
    }
    if (position_ >= sorted_batch_.num_rows) return EndOfStream();
    int64_t length = std::min(kMorselRows, sorted_batch_.num_rows - position_);
    HOGLAKE_ASSIGN_OR_RETURN(columnar::RecordBatch out,
                             columnar::SliceBatch(sorted_batch_, position_, length));
    position_ += length;
    out.schema = schema_;
    return Emit(std::move(out));
  }

 private:
  Status SortInput() {
    std::vector<columnar::RecordBatch> batches;
    while (true) {
      HOGLAKE_RETURN_IF_ERROR(ctx_.CheckCancelled());
      HOGLAKE_ASSIGN_OR_RETURN(std::optional<columnar::RecordBatch> batch, children_[0]->Next());
      if (!batch) break;
      int64_t bytes = BatchBytes(*batch);
      HOGLAKE_RETURN_IF_ERROR(ctx_.Reserve(bytes));
      held_ += bytes;
      batch->schema = schema_;
      batches.push_back(std::move(*batch));
    }
    if (batches.empty()) return Status::Ok();
    HOGLAKE_ASSIGN_OR_RETURN(columnar::RecordBatch all, columnar::ConcatBatches(batches));
    batches.clear();
    std::vector<columnar::ArrayPtr> keys;
    for (const SortKey& key : plan_.sort_keys) {
      HOGLAKE_ASSIGN_OR_RETURN(columnar::ArrayPtr k, Evaluate(*key.expr, all));
      keys.push_back(std::move(k));
    }
    std::vector<int64_t> order(all.num_rows);
    std::iota(order.begin(), order.end(), 0);
    const auto& sort_keys = plan_.sort_keys;
    std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
      for (size_t k = 0; k < keys.size(); ++k) {
        const columnar::ArrayData& col = *keys[k];
        bool an = col.IsNull(a), bn = col.IsNull(b);
        if (an || bn) {
          if (an == bn) continue;
          // nulls_first: a null sorts before a value.
          return an == sort_keys[k].nulls_first;
        }
        const SqlType& type = sort_keys[k].expr->type;
        int c = CompareValues(col, a, type, col, b, type);
        if (c != 0) return sort_keys[k].descending ? c > 0 : c < 0;
      }
      return false;
    });
    HOGLAKE_ASSIGN_OR_RETURN(sorted_batch_, columnar::TakeRows(all, order));
    return Status::Ok();
  }

  ExecContext& ctx_;
  bool sorted_ = false;
  columnar::RecordBatch sorted_batch_;
  int64_t position_ = 0;
  int64_t held_ = 0;
};

}  // namespace

Result<OperatorPtr> MakeSortOperator(const LogicalOp& plan, ExecContext& ctx, Children children) {
  return OperatorPtr(new SortOperator(plan, ctx, std::move(children)));
}

}  // namespace hoglake::sql
