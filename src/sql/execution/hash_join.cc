// Joins. The right input is the build side: gathered, its equi-join keys
// hashed (a key holding NULL never matches, as `=` says), then each left
// batch probes it. Candidate pairs are checked against the rest of the ON
// condition, then shaped by the join kind: inner pairs; left/full add left
// rows without a match padded with NULLs; right/full emit build rows never
// matched at the end; semi keeps each left row with a match once, anti each
// without. Without equi keys every pair is a candidate (a nested-loop join).
// A left batch is probed in chunks of at most kMaxPairsPerChunk candidate
// pairs (plus one left row's matches), each emitted before the next is made,
// so a join that multiplies rows (a cross join, a key repeated on both sides)
// holds one chunk at a time, never the product of a whole batch; the rest of
// a batch waits in a queue any caller takes from first. The build side
// is pulled by every worker (PullAll); the workers then concatenate its
// columns, encode its keys batch by batch and build the key table partition
// by partition (join_table.h); probes then run concurrently on the callers'
// threads, except for right and full joins, which track matched build rows.
#include <atomic>
#include <deque>
#include <memory>
#include <mutex>

#include "columnar/concat.h"
#include "common/parallel.h"
#include "columnar/take.h"
#include "sql/execution/expression_evaluator.h"
#include "sql/execution/operators.h"
#include "sql/execution/join_table.h"

namespace hoglake::sql {
namespace {

using columnar::ArrayPtr;
using columnar::RecordBatch;

// The candidate pairs one probe step makes before it stops at a row boundary.
constexpr int64_t kMaxPairsPerChunk = 65536;

// A left batch partly probed: rows from `next` on are still to probe.
struct PendingProbe {
  std::shared_ptr<const RecordBatch> batch;
  std::shared_ptr<const EncodedKeys> keys;  // null without equi keys
  int64_t next = 0;
};

class JoinOperator : public PhysicalOperator {
 public:
  JoinOperator(const LogicalOp& plan, ExecContext& ctx, Children children)
      : PhysicalOperator(plan), ctx_(ctx) {
    children_ = std::move(children);
    for (const BoundExprPtr& k : plan.right_keys) key_types_.push_back(k->type);
    left_columns_ = static_cast<int>(plan.children[0]->output.size());
    right_columns_ = static_cast<int>(plan.children[1]->output.size());
  }
  ~JoinOperator() override { ctx_.Release(held_); }

 public:
  std::string Describe() const override {
    std::string line = PhysicalOperator::Describe();
    if (partitions_.load() > 0) line += StrCat(" partitions=", partitions_.load());
    return line;
  }

  // Probing reads only the built table, so it runs on every caller's thread
  // at once; right and full joins record matched build rows and emit the
  // unmatched ones at the end, so they take one call at a time.
  bool concurrent() const override {
    return plan_.join_kind != JoinKind::kRight && plan_.join_kind != JoinKind::kFull;
  }

 protected:
  Result<std::optional<RecordBatch>> NextImpl() override {
    HOGLAKE_RETURN_IF_ERROR(EnsureBuilt());
    while (true) {
      HOGLAKE_RETURN_IF_ERROR(ctx_.CheckCancelled());
      std::optional<PendingProbe> work = TakePending();
      if (!work) {
        HOGLAKE_ASSIGN_OR_RETURN(std::optional<RecordBatch> batch, children_[0]->Next());
        if (!batch) break;
        if (batch->num_rows == 0) continue;
        HOGLAKE_ASSIGN_OR_RETURN(work, StartProbe(std::move(*batch)));
      }
      HOGLAKE_ASSIGN_OR_RETURN(std::optional<RecordBatch> out, ProbeChunk(*work));
      if (work->next < work->batch->num_rows) {
        std::lock_guard<std::mutex> lock(pending_mu_);
        pending_.push_front(std::move(*work));
      }
      if (out && out->num_rows > 0) return Emit(std::move(out));
    }
    JoinKind kind = plan_.join_kind;
    if ((kind == JoinKind::kRight || kind == JoinKind::kFull) && !emitted_unmatched_) {
      emitted_unmatched_ = true;
      std::vector<int64_t> rows;
      for (int64_t r = 0; r < build_rows_; ++r) {
        if (!matched_[r]) rows.push_back(r);
      }
      if (!rows.empty()) return Shape({}, {}, rows);
    }
    return EndOfStream();
  }

