// ORDER BY and top-N (ORDER BY … LIMIT): gathers its input, sorts row
// indices by the keys (PostgreSQL's ordering: NULLS LAST ascending and
// FIRST descending unless said; NaN above every number; ties in input
// order), and emits the rows in morsels.
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

// The rows of `batch` ordered by the sort keys (ties in row order), only
// the first `keep` when given.
Result<columnar::RecordBatch> SortRows(const LogicalOp& plan, const columnar::RecordBatch& batch,
                                       std::optional<int64_t> keep) {
  std::vector<columnar::ArrayPtr> keys;
  for (const SortKey& key : plan.sort_keys) {
    HOGLAKE_ASSIGN_OR_RETURN(columnar::ArrayPtr k, Evaluate(*key.expr, batch));
    keys.push_back(std::move(k));
  }
  std::vector<int64_t> order(batch.num_rows);
  std::iota(order.begin(), order.end(), 0);
  const auto& sort_keys = plan.sort_keys;
  auto before = [&](int64_t a, int64_t b) {
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
    return a < b;  // ties keep their input order
  };
  if (keep && *keep < batch.num_rows) {
    std::partial_sort(order.begin(), order.begin() + *keep, order.end(), before);
    order.resize(*keep);
  } else {
    std::sort(order.begin(), order.end(), before);
  }
  return columnar::TakeRows(batch, order);
}

// ORDER BY, and ORDER BY … LIMIT as top-N (`keep` = offset + limit rows):
// the input is pulled by the context's workers into one buffer each; under
// top-N with keep ≤ kCompactRows a buffer past kCompactRows rows is cut
// back to its own first `keep`, so memory stays bounded by the limit, not
// the input.
class SortOperator : public PhysicalOperator {
 public:
  SortOperator(const LogicalOp& plan, ExecContext& ctx, Children children,
               std::optional<int64_t> keep)
      : PhysicalOperator(plan), ctx_(ctx), keep_(keep) {
    children_ = std::move(children);
  }
  ~SortOperator() override { ctx_.Release(held_); }

  std::string Describe() const override {
    std::string line = PhysicalOperator::Describe();
    if (keep_) line += StrCat(" top_n=", *keep_);
    return line;
  }

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
  static constexpr int64_t kCompactRows = 65536;

  struct Buffer {
    std::vector<columnar::RecordBatch> batches;
    int64_t rows = 0;
    int64_t reserved = 0;
  };

  // Top-N: cuts `buffer` back to its first keep_ rows.
  Status Compact(Buffer& buffer) {
    HOGLAKE_ASSIGN_OR_RETURN(columnar::RecordBatch all, columnar::ConcatBatches(buffer.batches));
    HOGLAKE_ASSIGN_OR_RETURN(columnar::RecordBatch top, SortRows(plan_, all, keep_));
    top.schema = schema_;
    const int64_t bytes = BatchBytes(top);
    ctx_.Release(buffer.reserved);
    buffer.reserved = 0;
    HOGLAKE_RETURN_IF_ERROR(ctx_.Reserve(bytes));
    buffer.reserved = bytes;
    buffer.rows = top.num_rows;
    buffer.batches.clear();
    buffer.batches.push_back(std::move(top));
    return Status::Ok();
  }

  Status SortInput() {
    const int workers = PullWorkers(ctx_);
    std::vector<Buffer> buffers(workers);
    Status pulled =
        PullAll(*children_[0], ctx_, workers, [&](columnar::RecordBatch batch, int slot) -> Status {
          Buffer& buffer = buffers[slot];
          int64_t bytes = BatchBytes(batch);
          HOGLAKE_RETURN_IF_ERROR(ctx_.Reserve(bytes));
          buffer.reserved += bytes;
          buffer.rows += batch.num_rows;
          batch.schema = schema_;
          buffer.batches.push_back(std::move(batch));
          if (keep_ && *keep_ <= kCompactRows && buffer.rows > kCompactRows) return Compact(buffer);
          return Status::Ok();
        });
    std::vector<columnar::RecordBatch> batches;
    for (Buffer& buffer : buffers) {
      held_ += buffer.reserved;
      for (columnar::RecordBatch& batch : buffer.batches) batches.push_back(std::move(batch));
    }
    HOGLAKE_RETURN_IF_ERROR(pulled);
    if (batches.empty()) return Status::Ok();
    HOGLAKE_ASSIGN_OR_RETURN(columnar::RecordBatch all, columnar::ConcatBatches(batches));
    batches.clear();
    HOGLAKE_ASSIGN_OR_RETURN(sorted_batch_, SortRows(plan_, all, keep_));
    return Status::Ok();
  }

  ExecContext& ctx_;
  std::optional<int64_t> keep_;
  bool sorted_ = false;
  columnar::RecordBatch sorted_batch_;
  int64_t position_ = 0;
  int64_t held_ = 0;
};

}  // namespace

Result<OperatorPtr> MakeSortOperator(const LogicalOp& plan, ExecContext& ctx, Children children,
                                     std::optional<int64_t> keep) {
  return OperatorPtr(new SortOperator(plan, ctx, std::move(children), keep));
}

}  // namespace hoglake::sql
