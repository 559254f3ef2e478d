// Hash aggregation: GROUP BY keys (NULLs form one group) with the
// aggregates of aggregate_function.h (their states: aggregate_state.h),
// DISTINCT aggregates and FILTER. Without keys it returns exactly one row,
// even over no input. When every aggregate merges exactly (IsMergeable),
// the input is pulled by the context's workers, each into its own groups,
// and the groups are merged at the end; otherwise one worker pulls it all.
#include <cmath>
#include <cstring>
#include <unordered_set>

#include "columnar/builder.h"
#include "sql/execution/aggregate_state.h"
#include "sql/execution/expression_evaluator.h"
#include "sql/execution/key_table.h"
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

// One worker's groups: their keys (numbered by the table, values in the
// builders) and each aggregate's state per group.
struct PartialGroups {
  KeyTable table;
  std::vector<std::unique_ptr<columnar::ArrayBuilder>> key_builders;
  std::vector<std::vector<AggState>> states;  // [aggregate][group]
  std::vector<std::unordered_set<std::string>> distinct_seen;
  int64_t held = 0;
  // scratch
  EncodedKeys encoded;
  std::vector<int64_t> group_of;

  int64_t groups() const { return table.size(); }
};

class HashAggregateOperator : public PhysicalOperator {
 public:
  HashAggregateOperator(const LogicalOp& plan, ExecContext& ctx, Children children)
      : PhysicalOperator(plan), ctx_(ctx) {
    children_ = std::move(children);
    for (const BoundExprPtr& key : plan.group_keys) key_types_.push_back(key->type);
  }
  ~HashAggregateOperator() override { ctx_.Release(held_); }

 protected:
  Result<std::optional<columnar::RecordBatch>> NextImpl() override {
    if (done_) return EndOfStream();
    done_ = true;
    // Several workers each aggregate the batches they pull into their own
    // groups, merged at the end, when every aggregate merges exactly.
    bool mergeable = true;
    for (const BoundAggregate& agg : plan_.aggregates) mergeable = mergeable && IsMergeable(agg);
    const int workers = mergeable ? PullWorkers(ctx_) : 1;
    std::vector<PartialGroups> partials(workers);
    for (PartialGroups& p : partials) {
      for (const BoundExprPtr& key : plan_.group_keys) {
        p.key_builders.push_back(columnar::MakeBuilder(CarrierType(key->type)));
      }
      p.states.resize(plan_.aggregates.size());
      p.distinct_seen.resize(plan_.aggregates.size());
    }
    Status pulled = PullAll(*children_[0], ctx_, workers, [&](columnar::RecordBatch batch, int slot) -> Status {
      return Consume(partials[slot], batch);
    });
    for (PartialGroups& p : partials) {
      held_ += p.held;
      p.held = 0;
    }
    HOGLAKE_RETURN_IF_ERROR(pulled);
    PartialGroups& all = partials[0];
    for (int w = 1; w < workers; ++w) {
      HOGLAKE_RETURN_IF_ERROR(MergeInto(all, partials[w]));
    }
    int64_t groups = all.groups();
    if (plan_.group_keys.empty() && groups == 0) {
      groups = 1;
      for (auto& s : all.states) s.resize(1);
    }
    std::vector<ArrayPtr> columns;
    for (auto& builder : all.key_builders) {
      HOGLAKE_ASSIGN_OR_RETURN(ArrayPtr keys, builder->Finish());
      columns.push_back(keys);
    }
    for (size_t a = 0; a < plan_.aggregates.size(); ++a) {
      const BoundAggregate& agg = plan_.aggregates[a];
      std::unique_ptr<columnar::ArrayBuilder> builder = columnar::MakeBuilder(CarrierType(agg.type));
      for (int64_t g = 0; g < groups; ++g) {
        HOGLAKE_ASSIGN_OR_RETURN(Value v, Finalize(agg, all.states[a][g]));
        HOGLAKE_RETURN_IF_ERROR(AppendValue(builder.get(), v));
      }
      HOGLAKE_ASSIGN_OR_RETURN(ArrayPtr column, builder->Finish());
      columns.push_back(column);
    }
    if (groups == 0) return EndOfStream();
    return Emit(MakeBatch(std::move(columns), groups));
  }

