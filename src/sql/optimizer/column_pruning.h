// Column pruning: rewrites a plan so every operator carries only the columns
// something above it uses, down to the scans, which then read only those
// columns from the files. Output columns of the root are all kept.
#pragma once

#include "common/status.h"
#include "sql/planner/logical_plan.h"

namespace hoglake::sql {

Result<LogicalOpPtr> PruneColumns(const LogicalOpPtr& plan);

}  // namespace hoglake::sql
