#include "sql/execution/operator.h"

#include "common/parallel.h"
#include "sql/execution/operators.h"
#include "sql/sql_error.h"

namespace hoglake::sql {

Status ExecContext::CheckCancelled() const {
  if (cancelled != nullptr && cancelled->load(std::memory_order_relaxed)) {
    return SqlError(SqlErrorKind::kQueryCanceled, "canceling statement due to user request");
  }
  return Status::Ok();
}

Status ExecContext::Reserve(int64_t bytes) {
  int64_t now = memory_used.fetch_add(bytes) + bytes;
  if (now > memory_budget_bytes) {
    memory_used.fetch_sub(bytes);
    return SqlError(SqlErrorKind::kOutOfMemory, "query needs more than its memory budget of ",
                    memory_budget_bytes >> 20, " MiB (spilling to disk is not supported yet)");
  }
  return Status::Ok();
}

columnar::SchemaPtr OutputSchema(const std::vector<OutputColumn>& output) {
  auto schema = std::make_shared<columnar::Schema>();
  for (const OutputColumn& column : output) {
    schema->fields.push_back(columnar::Field{column.name, CarrierType(column.type), true, {}});
  }
  return schema;
}

PhysicalOperator::PhysicalOperator(const LogicalOp& plan)
    : plan_(plan), schema_(OutputSchema(plan.output)) {}

Result<std::optional<columnar::RecordBatch>> PhysicalOperator::Next() {
  auto start = std::chrono::steady_clock::now();
  std::unique_lock<std::mutex> lock(serial_, std::defer_lock);
  if (!concurrent()) lock.lock();
  auto result = NextImpl();
  if (lock.owns_lock()) lock.unlock();
  time_ns_ += std::chrono::duration_cast<std::chrono::nanoseconds>(
                  std::chrono::steady_clock::now() - start)
                  .count();
  if (result.ok() && result->has_value()) {
    rows_out_ += (*result)->num_rows;
    ++batches_out_;
  }
  return result;
}

int PullWorkers(const ExecContext& ctx) { return ResolveThreads(ctx.threads); }

Status PullAll(PhysicalOperator& child, ExecContext& ctx, int workers,
               const std::function<Status(columnar::RecordBatch batch, int slot)>& fn) {
  if (workers > 1) {
    // The first batch alone, so that the pipeline breakers below, which
    // build in their first Next, have the pool's helpers to themselves
    // instead of one of ours waiting on them meanwhile.
    HOGLAKE_RETURN_IF_ERROR(ctx.CheckCancelled());
    HOGLAKE_ASSIGN_OR_RETURN(std::optional<columnar::RecordBatch> first, child.Next());
    if (!first) return Status::Ok();
    HOGLAKE_RETURN_IF_ERROR(fn(std::move(*first), 0));
  }
  std::atomic<bool> failed{false};
  return ParallelForStatus(workers, workers, [&](int64_t, int slot) -> Status {
    while (!failed.load(std::memory_order_relaxed)) {
      Status status = ctx.CheckCancelled();
      if (status.ok()) {
        Result<std::optional<columnar::RecordBatch>> batch = child.Next();
        if (!batch.ok()) {
          status = batch.status();
        } else if (!batch->has_value()) {
          return Status::Ok();
        } else {
          status = fn(std::move(**batch), slot);
        }
      }
      if (!status.ok()) {
        failed = true;
        return status;
      }
    }
    return Status::Ok();
  });
}

columnar::RecordBatch PhysicalOperator::MakeBatch(std::vector<columnar::ArrayPtr> columns,
                                                  int64_t rows) const {
  columnar::RecordBatch batch;
  batch.schema = schema_;
  batch.num_rows = rows;
  batch.columns = std::move(columns);
  return batch;
}

std::string PhysicalOperator::Describe() const {
  std::string line = plan_.ToString(0);
  if (!line.empty() && line.back() == '\n') line.pop_back();
  // Only the operator's own line (ToString renders the subtree).
  size_t nl = line.find('\n');
  if (nl != std::string::npos) line.resize(nl);
  double ms = static_cast<double>(time_ns_.load()) / 1e6;
  char buf[96];
  std::snprintf(buf, sizeof(buf), " (actual rows=%lld time=%.3f ms)",
                static_cast<long long>(rows_out_.load()), ms);
  return line + buf;
}

void PhysicalOperator::Render(int depth, std::string* out) const {
  out->append(static_cast<size_t>(depth) * 2, ' ');
  *out += Describe();
  *out += "\n";
  for (const auto& child : children_) child->Render(depth + 1, out);
}

Result<std::vector<columnar::RecordBatch>> DrainAll(PhysicalOperator& op, ExecContext& ctx) {
  std::vector<columnar::RecordBatch> batches;
  while (true) {
    HOGLAKE_ASSIGN_OR_RETURN(std::optional<columnar::RecordBatch> batch, op.Next());
    if (!batch) break;
    HOGLAKE_RETURN_IF_ERROR(ctx.Reserve(BatchBytes(*batch)));
    batches.push_back(std::move(*batch));
  }
  return batches;
}

namespace {

// Grouping, DISTINCT, set operations and sorting compare whole values;
// arrays, composites and maps have no comparison here (0A000, never a
// silently wrong grouping or order).
Status CheckComparable(const SqlType& type, std::string_view what) {
  if (!type.is_nested()) return Status::Ok();
  return SqlError(SqlErrorKind::kFeatureNotSupported, what, " ", PgTypeName(type),
                  " values is not supported");
}

Status CheckKeysComparable(const LogicalOp& plan) {
  switch (plan.kind) {
    case LogicalKind::kAggregate:
      for (const BoundExprPtr& key : plan.group_keys) {
        HOGLAKE_RETURN_IF_ERROR(CheckComparable(key->type, "grouping by"));
      }
      for (const BoundAggregate& agg : plan.aggregates) {
        if (!agg.distinct) continue;
        for (const BoundExprPtr& arg : agg.args) {
          HOGLAKE_RETURN_IF_ERROR(CheckComparable(arg->type, "DISTINCT over"));
        }
      }
      return Status::Ok();
    case LogicalKind::kJoin:
      for (const BoundExprPtr& key : plan.left_keys) {
        HOGLAKE_RETURN_IF_ERROR(CheckComparable(key->type, "joining on"));
      }
      return Status::Ok();
    case LogicalKind::kSort:
      for (const SortKey& key : plan.sort_keys) {
        HOGLAKE_RETURN_IF_ERROR(CheckComparable(key.expr->type, "ordering by"));
      }
      return Status::Ok();
    case LogicalKind::kDistinct:
      if (plan.distinct_keys.empty()) {
        for (const OutputColumn& c : plan.output) {
          HOGLAKE_RETURN_IF_ERROR(CheckComparable(c.type, "DISTINCT over"));
        }
      }
      for (int k : plan.distinct_keys) {
        HOGLAKE_RETURN_IF_ERROR(CheckComparable(plan.output[k].type, "DISTINCT ON"));
      }
      return Status::Ok();
    case LogicalKind::kSetOp:
      for (const OutputColumn& c : plan.output) {
        HOGLAKE_RETURN_IF_ERROR(
            CheckComparable(c.type, plan.set_op == SetOpKind::kIntersect ? "INTERSECT over"
                                                                         : "EXCEPT over"));
      }
      return Status::Ok();
    default:
      return Status::Ok();
  }
}

}  // namespace

Result<std::unique_ptr<PhysicalOperator>> BuildOperator(const LogicalOp& plan, ExecContext& ctx) {
  HOGLAKE_RETURN_IF_ERROR(CheckKeysComparable(plan));
  if (plan.kind == LogicalKind::kLimit && plan.limit && plan.children.size() == 1 &&
      plan.children[0]->kind == LogicalKind::kSort) {
    // ORDER BY … LIMIT: the sort keeps only the rows the limit can emit.
    const LogicalOp& sort = *plan.children[0];
    HOGLAKE_RETURN_IF_ERROR(CheckKeysComparable(sort));
    std::vector<std::unique_ptr<PhysicalOperator>> sort_children;
    for (const LogicalOpPtr& child : sort.children) {
      HOGLAKE_ASSIGN_OR_RETURN(std::unique_ptr<PhysicalOperator> op, BuildOperator(*child, ctx));
      sort_children.push_back(std::move(op));
    }
    int64_t keep;
    if (__builtin_add_overflow(*plan.limit, plan.offset, &keep)) keep = INT64_MAX;
    HOGLAKE_ASSIGN_OR_RETURN(std::unique_ptr<PhysicalOperator> top,
                             MakeSortOperator(sort, ctx, std::move(sort_children), keep));
    std::vector<std::unique_ptr<PhysicalOperator>> children;
    children.push_back(std::move(top));
    return MakeLimitOperator(plan, ctx, std::move(children));
  }
  std::vector<std::unique_ptr<PhysicalOperator>> children;
  for (const LogicalOpPtr& child : plan.children) {
    HOGLAKE_ASSIGN_OR_RETURN(std::unique_ptr<PhysicalOperator> op, BuildOperator(*child, ctx));
    children.push_back(std::move(op));
  }
  switch (plan.kind) {
    case LogicalKind::kScan:
      return MakeScanOperator(plan, ctx);
    case LogicalKind::kValues:
      return MakeValuesOperator(plan, ctx);
    case LogicalKind::kFilter:
      return MakeFilterOperator(plan, ctx, std::move(children));
    case LogicalKind::kProject:
      return MakeProjectOperator(plan, ctx, std::move(children));
    case LogicalKind::kAggregate:
      return MakeAggregateOperator(plan, ctx, std::move(children));
    case LogicalKind::kJoin:
      return MakeJoinOperator(plan, ctx, std::move(children));
    case LogicalKind::kSort:
      return MakeSortOperator(plan, ctx, std::move(children));
    case LogicalKind::kLimit:
      return MakeLimitOperator(plan, ctx, std::move(children));
    case LogicalKind::kDistinct:
      return MakeDistinctOperator(plan, ctx, std::move(children));
    case LogicalKind::kUnion:
      return MakeUnionOperator(plan, ctx, std::move(children));
    case LogicalKind::kSetOp:
      return MakeSetOpOperator(plan, ctx, std::move(children));
    case LogicalKind::kWindow:
      return MakeWindowOperator(plan, ctx, std::move(children));
  }
  return Internal("unknown logical operator");
}

}  // namespace hoglake::sql
