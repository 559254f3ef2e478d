#include "sql/optimizer/filter_pushdown.h"

#include "sql/binder/query_binder.h"

namespace hoglake::sql {

LogicalOpPtr PushFiltersIntoScans(const LogicalOpPtr& plan) {
  auto copy = std::make_shared<LogicalOp>(*plan);
  for (LogicalOpPtr& child : copy->children) child = PushFiltersIntoScans(child);
  if (copy->kind == LogicalKind::kFilter && copy->children[0]->kind == LogicalKind::kScan) {
    auto scan = std::make_shared<LogicalOp>(*copy->children[0]);
    auto spec = std::make_shared<ScanSpec>(*scan->scan);
    SplitConjuncts(copy->predicate, &spec->filters);
    scan->scan = spec;
    return scan;
  }
  return copy;
}

}  // namespace hoglake::sql
