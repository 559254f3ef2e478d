// Filter pushdown into scans: a filter directly above a lake scan becomes
// the scan's filters, which the scan uses to skip files (catalog
// statistics) and row groups (footer statistics) before applying them to
// the rows it reads. Runs after join planning, which has already placed
// each single-table condition right above its scan.
#pragma once

#include "sql/planner/logical_plan.h"

namespace hoglake::sql {

LogicalOpPtr PushFiltersIntoScans(const LogicalOpPtr& plan);

}  // namespace hoglake::sql
