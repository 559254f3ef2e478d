// Physical operators: the pull-based batch iterators a plan runs as. Each
// Next() returns the next non-empty batch of the operator's output, or
// nullopt at the end. Pipeline breakers (aggregate, join build, sort,
// distinct) consume their input on the first call.
//
// ExecContext carries what every operator of one run shares: the
// cancellation flag (checked between batches; a cancelled run fails with
// 57014), the memory budget (bytes held by breakers; exceeding it fails with
// 53200 naming the budget) and the object stores the scans read through.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "columnar/array.h"
#include "common/status.h"
#include "sql/planner/logical_plan.h"
#include "storage/object_store.h"

namespace hoglake::sql {

class StoreResolver;  // sql/source/lake_files.h
class FooterCache;    // sql/source/footer_cache.h

struct ScanCounters {
  std::atomic<int64_t> files_total{0};
  std::atomic<int64_t> files_pruned{0};
  std::atomic<int64_t> row_groups_total{0};
  std::atomic<int64_t> row_groups_pruned{0};
  std::atomic<int64_t> bytes_read{0};
  std::atomic<int64_t> footer_cache_hits{0};  // opened files whose footer was cached
};

struct ExecContext {
  const std::atomic<bool>* cancelled = nullptr;
  int64_t memory_budget_bytes = int64_t{1} << 30;
  std::atomic<int64_t> memory_used{0};
  StoreResolver* stores = nullptr;
  FooterCache* footers = nullptr;  // null: footers are read on every open
  int threads = 0;  // 0: the machine's
  // What the statement's table scans read, summed over every scan.
  std::atomic<int64_t> rows_scanned{0};
  std::atomic<int64_t> bytes_scanned{0};
  // The session's live progress counter (Session::RowsScannedSoFar), shared
  // by every context of one statement; may be null.
  std::atomic<int64_t>* rows_scanned_so_far = nullptr;

  // Counts `rows` decoded by a table scan, in this run and live progress.
  void CountScanned(int64_t rows) {
    rows_scanned += rows;
    if (rows_scanned_so_far != nullptr) *rows_scanned_so_far += rows;
  }

  // Fails with 57014 once the run is cancelled.
  Status CheckCancelled() const;
  // Accounts `bytes` more held by an operator; 53200 past the budget.
  Status Reserve(int64_t bytes);
  void Release(int64_t bytes) { memory_used -= bytes; }
};

using MaybeBatch = std::optional<columnar::RecordBatch>;
// NextImpl's two outcomes, spelled once.
inline Result<MaybeBatch> EndOfStream() { return MaybeBatch(); }
inline Result<MaybeBatch> Emit(columnar::RecordBatch batch) { return MaybeBatch(std::move(batch)); }
inline Result<MaybeBatch> Emit(MaybeBatch batch) { return batch; }

class PhysicalOperator {
 public:
  explicit PhysicalOperator(const LogicalOp& plan);
  virtual ~PhysicalOperator() = default;
  PhysicalOperator(const PhysicalOperator&) = delete;
  PhysicalOperator& operator=(const PhysicalOperator&) = delete;

  // The next batch (never empty), or nullopt when done — and nullopt again
  // on every later call; timed and counted. Callers may call Next from
  // several threads at once: it runs NextImpl concurrently when the
  // operator is concurrent(), one call at a time otherwise.
  Result<std::optional<columnar::RecordBatch>> Next();

  // Whether NextImpl may run on several threads at once: streaming
  // operators whose per-batch work touches no shared mutable state.
  virtual bool concurrent() const { return false; }

  const columnar::SchemaPtr& schema() const { return schema_; }
  const std::vector<std::unique_ptr<PhysicalOperator>>& children() const { return children_; }

  // EXPLAIN ANALYZE: this operator's line with actual rows and time.
  virtual std::string Describe() const;
  void Render(int depth, std::string* out) const;

 protected:
  virtual Result<std::optional<columnar::RecordBatch>> NextImpl() = 0;
  // A batch of this operator's schema over `columns`.
  columnar::RecordBatch MakeBatch(std::vector<columnar::ArrayPtr> columns, int64_t rows) const;

  const LogicalOp& plan_;
  columnar::SchemaPtr schema_;
  std::vector<std::unique_ptr<PhysicalOperator>> children_;
  std::atomic<int64_t> rows_out_{0};
  std::atomic<int64_t> batches_out_{0};
  std::atomic<int64_t> time_ns_{0};  // summed over the threads that called Next

 private:
  std::mutex serial_;  // held around NextImpl unless concurrent()
};

// The operator tree for `plan`.
Result<std::unique_ptr<PhysicalOperator>> BuildOperator(const LogicalOp& plan, ExecContext& ctx);

// The workers a pipeline breaker pulls its input with: the context's threads.
int PullWorkers(const ExecContext& ctx);

// Pulls every batch of `child` and hands each to fn(batch, slot) on the
// worker that pulled it: `workers` workers (slots 0 .. workers − 1, slot 0
// the caller) calling child.Next() concurrently; 1 pulls on the caller
// alone. The caller pulls the first batch before the others start, so the
// pipeline breakers below (which build in their first Next) do that with
// every helper of the pool rather than with one of this pull's workers
// blocked on them. Stops at the first failure (of Next, fn or
// cancellation) and returns it.
Status PullAll(PhysicalOperator& child, ExecContext& ctx, int workers,
               const std::function<Status(columnar::RecordBatch batch, int slot)>& fn);

// Every batch of `op` until the end; the batches held count against the
// context's memory budget (a result larger than the budget fails with 53200).
Result<std::vector<columnar::RecordBatch>> DrainAll(PhysicalOperator& op, ExecContext& ctx);

// The columnar schema of a plan's output (carrier types, nullable).
columnar::SchemaPtr OutputSchema(const std::vector<OutputColumn>& output);

}  // namespace hoglake::sql
