#include "columnar/schema_json.h"

#include "common/json_text.h"

namespace hoglake::columnar {
namespace {

void AppendMetadataJson(const KeyValueMetadata& metadata, std::string* out) {
  out->push_back('{');
  for (size_t i = 0; i < metadata.size(); ++i) {
    if (i) out->push_back(',');
    AppendJsonString(metadata[i].first, out);
    out->push_back(':');
    AppendJsonString(metadata[i].second, out);
  }
  out->push_back('}');
}

}  // namespace

void AppendFieldJson(const Field& field, std::string* out) {
  const DataType& type = *field.type;
  out->append("{\"name\":");
  AppendJsonString(field.name, out);
  out->append(",\"type\":");
  switch (type.id) {
    case TypeId::kList:
      out->append("\"list\"");
      break;
    case TypeId::kStruct:
      out->append("\"struct\"");
      break;
    case TypeId::kMap:
      out->append("\"map\"");
      break;
    default:
      AppendJsonString(type.ToString(), out);
  }
  out->append(",\"nullable\":");
  out->append(field.nullable ? "true" : "false");
  out->append(",\"metadata\":");
  AppendMetadataJson(field.metadata, out);
  if (type.is_nested()) {
    out->append(",\"children\":[");
    for (size_t i = 0; i < type.children.size(); ++i) {
      if (i) out->push_back(',');
      AppendFieldJson(type.children[i], out);
    }
    out->push_back(']');
  }
  out->push_back('}');
}

void AppendSchemaJson(const Schema& schema, std::string* out) {
  out->append("{\"fields\":[");
  for (size_t i = 0; i < schema.fields.size(); ++i) {
    if (i) out->push_back(',');
    AppendFieldJson(schema.fields[i], out);
  }
  out->append("],\"metadata\":");
  AppendMetadataJson(schema.metadata, out);
  out->push_back('}');
}

}  // namespace hoglake::columnar
