#include "server/catalog_api/alter_wire.h"

#include <algorithm>

#include "common/uuid.h"
#include "server/http/request_params.h"
#include "server/catalog_api/table_wire.h"

namespace hoglake::server {
namespace {

using catalog::AlterOp;
using catalog::AlterOpKind;

std::string Member(const JsonObject& o, std::string_view key) {
  return o.path().empty() ? std::string(key) : o.path() + "." + std::string(key);
}

Result<JsonObject> RequiredObject(JsonObject& o, std::string_view key) {
  HOGLAKE_ASSIGN_OR_RETURN(std::optional<JsonObject> value, o.OptionalObject(key));
  if (!value) return BadRequest(Member(o, key), " is required");
  return std::move(*value);
}

// Every element of a non-nullable list as an object.
Result<std::vector<JsonObject>> Objects(const JsonArray& array) {
  std::vector<JsonObject> out;
  for (size_t i = 0; i < array.size(); ++i) {
    if (array.IsNull(i)) return BadRequest(array.path(), "[", i, "] must not be null");
    HOGLAKE_ASSIGN_OR_RETURN(JsonObject o, array.Object(i));
    out.push_back(std::move(o));
  }
  return out;
}

// Reads one op's members; its ColumnDef (add_column*) is returned unparsed in
// `column` so that every op's shape is checked before any column's types.
Result<AlterOp> ParseOp(JsonObject o, std::optional<JsonObject>* column) {
  HOGLAKE_ASSIGN_OR_RETURN(std::string name, o.RequiredString("op"));
  std::optional<AlterOpKind> kind = catalog::ParseAlterOpKind(name);
  if (!kind) return BadRequest(Member(o, "op"), ": unknown op '", name, "'");
  AlterOp op;
  op.kind = *kind;
  switch (op.kind) {
    case AlterOpKind::kAddColumn:
    case AlterOpKind::kAddColumnWithMetadata: {
      HOGLAKE_ASSIGN_OR_RETURN(JsonObject def, RequiredObject(o, "column"));
      *column = std::move(def);
      HOGLAKE_ASSIGN_OR_RETURN(op.parent, o.OptionalString("parent"));
      break;
    }
    case AlterOpKind::kDropColumn: {
      HOGLAKE_ASSIGN_OR_RETURN(op.path, o.RequiredString("name"));
      break;
    }
    case AlterOpKind::kPromoteColumn: {
      HOGLAKE_ASSIGN_OR_RETURN(op.path, o.RequiredString("name"));
      HOGLAKE_ASSIGN_OR_RETURN(op.to, o.RequiredString("to"));
      break;
    }
    case AlterOpKind::kSetColumnComment: {
      HOGLAKE_ASSIGN_OR_RETURN(op.path, o.RequiredString("name"));
      HOGLAKE_ASSIGN_OR_RETURN(op.comment, o.OptionalString("comment"));
      break;
    }
    case AlterOpKind::kRenameColumn: {
      HOGLAKE_ASSIGN_OR_RETURN(op.path, o.RequiredString("from"));
      HOGLAKE_ASSIGN_OR_RETURN(op.to, o.RequiredString("to"));
      break;
    }
    case AlterOpKind::kRenameTable: {
      HOGLAKE_ASSIGN_OR_RETURN(op.to, o.RequiredString("new_name"));
      break;
    }
    case AlterOpKind::kSetPartitionSpec: {
      HOGLAKE_ASSIGN_OR_RETURN(JsonArray fields, o.RequiredArray("fields"));
      HOGLAKE_ASSIGN_OR_RETURN(op.partition_fields, ParsePartitionFields(fields));
      break;
    }
    case AlterOpKind::kSetSortOrder: {
      HOGLAKE_ASSIGN_OR_RETURN(JsonArray fields, o.RequiredArray("sort_fields"));
      HOGLAKE_ASSIGN_OR_RETURN(op.sort_fields, ParseSortFields(fields));
      break;
    }
    case AlterOpKind::kSetTableComment: {
      HOGLAKE_ASSIGN_OR_RETURN(op.comment, o.OptionalString("comment"));
      break;
    }
    case AlterOpKind::kSetProperties: {
      HOGLAKE_ASSIGN_OR_RETURN(JsonObject properties, RequiredObject(o, "properties"));
      HOGLAKE_ASSIGN_OR_RETURN(op.properties, properties.StringMap());
      std::sort(op.properties.begin(), op.properties.end());
      break;
    }
  }
  HOGLAKE_RETURN_IF_ERROR(o.CheckNoUnknownFields());
  return op;
}

}  // namespace

Result<std::vector<catalog::PartitionFieldInput>> ParsePartitionFields(const JsonArray& array) {
  HOGLAKE_ASSIGN_OR_RETURN(std::vector<JsonObject> objects, Objects(array));
  std::vector<catalog::PartitionFieldInput> out;
  for (JsonObject& f : objects) {
    catalog::PartitionFieldInput field;
    HOGLAKE_ASSIGN_OR_RETURN(field.source_field_id, f.RequiredInt64("source_field_id"));
    HOGLAKE_ASSIGN_OR_RETURN(field.transform, f.RequiredString("transform"));
    HOGLAKE_ASSIGN_OR_RETURN(field.transform_param, f.OptionalInt64("transform_param"));
    HOGLAKE_RETURN_IF_ERROR(f.CheckNoUnknownFields());
    out.push_back(std::move(field));
  }
  return out;
}

Result<std::vector<catalog::SortFieldInput>> ParseSortFields(const JsonArray& array) {
  HOGLAKE_ASSIGN_OR_RETURN(std::vector<JsonObject> objects, Objects(array));
  std::vector<catalog::SortFieldInput> out;
  for (JsonObject& f : objects) {
    catalog::SortFieldInput field;
    HOGLAKE_ASSIGN_OR_RETURN(field.source_field_id, f.RequiredInt64("source_field_id"));
    HOGLAKE_ASSIGN_OR_RETURN(field.direction, f.RequiredString("direction"));
    HOGLAKE_ASSIGN_OR_RETURN(field.null_order, f.RequiredString("null_order"));
    HOGLAKE_RETURN_IF_ERROR(f.CheckNoUnknownFields());
    out.push_back(std::move(field));
  }
  return out;
}

Result<std::vector<AlterOp>> ParseAlterOps(JsonObject body) {
  HOGLAKE_ASSIGN_OR_RETURN(JsonArray ops, body.RequiredArray("ops"));
  HOGLAKE_RETURN_IF_ERROR(body.CheckNoUnknownFields());
  if (ops.size() == 0) return BadRequest("ops must name at least one op");
  HOGLAKE_ASSIGN_OR_RETURN(std::vector<JsonObject> objects, Objects(ops));
  // Every op's shape is checked before any op's semantics: parse-level
  // failures (400) win over semantic ones (422).
  std::vector<AlterOp> out;
  std::vector<std::optional<JsonObject>> columns(objects.size());
  for (size_t i = 0; i < objects.size(); ++i) {
    HOGLAKE_ASSIGN_OR_RETURN(AlterOp op, ParseOp(std::move(objects[i]), &columns[i]));
    out.push_back(std::move(op));
  }
  for (size_t i = 0; i < out.size(); ++i) {
    if (!columns[i]) continue;
    HOGLAKE_ASSIGN_OR_RETURN(out[i].column, ParseColumnDef(std::move(*columns[i])));
  }
  return out;
}

Result<catalog::AlterTableRequest> ParseAlterRequest(const HttpRequest& request) {
  catalog::AlterTableRequest out;
  if (auto text = request.Query("expected_table_uuid")) {
    Result<UuidBytes> uuid = ParseUuid(*text);
    if (!uuid.ok())
      return BadRequest("query parameter expected_table_uuid: ", uuid.error().message);
    out.expected_table_uuid = FormatUuid(*uuid);
  }
  HOGLAKE_ASSIGN_OR_RETURN(out.read_snapshot, QueryInt64(request, "read_snapshot"));
  HOGLAKE_ASSIGN_OR_RETURN(JsonObject body, JsonBody::Parse(request));
  HOGLAKE_ASSIGN_OR_RETURN(out.ops, ParseAlterOps(std::move(body)));
  return out;
}

}  // namespace hoglake::server
