// ALTER of one table (contract §2.5 POST …/alter, §3.2 AlterOp; server
// digest §8): the parsed ops, and their application to an in-memory model of
// the table as it stands at head.
//
// ApplyAlterOp is pure: it validates one op against the state produced by the
// earlier ops of the same request and edits that state, or returns the error
// the contract gives and leaves the state unspecified (the request is then
// refused as a whole). Errors:
//   kValidation (422)         unknown column path, a path stepping into a
//                             list/map, duplicate sibling name, illegal
//                             promotion, dropping the last column / last
//                             struct field / a partition or sort source, bad
//                             partition or sort spec, bad names, comments or
//                             properties, schema limits (depth, node count)
//   kIdlessFilesPresent (409) add_column / rename_column while live data
//                             files lack field ids or are still pending
//   kAlreadyExists (409)      rename_table onto another live table's name
// Writing the resulting state back (a diff against the loaded state) is
// CatalogService::AlterTable's job (alter.cc).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "catalog/model/table_info.h"

namespace hoglake::catalog {

enum class AlterOpKind {
  kAddColumn,
  kAddColumnWithMetadata,
  kDropColumn,
  kRenameColumn,
  kPromoteColumn,
  kRenameTable,
  kSetPartitionSpec,
  kSetSortOrder,
  kSetTableComment,
  kSetColumnComment,
  kSetProperties,
};

// The wire discriminator: "add_column", …, "set_properties".
std::string_view AlterOpName(AlterOpKind kind);
std::optional<AlterOpKind> ParseAlterOpKind(std::string_view name);

// A PartitionField / SortField as sent; checked by ApplyAlterOp.
struct PartitionFieldInput {
  int64_t source_field_id = 0;
  std::string transform;
  std::optional<int64_t> transform_param;
};

struct SortFieldInput {
  int64_t source_field_id = 0;
  std::string direction;
  std::string null_order;
};

// One op; only the members its kind uses are set.
struct AlterOp {
  AlterOpKind kind = AlterOpKind::kAddColumn;
  ColumnNode column;                  // add_column*
  std::optional<std::string> parent;  // add_column*: dotted path of a struct
  // Dotted column path: drop_column, promote_column, set_column_comment
  // (`name`) and rename_column (`from`).
  std::string path;
  // rename_column: the new name; promote_column: the type name; rename_table:
  // the new table name.
  std::string to;
  std::vector<PartitionFieldInput> partition_fields;
  std::vector<SortFieldInput> sort_fields;
  std::optional<std::string> comment;  // set_*_comment (nullopt removes)
  Properties properties;               // set_properties (sorted by key)
};

struct AlterTableRequest {
  std::vector<AlterOp> ops;
  std::optional<std::string> expected_table_uuid;  // canonical form
  std::optional<int64_t> read_snapshot;
};

// The table as the ops edit it.
struct AlterState {
  std::string name;
  std::optional<std::string> comment;
  Properties properties;
  std::vector<ColumnNode> columns;  // with field ids and ordinals
  int32_t next_field_id = 1;
  std::optional<PartitionSpecInfo> partition_spec;
  std::optional<SortSpecInfo> sort_spec;
  // Highest spec_id / sort_id the table ever had (0 = none); a new spec gets
  // the next one (a spec replaced within the same request is not kept, so
  // its id is reused).
  int64_t max_spec_id = 0;
  int64_t max_sort_id = 0;
  bool partition_changed = false;
  bool sort_changed = false;
  // Any live data file lacks parquet field ids or is still pending.
  bool idless_files_present = false;
  // promote_column: field id → the column's type before this request.
  std::map<int32_t, iceberg::ColumnType> promoted_from;
};

// What ApplyAlterOp needs to know beyond the table itself.
struct AlterEnvironment {
  std::string namespace_name;
  // Whether another live table of the namespace is named `name`.
  std::function<Result<bool>(std::string_view name)> table_name_taken;
};

// The state of a table as loaded at head.
AlterState AlterStateOf(const TableInfo& table, int32_t next_field_id);

Status ApplyAlterOp(AlterState& state, const AlterOp& op, const AlterEnvironment& env);

// Applies every op in order; the first failure names its op index.
Status ApplyAlterOps(AlterState& state, const std::vector<AlterOp>& ops,
                     const AlterEnvironment& env);

}  // namespace hoglake::catalog