 private:
  // The group of `key` in `p`, made (with its key values from row `row` of
  // `keys`) when new.
  Status AddGroupIfNew(PartialGroups& p, std::string_view key, uint64_t hash,
                       const std::vector<ArrayPtr>& keys, int64_t row, int64_t* group) {
    bool inserted;
    *group = p.table.FindOrInsert(key, hash, &inserted);
    if (!inserted) return Status::Ok();
    for (size_t k = 0; k < keys.size(); ++k) {
      HOGLAKE_RETURN_IF_ERROR(
          AppendValue(p.key_builders[k].get(), ValueAt(*keys[k], row, key_types_[k])));
    }
    for (auto& s : p.states) s.resize(p.groups());
    int64_t added = static_cast<int64_t>(key.size()) + 32 +
                    static_cast<int64_t>(p.states.size() * sizeof(AggState));
    HOGLAKE_RETURN_IF_ERROR(ctx_.Reserve(added));
    p.held += added;
    return Status::Ok();
  }

  Status Consume(PartialGroups& p, const columnar::RecordBatch& batch) {
    const int64_t n = batch.num_rows;
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
    p.group_of.resize(n);
    if (keys.empty()) {
      if (p.groups() == 0) {
        int64_t group;
        HOGLAKE_RETURN_IF_ERROR(AddGroupIfNew(p, {}, HashKeyBytes({}), keys, 0, &group));
      }
      std::fill(p.group_of.begin(), p.group_of.end(), 0);
    } else {
      EncodeKeys(keys, key_types_, n, &p.encoded);
      for (int64_t i = 0; i < n; ++i) {
        HOGLAKE_RETURN_IF_ERROR(
            AddGroupIfNew(p, p.encoded.key(i), p.encoded.hashes[i], keys, i, &p.group_of[i]));
      }
    }
    std::string distinct_key;
    int64_t kept = 0;
    for (size_t a = 0; a < plan_.aggregates.size(); ++a) {
      const BoundAggregate& agg = plan_.aggregates[a];
      const ArrayData* arg = args[a] ? args[a].get() : nullptr;
      const bool ordered_set = agg.function->kind == AggregateKind::kPercentileCont ||
                               agg.function->kind == AggregateKind::kPercentileDisc ||
                               agg.function->kind == AggregateKind::kMode;
      if (!agg.distinct && !ordered_set) {
        HOGLAKE_RETURN_IF_ERROR(UpdateRows(agg, p.states[a].data(), p.group_of.data(), arg,
                                           filters[a].get(), n));
        continue;
      }
      for (int64_t i = 0; i < n; ++i) {
        if (filters[a] && !(filters[a]->IsValid(i) && filters[a]->GetBool(i))) continue;
        const int64_t g = p.group_of[i];
        if (agg.distinct) {
          if (arg->IsNull(i)) continue;
          distinct_key.assign(reinterpret_cast<const char*>(&g), 8);
          AppendRowKey({args[a]}, {agg.args[0]->type}, i, &distinct_key);
          if (!p.distinct_seen[a].insert(distinct_key).second) continue;
        }
        HOGLAKE_RETURN_IF_ERROR(Update(agg, p.states[a][g], arg, i));
        if (ordered_set) {
          // The values an ordered-set aggregate keeps count against the budget.
          kept += static_cast<int64_t>(sizeof(Value));
          if (!arg->IsNull(i) && !agg.args[0]->type.is_numeric_kind()) {
            kept += static_cast<int64_t>(p.states[a][g].values.back().s.size());
          }
        }
      }
    }
    if (kept > 0) {
      HOGLAKE_RETURN_IF_ERROR(ctx_.Reserve(kept));
      p.held += kept;
    }
    return Status::Ok();
  }

  // Adds `from`'s groups to `into` (mergeable aggregates only).
  Status MergeInto(PartialGroups& into, PartialGroups& from) {
    HOGLAKE_RETURN_IF_ERROR(ctx_.CheckCancelled());
    std::vector<ArrayPtr> keys;
    for (auto& builder : from.key_builders) {
      HOGLAKE_ASSIGN_OR_RETURN(ArrayPtr k, builder->Finish());
      keys.push_back(std::move(k));
    }
    for (int64_t g = 0; g < from.groups(); ++g) {
      int64_t group;
      HOGLAKE_RETURN_IF_ERROR(
          AddGroupIfNew(into, from.table.key(g), from.table.hash(g), keys, g, &group));
      for (size_t a = 0; a < plan_.aggregates.size(); ++a) {
        HOGLAKE_RETURN_IF_ERROR(
            Merge(plan_.aggregates[a], into.states[a][group], from.states[a][g]));
      }
    }
    held_ += into.held;
    into.held = 0;
    return Status::Ok();
  }

  ExecContext& ctx_;
  bool done_ = false;
  std::vector<SqlType> key_types_;
  int64_t held_ = 0;
};

}  // namespace

Result<OperatorPtr> MakeAggregateOperator(const LogicalOp& plan, ExecContext& ctx,
                                          Children children) {
  return OperatorPtr(new HashAggregateOperator(plan, ctx, std::move(children)));
}

}  // namespace hoglake::sql