 private:
  // Builds the table once; concurrent callers wait for it.
  Status EnsureBuilt() {
    if (built_.load(std::memory_order_acquire)) return build_status_;
    std::lock_guard<std::mutex> lock(build_mu_);
    if (!built_.load(std::memory_order_relaxed)) {
      build_status_ = Build();
      built_.store(true, std::memory_order_release);
    }
    return build_status_;
  }

  Status Build() {
    const int workers = PullWorkers(ctx_);
    std::vector<std::vector<RecordBatch>> gathered(workers);
    std::vector<int64_t> reserved(workers, 0);
    Status pulled = PullAll(*children_[1], ctx_, workers, [&](RecordBatch batch, int slot) -> Status {
      int64_t bytes = BatchBytes(batch);
      HOGLAKE_RETURN_IF_ERROR(ctx_.Reserve(bytes));
      reserved[slot] += bytes;
      gathered[slot].push_back(std::move(batch));
      return Status::Ok();
    });
    for (int64_t bytes : reserved) held_ += bytes;
    HOGLAKE_RETURN_IF_ERROR(pulled);
    std::vector<RecordBatch> batches;
    for (auto& slot : gathered) {
      for (RecordBatch& batch : slot) batches.push_back(std::move(batch));
    }
    if (batches.empty()) {
      for (const OutputColumn& c : plan_.children[1]->output) {
        HOGLAKE_ASSIGN_OR_RETURN(ArrayPtr empty, BroadcastValue(Value::Null(c.type), 0));
        build_.columns.push_back(empty);
      }
    } else {
      HOGLAKE_ASSIGN_OR_RETURN(build_, ConcatInParallel(batches, workers));
    }
    build_rows_ = build_.num_rows;
    matched_.assign(build_rows_, false);
    if (plan_.right_keys.empty()) return Status::Ok();
    // Each batch's keys encoded and hashed by the workers, then keyed by
    // partition (join_table.h); the encoded keys count while held.
    std::vector<EncodedKeys> encoded(batches.size());
    std::vector<int64_t> first_row(batches.size(), 0);
    for (size_t b = 1; b < batches.size(); ++b) first_row[b] = first_row[b - 1] + batches[b - 1].num_rows;
    std::vector<int64_t> encoded_bytes(batches.size(), 0);
    Status keyed = ParallelForStatus(
        static_cast<int64_t>(batches.size()), workers, [&](int64_t b, int) -> Status {
          HOGLAKE_RETURN_IF_ERROR(ctx_.CheckCancelled());
          std::vector<ArrayPtr> keys;
          for (const BoundExprPtr& k : plan_.right_keys) {
            HOGLAKE_ASSIGN_OR_RETURN(ArrayPtr v, Evaluate(*k, batches[b]));
            keys.push_back(std::move(v));
          }
          EncodedKeys& e = encoded[b];
          EncodeKeys(keys, key_types_, batches[b].num_rows, &e);
          const int64_t bytes = static_cast<int64_t>(e.bytes.capacity() + e.offsets.capacity() * 4 +
                                                     e.hashes.capacity() * 8 + e.has_null.capacity());
          HOGLAKE_RETURN_IF_ERROR(ctx_.Reserve(bytes));
          encoded_bytes[b] = bytes;
          return Status::Ok();
        });
    if (keyed.ok()) keyed = table_.Build(encoded, first_row, build_rows_, workers, ctx_);
    for (int64_t bytes : encoded_bytes) ctx_.Release(bytes);
    HOGLAKE_RETURN_IF_ERROR(keyed);
    partitions_ = table_.partitions();
    const int64_t bytes = table_.bytes();
    HOGLAKE_RETURN_IF_ERROR(ctx_.Reserve(bytes));
    held_ += bytes;
    return Status::Ok();
  }

  // One batch of every row of `batches`, in order, its columns concatenated
  // by the workers side by side.
  Result<RecordBatch> ConcatInParallel(const std::vector<RecordBatch>& batches, int workers) {
    if (batches.size() == 1) return batches[0];
    RecordBatch out;
    out.schema = batches[0].schema;
    for (const RecordBatch& b : batches) out.num_rows += b.num_rows;
    out.columns.resize(batches[0].columns.size());
    HOGLAKE_RETURN_IF_ERROR(ParallelForStatus(
        static_cast<int64_t>(out.columns.size()), workers, [&](int64_t c, int) -> Status {
          std::vector<ArrayPtr> parts;
          for (const RecordBatch& b : batches) parts.push_back(b.columns[c]);
          HOGLAKE_ASSIGN_OR_RETURN(out.columns[c], columnar::ConcatArrays(parts));
          return Status::Ok();
        }));
    return out;
  }

