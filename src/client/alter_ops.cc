// AlterOp builders (client.h, contract §3.2, pyhoglake-writer §1.6) and DDL
// inference from an Arrow-layout schema (pyhoglake-writer §2.1, §2.3).
//
// Each builder renders its op's members exactly as the server parses them
// (src/server/catalog_api/alter_wire.cc): add_column {"column", "parent"?} (sent as
// add_column_with_metadata when the definition carries a comment at any
// level), drop_column {"name"}, rename_column {"from","to"}, promote_column
// {"name","to"}, rename_table {"new_name"}, set_partition_spec {"fields"},
// set_sort_order {"sort_fields"}, set_table_comment {"comment"},
// set_column_comment {"name","comment"} (null removes), set_properties
// {"properties"} (replaces the whole map). Builders do not validate; the
// server answers 422 for a bad op.
#include <rapidjson/document.h>

#include "client/client.h"
#include "client/json_raw.h"
#include "client/request_wire.h"
#include "iceberg/arrow_mapping.h"

namespace hoglake::client {
namespace {

// The members of the object `w` built, without its braces.
std::string Members(JsonWriter& w) {
  std::string text = w.Take();
  return text.size() >= 2 ? text.substr(1, text.size() - 2) : std::string();
}

bool HasComment(const ColumnDef& column) {
  if (column.comment) return true;
  for (const ColumnDef& child : column.children) {
    if (HasComment(child)) return true;
  }
  return false;
}

void OptionalString(JsonWriter& w, std::string_view key, const std::optional<std::string>& v) {
  w.Key(key);
  if (v) {
    w.String(*v);
  } else {
    w.Null();
  }
}

Result<ColumnDef> DefFromField(const columnar::Field& field, std::string name) {
  Result<iceberg::TypeSpec> spec = iceberg::ColumnTypeFromArrow(field);
  if (!spec.ok()) return Validation(spec.error().message);
  ColumnDef def;
  def.name = std::move(name);
  def.type = *spec;
  def.nullable = field.nullable;
  const columnar::DataType& type = *field.type;
  switch (spec->type) {
    case iceberg::ColumnType::kList: {
      HOGLAKE_ASSIGN_OR_RETURN(ColumnDef element, DefFromField(type.list_element(), "element"));
      def.children.push_back(std::move(element));
      break;
    }
    case iceberg::ColumnType::kMap: {
      HOGLAKE_ASSIGN_OR_RETURN(ColumnDef key, DefFromField(type.map_key(), "key"));
      key.nullable = false;
      HOGLAKE_ASSIGN_OR_RETURN(ColumnDef value, DefFromField(type.map_value(), "value"));
      def.children.push_back(std::move(key));
      def.children.push_back(std::move(value));
      break;
    }
    case iceberg::ColumnType::kStruct:
      for (const columnar::Field& child : type.children) {
        HOGLAKE_ASSIGN_OR_RETURN(ColumnDef member, DefFromField(child, child.name));
        def.children.push_back(std::move(member));
      }
      break;
    case iceberg::ColumnType::kVariant: {
      // The marker holds {"shredding": <declaration>} or {}.
      std::optional<std::string_view> marker = field.Metadata(iceberg::kVariantMetadataKey);
      if (marker && !marker->empty()) {
        rapidjson::Document doc;
        doc.Parse(marker->data(), marker->size());
        if (doc.HasParseError() || !doc.IsObject()) {
          return Validation("column '", field.name, "': metadata ", iceberg::kVariantMetadataKey,
                            " is not a JSON object");
        }
        std::string_view shredding = json_raw::ObjectMember(*marker, "shredding");
        if (!shredding.empty() && shredding != "null") {
          def.shredding_json = json_raw::Compact(shredding);
        }
      }
      break;
    }
    default:
      break;
  }
  return def;
}

}  // namespace

Result<std::vector<ColumnDef>> ColumnDefsFromSchema(const columnar::Schema& schema) {
  std::vector<ColumnDef> out;
  for (const columnar::Field& field : schema.fields) {
    HOGLAKE_ASSIGN_OR_RETURN(ColumnDef def, DefFromField(field, field.name));
    out.push_back(std::move(def));
  }
  return out;
}

AlterOp AddColumn(const ColumnDef& column, std::optional<std::string> parent) {
  JsonWriter w;
  w.BeginObject();
  w.Key("column");
  wire::WriteColumnDef(column, w);
  w.OptionalField("parent", parent);
  w.EndObject();
  return {HasComment(column) ? "add_column_with_metadata" : "add_column", Members(w)};
}

AlterOp DropColumn(std::string_view name) {
  JsonWriter w;
  w.BeginObject();
  w.Field("name", name);
  w.EndObject();
  return {"drop_column", Members(w)};
}

AlterOp RenameColumn(std::string_view from, std::string_view to) {
  JsonWriter w;
  w.BeginObject();
  w.Field("from", from);
  w.Field("to", to);
  w.EndObject();
  return {"rename_column", Members(w)};
}

AlterOp PromoteColumn(std::string_view name, iceberg::ColumnType to) {
  JsonWriter w;
  w.BeginObject();
  w.Field("name", name);
  w.Field("to", iceberg::ColumnTypeName(to));
  w.EndObject();
  return {"promote_column", Members(w)};
}

AlterOp RenameTable(std::string_view new_name) {
  JsonWriter w;
  w.BeginObject();
  w.Field("new_name", new_name);
  w.EndObject();
  return {"rename_table", Members(w)};
}

AlterOp SetPartitionSpec(const std::vector<PartitionFieldDef>& fields) {
  JsonWriter w;
  w.BeginObject();
  w.Key("fields");
  wire::WritePartitionFields(fields, w);
  w.EndObject();
  return {"set_partition_spec", Members(w)};
}

AlterOp SetSortOrder(const std::vector<SortFieldDef>& fields) {
  JsonWriter w;
  w.BeginObject();
  w.Key("sort_fields");
  wire::WriteSortFields(fields, w);
  w.EndObject();
  return {"set_sort_order", Members(w)};
}

AlterOp SetTableComment(std::optional<std::string> comment) {
  JsonWriter w;
  w.BeginObject();
  OptionalString(w, "comment", comment);
  w.EndObject();
  return {"set_table_comment", Members(w)};
}

AlterOp SetColumnComment(std::string_view name, std::optional<std::string> comment) {
  JsonWriter w;
  w.BeginObject();
  w.Field("name", name);
  OptionalString(w, "comment", comment);
  w.EndObject();
  return {"set_column_comment", Members(w)};
}

AlterOp SetProperties(const std::map<std::string, std::string>& properties) {
  JsonWriter w;
  w.BeginObject();
  w.Key("properties");
  w.BeginObject();
  for (const auto& [key, value] : properties) w.Field(key, std::string_view(value));
  w.EndObject();
  w.EndObject();
  return {"set_properties", Members(w)};
}

}  // namespace hoglake::client
