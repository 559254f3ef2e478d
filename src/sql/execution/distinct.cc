// DISTINCT (and DISTINCT ON its first keys: the first row of each key in
// input order, which a Sort below makes the ORDER BY's first), and the set
// operations INTERSECT / EXCEPT [ALL] with SQL's duplicate rules: INTERSECT
// ALL keeps min(m, n) copies, EXCEPT ALL max(m − n, 0); without ALL each
// distinct row at most once. NULLs are equal to each other here.
#include <unordered_map>
#include <unordered_set>

#include "columnar/take.h"
#include "sql/execution/operators.h"
#include "sql/execution/row_key.h"

namespace hoglake::sql {
namespace {

std::vector<SqlType> OutputTypes(const LogicalOp& plan) {
  std::vector<SqlType> types;
  for (const OutputColumn& c : plan.output) types.push_back(c.type);
  return types;
}

class DistinctOperator : public PhysicalOperator {
 public:
  DistinctOperator(const LogicalOp& plan, ExecContext& ctx, Children children)
      : PhysicalOperator(plan), ctx_(ctx) {
    children_ = std::move(children);
    std::vector<SqlType> all = OutputTypes(plan);
    for (size_t c = 0; c < all.size(); ++c) key_columns_.push_back(static_cast<int>(c));
    if (!plan.distinct_keys.empty()) key_columns_ = plan.distinct_keys;
    for (int c : key_columns_) types_.push_back(all[c]);
  }
  ~DistinctOperator() override { ctx_.Release(held_); }

 protected:
  Result<std::optional<columnar::RecordBatch>> NextImpl() override {
    while (true) {
      HOGLAKE_RETURN_IF_ERROR(ctx_.CheckCancelled());
      HOGLAKE_ASSIGN_OR_RETURN(std::optional<columnar::RecordBatch> batch, children_[0]->Next());
      if (!batch) return EndOfStream();
      std::vector<columnar::ArrayPtr> keys;
      for (int c : key_columns_) keys.push_back(batch->columns[c]);
      std::vector<int64_t> rows;
      std::string key;
      int64_t added = 0;
      for (int64_t i = 0; i < batch->num_rows; ++i) {
        key.clear();
        AppendRowKey(keys, types_, i, &key);
        if (seen_.insert(key).second) {
          rows.push_back(i);
          added += static_cast<int64_t>(key.size()) + 32;
        }
      }
      HOGLAKE_RETURN_IF_ERROR(ctx_.Reserve(added));
      held_ += added;
      if (rows.empty()) continue;
      HOGLAKE_ASSIGN_OR_RETURN(columnar::RecordBatch out, columnar::TakeRows(*batch, rows));
      out.schema = schema_;
      return Emit(std::move(out));
    }
  }

 private:
  ExecContext& ctx_;
  std::vector<int> key_columns_;
  std::vector<SqlType> types_;
  std::unordered_set<std::string> seen_;
  int64_t held_ = 0;
};

class SetOpOperator : public PhysicalOperator {
 public:
  SetOpOperator(const LogicalOp& plan, ExecContext& ctx, Children children)
      : PhysicalOperator(plan), ctx_(ctx), types_(OutputTypes(plan)) {
    children_ = std::move(children);
  }
  ~SetOpOperator() override { ctx_.Release(held_); }

 protected:
  Result<std::optional<columnar::RecordBatch>> NextImpl() override {
    if (!built_) {
      HOGLAKE_RETURN_IF_ERROR(BuildRight());
      built_ = true;
    }
    while (true) {
      HOGLAKE_RETURN_IF_ERROR(ctx_.CheckCancelled());
      HOGLAKE_ASSIGN_OR_RETURN(std::optional<columnar::RecordBatch> batch, children_[0]->Next());
      if (!batch) return EndOfStream();
      std::vector<int64_t> rows;
      std::string key;
      for (int64_t i = 0; i < batch->num_rows; ++i) {
        key.clear();
        AppendRowKey(batch->columns, types_, i, &key);
        int64_t& right = right_counts_[key];  // 0 when absent
        int64_t& emitted = emitted_[key];
        bool keep;
        if (plan_.set_op == SetOpKind::kIntersect) {
          keep = right > 0 && (plan_.set_all || emitted == 0);
          if (keep && plan_.set_all) --right;
        } else {
          if (plan_.set_all) {
            keep = right == 0;
            if (!keep) --right;
          } else {
            keep = right == 0 && emitted == 0;
          }
        }
        if (keep) {
          ++emitted;
          rows.push_back(i);
        }
      }
      if (rows.empty()) continue;
      HOGLAKE_ASSIGN_OR_RETURN(columnar::RecordBatch out, columnar::TakeRows(*batch, rows));
      out.schema = schema_;
      return Emit(std::move(out));
    }
  }

 private:
  Status BuildRight() {
    std::string key;
    while (true) {
      HOGLAKE_RETURN_IF_ERROR(ctx_.CheckCancelled());
      HOGLAKE_ASSIGN_OR_RETURN(std::optional<columnar::RecordBatch> batch, children_[1]->Next());
      if (!batch) return Status::Ok();
      int64_t added = 0;
      for (int64_t i = 0; i < batch->num_rows; ++i) {
        key.clear();
        AppendRowKey(batch->columns, types_, i, &key);
        if (right_counts_[key]++ == 0) added += static_cast<int64_t>(key.size()) + 48;
      }
      HOGLAKE_RETURN_IF_ERROR(ctx_.Reserve(added));
      held_ += added;
    }
  }

  ExecContext& ctx_;
  std::vector<SqlType> types_;
  bool built_ = false;
  std::unordered_map<std::string, int64_t> right_counts_;
  std::unordered_map<std::string, int64_t> emitted_;
  int64_t held_ = 0;
};

}  // namespace

Result<OperatorPtr> MakeDistinctOperator(const LogicalOp& plan, ExecContext& ctx,
                                         Children children) {
  return OperatorPtr(new DistinctOperator(plan, ctx, std::move(children)));
}
Result<OperatorPtr> MakeSetOpOperator(const LogicalOp& plan, ExecContext& ctx,
                                      Children children) {
  return OperatorPtr(new SetOpOperator(plan, ctx, std::move(children)));
}

}  // namespace hoglake::sql
