#include "sql/execution/sort_runs.h"

#include <algorithm>
#include <utility>

#include "common/parallel.h"
#include "sql/execution/held_buffers.h"
#include "sql/execution/sort_key_encoding.h"

namespace hoglake::sql {
namespace {

// Below this many result rows the runs are merged on one worker.
constexpr int64_t kParallelMergeRows = int64_t{1} << 16;
// Samples per run and merge range from which the range splitters are chosen.
constexpr int64_t kSamplesPerRange = 32;
// Rows merged between two cancellation checks.
constexpr int64_t kMergeCheckRows = int64_t{1} << 16;

// One row of a run: its normalized key words and its row in the run.
template <int Words>
struct Entry {
  uint64_t key[Words == 0 ? 1 : Words];
  int64_t row;
};

template <int Words>
class RunMerger {
 public:
  using Item = Entry<Words>;

  RunMerger(const std::vector<SortRun>& runs, const std::vector<SortKey>& keys,
            const SortKeyLayout& layout, std::optional<int64_t> keep, ExecContext& ctx,
            int workers)
      : runs_(runs), keys_(keys), layout_(layout), keep_(keep), ctx_(ctx), workers_(workers),
        compare_rest_(layout.compare_from < keys.size()) {}

  Result<std::vector<int64_t>> Order() {
    ScopedReservation scratch(ctx_);
    int64_t total_rows = 0;
    for (const SortRun& run : runs_) total_rows += run.rows;
    HOGLAKE_RETURN_IF_ERROR(scratch.Add(total_rows * static_cast<int64_t>(sizeof(Item))));
    sorted_.resize(runs_.size());
    HOGLAKE_RETURN_IF_ERROR(ParallelForStatus(
        static_cast<int64_t>(runs_.size()), workers_,
        [&](int64_t r, int) { return SortOneRun(static_cast<int>(r)); }));
    return Merge();
  }

 private:
  // Negative, zero or positive as a (of run ra) sorts before, with or after
  // b (of run rb) on the keys alone.
  int Compare(int ra, const Item& a, int rb, const Item& b) const {
    for (int w = 0; w < Words; ++w) {
      if (a.key[w] != b.key[w]) return a.key[w] < b.key[w] ? -1 : 1;
    }
    if (!compare_rest_) return 0;
    return CompareSortKeysFrom(layout_.compare_from, keys_, runs_[ra].keys, a.row,
                               runs_[rb].keys, b.row);
  }

  // The total order: keys, then run, then row.
  bool Before(int ra, const Item& a, int rb, const Item& b) const {
    const int c = Compare(ra, a, rb, b);
    if (c != 0) return c < 0;
    if (ra != rb) return ra < rb;
    return a.row < b.row;
  }

  Status SortOneRun(int r) {
    HOGLAKE_RETURN_IF_ERROR(ctx_.CheckCancelled());
    const SortRun& run = runs_[r];
    std::vector<Item>& items = sorted_[r];
    items.resize(run.rows);
    for (int64_t i = 0; i < run.rows; ++i) items[i].row = i;
    EncodeSortKeys(layout_, run.keys, run.rows, reinterpret_cast<uint8_t*>(items.data()),
                   sizeof(Item));
    auto before = [&](const Item& a, const Item& b) { return Before(r, a, r, b); };
    if (keep_ && *keep_ < run.rows) {
      std::partial_sort(items.begin(), items.begin() + *keep_, items.end(), before);
      items.resize(*keep_);
    } else {
      std::sort(items.begin(), items.end(), before);
    }
    return Status::Ok();
  }

  Result<std::vector<int64_t>> Merge() {
    const int k = static_cast<int>(runs_.size());
    int64_t total = 0;
    for (const std::vector<Item>& items : sorted_) total += static_cast<int64_t>(items.size());
    const int64_t out_rows = keep_ ? std::min(total, *keep_) : total;
    std::vector<int64_t> order(out_rows);
    if (k == 1) {
      for (int64_t i = 0; i < out_rows; ++i) order[i] = runs_[0].base + sorted_[0][i].row;
      return order;
    }
    const int ranges = out_rows >= kParallelMergeRows ? std::max(workers_, 1) : 1;
    // cuts[i][r]: the first entry of run r in range i (cuts[ranges][r]: the end).
    std::vector<std::vector<int64_t>> cuts(ranges + 1, std::vector<int64_t>(k, 0));
    for (int r = 0; r < k; ++r) cuts[ranges][r] = static_cast<int64_t>(sorted_[r].size());
    if (ranges > 1) ChooseCuts(ranges, &cuts);
    std::vector<int64_t> starts(ranges + 1, 0);
    for (int i = 0; i <= ranges; ++i) {
      for (int r = 0; r < k; ++r) starts[i] += cuts[i][r];
    }
    HOGLAKE_RETURN_IF_ERROR(ParallelForStatus(ranges, workers_, [&](int64_t i, int) -> Status {
      if (starts[i] >= out_rows) return Status::Ok();
      const int64_t limit = std::min(starts[i + 1], out_rows) - starts[i];
      return MergeRange(cuts[i], cuts[i + 1], order.data() + starts[i], limit);
    }));
    return order;
  }

