// Hash aggregation: GROUP BY keys (NULLs form one group) with the
// aggregates of aggregate_function.h (their states: aggregate_state.h),
// DISTINCT aggregates and FILTER. Without keys it returns exactly one row,
// even over no input.
#include <cmath>
#include <cstring>
#include <unordered_map>
#include <unordered_set>

#include "columnar/builder.h"
#include "sql/execution/aggregate_state.h"
#include "sql/execution/expression_evaluator.h"
#include "sql/execution/operators.h"
#include "sql/execution/row_key.h"
#include "sql/function/aggregate_function.h"
#include "sql/function/compare_values.h"
#include "sql/sql_error.h"
#include "sql/types/value_text.h"

namespace hoglake::sql {
namespace {

using columnar::ArrayData;
using columnar::ArrayPtr;

class HashAggregateOperator : public PhysicalOperator {
 public:
  HashAggregateOperator(const LogicalOp& plan, ExecContext& ctx, Children children)
      : PhysicalOperator(plan), ctx_(ctx) {
    children_ = std::move(children);
    for (const BoundExprPtr& key : plan.group_keys) key_types_.push_back(key->type);
    states_.resize(plan.aggregates.size());
    distinct_seen_.resize(plan.aggregates.size());
  }
  ~HashAggregateOperator() override { ctx_.Release(held_); }

 protected:
  Result<std::optional<columnar::RecordBatch>> NextImpl() override {
    if (done_) return EndOfStream();
    done_ = true;
    for (const BoundExprPtr& key : plan_.group_keys) {
      key_builders_.push_back(columnar::MakeBuilder(CarrierType(key->type)));
    }
    while (true) {
      HOGLAKE_RETURN_IF_ERROR(ctx_.CheckCancelled());
      HOGLAKE_ASSIGN_OR_RETURN(std::optional<columnar::RecordBatch> batch, children_[0]->Next());
      if (!batch) break;
      HOGLAKE_RETURN_IF_ERROR(Consume(*batch));
    }
    if (plan_.group_keys.empty() && groups_ == 0) {
      groups_ = 1;
      for (auto& s : states_) s.resize(1);
    }
    std::vector<ArrayPtr> columns;
    for (auto& builder : key_builders_) {
      HOGLAKE_ASSIGN_OR_RETURN(ArrayPtr keys, builder->Finish());
      columns.push_back(keys);
    }
    for (size_t a = 0; a < plan_.aggregates.size(); ++a) {
      const BoundAggregate& agg = plan_.aggregates[a];
      std::unique_ptr<columnar::ArrayBuilder> builder = columnar::MakeBuilder(CarrierType(agg.type));
      for (int64_t g = 0; g < groups_; ++g) {
        HOGLAKE_ASSIGN_OR_RETURN(Value v, Finalize(agg, states_[a][g]));
        HOGLAKE_RETURN_IF_ERROR(AppendValue(builder.get(), v));
      }
      HOGLAKE_ASSIGN_OR_RETURN(ArrayPtr column, builder->Finish());
      columns.push_back(column);
    }
    if (groups_ == 0) return EndOfStream();
    return Emit(MakeBatch(std::move(columns), groups_));
  }

 private:
  Status Consume(const columnar::RecordBatch& batch) {
    std::vector<ArrayPtr> keys;
    for (const BoundExprPtr& key : plan_.group_keys) {
      HOGLAKE_ASSIGN_OR_RETURN(ArrayPtr k, Evaluate(*key, batch));
      keys.push_back(std::move(k));
    }
    std::vector<ArrayPtr> args(plan_.aggregates.size());
    std::vector<ArrayPtr> filters(plan_.aggregates.size());
    for (size_t a = 0; a < plan_.aggregates.size(); ++a) {
      const BoundAggregate& agg = plan_.aggregates[a];
      if (!agg.args.empty()) {
        HOGLAKE_ASSIGN_OR_RETURN(args[a], Evaluate(*agg.args[0], batch));
      }
      if (agg.filter) {
        HOGLAKE_ASSIGN_OR_RETURN(filters[a], Evaluate(*agg.filter, batch));
      }
    }
    std::vector<int64_t> group_of(batch.num_rows);
    std::string key;
    int64_t added = 0;
    for (int64_t i = 0; i < batch.num_rows; ++i) {
      key.clear();
      AppendRowKey(keys, key_types_, i, &key);
      auto [it, inserted] = groups_by_key_.try_emplace(key, groups_);
      if (inserted) {
        for (size_t k = 0; k < keys.size(); ++k) {
          HOGLAKE_RETURN_IF_ERROR(
              AppendValue(key_builders_[k].get(), ValueAt(*keys[k], i, key_types_[k])));
        }
        ++groups_;
        for (auto& s : states_) s.resize(groups_);
        added += static_cast<int64_t>(key.size()) + 64 +
                 static_cast<int64_t>(states_.size() * sizeof(AggState));
      }
      group_of[i] = it->second;
    }
    if (added > 0) {
      HOGLAKE_RETURN_IF_ERROR(ctx_.Reserve(added));
      held_ += added;
    }
    std::string distinct_key;
    int64_t kept = 0;
    for (size_t a = 0; a < plan_.aggregates.size(); ++a) {
      const BoundAggregate& agg = plan_.aggregates[a];
      const ArrayData* arg = args[a] ? args[a].get() : nullptr;
      for (int64_t i = 0; i < batch.num_rows; ++i) {
        if (filters[a] && !(filters[a]->IsValid(i) && filters[a]->GetBool(i))) continue;
        if (agg.distinct) {
          if (arg->IsNull(i)) continue;
          distinct_key.assign(reinterpret_cast<const char*>(&group_of[i]), 8);
          AppendRowKey({args[a]}, {agg.args[0]->type}, i, &distinct_key);
          if (!distinct_seen_[a].insert(distinct_key).second) continue;
        }
        HOGLAKE_RETURN_IF_ERROR(Update(agg, states_[a][group_of[i]], arg, i));
        if (agg.function->kind == AggregateKind::kPercentileCont ||
            agg.function->kind == AggregateKind::kPercentileDisc ||
            agg.function->kind == AggregateKind::kMode) {
          // The values an ordered-set aggregate keeps count against the budget.
          kept += static_cast<int64_t>(sizeof(Value));
          if (!arg->IsNull(i) && !agg.args[0]->type.is_numeric_kind()) {
            kept += static_cast<int64_t>(states_[a][group_of[i]].values.back().s.size());
          }
        }
      }
    }
    if (kept > 0) {
      HOGLAKE_RETURN_IF_ERROR(ctx_.Reserve(kept));
      held_ += kept;
    }
    return Status::Ok();
  }

  ExecContext& ctx_;
  bool done_ = false;
  std::vector<SqlType> key_types_;
  std::vector<std::unique_ptr<columnar::ArrayBuilder>> key_builders_;
  std::unordered_map<std::string, int64_t> groups_by_key_;
  int64_t groups_ = 0;
  std::vector<std::vector<AggState>> states_;
  std::vector<std::unordered_set<std::string>> distinct_seen_;
  int64_t held_ = 0;
};

}  // namespace

Result<OperatorPtr> MakeAggregateOperator(const LogicalOp& plan, ExecContext& ctx,
                                          Children children) {
  return OperatorPtr(new HashAggregateOperator(plan, ctx, std::move(children)));
}

}  // namespace hoglake::sql