  // Output columns for pairs (left_rows[i], right_rows[i]), then left rows
  // with NULL right columns, then right rows with NULL left columns.
  Result<std::optional<RecordBatch>> Shape(const std::vector<int64_t>& pair_left,
                                           const std::vector<int64_t>& pair_right,
                                           const std::vector<int64_t>& right_only,
                                           const RecordBatch* left = nullptr,
                                           const std::vector<int64_t>& left_only = {}) {
    JoinKind kind = plan_.join_kind;
    if (kind == JoinKind::kSemi || kind == JoinKind::kAnti) {
      HOGLAKE_ASSIGN_OR_RETURN(RecordBatch out, columnar::TakeRows(*left, left_only));
      out.schema = schema_;
      return Emit(std::move(out));
    }
    int64_t rows = static_cast<int64_t>(pair_left.size() + left_only.size() + right_only.size());
    std::vector<ArrayPtr> columns;
    auto side = [&](bool is_left, int c, const OutputColumn& col) -> Result<ArrayPtr> {
      std::vector<ArrayPtr> parts;
      if (!pair_left.empty()) {
        HOGLAKE_ASSIGN_OR_RETURN(ArrayPtr p,
                                 is_left ? columnar::TakeRows(*left->columns[c], pair_left)
                                         : columnar::TakeRows(*build_.columns[c], pair_right));
        parts.push_back(p);
      }
      if (!left_only.empty()) {
        if (is_left) {
          HOGLAKE_ASSIGN_OR_RETURN(ArrayPtr p, columnar::TakeRows(*left->columns[c], left_only));
          parts.push_back(p);
        } else {
          HOGLAKE_ASSIGN_OR_RETURN(
              ArrayPtr p, BroadcastValue(Value::Null(col.type), static_cast<int64_t>(left_only.size())));
          parts.push_back(p);
        }
      }
      if (!right_only.empty()) {
        if (is_left) {
          HOGLAKE_ASSIGN_OR_RETURN(
              ArrayPtr p, BroadcastValue(Value::Null(col.type), static_cast<int64_t>(right_only.size())));
          parts.push_back(p);
        } else {
          HOGLAKE_ASSIGN_OR_RETURN(ArrayPtr p, columnar::TakeRows(*build_.columns[c], right_only));
          parts.push_back(p);
        }
      }
      return columnar::ConcatArrays(parts);
    };
    for (int c = 0; c < left_columns_; ++c) {
      HOGLAKE_ASSIGN_OR_RETURN(ArrayPtr v, side(true, c, plan_.children[0]->output[c]));
      columns.push_back(v);
    }
    for (int c = 0; c < right_columns_; ++c) {
      HOGLAKE_ASSIGN_OR_RETURN(ArrayPtr v, side(false, c, plan_.children[1]->output[c]));
      columns.push_back(v);
    }
    return Emit(MakeBatch(std::move(columns), rows));
  }

  std::optional<PendingProbe> TakePending() {
    std::lock_guard<std::mutex> lock(pending_mu_);
    if (pending_.empty()) return std::nullopt;
    PendingProbe work = std::move(pending_.front());
    pending_.pop_front();
    return work;
  }

  // A new left batch to probe, with its equi-join keys encoded.
  Result<PendingProbe> StartProbe(RecordBatch left) {
    PendingProbe work;
    if (!plan_.left_keys.empty()) {
      std::vector<ArrayPtr> keys;
      for (const BoundExprPtr& k : plan_.left_keys) {
        HOGLAKE_ASSIGN_OR_RETURN(ArrayPtr v, Evaluate(*k, left));
        keys.push_back(std::move(v));
      }
      auto encoded = std::make_shared<EncodedKeys>();
      EncodeKeys(keys, key_types_, left.num_rows, encoded.get());
      work.keys = std::move(encoded);
    }
    work.batch = std::make_shared<const RecordBatch>(std::move(left));
    return work;
  }

