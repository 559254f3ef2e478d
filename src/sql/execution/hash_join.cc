// Joins. The right input is the build side: gathered, its equi-join keys
// hashed (a key holding NULL never matches, as `=` says), then each left
// batch probes it. Candidate pairs are checked against the rest of the ON
// condition, then shaped by the join kind: inner pairs; left/full add left
// rows without a match padded with NULLs; right/full emit build rows never
// matched at the end; semi keeps each left row with a match once, anti each
// without. Without equi keys every pair is a candidate (a nested-loop join).
// A left batch is probed in chunks of at most kMaxPairsPerChunk candidate
// pairs, each emitted before the next is made, so a join that multiplies
// rows (a cross join, a key repeated on both sides) holds one chunk at a
// time, not the product of a whole batch.
#include <unordered_map>

#include "columnar/concat.h"
#include "columnar/take.h"
#include "sql/execution/expression_evaluator.h"
#include "sql/execution/operators.h"
#include "sql/execution/row_key.h"

namespace hoglake::sql {
namespace {

using columnar::ArrayPtr;
using columnar::RecordBatch;

// The most candidate pairs one probe step materializes (one left row's
// matches may exceed it).
constexpr int64_t kMaxPairsPerChunk = 65536;

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

 protected:
  Result<std::optional<RecordBatch>> NextImpl() override {
    if (!built_) {
      HOGLAKE_RETURN_IF_ERROR(Build());
      built_ = true;
    }
    while (true) {
      if (!probing_) {
        if (left_done_) break;
        HOGLAKE_RETURN_IF_ERROR(ctx_.CheckCancelled());
        HOGLAKE_ASSIGN_OR_RETURN(std::optional<RecordBatch> batch, children_[0]->Next());
        if (!batch) {
          left_done_ = true;
          break;
        }
        if (batch->num_rows == 0) continue;
        probe_keys_.clear();
        for (const BoundExprPtr& k : plan_.left_keys) {
          HOGLAKE_ASSIGN_OR_RETURN(ArrayPtr v, Evaluate(*k, *batch));
          probe_keys_.push_back(std::move(v));
        }
        probing_ = std::move(batch);
        probe_pos_ = 0;
      }
      HOGLAKE_RETURN_IF_ERROR(ctx_.CheckCancelled());
      HOGLAKE_ASSIGN_OR_RETURN(std::optional<RecordBatch> out, ProbeChunk());
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
  Status Build() {
    std::vector<RecordBatch> batches;
    while (true) {
      HOGLAKE_RETURN_IF_ERROR(ctx_.CheckCancelled());
      HOGLAKE_ASSIGN_OR_RETURN(std::optional<RecordBatch> batch, children_[1]->Next());
      if (!batch) break;
      int64_t bytes = BatchBytes(*batch);
      HOGLAKE_RETURN_IF_ERROR(ctx_.Reserve(bytes));
      held_ += bytes;
      batches.push_back(std::move(*batch));
    }
    if (batches.empty()) {
      build_rows_ = 0;
      for (const OutputColumn& c : plan_.children[1]->output) {
        HOGLAKE_ASSIGN_OR_RETURN(ArrayPtr empty, BroadcastValue(Value::Null(c.type), 0));
        build_.columns.push_back(empty);
      }
    } else {
      HOGLAKE_ASSIGN_OR_RETURN(build_, columnar::ConcatBatches(batches));
      build_rows_ = build_.num_rows;
    }
    matched_.assign(build_rows_, false);
    if (!plan_.right_keys.empty()) {
      std::vector<ArrayPtr> keys;
      for (const BoundExprPtr& k : plan_.right_keys) {
        HOGLAKE_ASSIGN_OR_RETURN(ArrayPtr v, Evaluate(*k, build_));
        keys.push_back(std::move(v));
      }
      std::string key;
      int64_t bytes = 0;
      for (int64_t r = 0; r < build_rows_; ++r) {
        key.clear();
        if (AppendRowKey(keys, key_types_, r, &key)) continue;
        auto [it, inserted] = table_.try_emplace(key);
        if (inserted) bytes += static_cast<int64_t>(key.size()) + 64;
        it->second.push_back(r);
        bytes += 8;
      }
      HOGLAKE_RETURN_IF_ERROR(ctx_.Reserve(bytes));
      held_ += bytes;
    }
    return Status::Ok();
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

  // The next chunk of the batch being probed: left rows from probe_pos_ on
  // until their candidate pairs reach kMaxPairsPerChunk (at least one left
  // row), checked and shaped. Each left row's pairs are all in one chunk, so
  // left, semi and anti joins decide a row within its chunk.
  Result<std::optional<RecordBatch>> ProbeChunk() {
    const RecordBatch& left = *probing_;
    int64_t start = probe_pos_;
    int64_t end = start;
    std::vector<int64_t> cand_left, cand_right;
    if (!plan_.left_keys.empty()) {
      std::string key;
      for (; end < left.num_rows; ++end) {
        if (end > start && static_cast<int64_t>(cand_left.size()) >= kMaxPairsPerChunk) break;
        key.clear();
        if (AppendRowKey(probe_keys_, key_types_, end, &key)) continue;
        auto it = table_.find(key);
        if (it == table_.end()) continue;
        for (int64_t r : it->second) {
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
    probe_pos_ = end;
    HOGLAKE_RETURN_IF_ERROR(FilterPairs(left, &cand_left, &cand_right));
    Result<std::optional<RecordBatch>> out = Finish(left, start, end, cand_left, cand_right);
    if (probe_pos_ >= left.num_rows) {
      probing_.reset();
      probe_keys_.clear();
    }
    return out;
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
    for (int64_t r : pr) matched_[r] = true;
    std::vector<int64_t> left_only;
    if (kind == JoinKind::kSemi || kind == JoinKind::kAnti) {
      bool keep_matched = kind == JoinKind::kSemi;
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
  bool built_ = false;
  bool left_done_ = false;
  bool emitted_unmatched_ = false;
  // The left batch being probed, its probe keys and the next row to probe.
  std::optional<RecordBatch> probing_;
  std::vector<ArrayPtr> probe_keys_;
  int64_t probe_pos_ = 0;
  RecordBatch build_;
  int64_t build_rows_ = 0;
  std::vector<bool> matched_;
  std::unordered_map<std::string, std::vector<int64_t>> table_;
  int64_t held_ = 0;
};

}  // namespace

Result<OperatorPtr> MakeJoinOperator(const LogicalOp& plan, ExecContext& ctx, Children children) {
  return OperatorPtr(new JoinOperator(plan, ctx, std::move(children)));
}

}  // namespace hoglake::sql