  // Splitters for `ranges` merge ranges chosen from evenly spaced samples of
  // every run, and where each falls in each run.
  void ChooseCuts(int ranges, std::vector<std::vector<int64_t>>* cuts) const {
    const int k = static_cast<int>(runs_.size());
    std::vector<std::pair<int, int64_t>> samples;  // (run, position)
    const int64_t per_run = kSamplesPerRange * ranges;
    for (int r = 0; r < k; ++r) {
      const int64_t n = static_cast<int64_t>(sorted_[r].size());
      if (n == 0) continue;
      for (int64_t s = 0; s < per_run; ++s) samples.emplace_back(r, (s * n) / per_run);
    }
    std::sort(samples.begin(), samples.end(), [&](const auto& a, const auto& b) {
      return Before(a.first, sorted_[a.first][a.second], b.first, sorted_[b.first][b.second]);
    });
    for (int i = 1; i < ranges; ++i) {
      // Not a structured binding: clang 14 cannot capture one in the lambda.
      const std::pair<int, int64_t>& sample = samples[(samples.size() * i) / ranges];
      const int sr = sample.first;
      const Item& splitter = sorted_[sr][sample.second];
      for (int r = 0; r < k; ++r) {
        const std::vector<Item>& items = sorted_[r];
        auto it = std::partition_point(items.begin(), items.end(), [&](const Item& x) {
          return Before(r, x, sr, splitter);
        });
        (*cuts)[i][r] = it - items.begin();
      }
    }
  }

  // Writes the first `limit` rows of the merge of runs' entries
  // [from[r], to[r]) to out.
  Status MergeRange(const std::vector<int64_t>& from, const std::vector<int64_t>& to, int64_t* out,
                    int64_t limit) const {
    const int k = static_cast<int>(runs_.size());
    std::vector<int64_t> at = from;
    std::vector<int> heap;  // runs with entries left, the next one on top
    for (int r = 0; r < k; ++r) {
      if (at[r] < to[r]) heap.push_back(r);
    }
    // A max-heap under "after" keeps the run whose next entry comes first on top.
    auto after = [&](int a, int b) { return Before(b, sorted_[b][at[b]], a, sorted_[a][at[a]]); };
    std::make_heap(heap.begin(), heap.end(), after);
    for (int64_t n = 0; n < limit; ++n) {
      if ((n & (kMergeCheckRows - 1)) == kMergeCheckRows - 1) {
        HOGLAKE_RETURN_IF_ERROR(ctx_.CheckCancelled());
      }
      std::pop_heap(heap.begin(), heap.end(), after);
      const int r = heap.back();
      out[n] = runs_[r].base + sorted_[r][at[r]].row;
      if (++at[r] < to[r]) {
        std::push_heap(heap.begin(), heap.end(), after);
      } else {
        heap.pop_back();
      }
    }
    return Status::Ok();
  }

  const std::vector<SortRun>& runs_;
  const std::vector<SortKey>& keys_;
  const SortKeyLayout& layout_;
  std::optional<int64_t> keep_;
  ExecContext& ctx_;
  int workers_;
  bool compare_rest_;
  std::vector<std::vector<Item>> sorted_;
};

template <int Words>
Result<std::vector<int64_t>> OrderWith(const std::vector<SortRun>& runs,
                                       const std::vector<SortKey>& keys,
                                       const SortKeyLayout& layout, std::optional<int64_t> keep,
                                       ExecContext& ctx, int workers) {
  return RunMerger<Words>(runs, keys, layout, keep, ctx, workers).Order();
}

}  // namespace

Result<std::vector<int64_t>> OrderRuns(const std::vector<SortRun>& runs,
                                       const std::vector<SortKey>& keys,
                                       std::optional<int64_t> keep, ExecContext& ctx,
                                       int workers) {
  std::vector<std::vector<SortKeyStats>> run_stats(runs.size(),
                                                   std::vector<SortKeyStats>(keys.size()));
  ParallelFor(static_cast<int64_t>(runs.size()), workers, [&](int64_t r, int) {
    for (size_t k = 0; k < keys.size(); ++k) {
      AddSortKeyStats(keys[k], *runs[r].keys[k], &run_stats[r][k]);
    }
  });
  std::vector<SortKeyStats> stats(keys.size());
  for (const std::vector<SortKeyStats>& one : run_stats) {
    for (size_t k = 0; k < keys.size(); ++k) {
      stats[k].has_nulls |= one[k].has_nulls;
      stats[k].max_bytes = std::max(stats[k].max_bytes, one[k].max_bytes);
      stats[k].has_zero_byte |= one[k].has_zero_byte;
      stats[k].fits_int64 &= one[k].fits_int64;
    }
  }
  const SortKeyLayout layout = PlanSortKeyLayout(keys, stats);
  switch (layout.words) {
    case 0:
      return OrderWith<0>(runs, keys, layout, keep, ctx, workers);
    case 1:
      return OrderWith<1>(runs, keys, layout, keep, ctx, workers);
    case 2:
      return OrderWith<2>(runs, keys, layout, keep, ctx, workers);
    case 3:
      return OrderWith<3>(runs, keys, layout, keep, ctx, workers);
    default:
      return OrderWith<4>(runs, keys, layout, keep, ctx, workers);
  }
}

}  // namespace hoglake::sql
