// LoadColumns: how a load's columns meet an existing table's (hotdata-api.md
// §2.8: "only widening type changes are accepted").
//
// Columns are matched by (lower-cased) name. For each column of the data:
//   * the table's type: loaded as is;
//   * narrower than the table's (the table's type widens the data's, see
//     Widens): the values are widened to the table's type while loading
//     (WidenArray); the table is not changed;
//   * wider than the table's: the table column is promoted first, through
//     the catalog's promote_column (iceberg::CanPromote is the one matrix:
//     int8→int16/int/long, int16→int/long, int→long, uint8→uint16/uint32,
//     uint16→uint32, float→double), or a decimal of the same scale and a
//     higher precision (promote_column to "decimal(P,S)"). A decimal of
//     another scale is refused like any other type below;
//   * not in the table: added as a nullable column (add_column), in append
//     and replace alike; rows loaded earlier read it as NULL;
//   * any other type: kCommitConflict (409) naming the column and both types.
// A table column the data lacks is loaded as NULL when nullable (the caller
// fills it), else kCommitConflict naming it.
// PlanTableChanges is pure: the ops it returns are applied by the caller
// through CatalogService::AlterTable (one snapshot of its own, before the
// load's snapshot).
#pragma once

#include <vector>

#include "catalog/ddl/alter_ops.h"
#include "catalog/model/table_info.h"
#include "columnar/array.h"
#include "columnar/type.h"
#include "common/status.h"

namespace hoglake::query {

// Whether a value of type `from` converts to `to` without loss by widening:
// the catalog's promotion matrix, or decimals of one scale and a higher
// precision.
bool Widens(const iceberg::TypeSpec& from, const iceberg::TypeSpec& to);

// The alter ops (promote_column, add_column) that make `table` accept
// `data`'s columns; empty when it already does. Errors as the header says.
Result<std::vector<catalog::AlterOp>> PlanTableChanges(const catalog::TableInfo& table,
                                                       const columnar::Schema& data);

// `array` converted to `to` when the conversion widens (integers to wider
// integers of the same signedness, float32 to float64, decimal128 to a higher
// precision of the same scale); kInvalidArgument otherwise.
Result<columnar::ArrayPtr> WidenArray(const columnar::ArrayPtr& array,
                                      const columnar::DataTypePtr& to);

}  // namespace hoglake::query
