#include "catalog/model/shredding.h"

#include <rapidjson/document.h>

#include <set>
#include <string>

#include "common/json_text.h"

namespace hoglake::catalog {
namespace {

using rapidjson::Value;

constexpr std::string_view kPrimitives[] = {
    "boolean", "int8",        "int16",     "int32",     "int64",          "float",
    "double",  "date",        "time",      "timestamp", "timestamp_ns",   "timestamptz",
    "timestamptz_ns", "binary", "string",  "uuid"};

class Walk {
 public:
  explicit Walk(std::string_view column) : column_(column) {}

  // `extra`: a key the node may have besides its type's ("name" for fields).
  Status Visit(const Value& node, const std::string& path, int depth, int name_bytes,
               std::string_view extra) {
    if (!node.IsObject()) return Fail(path, "a node must be a JSON object");
    auto type_it = node.FindMember("type");
    if (type_it == node.MemberEnd() || !type_it->value.IsString()) {
      return Fail(path, "a node needs a string 'type'");
    }
    const std::string_view type(type_it->value.GetString(), type_it->value.GetStringLength());
    std::set<std::string_view> allowed = {"type"};
    if (!extra.empty()) allowed.insert(extra);
    if (type == "object" || type == "array") {
      if (depth + 1 > kMaxShreddingDepth) {
        return Fail(path, StrCat("objects and arrays nest deeper than ", kMaxShreddingDepth));
      }
      if (type == "object") {
        allowed.insert("fields");
        HOGLAKE_RETURN_IF_ERROR(Keys(node, allowed, path));
        return Object(node, path, depth, name_bytes);
      }
      allowed.insert("element");
      HOGLAKE_RETURN_IF_ERROR(Keys(node, allowed, path));
      if (++fields_ > kMaxShreddingFields) return TooManyFields(path);
      auto element = node.FindMember("element");
      if (element == node.MemberEnd()) return Fail(path, "an array needs an 'element'");
      return Visit(element->value, path + "[*]", depth + 1, name_bytes, "");
    }
    if (type == "decimal4" || type == "decimal8" || type == "decimal16") {
      allowed.insert("precision");
      allowed.insert("scale");
      HOGLAKE_RETURN_IF_ERROR(Keys(node, allowed, path));
      const int max_precision = type == "decimal4" ? 9 : type == "decimal8" ? 18 : 38;
      auto p = node.FindMember("precision");
      auto s = node.FindMember("scale");
      if (p == node.MemberEnd() || !p->value.IsInt() || s == node.MemberEnd() ||
          !s->value.IsInt()) {
        return Fail(path, StrCat(type, " needs integer 'precision' and 'scale'"));
      }
      const int precision = p->value.GetInt();
      const int scale = s->value.GetInt();
      if (precision < 1 || precision > max_precision || scale < 0 || scale > precision) {
        return Fail(path, StrCat(type, "(", precision, ",", scale, ") needs precision 1..",
                                 max_precision, " and scale 0..precision"));
      }
      return Status::Ok();
    }
    bool known = type == "variant";
    for (std::string_view primitive : kPrimitives) known = known || type == primitive;
    if (!known) return Fail(path, StrCat("unknown node type '", type, "'"));
    return Keys(node, allowed, path);
  }

 private:
  Status Object(const Value& node, const std::string& path, int depth, int name_bytes) {
    auto fields = node.FindMember("fields");
    if (fields == node.MemberEnd() || !fields->value.IsArray() || fields->value.Empty()) {
      return Fail(path, "an object needs a non-empty 'fields' array");
    }
    std::set<std::string_view> names;
    for (const Value& field : fields->value.GetArray()) {
      if (!field.IsObject()) return Fail(path, "a field must be a JSON object");
      auto name_it = field.FindMember("name");
      if (name_it == field.MemberEnd() || !name_it->value.IsString()) {
        return Fail(path, "a field needs a string 'name'");
      }
      const std::string_view name(name_it->value.GetString(), name_it->value.GetStringLength());
      const std::string field_path = path + "." + std::string(name);
      if (!names.insert(name).second) return Fail(field_path, "field name repeated");
      if (++fields_ > kMaxShreddingFields) return TooManyFields(field_path);
      const int bytes = name_bytes + static_cast<int>(name.size());
      if (bytes > kMaxShreddingPathNameBytes) {
        return Fail(field_path, StrCat("the field names on its path exceed ",
                                       kMaxShreddingPathNameBytes, " bytes"));
      }
      HOGLAKE_RETURN_IF_ERROR(Visit(field, field_path, depth + 1, bytes, "name"));
    }
    return Status::Ok();
  }

  Status Keys(const Value& node, const std::set<std::string_view>& allowed,
              const std::string& path) {
    for (const auto& member : node.GetObject()) {
      const std::string_view key(member.name.GetString(), member.name.GetStringLength());
      if (!allowed.contains(key)) return Fail(path, StrCat("unknown key '", key, "'"));
    }
    return Status::Ok();
  }

  Status TooManyFields(const std::string& path) {
    return Fail(path, StrCat("more than ", kMaxShreddingFields, " object fields and arrays"));
  }

  Status Fail(const std::string& path, std::string_view what) const {
    return Validation("column '", column_, "': shredding declaration ", path, ": ", what);
  }

  std::string_view column_;
  int fields_ = 0;
};

}  // namespace

Status ValidateShredding(std::string_view json, std::string_view column) {
  // Two JSON levels per declaration level (a node and its fields array),
  // plus the root: anything deeper is refused before the recursive parse.
  constexpr int kMaxJsonDepth = 2 * kMaxShreddingDepth + 2;
  if (MeasureJson(json, kMaxJsonDepth).depth > kMaxJsonDepth) {
    return Validation("column '", column, "': shredding declaration nests deeper than ",
                      kMaxShreddingDepth);
  }
  rapidjson::Document doc;
  doc.Parse(json.data(), json.size());
  if (doc.HasParseError()) {
    return Validation("column '", column, "': shredding declaration is not valid JSON");
  }
  return Walk(column).Visit(doc, "$", 0, 0, "");
}

}  // namespace hoglake::catalog