  // The next chunk of `work`: left rows from work.next on until their
  // candidate pairs reach kMaxPairsPerChunk (at least one row), checked
  // and shaped; work.next moves past them. A left row's pairs are all in
  // one chunk, so left, semi and anti joins decide each row in its chunk.
  Result<std::optional<RecordBatch>> ProbeChunk(PendingProbe& work) {
    const RecordBatch& left = *work.batch;
    const int64_t start = work.next;
    int64_t end = start;
    std::vector<int64_t> cand_left, cand_right;
    if (work.keys) {
      const EncodedKeys& encoded = *work.keys;
      for (; end < left.num_rows; ++end) {
        if (end > start && static_cast<int64_t>(cand_left.size()) >= kMaxPairsPerChunk) break;
        if (encoded.has_null[end]) continue;
        for (int64_t r = table_.FirstRow(encoded.key(end), encoded.hashes[end]); r >= 0;
             r = table_.NextRow(r)) {
          cand_left.push_back(end);
          cand_right.push_back(r);
        }
      }
    } else {
      // Nested loop: a slice of left rows against every build row.
      int64_t slice = std::max<int64_t>(1, kMaxPairsPerChunk / std::max<int64_t>(build_rows_, 1));
      end = std::min(left.num_rows, start + slice);
      for (int64_t i = start; i < end; ++i) {
        for (int64_t r = 0; r < build_rows_; ++r) {
          cand_left.push_back(i);
          cand_right.push_back(r);
        }
      }
    }
    work.next = end;
    HOGLAKE_RETURN_IF_ERROR(FilterPairs(left, &cand_left, &cand_right));
    return Finish(left, start, end, cand_left, cand_right);
  }

  Status FilterPairs(const RecordBatch& left, std::vector<int64_t>* pl,
                     std::vector<int64_t>* pr) {
    if (!plan_.join_condition || pl->empty()) return Status::Ok();
    RecordBatch pairs;
    pairs.num_rows = static_cast<int64_t>(pl->size());
    for (int c = 0; c < left_columns_; ++c) {
      HOGLAKE_ASSIGN_OR_RETURN(ArrayPtr v, columnar::TakeRows(*left.columns[c], *pl));
      pairs.columns.push_back(v);
    }
    for (int c = 0; c < right_columns_; ++c) {
      HOGLAKE_ASSIGN_OR_RETURN(ArrayPtr v, columnar::TakeRows(*build_.columns[c], *pr));
      pairs.columns.push_back(v);
    }
    HOGLAKE_ASSIGN_OR_RETURN(std::vector<int64_t> keep, SelectTrue(*plan_.join_condition, pairs));
    std::vector<int64_t> nl, nr;
    for (int64_t k : keep) {
      nl.push_back((*pl)[k]);
      nr.push_back((*pr)[k]);
    }
    *pl = std::move(nl);
    *pr = std::move(nr);
    return Status::Ok();
  }

  // Shapes the checked pairs of left rows [start, end).
  Result<std::optional<RecordBatch>> Finish(const RecordBatch& left, int64_t start, int64_t end,
                                            const std::vector<int64_t>& pl,
                                            const std::vector<int64_t>& pr) {
    JoinKind kind = plan_.join_kind;
    std::vector<bool> left_matched(end - start, false);
    for (int64_t i : pl) left_matched[i - start] = true;
    if (kind == JoinKind::kRight || kind == JoinKind::kFull) {
      for (int64_t r : pr) matched_[r] = true;
    }
    std::vector<int64_t> left_only;
    if (kind == JoinKind::kSemi || kind == JoinKind::kAnti) {
      const bool keep_matched = kind == JoinKind::kSemi;
      for (int64_t i = start; i < end; ++i) {
        if (left_matched[i - start] == keep_matched) left_only.push_back(i);
      }
      if (left_only.empty()) return EndOfStream();
      return Shape({}, {}, {}, &left, left_only);
    }
    if (kind == JoinKind::kLeft || kind == JoinKind::kFull) {
      for (int64_t i = start; i < end; ++i) {
        if (!left_matched[i - start]) left_only.push_back(i);
      }
    }
    if (pl.empty() && left_only.empty()) return EndOfStream();
    return Shape(pl, pr, {}, &left, left_only);
  }

  ExecContext& ctx_;
  std::vector<SqlType> key_types_;
  int left_columns_ = 0;
  int right_columns_ = 0;
  std::mutex build_mu_;
  std::atomic<bool> built_{false};
  Status build_status_;
  bool emitted_unmatched_ = false;
  // Left batches partly probed, taken before new ones are pulled.
  std::mutex pending_mu_;
  std::deque<PendingProbe> pending_;
  RecordBatch build_;
  int64_t build_rows_ = 0;
  std::vector<bool> matched_;
  JoinTable table_;
  std::atomic<int> partitions_{0};  // the table's, once built
  int64_t held_ = 0;
};

}  // namespace

Result<OperatorPtr> MakeJoinOperator(const LogicalOp& plan, ExecContext& ctx, Children children) {
  return OperatorPtr(new JoinOperator(plan, ctx, std::move(children)));
}

}  // namespace hoglake::sql
