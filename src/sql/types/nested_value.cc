#include "sql/types/nested_value.h"

#include <cctype>

namespace hoglake::sql {
namespace {

bool IsPgSpace(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

bool ArrayElementNeedsQuotes(std::string_view text) {
  if (text.empty()) return true;
  if (text.size() == 4 && (text[0] == 'N' || text[0] == 'n') && (text[1] == 'U' || text[1] == 'u') &&
      (text[2] == 'L' || text[2] == 'l') && (text[3] == 'L' || text[3] == 'l')) {
    return true;
  }
  for (char c : text) {
    if (c == '{' || c == '}' || c == ',' || c == '"' || c == '\\' || IsPgSpace(c)) return true;
  }
  return false;
}

void AppendArrayText(const Value& value, std::string* out) {
  *out += '{';
  bool first = true;
  for (const Value& e : value.elements) {
    if (!first) *out += ',';
    first = false;
    if (e.is_null) {
      *out += "NULL";
      continue;
    }
    std::string text = ValueToString(e);
    if (e.type.id == SqlTypeId::kArray || !ArrayElementNeedsQuotes(text)) {
      *out += text;
      continue;
    }
    *out += '"';
    for (char c : text) {
      if (c == '"' || c == '\\') *out += '\\';
      *out += c;
    }
    *out += '"';
  }
  *out += '}';
}

void AppendRecordText(const Value& value, std::string* out) {
  *out += '(';
  for (size_t i = 0; i < value.elements.size(); ++i) {
    if (i > 0) *out += ',';
    const Value& e = value.elements[i];
    if (e.is_null) continue;
    std::string text = ValueToString(e);
    bool quote = text.empty();
    for (char c : text) {
      if (c == '(' || c == ')' || c == ',' || c == '"' || c == '\\' || IsPgSpace(c)) quote = true;
    }
    if (!quote) {
      *out += text;
      continue;
    }
    *out += '"';
    for (char c : text) {
      if (c == '"' || c == '\\') *out += c;
      *out += c;
    }
    *out += '"';
  }
  *out += ')';
}

void AppendMapText(const Value& value, std::string* out) {
  *out += '{';
  for (size_t i = 0; i + 1 < value.elements.size(); i += 2) {
    if (i > 0) *out += ", ";
    *out += ValueToString(value.elements[i]);
    *out += '=';
    *out += ValueToString(value.elements[i + 1]);
  }
  *out += '}';
}

}  // namespace

void NestedValueAt(const columnar::ArrayData& array, int64_t row, Value* out) {
  const SqlType& type = out->type;
  out->elements.clear();
  switch (type.id) {
    case SqlTypeId::kArray: {
      const int32_t* offsets = array.offsets();
      const columnar::ArrayData& items = *array.children[0];
      for (int32_t j = offsets[row]; j < offsets[row + 1]; ++j) {
        out->elements.push_back(ValueAt(items, j, type.element()));
      }
      return;
    }
    case SqlTypeId::kComposite:
      // Struct children are addressed through the parent's offset.
      for (size_t f = 0; f < type.members.size(); ++f) {
        out->elements.push_back(
            ValueAt(*array.children[f], array.offset + row, type.members[f].second));
      }
      return;
    case SqlTypeId::kMap: {
      const int32_t* offsets = array.offsets();
      const columnar::ArrayData& entries = *array.children[0];
      for (int32_t j = offsets[row]; j < offsets[row + 1]; ++j) {
        out->elements.push_back(
            ValueAt(*entries.children[0], entries.offset + j, type.members[0].second));
        out->elements.push_back(
            ValueAt(*entries.children[1], entries.offset + j, type.members[1].second));
      }
      return;
    }
    default:
      return;
  }
}

Status AppendNestedValue(columnar::ArrayBuilder* builder, const Value& value) {
  const SqlType& type = value.type;
  // An element's own type label may differ from the member type only in
  // ways the carrier does not see; append each as the member type.
  auto append_as = [](columnar::ArrayBuilder* b, const Value& v, const SqlType& as) {
    if (v.type == as) return AppendValue(b, v);
    Value copy = v;
    copy.type = as;
    return AppendValue(b, copy);
  };
  switch (type.id) {
    case SqlTypeId::kArray: {
      auto* list = static_cast<columnar::ListBuilder*>(builder);
      list->Append();
      for (const Value& e : value.elements) {
        HOGLAKE_RETURN_IF_ERROR(append_as(&list->value_builder(), e, type.element()));
      }
      return Status::Ok();
    }
    case SqlTypeId::kComposite: {
      auto* record = static_cast<columnar::StructBuilder*>(builder);
      if (value.elements.size() != type.members.size()) {
        return Internal("a composite value has ", value.elements.size(), " fields, its type ",
                        type.members.size());
      }
      record->Append();
      for (size_t f = 0; f < type.members.size(); ++f) {
        HOGLAKE_RETURN_IF_ERROR(
            append_as(&record->child(static_cast<int>(f)), value.elements[f], type.members[f].second));
      }
      return Status::Ok();
    }
    case SqlTypeId::kMap: {
      auto* map = static_cast<columnar::MapBuilder*>(builder);
      map->Append();
      for (size_t i = 0; i + 1 < value.elements.size(); i += 2) {
        HOGLAKE_RETURN_IF_ERROR(
            append_as(&map->key_builder(), value.elements[i], type.members[0].second));
        HOGLAKE_RETURN_IF_ERROR(
            append_as(&map->item_builder(), value.elements[i + 1], type.members[1].second));
      }
      return Status::Ok();
    }
    default:
      return Internal("not a nested type: ", PgTypeName(type));
  }
}

void AppendNestedText(const Value& value, std::string* out) {
  switch (value.type.id) {
    case SqlTypeId::kArray:
      AppendArrayText(value, out);
      return;
    case SqlTypeId::kComposite:
      AppendRecordText(value, out);
      return;
    case SqlTypeId::kMap:
      AppendMapText(value, out);
      return;
    default:
      return;
  }
}

}  // namespace hoglake::sql
