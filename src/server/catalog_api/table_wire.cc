#include "server/catalog_api/table_wire.h"

namespace hoglake::server {

using catalog::ColumnNode;
using iceberg::ColumnType;

Result<std::vector<ColumnNode>> ParseColumnDefs(JsonArray defs) {
  std::vector<ColumnNode> out;
  for (size_t i = 0; i < defs.size(); ++i) {
    if (defs.IsNull(i)) return BadRequest(defs.path(), "[", i, "] must not be null");
    HOGLAKE_ASSIGN_OR_RETURN(JsonObject def, defs.Object(i));
    HOGLAKE_ASSIGN_OR_RETURN(ColumnNode node, ParseColumnDef(std::move(def)));
    out.push_back(std::move(node));
  }
  return out;
}

Result<ColumnNode> ParseColumnDef(JsonObject def) {
  ColumnNode node;
  HOGLAKE_ASSIGN_OR_RETURN(node.name, def.RequiredString("name"));
  HOGLAKE_ASSIGN_OR_RETURN(std::string type_name, def.RequiredString("type"));
  HOGLAKE_ASSIGN_OR_RETURN(std::optional<bool> nullable, def.OptionalBool("nullable"));
  node.nullable = nullable.value_or(true);
  HOGLAKE_ASSIGN_OR_RETURN(node.comment, def.OptionalString("comment"));
  HOGLAKE_ASSIGN_OR_RETURN(std::optional<JsonObject> params, def.OptionalObject("type_params"));
  HOGLAKE_ASSIGN_OR_RETURN(std::optional<JsonArray> children, def.OptionalArray("children"));
  HOGLAKE_RETURN_IF_ERROR(def.CheckNoUnknownFields());
  HOGLAKE_ASSIGN_OR_RETURN(ColumnType type, iceberg::ParseColumnType(type_name, node.name));
  node.type = iceberg::TypeSpec(type);
  if (params) {
    if (type == ColumnType::kDecimal) {
      for (const std::string& key : params->Keys()) {
        if (key != "precision" && key != "scale") {
          return Validation("column '", node.name, "': unknown decimal type_params key '", key,
                            "'");
        }
      }
      auto precision = params->OptionalInt64("precision");
      auto scale = params->OptionalInt64("scale");
      if (!precision.ok() || !scale.ok() || !*precision || !*scale) {
        return Validation("column '", node.name,
                          "': decimal needs integer type_params {\"precision\", \"scale\"}");
      }
      if (**precision < 1 || **precision > 38 || **scale < 0 || **scale > **precision) {
        return Validation("column '", node.name, "': decimal(", **precision, ",", **scale,
                          ") needs precision 1..38 and scale 0..precision");
      }
      node.type = iceberg::TypeSpec::Decimal(static_cast<int32_t>(**precision),
                                             static_cast<int32_t>(**scale));
    } else if (type == ColumnType::kVariant) {
      for (const std::string& key : params->Keys()) {
        if (key != "shredding") {
          return Validation("column '", node.name, "': unknown variant type_params key '", key,
                            "'");
        }
      }
      HOGLAKE_ASSIGN_OR_RETURN(node.shredding_json, params->OptionalRawJson("shredding"));
    } else {
      return Validation("column '", node.name, "': type ", type_name, " takes no type_params");
    }
  } else if (type == ColumnType::kDecimal) {
    return Validation("column '", node.name,
                      "': decimal needs type_params {\"precision\", \"scale\"}");
  }
  if (children) {
    HOGLAKE_ASSIGN_OR_RETURN(node.children, ParseColumnDefs(std::move(*children)));
  }
  return node;
}

void WriteColumn(const ColumnNode& column, JsonWriter& w) {
  w.BeginObject();
  w.Field("name", std::string_view(column.name));
  w.Field("type", iceberg::ColumnTypeName(column.type.type));
  if (auto params = column.TypeParamsJson()) {
    w.Key("type_params");
    w.Raw(*params);
  }
  w.Field("nullable", column.nullable);
  w.Field("field_id", static_cast<int64_t>(column.field_id));
  w.Field("ordinal", static_cast<int64_t>(column.ordinal));
  if (iceberg::IsContainer(column.type.type)) {
    w.Key("children");
    w.BeginArray();
    for (const ColumnNode& child : column.children) WriteColumn(child, w);
    w.EndArray();
  }
  w.OptionalField("comment", column.comment);
  w.EndObject();
}

void WriteTable(const catalog::TableInfo& t, JsonWriter& w) {
  w.BeginObject();
  w.Field("name", std::string_view(t.name));
  w.Field("namespace", std::string_view(t.namespace_name));
  w.Field("table_uuid", std::string_view(t.table_uuid));
  w.Key("columns");
  w.BeginArray();
  for (const ColumnNode& column : t.columns) WriteColumn(column, w);
  w.EndArray();
  w.Field("read_snapshot_id", t.read_snapshot_id);
  if (t.totals) {
    w.Field("record_count", t.totals->record_count);
    w.Field("file_count", t.totals->file_count);
    w.Field("file_size_bytes", t.totals->file_size_bytes);
  }
  if (t.partition_spec) {
    w.Key("partition_spec");
    w.BeginObject();
    w.Field("spec_id", t.partition_spec->spec_id);
    w.Key("fields");
    w.BeginArray();
    for (const auto& f : t.partition_spec->fields) {
      w.BeginObject();
      w.Field("source_field_id", static_cast<int64_t>(f.source_field_id));
      w.Field("transform", std::string_view(f.transform));
      if (f.transform_param) w.Field("transform_param", static_cast<int64_t>(*f.transform_param));
      w.EndObject();
    }
    w.EndArray();
    w.EndObject();
  }
  if (t.sort_spec) {
    w.Key("sort_spec");
    w.BeginObject();
    w.Field("sort_id", t.sort_spec->sort_id);
    w.Key("fields");
    w.BeginArray();
    for (const auto& f : t.sort_spec->fields) {
      w.BeginObject();
      w.Field("source_field_id", static_cast<int64_t>(f.source_field_id));
      w.Field("direction", std::string_view(f.direction));
      w.Field("null_order", std::string_view(f.null_order));
      w.EndObject();
    }
    w.EndArray();
    w.EndObject();
  }
  w.OptionalField("comment", t.comment);
  w.Key("properties");
  w.BeginObject();
  for (const auto& [key, value] : t.properties) w.Field(key, std::string_view(value));
  w.EndObject();
  if (t.snapshot_id) w.Field("snapshot_id", *t.snapshot_id);
  w.EndObject();
}

void WriteTableSummary(const catalog::TableSummary& t, JsonWriter& w) {
  w.BeginObject();
  w.Field("name", std::string_view(t.name));
  w.Field("table_uuid", std::string_view(t.table_uuid));
  w.Field("record_count", t.totals.record_count);
  w.Field("file_count", t.totals.file_count);
  w.Field("file_size_bytes", t.totals.file_size_bytes);
  w.Field("snapshot_count", t.snapshot_count);
  w.OptionalField("comment", t.comment);
  w.EndObject();
}

}  // namespace hoglake::server
