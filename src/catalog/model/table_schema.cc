#include "catalog/model/table_schema.h"

#include <algorithm>
#include <limits>
#include <set>

#include "catalog/model/identifiers.h"
#include "catalog/model/shredding.h"

namespace hoglake::catalog {
namespace {

using iceberg::ColumnType;

Status Fail(const std::string& path, std::string_view what) {
  return Validation("column '", path, "': ", what);
}

Status CheckNode(const ColumnNode& node, const std::string& path, int depth) {
  HOGLAKE_RETURN_IF_ERROR(ValidateIdentifier("column", node.name));
  if (node.name.size() >= 4 && (node.name.compare(0, 4, "_hog") == 0)) {
    return Validation("column name '", path, "' uses the reserved prefix '_hog'");
  }
  if (depth > kMaxNestingDepth) {
    return Validation("column '", path, "': nesting depth ", depth, " exceeds the maximum ",
                      kMaxNestingDepth);
  }
  if (node.comment)
    HOGLAKE_RETURN_IF_ERROR(ValidateComment("column '" + path + "' comment", *node.comment));
  const ColumnType type = node.type.type;
  if (type == ColumnType::kDecimal) {
    if (node.type.precision < 1 || node.type.precision > 38) {
      return Fail(path, StrCat("decimal precision ", node.type.precision, " is outside 1..38"));
    }
    if (node.type.scale < 0 || node.type.scale > node.type.precision) {
      return Fail(
          path, StrCat("decimal scale ", node.type.scale, " is outside 0..", node.type.precision));
    }
  }
  if (node.shredding_json && type != ColumnType::kVariant) {
    return Fail(path, "only variant columns may declare shredding");
  }
  if (node.shredding_json && depth > 1) {
    return Fail(path, "only top-level variant columns may declare shredding");
  }
  if (node.shredding_json) HOGLAKE_RETURN_IF_ERROR(ValidateShredding(*node.shredding_json, path));
  if (!iceberg::IsContainer(type)) {
    if (!node.children.empty()) return Fail(path, "a scalar column has no children");
    return Status::Ok();
  }
  std::set<std::string, std::less<>> names;
  for (const ColumnNode& child : node.children) {
    if (!names.insert(child.name).second) {
      return Fail(path, StrCat("duplicate child name '", child.name, "'"));
    }
  }
  switch (type) {
    case ColumnType::kList:
      if (node.children.size() != 1 || node.children[0].name != "element") {
        return Fail(path, "a list has exactly one child, named 'element'");
      }
      break;
    case ColumnType::kMap:
      if (node.children.size() != 2 || node.children[0].name != "key" ||
          node.children[1].name != "value") {
        return Fail(path, "a map has exactly two children, 'key' then 'value'");
      }
      if (node.children[0].nullable)
        return Fail(path + ".key", "a map key must be nullable: false");
      break;
    default:  // struct
      if (node.children.empty()) return Fail(path, "a struct has at least one child");
  }
  for (const ColumnNode& child : node.children) {
    HOGLAKE_RETURN_IF_ERROR(CheckNode(child, path + "." + child.name, depth + 1));
  }
  return Status::Ok();
}

int64_t Assign(std::vector<ColumnNode>& nodes, int64_t next) {
  for (size_t i = 0; i < nodes.size(); ++i) {
    nodes[i].ordinal = static_cast<int32_t>(i);
    if (next == kReservedRowIdFieldId) ++next;
    nodes[i].field_id = static_cast<int32_t>(next++);
    next = Assign(nodes[i].children, next);
  }
  return next;
}

}  // namespace

std::optional<std::string> ColumnNode::TypeParamsJson() const {
  if (type.type == ColumnType::kDecimal) {
    return StrCat("{\"precision\":", type.precision, ",\"scale\":", type.scale, "}");
  }
  if (type.type == ColumnType::kVariant && shredding_json) {
    return "{\"shredding\":" + *shredding_json + "}";
  }
  return std::nullopt;
}

Status ValidateColumns(const std::vector<ColumnNode>& columns) {
  if (columns.empty()) return Validation("a table needs at least one column");
  const int nodes = CountNodes(columns);
  if (nodes > kMaxColumnNodes) {
    return Validation("the table would have ", nodes, " column nodes, more than the maximum ",
                      kMaxColumnNodes);
  }
  std::set<std::string, std::less<>> names;
  for (const ColumnNode& column : columns) {
    if (!names.insert(column.name).second) {
      return Validation("duplicate column name '", column.name, "'");
    }
    HOGLAKE_RETURN_IF_ERROR(CheckNode(column, column.name, 1));
  }
  return Status::Ok();
}

int CountNodes(const std::vector<ColumnNode>& columns) {
  int count = 0;
  for (const ColumnNode& c : columns) count += 1 + CountNodes(c.children);
  return count;
}

Result<int32_t> AssignFieldIds(std::vector<ColumnNode>& columns, int32_t next_field_id) {
  const int64_t next = Assign(columns, next_field_id);
  if (next - 1 > std::numeric_limits<int32_t>::max()) {
    return Validation("the table has run out of field ids (they are never reused)");
  }
  return static_cast<int32_t>(std::min<int64_t>(next, std::numeric_limits<int32_t>::max()));
}

Status ValidateComment(std::string_view what, std::string_view comment) {
  if (comment.size() > 16384) return Validation(what, " is longer than 16384 characters");
  if (comment.find('\0') != std::string_view::npos) return Validation(what, " contains NUL");
  return Status::Ok();
}

Status ValidateProperties(const std::vector<std::pair<std::string, std::string>>& properties) {
  if (properties.size() > 100) {
    return Validation("a table has at most 100 properties, got ", properties.size());
  }
  static const std::set<std::string_view> kReserved = {"partitioning", "sorted_by", "location",
                                                       "format", "comment"};
  for (const auto& [key, value] : properties) {
    bool ok = !key.empty() && key.size() <= 128 && key[0] >= 'a' && key[0] <= 'z';
    for (char c : key) {
      ok = ok &&
           ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-');
    }
    if (!ok || key.starts_with("hoglake.") || key.starts_with("trino.") ||
        kReserved.contains(key)) {
      return Validation("invalid or reserved custom property key '", key, "'");
    }
    if (value.size() > 4096)
      return Validation("property '", key, "' value is longer than 4096 characters");
    if (value.find('\0') != std::string::npos)
      return Validation("property '", key, "' value contains NUL");
    if (key == "write.format.default" && value != "parquet") {
      return Validation("write.format.default '", value,
                        "' is not supported by this server (only parquet)");
    }
  }
  return Status::Ok();
}

}  // namespace hoglake::catalog
