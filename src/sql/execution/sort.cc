// ORDER BY and top-N (ORDER BY … LIMIT): gathers its input with every
// worker, orders it on every worker (sort_runs.h: runs sorted in parallel by
// normalized keys, then merged; PostgreSQL's ordering: NULLS LAST ascending
// and FIRST descending unless said, NaN above every number, −0 = +0), and
// emits the rows in morsels gathered in parallel.
#include <algorithm>
#include <span>

#include "columnar/concat.h"
#include "columnar/slice.h"
#include "columnar/take.h"
#include "common/parallel.h"
#include "sql/execution/expression_evaluator.h"
#include "sql/execution/held_buffers.h"
#include "sql/execution/operators.h"
#include "sql/execution/sort_runs.h"

namespace hoglake::sql {
namespace {

constexpr int64_t kMorselRows = 8192;
// A run (one worker's share of the sort) has at least this many rows.
constexpr int64_t kMinRunRows = 4096;

// ORDER BY, and ORDER BY … LIMIT as top-N (`keep` = offset + limit rows):
// the input is pulled by the context's workers into one buffer each; under
// top-N with keep ≤ kCompactRows a buffer past kCompactRows rows is cut
// back to its own first `keep`, so memory stays bounded by the limit, not
// the input. The input is then gathered into one batch, cut into one run
// per worker, ordered, and taken into output morsels; the memory held (the
// buffered input, then the gathered batch, then the morsels not yet
// emitted) counts against the budget.
class SortOperator : public PhysicalOperator {
 public:
  SortOperator(const LogicalOp& plan, ExecContext& ctx, Children children,
               std::optional<int64_t> keep)
      : PhysicalOperator(plan), ctx_(ctx), keep_(keep), held_(ctx) {
    children_ = std::move(children);
  }

  std::string Describe() const override {
    std::string line = PhysicalOperator::Describe();
    if (keep_) line += StrCat(" top_n=", *keep_);
    if (runs_ > 1) line += StrCat(" runs=", runs_);
    return line;
  }

 protected:
  Result<std::optional<columnar::RecordBatch>> NextImpl() override {
    if (!sorted_) {
      HOGLAKE_RETURN_IF_ERROR(SortInput());
      sorted_ = true;
    }
    if (next_ >= output_.size()) return EndOfStream();
    columnar::RecordBatch out = std::move(output_[next_++]);
    held_.Drop(out);
    return Emit(std::move(out));
  }

 private:
  static constexpr int64_t kCompactRows = 65536;

  struct Buffer {
    std::vector<columnar::RecordBatch> batches;
    int64_t rows = 0;
  };

  // One batch holding every row of `batches` (of this operator's schema),
  // its columns concatenated on up to `workers` workers.
  Result<columnar::RecordBatch> Gather(const std::vector<columnar::RecordBatch>& batches,
                                       int workers) const {
    if (batches.size() == 1) return batches[0];
    columnar::RecordBatch all;
    all.schema = schema_;
    for (const columnar::RecordBatch& batch : batches) all.num_rows += batch.num_rows;
    const int columns = batches[0].num_columns();
    all.columns.resize(columns);
    HOGLAKE_RETURN_IF_ERROR(ParallelForStatus(columns, workers, [&](int64_t c, int) -> Status {
      std::vector<columnar::ArrayPtr> parts;
      parts.reserve(batches.size());
      for (const columnar::RecordBatch& batch : batches) parts.push_back(batch.columns[c]);
      HOGLAKE_ASSIGN_OR_RETURN(all.columns[c], columnar::ConcatArrays(parts));
      return Status::Ok();
    }));
    return all;
  }

  // The sort keys of rows [base, base + rows) of `all`.
  Result<SortRun> MakeRun(const columnar::RecordBatch& all, int64_t base, int64_t rows) const {
    SortRun run;
    run.base = base;
    run.rows = rows;
    columnar::RecordBatch slice = all;
    if (rows != all.num_rows) {
      HOGLAKE_ASSIGN_OR_RETURN(slice, columnar::SliceBatch(all, base, rows));
    }
    for (const SortKey& key : plan_.sort_keys) {
      HOGLAKE_ASSIGN_OR_RETURN(columnar::ArrayPtr k, Evaluate(*key.expr, slice));
      run.keys.push_back(std::move(k));
    }
    return run;
  }

  // Replaces `from` (already held) by `to` in what this operator holds.
  Status Swap(const std::vector<columnar::RecordBatch>& from, const columnar::RecordBatch& to) {
    HOGLAKE_RETURN_IF_ERROR(held_.Hold(to));
    for (const columnar::RecordBatch& batch : from) held_.Drop(batch);
    return Status::Ok();
  }

