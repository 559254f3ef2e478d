// Hash aggregation: GROUP BY keys (NULLs form one group) with the
// aggregates of aggregate_function.h (their states: aggregate_state.h),
// DISTINCT aggregates and FILTER. Without keys it returns exactly one row,
// even over no input. When every aggregate merges exactly (IsMergeable),
// the input is pulled by the context's workers, each into its own groups,
// and the groups are merged at the end by the workers, hash partition by
// hash partition (MergePartials); otherwise one worker pulls it all. The
// groups come out in several batches, in no particular order.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <unordered_set>

#include "columnar/builder.h"
#include "columnar/concat.h"
#include "columnar/slice.h"
#include "columnar/take.h"
#include "common/parallel.h"
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

// Merges of fewer groups than this keep one partition: splitting them
// would cost more than merging them on one thread.
constexpr int64_t kPartitionedMergeGroups = 16384;
// 64 partitions, so that a few large ones still leave the other workers
// partitions to merge.
constexpr int kPartitionBits = 6;
// Groups a partition's merger takes between checks for cancellation (and
// reservations of what it added).
constexpr int64_t kGroupsBetweenChecks = 4096;
// The groups of one output batch of the largest partial's groups.
constexpr int64_t kFinalizeSlice = 65536;

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
    if (done_) return NextOutput();
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
      partials_held_ += p.held;
      p.held = 0;
    }
    held_ += partials_held_;
    HOGLAKE_RETURN_IF_ERROR(pulled);
    HOGLAKE_RETURN_IF_ERROR(MergePartials(partials));
    return NextOutput();
  }

  std::string Describe() const override {
    std::string line = PhysicalOperator::Describe();
    if (partitions_.load() > 0) line += StrCat(" partitions=", partitions_.load());
    return line;
  }

 private:
  Result<std::optional<columnar::RecordBatch>> NextOutput() {
    if (next_output_ >= output_.size()) {
      output_.clear();
      return EndOfStream();
    }
    return Emit(std::move(output_[next_output_++]));
  }

  // The batch of groups [first, first + count) of `states` with these key
  // columns (no keys and no groups: the one row of an empty input), or
  // nullopt for none.
  Result<std::optional<columnar::RecordBatch>> GroupsBatch(std::vector<ArrayPtr> keys,
                                                           std::vector<std::vector<AggState>>& states,
                                                           int64_t first, int64_t count) {
    if (plan_.group_keys.empty() && first == 0 && count == 0) {
      count = 1;
      for (auto& s : states) s.resize(1);
    }
    if (count == 0) return std::optional<columnar::RecordBatch>();
    std::vector<ArrayPtr> columns = std::move(keys);
    for (size_t a = 0; a < plan_.aggregates.size(); ++a) {
      const BoundAggregate& agg = plan_.aggregates[a];
      std::unique_ptr<columnar::ArrayBuilder> builder = columnar::MakeBuilder(CarrierType(agg.type));
      for (int64_t g = first; g < first + count; ++g) {
        HOGLAKE_ASSIGN_OR_RETURN(Value v, Finalize(agg, states[a][g]));
        HOGLAKE_RETURN_IF_ERROR(AppendValue(builder.get(), v));
      }
      HOGLAKE_ASSIGN_OR_RETURN(ArrayPtr column, builder->Finish());
      columns.push_back(column);
    }
    return std::optional<columnar::RecordBatch>(MakeBatch(std::move(columns), count));
  }

  // The groups a merge adds past the largest partial, in one hash partition.
  struct AddedGroups {
    KeyTable table;
    std::vector<std::vector<AggState>> states;  // [aggregate][group]
    std::vector<std::vector<int64_t>> taken;    // per partial: its groups added here, in order
  };

  // Merges the workers' groups and makes the output batches. The largest
  // partial is the base; every other partial's groups are split by hash
  // partition (PartitionOfHash) and each partition is merged by one worker,
  // partitions side by side. A group the base has (looked up read-only, so
  // by every worker at once) merges into the base's state, which no other
  // worker touches (a key has one partition); one the base lacks goes to
  // its partition's AddedGroups. Then the base's groups are finalized in
  // slices and each partition's added groups as a batch, in parallel too.
  // The partials are freed (their bytes released) at the end. Every worker
  // of the context takes part, also when one partial pulled everything
  // (finalizing, a percentile's sort say, is per group).
  Status MergePartials(std::vector<PartialGroups>& partials) {
    const int workers = PullWorkers(ctx_);
    const int64_t count = static_cast<int64_t>(partials.size());
    int64_t base = 0;
    int64_t total = 0;
    for (int64_t w = 0; w < count; ++w) {
      total += partials[w].groups();
      if (partials[w].groups() > partials[base].groups()) base = w;
    }
    const int bits = count > 1 && total >= kPartitionedMergeGroups ? kPartitionBits : 0;
    const int parts = 1 << bits;
    if (count > 1) partitions_ = parts;
    // Per partial: its key columns, and its groups of each partition.
    std::vector<std::vector<ArrayPtr>> keys(count);
    std::vector<std::vector<std::vector<int64_t>>> groups_of(count);
    HOGLAKE_RETURN_IF_ERROR(ParallelForStatus(count, workers, [&](int64_t w, int) -> Status {
      PartialGroups& p = partials[w];
      for (auto& builder : p.key_builders) {
        HOGLAKE_ASSIGN_OR_RETURN(ArrayPtr k, builder->Finish());
        keys[w].push_back(std::move(k));
      }
      if (w == base) return Status::Ok();
      groups_of[w].resize(parts);
      for (int64_t g = 0; g < p.groups(); ++g) {
        groups_of[w][PartitionOfHash(p.table.hash(g), bits)].push_back(g);
      }
      return Status::Ok();
    }));
    PartialGroups& into = partials[base];
    std::vector<AddedGroups> added(count > 1 ? parts : 0);
    std::vector<int64_t> added_held(added.size(), 0);
    Status status = ParallelForStatus(static_cast<int64_t>(added.size()), workers,
                                      [&](int64_t part, int) -> Status {
      return MergePartition(partials, base, groups_of, part, added[part], added_held[part]);
    });
    for (int64_t bytes : added_held) held_ += bytes;
    // The batches: the base's groups in slices, then each partition's added groups.
    const int64_t base_groups = into.groups();
    const int64_t slices = base_groups == 0 ? (plan_.group_keys.empty() ? 1 : 0)
                                            : (base_groups + kFinalizeSlice - 1) / kFinalizeSlice;
    std::vector<std::optional<columnar::RecordBatch>> batches(slices + added.size());
    if (status.ok()) {
      status = ParallelForStatus(static_cast<int64_t>(batches.size()), workers,
                                 [&](int64_t i, int) -> Status {
        HOGLAKE_RETURN_IF_ERROR(ctx_.CheckCancelled());
        std::vector<ArrayPtr> key_columns;
        if (i < slices) {
          const int64_t first = i * kFinalizeSlice;
          const int64_t length = std::min(kFinalizeSlice, base_groups - first);
          for (const ArrayPtr& k : keys[base]) {
            key_columns.push_back(columnar::SliceUnchecked(k, first, length));
          }
          HOGLAKE_ASSIGN_OR_RETURN(batches[i], GroupsBatch(std::move(key_columns), into.states, first, length));
          return Status::Ok();
        }
        AddedGroups& part = added[i - slices];
        if (part.table.size() == 0) return Status::Ok();
        for (size_t k = 0; k < plan_.group_keys.size(); ++k) {
          std::vector<ArrayPtr> pieces;
          for (int64_t w = 0; w < count; ++w) {
            if (part.taken[w].empty()) continue;
            HOGLAKE_ASSIGN_OR_RETURN(ArrayPtr piece, columnar::TakeRows(*keys[w][k], part.taken[w]));
            pieces.push_back(std::move(piece));
          }
          HOGLAKE_ASSIGN_OR_RETURN(ArrayPtr column, columnar::ConcatArrays(pieces));
          key_columns.push_back(std::move(column));
        }
        HOGLAKE_ASSIGN_OR_RETURN(batches[i], GroupsBatch(std::move(key_columns), part.states, 0,
                                                         part.table.size()));
        return Status::Ok();
      });
    }
    partials.clear();
    ctx_.Release(partials_held_);
    held_ -= partials_held_;
    partials_held_ = 0;
    HOGLAKE_RETURN_IF_ERROR(status);
    for (auto& batch : batches) {
      if (batch) output_.push_back(std::move(*batch));
    }
    return Status::Ok();
  }

  // Merges partition `part` of every partial but `base` (MergePartials).
  Status MergePartition(std::vector<PartialGroups>& partials, int64_t base,
                        const std::vector<std::vector<std::vector<int64_t>>>& groups_of, int64_t part,
                        AddedGroups& added, int64_t& held) {
    const int64_t count = static_cast<int64_t>(partials.size());
    PartialGroups& into = partials[base];
    const size_t aggregates = plan_.aggregates.size();
    added.states.resize(aggregates);
    added.taken.resize(count);
    int64_t bound = 0;  // groups this partition can add at most
    for (int64_t w = 0; w < count; ++w) {
      if (w != base) bound += static_cast<int64_t>(groups_of[w][part].size());
    }
    for (auto& s : added.states) s.reserve(bound);
    int64_t unreserved = 0;
    int64_t since_check = 0;
    for (int64_t w = 0; w < count; ++w) {
      if (w == base) continue;
      PartialGroups& from = partials[w];
      for (int64_t g : groups_of[w][part]) {
        if (++since_check == kGroupsBetweenChecks) {
          since_check = 0;
          HOGLAKE_RETURN_IF_ERROR(ctx_.CheckCancelled());
          HOGLAKE_RETURN_IF_ERROR(ctx_.Reserve(unreserved));
          held += unreserved;
          unreserved = 0;
        }
        const std::string_view key = from.table.key(g);
        const uint64_t hash = from.table.hash(g);
        std::vector<std::vector<AggState>>* states = &into.states;
        int64_t group = into.table.Find(key, hash);
        if (group == KeyTable::kAbsent) {
          bool inserted;
          states = &added.states;
          group = added.table.FindOrInsert(key, hash, &inserted);
          if (inserted) {
            added.taken[w].push_back(g);
            for (size_t a = 0; a < aggregates; ++a) added.states[a].push_back(std::move(from.states[a][g]));
            unreserved += GroupBytes(key);
            continue;
          }
        }
        for (size_t a = 0; a < aggregates; ++a) {
          HOGLAKE_RETURN_IF_ERROR(Merge(plan_.aggregates[a], (*states)[a][group], from.states[a][g]));
        }
      }
    }
    HOGLAKE_RETURN_IF_ERROR(ctx_.Reserve(unreserved));
    held += unreserved;
    return Status::Ok();
  }

  // The bytes one group of key `key` holds against the budget.
  int64_t GroupBytes(std::string_view key) const {
    return static_cast<int64_t>(key.size()) + 32 +
           static_cast<int64_t>(plan_.aggregates.size() * sizeof(AggState));
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
    const int64_t added = GroupBytes(key);
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

  ExecContext& ctx_;
  bool done_ = false;
  std::vector<SqlType> key_types_;
  int64_t held_ = 0;
  int64_t partials_held_ = 0;  // of held_: the workers' groups, until merged
  std::atomic<int> partitions_{0};  // of the merge, once run
  std::vector<columnar::RecordBatch> output_;  // the groups, a batch per partition
  size_t next_output_ = 0;
};

}  // namespace

Result<OperatorPtr> MakeAggregateOperator(const LogicalOp& plan, ExecContext& ctx,
                                          Children children) {
  return OperatorPtr(new HashAggregateOperator(plan, ctx, std::move(children)));
}

}  // namespace hoglake::sql
