#include "catalog/commit/table_creation_codec.h"

#include <algorithm>

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "common/encoding.h"
#include "common/json_writer.h"

namespace hoglake::catalog {
namespace {

using rapidjson::Value;

void WriteColumnDef(const ColumnNode& c, JsonWriter& w) {
  w.BeginObject();
  w.Field("name", std::string_view(c.name));
  w.Field("type", iceberg::ColumnTypeName(c.type.type));
  if (auto params = c.TypeParamsJson()) {
    w.Key("type_params");
    w.Raw(*params);
  }
  w.Field("nullable", c.nullable);
  w.OptionalField("comment", c.comment);
  if (!c.children.empty()) {
    w.Key("children");
    w.BeginArray();
    for (const ColumnNode& child : c.children) WriteColumnDef(child, w);
    w.EndArray();
  }
  w.EndObject();
}

Error Corrupt(std::string_view what) {
  return MakeError(ErrorCode::kCorruptDefinition, "stored table-creation definition: ", what);
}

const Value* Member(const Value& o, const char* key) {
  auto it = o.FindMember(key);
  return it == o.MemberEnd() || it->value.IsNull() ? nullptr : &it->value;
}

Result<std::string> Str(const Value& o, const char* key) {
  const Value* v = Member(o, key);
  if (!v || !v->IsString()) return Corrupt(StrCat("member '", key, "' is not a string"));
  return std::string(v->GetString(), v->GetStringLength());
}

Result<int64_t> Int(const Value& o, const char* key) {
  const Value* v = Member(o, key);
  if (!v || !v->IsInt64()) return Corrupt(StrCat("member '", key, "' is not an integer"));
  return v->GetInt64();
}

std::optional<std::string> OptStr(const Value& o, const char* key) {
  const Value* v = Member(o, key);
  if (!v || !v->IsString()) return std::nullopt;
  return std::string(v->GetString(), v->GetStringLength());
}

Result<ColumnNode> ReadColumn(const Value& o) {
  if (!o.IsObject()) return Corrupt("a column is not an object");
  ColumnNode c;
  HOGLAKE_ASSIGN_OR_RETURN(c.name, Str(o, "name"));
  HOGLAKE_ASSIGN_OR_RETURN(std::string type, Str(o, "type"));
  Result<iceberg::ColumnType> parsed = iceberg::ParseColumnType(type, c.name);
  if (!parsed.ok()) return Corrupt(parsed.error().message);
  c.type = iceberg::TypeSpec(*parsed);
  if (const Value* params = Member(o, "type_params"); params && params->IsObject()) {
    if (*parsed == iceberg::ColumnType::kDecimal) {
      HOGLAKE_ASSIGN_OR_RETURN(int64_t precision, Int(*params, "precision"));
      HOGLAKE_ASSIGN_OR_RETURN(int64_t scale, Int(*params, "scale"));
      c.type =
          iceberg::TypeSpec::Decimal(static_cast<int32_t>(precision), static_cast<int32_t>(scale));
    } else if (const Value* shredding = Member(*params, "shredding")) {
      rapidjson::StringBuffer buffer;
      rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
      shredding->Accept(writer);
      c.shredding_json = std::string(buffer.GetString(), buffer.GetSize());
    }
  }
  const Value* nullable = Member(o, "nullable");
  c.nullable = !nullable || !nullable->IsBool() || nullable->GetBool();
  c.comment = OptStr(o, "comment");
  if (const Value* children = Member(o, "children"); children && children->IsArray()) {
    for (const Value& child : children->GetArray()) {
      HOGLAKE_ASSIGN_OR_RETURN(ColumnNode node, ReadColumn(child));
      c.children.push_back(std::move(node));
    }
  }
  return c;
}

}  // namespace

std::string DefinitionJson(const TableCreationDefinition& d) {
  JsonWriter w;
  w.BeginObject();
  w.Field("namespace", std::string_view(d.namespace_name));
  w.Field("name", std::string_view(d.name));
  w.Key("columns");
  w.BeginArray();
  for (const ColumnNode& c : d.columns) WriteColumnDef(c, w);
  w.EndArray();
  if (d.replacement) {
    w.Key("replacement");
    w.BeginObject();
    w.Key("expected_table_uuid");
    if (d.replacement->expected_table_uuid) {
      w.String(*d.replacement->expected_table_uuid);
    } else {
      w.Null();
    }
    w.Field("read_snapshot", d.replacement->read_snapshot);
    w.EndObject();
  }
  if (!d.partition_fields.empty()) {
    w.Key("partition_fields");
    w.BeginArray();
    for (const PartitionFieldInput& f : d.partition_fields) {
      w.BeginObject();
      w.Field("source_field_id", f.source_field_id);
      w.Field("transform", std::string_view(f.transform));
      w.OptionalField("transform_param", f.transform_param);
      w.EndObject();
    }
    w.EndArray();
  }
  if (!d.sort_fields.empty()) {
    w.Key("sort_fields");
    w.BeginArray();
    for (const SortFieldInput& f : d.sort_fields) {
      w.BeginObject();
      w.Field("source_field_id", f.source_field_id);
      w.Field("direction", std::string_view(f.direction));
      w.Field("null_order", std::string_view(f.null_order));
      w.EndObject();
    }
    w.EndArray();
  }
  w.OptionalField("comment", d.comment);
  if (!d.properties.empty()) {
    w.Key("properties");
    w.BeginObject();
    for (const auto& [key, value] : d.properties) w.Field(key, std::string_view(value));
    w.EndObject();
  }
  w.EndObject();
  return w.Take();
}

Result<TableCreationDefinition> ParseDefinitionJson(std::string_view json) {
  rapidjson::Document doc;
  doc.Parse(json.data(), json.size());
  if (doc.HasParseError() || !doc.IsObject()) return Corrupt("not a JSON object");
  TableCreationDefinition d;
  HOGLAKE_ASSIGN_OR_RETURN(d.namespace_name, Str(doc, "namespace"));
  HOGLAKE_ASSIGN_OR_RETURN(d.name, Str(doc, "name"));
  const Value* columns = Member(doc, "columns");
  if (!columns || !columns->IsArray()) return Corrupt("columns is not an array");
  for (const Value& c : columns->GetArray()) {
    HOGLAKE_ASSIGN_OR_RETURN(ColumnNode node, ReadColumn(c));
    d.columns.push_back(std::move(node));
  }
  if (const Value* r = Member(doc, "replacement"); r && r->IsObject()) {
    TableReplacement replacement;
    replacement.expected_table_uuid = OptStr(*r, "expected_table_uuid");
    HOGLAKE_ASSIGN_OR_RETURN(replacement.read_snapshot, Int(*r, "read_snapshot"));
    d.replacement = std::move(replacement);
  }
  if (const Value* fields = Member(doc, "partition_fields"); fields && fields->IsArray()) {
    for (const Value& f : fields->GetArray()) {
      PartitionFieldInput field;
      HOGLAKE_ASSIGN_OR_RETURN(field.source_field_id, Int(f, "source_field_id"));
      HOGLAKE_ASSIGN_OR_RETURN(field.transform, Str(f, "transform"));
      if (Member(f, "transform_param")) {
        HOGLAKE_ASSIGN_OR_RETURN(field.transform_param, Int(f, "transform_param"));
      }
      d.partition_fields.push_back(std::move(field));
    }
  }
  if (const Value* fields = Member(doc, "sort_fields"); fields && fields->IsArray()) {
    for (const Value& f : fields->GetArray()) {
      SortFieldInput field;
      HOGLAKE_ASSIGN_OR_RETURN(field.source_field_id, Int(f, "source_field_id"));
      HOGLAKE_ASSIGN_OR_RETURN(field.direction, Str(f, "direction"));
      HOGLAKE_ASSIGN_OR_RETURN(field.null_order, Str(f, "null_order"));
      d.sort_fields.push_back(std::move(field));
    }
  }
  d.comment = OptStr(doc, "comment");
  if (const Value* properties = Member(doc, "properties"); properties && properties->IsObject()) {
    for (const auto& m : properties->GetObject()) {
      if (!m.value.IsString()) return Corrupt("a property value is not a string");
      d.properties.emplace_back(m.name.GetString(),
                                std::string(m.value.GetString(), m.value.GetStringLength()));
    }
    std::sort(d.properties.begin(), d.properties.end());
  }
  return d;
}

std::string FilesJson(const std::vector<FileRegistration>& files) {
  JsonWriter w;
  w.BeginArray();
  for (const FileRegistration& f : files) {
    w.BeginObject();
    w.Field("path", std::string_view(f.path));
    w.Field("record_count", f.record_count);
    w.Field("file_size_bytes", f.file_size_bytes);
    w.OptionalField("footer_size", f.footer_size);
    if (f.column_stats) {
      w.Key("column_stats");
      w.BeginArray();
      for (const ColumnStatsInput& s : *f.column_stats) {
        w.BeginObject();
        w.Field("field_id", s.field_id);
        w.Field("value_count", s.value_count);
        w.Field("null_count", s.null_count);
        w.OptionalField("nan_count", s.nan_count);
        w.OptionalField("size_bytes", s.size_bytes);
        if (s.lower_bound) w.Field("lower_bound", std::string_view(Base64Encode(*s.lower_bound)));
        if (s.upper_bound) w.Field("upper_bound", std::string_view(Base64Encode(*s.upper_bound)));
        w.EndObject();
      }
      w.EndArray();
    }
    w.OptionalField("partition_values", f.partition_values);
    if (f.split_offsets) {
      w.Key("split_offsets");
      w.BeginArray();
      for (int64_t offset : *f.split_offsets) w.Int(offset);
      w.EndArray();
    }
    w.OptionalField("file_format", f.file_format);
    w.EndObject();
  }
  w.EndArray();
  return w.Take();
}

}  // namespace hoglake::catalog
