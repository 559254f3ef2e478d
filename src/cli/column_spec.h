// The CLI's small languages for table definitions:
//
//   column      name:type[:not-null]            id:long:not-null
//   type        a catalog type name, decimal(P,S), list<type>,
//               struct<name:type,...>, map<type,type>
//                                               tags:list<string>
//                                               addr:struct<city:string,zip:int>
//   partition   column | transform(column) | bucket(N,column) | truncate(W,column)
//               (transform: identity, year, month, day, hour); column may be
//               a dotted struct path
//   sort        column[:asc|desc][:nulls_first|nulls_last]
//
// Errors are kValidation naming the text and what was wrong in it.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "client/client.h"
#include "common/status.h"

namespace hoglake::cli {

Result<client::ColumnDef> ParseColumnSpec(std::string_view text);
// A type expression alone (the part after "name:").
Result<client::ColumnDef> ParseTypeSpec(std::string_view text, std::string name);

struct PartitionSpecText {
  std::string column;  // dotted path
  std::string transform;
  std::optional<int32_t> param;
};
Result<PartitionSpecText> ParsePartitionSpec(std::string_view text);

struct SortSpecText {
  std::string column;
  std::string direction = "asc";
  std::string null_order = "nulls_last";
};
Result<SortSpecText> ParseSortSpec(std::string_view text);

// The field id of the column at dotted `path` (top-level names and struct
// members), kValidation naming the path when absent.
Result<int32_t> FieldIdOf(const std::vector<client::Column>& columns, std::string_view path);

}  // namespace hoglake::cli
