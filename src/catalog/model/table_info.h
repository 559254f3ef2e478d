// What the catalog knows about a table at one snapshot: the shapes behind the
// contract's Table and TableSummary (§2.5).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "catalog/model/table_schema.h"

namespace hoglake::catalog {

struct PartitionFieldInfo {
  int32_t source_field_id = 0;
  std::string transform;  // identity | bucket | year | month | day | hour
  std::optional<int32_t> transform_param;
};

struct PartitionSpecInfo {
  int64_t spec_id = 0;
  std::vector<PartitionFieldInfo> fields;
};

struct SortFieldInfo {
  int32_t source_field_id = 0;
  std::string direction;   // asc | desc
  std::string null_order;  // nulls_first | nulls_last
};

struct SortSpecInfo {
  int64_t sort_id = 0;
  std::vector<SortFieldInfo> fields;
};

struct TableTotals {
  int64_t record_count = 0;
  int64_t file_count = 0;
  int64_t file_size_bytes = 0;
};

using Properties = std::vector<std::pair<std::string, std::string>>;  // sorted by key

struct TableInfo {
  int64_t table_id = 0;  // internal
  std::string name;
  std::string namespace_name;
  std::string table_uuid;
  std::vector<ColumnNode> columns;  // with field ids and ordinals
  int64_t read_snapshot_id = 0;
  std::optional<TableTotals> totals;
  std::optional<PartitionSpecInfo> partition_spec;
  std::optional<SortSpecInfo> sort_spec;
  std::optional<std::string> comment;
  Properties properties;
  std::optional<int64_t> snapshot_id;  // only on DDL receipts
};

struct TableSummary {
  std::string name;
  std::string table_uuid;
  TableTotals totals;
  int64_t snapshot_count = 0;
  std::optional<std::string> comment;
};

struct CreateTableRequest {
  std::string name;
  std::vector<ColumnNode> columns;
  Properties properties;
  std::optional<std::string> comment;
};

// Identifies a table by its names; reads resolve it at a snapshot.
struct TableRef {
  std::string_view catalog;
  std::string_view namespace_name;
  std::string_view table;
};

}  // namespace hoglake::catalog
