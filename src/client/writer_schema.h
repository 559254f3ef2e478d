// The writer path's schema work (pyhoglake-writer §2.2, §3.1, §3.3, §12):
// the Parquet writer schema a table's columns call for, and fitting a
// caller's batch to it.
//
// WriterSchema: one Arrow field per column in ordinal order (variant columns
// are left out: they cannot be written from Arrow), the catalog's field id
// on every node — list `element`, map `key`/`value`, struct members — and
// the writer types of iceberg/arrow_mapping.h (uint32 as int64, json/uuid
// with their extension names).
//
// AlignBatch fits a batch to a writer schema, checking before converting:
//   1. top-level names: "data is missing table columns: ['a']" /
//      "data has columns not in the table schema: ['x']";
//   2. nested names (struct members by name, list element, map key/value by
//      position): "data is missing nested table fields: ['s.b']" /
//      "data has nested fields not in the table schema: ['s.typo']", paths
//      spelled with .element/.key/.value;
//   3. types: the same physical layout is relabelled for free (names, field
//      ids and extension metadata come from the table; decimal precision may
//      grow; any time zone fits timestamptz); integers widen when every value
//      of the source type fits (int32 → int64, uint32 → int64, uint8 →
//      int16, …) and float widens to double; anything else is refused naming
//      the column and both types;
//   4. nullability: nulls in a not-null column are refused.
// The result's schema is `target` itself; columns come in its order.
// Errors are kValidation.
//
// CheckReservedNames refuses column names starting with "_hog" at any depth
// of a batch (every offending dotted path listed), before anything is sent.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "client/models.h"
#include "columnar/array.h"
#include "common/status.h"
#include "parquet/footer_stats.h"

namespace hoglake::client {

Result<columnar::SchemaPtr> WriterSchema(const std::vector<Column>& columns);

Result<columnar::RecordBatch> AlignBatch(const columnar::RecordBatch& batch,
                                         const columnar::SchemaPtr& target);

Status CheckReservedNames(const columnar::Schema& schema);

// Every leaf of `columns` (variant excluded) for footer-stats extraction.
std::vector<parquet::StatsColumn> StatsColumnsFor(const std::vector<Column>& columns);

// The rows' values of the leaf `field_id` reached through top-level and
// struct members only (a partition source), with every enclosing struct's
// nulls folded in, plus its catalog type. kValidation when the id names no
// such leaf ("partition source field 7 is not a top-level or struct leaf").
struct PartitionSource {
  columnar::ArrayPtr values;
  iceberg::TypeSpec type;
  std::string path;
};
Result<PartitionSource> FindPartitionSource(const columnar::RecordBatch& aligned,
                                            const std::vector<Column>& columns, int32_t field_id);

}  // namespace hoglake::client