  // Top-N: cuts `buffer` back to its first keep_ rows (on the pulling worker).
  Status Compact(Buffer& buffer) {
    HOGLAKE_ASSIGN_OR_RETURN(columnar::RecordBatch all, Gather(buffer.batches, 1));
    HOGLAKE_RETURN_IF_ERROR(Swap(buffer.batches, all));
    buffer.batches.clear();
    buffer.batches.push_back(all);
    HOGLAKE_ASSIGN_OR_RETURN(SortRun run, MakeRun(all, 0, all.num_rows));
    HOGLAKE_ASSIGN_OR_RETURN(std::vector<int64_t> order,
                             OrderRuns({std::move(run)}, plan_.sort_keys, keep_, ctx_, 1));
    HOGLAKE_ASSIGN_OR_RETURN(columnar::RecordBatch top, columnar::TakeRows(all, order));
    top.schema = schema_;
    HOGLAKE_RETURN_IF_ERROR(Swap(buffer.batches, top));
    buffer.rows = top.num_rows;
    buffer.batches.clear();
    buffer.batches.push_back(std::move(top));
    return Status::Ok();
  }

  Status SortInput() {
    const int workers = PullWorkers(ctx_);
    std::vector<Buffer> buffers(workers);
    HOGLAKE_RETURN_IF_ERROR(
        PullAll(*children_[0], ctx_, workers, [&](columnar::RecordBatch batch, int slot) -> Status {
          Buffer& buffer = buffers[slot];
          batch.schema = schema_;
          HOGLAKE_RETURN_IF_ERROR(held_.Hold(batch));
          buffer.rows += batch.num_rows;
          buffer.batches.push_back(std::move(batch));
          if (keep_ && *keep_ <= kCompactRows && buffer.rows > kCompactRows) return Compact(buffer);
          return Status::Ok();
        }));
    std::vector<columnar::RecordBatch> batches;
    for (Buffer& buffer : buffers) {
      for (columnar::RecordBatch& batch : buffer.batches) batches.push_back(std::move(batch));
    }
    buffers.clear();
    if (batches.empty()) return Status::Ok();
    HOGLAKE_RETURN_IF_ERROR(ctx_.CheckCancelled());
    HOGLAKE_ASSIGN_OR_RETURN(columnar::RecordBatch all, Gather(batches, workers));
    HOGLAKE_RETURN_IF_ERROR(Swap(batches, all));
    batches.clear();

    // One run per worker, of equal shares of the rows.
    const int64_t rows = all.num_rows;
    const int runs = static_cast<int>(std::clamp<int64_t>(rows / kMinRunRows, 1, workers));
    runs_ = runs;
    std::vector<SortRun> sort_runs(runs);
    HOGLAKE_RETURN_IF_ERROR(ParallelForStatus(runs, workers, [&](int64_t r, int) -> Status {
      const int64_t begin = rows * r / runs, end = rows * (r + 1) / runs;
      HOGLAKE_ASSIGN_OR_RETURN(sort_runs[r], MakeRun(all, begin, end - begin));
      return Status::Ok();
    }));
    HOGLAKE_ASSIGN_OR_RETURN(std::vector<int64_t> order,
                             OrderRuns(sort_runs, plan_.sort_keys, keep_, ctx_, workers));
    sort_runs.clear();
    ScopedReservation order_bytes(ctx_);
    HOGLAKE_RETURN_IF_ERROR(order_bytes.Add(static_cast<int64_t>(order.size() * sizeof(int64_t))));

    // Every morsel taken on its own (owning its buffers), in parallel.
    const int64_t morsels = (static_cast<int64_t>(order.size()) + kMorselRows - 1) / kMorselRows;
    output_.resize(morsels);
    HOGLAKE_RETURN_IF_ERROR(ParallelForStatus(morsels, workers, [&](int64_t m, int) -> Status {
      HOGLAKE_RETURN_IF_ERROR(ctx_.CheckCancelled());
      const int64_t begin = m * kMorselRows;
      const int64_t length = std::min<int64_t>(kMorselRows, order.size() - begin);
      HOGLAKE_ASSIGN_OR_RETURN(
          columnar::RecordBatch morsel,
          columnar::TakeRows(all, std::span<const int64_t>(order.data() + begin, length)));
      morsel.schema = schema_;
      HOGLAKE_RETURN_IF_ERROR(held_.Hold(morsel));
      output_[m] = std::move(morsel);
      return Status::Ok();
    }));
    held_.Drop(all);
    return Status::Ok();
  }

  ExecContext& ctx_;
  std::optional<int64_t> keep_;
  bool sorted_ = false;
  int runs_ = 0;
  std::vector<columnar::RecordBatch> output_;
  size_t next_ = 0;
  HeldBuffers held_;
};

}  // namespace

Result<OperatorPtr> MakeSortOperator(const LogicalOp& plan, ExecContext& ctx, Children children,
                                     std::optional<int64_t> keep) {
  return OperatorPtr(new SortOperator(plan, ctx, std::move(children), keep));
}

}  // namespace hoglake::sql
