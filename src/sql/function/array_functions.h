// Binding of nested-value access and the array functions (subscripts,
// slices, map lookup, field selection, ARRAY[…], cardinality,
// array_length/lower/upper); the semantics are described in
// array_functions.cc's header.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "sql/planner/logical_plan.h"

namespace hoglake::sql {

// base[index]: an array's element or a map's value.
Result<BoundExprPtr> BindSubscript(BoundExprPtr base, BoundExprPtr index);
// base[lower:upper]; a null bound was left out.
Result<BoundExprPtr> BindSlice(BoundExprPtr base, BoundExprPtr lower, BoundExprPtr upper);
// (base).field
Result<BoundExprPtr> BindFieldSelect(BoundExprPtr base, const std::string& field);
// ARRAY[elements…]
Result<BoundExprPtr> BindArrayConstructor(std::vector<BoundExprPtr> elements);

// cardinality, array_length, array_lower, array_upper.
bool IsArrayFunctionName(std::string_view name);
Result<BoundExprPtr> BindArrayFunction(std::string_view name, std::vector<BoundExprPtr> args);

}  // namespace hoglake::sql
