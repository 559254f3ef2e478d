// Factories of the physical operators, one per logical kind; each lives in
// its own translation unit. Internal to src/sql/execution.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "sql/execution/operator.h"

namespace hoglake::sql {

using OperatorPtr = std::unique_ptr<PhysicalOperator>;
using Children = std::vector<OperatorPtr>;

Result<OperatorPtr> MakeScanOperator(const LogicalOp& plan, ExecContext& ctx);
Result<OperatorPtr> MakeValuesOperator(const LogicalOp& plan, ExecContext& ctx);
Result<OperatorPtr> MakeFilterOperator(const LogicalOp& plan, ExecContext& ctx, Children children);
Result<OperatorPtr> MakeProjectOperator(const LogicalOp& plan, ExecContext& ctx,
                                        Children children);
Result<OperatorPtr> MakeAggregateOperator(const LogicalOp& plan, ExecContext& ctx,
                                          Children children);
Result<OperatorPtr> MakeJoinOperator(const LogicalOp& plan, ExecContext& ctx, Children children);
// `keep`: top-N — only the first `keep` rows of the order are needed
// (a LIMIT above; the limit operator still applies the offset and limit).
Result<OperatorPtr> MakeSortOperator(const LogicalOp& plan, ExecContext& ctx, Children children,
                                     std::optional<int64_t> keep = std::nullopt);
Result<OperatorPtr> MakeLimitOperator(const LogicalOp& plan, ExecContext& ctx, Children children);
Result<OperatorPtr> MakeDistinctOperator(const LogicalOp& plan, ExecContext& ctx,
                                         Children children);
Result<OperatorPtr> MakeWindowOperator(const LogicalOp& plan, ExecContext& ctx, Children children);
Result<OperatorPtr> MakeUnionOperator(const LogicalOp& plan, ExecContext& ctx, Children children);
Result<OperatorPtr> MakeSetOpOperator(const LogicalOp& plan, ExecContext& ctx, Children children);

// Bytes an array holds in its buffers (for memory accounting).
int64_t ArrayBytes(const columnar::ArrayData& array);
int64_t BatchBytes(const columnar::RecordBatch& batch);

}  // namespace hoglake::sql
