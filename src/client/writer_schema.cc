// Writer schema, batch alignment and partition sources (see writer_schema.h).
#include "client/writer_schema.h"

#include <cstring>
#include <memory>
#include <string_view>

#include "client/request_wire.h"
#include "iceberg/arrow_mapping.h"

namespace hoglake::client {
namespace {

using columnar::ArrayData;
using columnar::ArrayPtr;
using columnar::Buffer;
using columnar::DataType;
using columnar::DataTypePtr;
using columnar::Field;
using columnar::TypeId;

// Python-style list of quoted names: ['a', 's.b'].
std::string PyList(const std::vector<std::string>& names) {
  std::string out = "[";
  for (size_t i = 0; i < names.size(); ++i) {
    if (i) out += ", ";
    out += "'" + names[i] + "'";
  }
  return out + "]";
}

Result<Field> WriterField(const Column& column, std::string name) {
  const iceberg::ColumnType type = column.type.type;
  Field field;
  if (type == iceberg::ColumnType::kList) {
    if (column.children.size() != 1) {
      return Validation("list column '", column.name, "' must have exactly one child");
    }
    HOGLAKE_ASSIGN_OR_RETURN(Field element, WriterField(column.children[0], "element"));
    field = Field{std::move(name), columnar::List(std::move(element)), column.nullable, {}};
  } else if (type == iceberg::ColumnType::kMap) {
    if (column.children.size() != 2) {
      return Validation("map column '", column.name, "' must have exactly two children");
    }
    HOGLAKE_ASSIGN_OR_RETURN(Field key, WriterField(column.children[0], "key"));
    HOGLAKE_ASSIGN_OR_RETURN(Field value, WriterField(column.children[1], "value"));
    key.nullable = false;
    auto map = std::make_shared<DataType>();
    map->id = TypeId::kMap;
    map->children.push_back(
        Field{"entries", columnar::Struct({std::move(key), std::move(value)}), false, {}});
    field = Field{std::move(name), std::move(map), column.nullable, {}};
  } else if (type == iceberg::ColumnType::kStruct) {
    if (column.children.empty()) {
      return Validation("struct column '", column.name, "' has no members");
    }
    std::vector<Field> members;
    for (const Column& child : column.children) {
      if (child.type.type == iceberg::ColumnType::kVariant) continue;
      HOGLAKE_ASSIGN_OR_RETURN(Field member, WriterField(child, child.name));
      members.push_back(std::move(member));
    }
    field = Field{std::move(name), columnar::Struct(std::move(members)), column.nullable, {}};
  } else {
    auto scalar = iceberg::WriterArrowField(std::move(name), column.type, column.nullable);
    if (!scalar.ok()) return Validation("column '", column.name, "': ", scalar.error().message);
    field = std::move(scalar).value();
  }
  return field.WithFieldId(column.field_id);
}

// ---- alignment -------------------------------------------------------------

void JoinPath(std::string* out, std::string_view parent, std::string_view name) {
  *out = parent.empty() ? std::string(name) : StrCat(parent, ".", name);
}

// Collects nested names the data lacks / has beyond the target.
void CompareNames(const Field& source, const Field& target, const std::string& path,
                  std::vector<std::string>* missing, std::vector<std::string>* extra) {
  const DataType& s = *source.type;
  const DataType& t = *target.type;
  if (s.id != t.id) return;  // a type mismatch, reported by the conversion
  std::string child_path;
  if (t.id == TypeId::kStruct) {
    for (const Field& tf : t.children) {
      JoinPath(&child_path, path, tf.name);
      const Field* match = nullptr;
      for (const Field& sf : s.children) {
        if (sf.name == tf.name) match = &sf;
      }
      if (!match) {
        missing->push_back(child_path);
      } else {
        CompareNames(*match, tf, child_path, missing, extra);
      }
    }
    for (const Field& sf : s.children) {
      bool known = false;
      for (const Field& tf : t.children) known = known || tf.name == sf.name;
      if (!known) {
        JoinPath(&child_path, path, sf.name);
        extra->push_back(child_path);
      }
    }
  } else if (t.id == TypeId::kList) {
    CompareNames(s.list_element(), t.list_element(), path + ".element", missing, extra);
  } else if (t.id == TypeId::kMap) {
    CompareNames(s.map_key(), t.map_key(), path + ".key", missing, extra);
    CompareNames(s.map_value(), t.map_value(), path + ".value", missing, extra);
  }
}

bool IsSignedInt(TypeId id) {
  return id == TypeId::kInt8 || id == TypeId::kInt16 || id == TypeId::kInt32 ||
         id == TypeId::kInt64;
}
bool IsUnsignedInt(TypeId id) {
  return id == TypeId::kUInt8 || id == TypeId::kUInt16 || id == TypeId::kUInt32 ||
         id == TypeId::kUInt64;
}

// Whether every value of integer type `from` fits `to`.
bool IntegerWidens(const DataType& from, const DataType& to) {
  const int fb = from.bit_width();
  const int tb = to.bit_width();
  if (IsSignedInt(from.id)) return IsSignedInt(to.id) && tb >= fb;
  if (IsUnsignedInt(from.id)) {
    if (IsUnsignedInt(to.id)) return tb >= fb;
    return IsSignedInt(to.id) && tb > fb;
  }
  return false;
}

int64_t ReadInteger(const uint8_t* p, TypeId id) {
  switch (id) {
    case TypeId::kInt8:
      return *reinterpret_cast<const int8_t*>(p);
    case TypeId::kInt16: {
      int16_t v;
      std::memcpy(&v, p, 2);
      return v;
    }
    case TypeId::kInt32: {
      int32_t v;
      std::memcpy(&v, p, 4);
      return v;
    }
    case TypeId::kUInt8:
      return *p;
    case TypeId::kUInt16: {
      uint16_t v;
      std::memcpy(&v, p, 2);
      return v;
    }
    case TypeId::kUInt32: {
      uint32_t v;
      std::memcpy(&v, p, 4);
      return v;
    }
    default: {
      int64_t v;
      std::memcpy(&v, p, 8);
      return v;
    }
  }
}

// Same layout, different labels: the scalar types are interchangeable.
bool SameScalarLayout(const DataType& s, const DataType& t) {
  if (s.id != t.id) return false;
  switch (t.id) {
    case TypeId::kDecimal128:
      return s.scale == t.scale && s.precision <= t.precision;
    case TypeId::kFixedSizeBinary:
      return s.byte_width == t.byte_width;
    case TypeId::kTime64:
      return s.unit == t.unit;
    case TypeId::kTimestamp:
      return s.unit == t.unit && s.timezone.empty() == t.timezone.empty();
    default:
      return true;
  }
}

Result<ArrayPtr> Convert(const ArrayPtr& array, const Field& source, const Field& target,
                         const std::string& path);

Result<ArrayPtr> ConvertChildren(const ArrayPtr& array, const Field& source, const Field& target,
                                 const std::string& path) {
  const DataType& s = *source.type;
  const DataType& t = *target.type;
  auto out = std::make_shared<ArrayData>(*array);
  out->type = target.type;
  out->children.clear();
  std::string child_path;
  if (t.id == TypeId::kStruct) {
    for (const Field& tf : t.children) {
      JoinPath(&child_path, path, tf.name);
      size_t index = 0;
      while (s.children[index].name != tf.name) ++index;  // names were checked
      HOGLAKE_ASSIGN_OR_RETURN(ArrayPtr child,
                               Convert(array->children[index], s.children[index], tf, child_path));
      out->children.push_back(std::move(child));
    }
  } else if (t.id == TypeId::kList) {
    HOGLAKE_ASSIGN_OR_RETURN(ArrayPtr child, Convert(array->children[0], s.list_element(),
                                                     t.list_element(), path + ".element"));
    out->children.push_back(std::move(child));
  } else {  // map: the entries struct
    const ArrayPtr& entries = array->children[0];
    auto out_entries = std::make_shared<ArrayData>(*entries);
    out_entries->type = t.children[0].type;
    out_entries->children.clear();
    HOGLAKE_ASSIGN_OR_RETURN(
        ArrayPtr key, Convert(entries->children[0], s.map_key(), t.map_key(), path + ".key"));
    HOGLAKE_ASSIGN_OR_RETURN(ArrayPtr value, Convert(entries->children[1], s.map_value(),
                                                     t.map_value(), path + ".value"));
    out_entries->children = {std::move(key), std::move(value)};
    out->children.push_back(std::move(out_entries));
  }
  return ArrayPtr(out);
}

Result<ArrayPtr> Convert(const ArrayPtr& array, const Field& source, const Field& target,
                         const std::string& path) {
  const DataType& s = *source.type;
  const DataType& t = *target.type;
  if (!target.nullable && array->null_count > 0) {
    return Validation("column '", path, "' is not nullable but the data has ", array->null_count,
                      " null(s)");
  }
  if (s.is_nested() || t.is_nested()) {
    if (s.id != t.id) {
      return Validation("column '", path, "' has type ", s.ToString(), "; the table wants ",
                        t.ToString());
    }
    return ConvertChildren(array, source, target, path);
  }
  if (SameScalarLayout(s, t)) {
    auto out = std::make_shared<ArrayData>(*array);
    out->type = target.type;
    return ArrayPtr(out);
  }
  const int64_t n = array->length;
  if (IntegerWidens(s, t)) {
    const int in_width = s.bit_width() / 8;
    const int out_width = t.bit_width() / 8;
    auto values = Buffer::Allocate(n * out_width);
    const uint8_t* src = array->buffers[1]->data() + array->offset * in_width;
    uint8_t* dst = values->mutable_data();
    for (int64_t i = 0; i < n; ++i) {
      const int64_t v = ReadInteger(src + i * in_width, s.id);
      std::memcpy(dst + i * out_width, &v, static_cast<size_t>(out_width));  // little-endian
    }
    auto out = std::make_shared<ArrayData>();
    out->type = target.type;
    out->length = n;
    out->null_count = array->null_count;
    out->offset = 0;
    out->buffers.push_back(array->null_count
                               ? Buffer::Slice(array->buffers[0], 0, array->buffers[0]->size())
                               : nullptr);
    if (array->offset != 0 && out->buffers[0]) {
      // Re-base the validity bitmap to offset 0.
      auto bits = Buffer::Allocate(columnar::BytesForBits(n));
      for (int64_t i = 0; i < n; ++i) {
        if (array->IsValid(i)) columnar::SetBit(bits->mutable_data(), i);
      }
      out->buffers[0] = bits;
    }
    out->buffers.push_back(values);
    return ArrayPtr(out);
  }
  if (s.id == TypeId::kFloat32 && t.id == TypeId::kFloat64) {
    auto values = Buffer::Allocate(n * 8);
    const float* src = array->values<float>();
    auto* dst = reinterpret_cast<double*>(values->mutable_data());
    for (int64_t i = 0; i < n; ++i) dst[i] = src[i];
    auto out = std::make_shared<ArrayData>(*array);
    out->type = target.type;
    if (array->offset != 0 && array->null_count) {
      auto bits = Buffer::Allocate(columnar::BytesForBits(n));
      for (int64_t i = 0; i < n; ++i) {
        if (array->IsValid(i)) columnar::SetBit(bits->mutable_data(), i);
      }
      out->buffers[0] = bits;
    }
    out->offset = 0;
    out->buffers[1] = values;
    return ArrayPtr(out);
  }
  return Validation("column '", path, "' has type ", s.ToString(), "; the table wants ",
                    t.ToString());
}

// Reserved names below `type`; synthetic levels (list element, map key and
// value) add nothing to the path, as in the server's message: `l._hogx`.
void CollectReservedIn(const DataType& type, const std::string& path,
                       std::vector<std::string>* out) {
  if (type.id == TypeId::kStruct) {
    for (const Field& child : type.children) {
      const std::string child_path = path + "." + child.name;
      if (child.name.rfind("_hog", 0) == 0) out->push_back(child_path);
      CollectReservedIn(*child.type, child_path, out);
    }
  } else if (type.id == TypeId::kList) {
    CollectReservedIn(*type.list_element().type, path, out);
  } else if (type.id == TypeId::kMap) {
    CollectReservedIn(*type.map_key().type, path, out);
    CollectReservedIn(*type.map_value().type, path, out);
  }
}

void CollectLeaves(const Column& column, std::vector<parquet::StatsColumn>* out) {
  if (column.type.type == iceberg::ColumnType::kVariant) return;
  if (iceberg::IsContainer(column.type.type)) {
    for (const Column& child : column.children) CollectLeaves(child, out);
    return;
  }
  out->emplace_back(column.field_id, column.type);
}

}  // namespace

Result<columnar::SchemaPtr> WriterSchema(const std::vector<Column>& columns) {
  auto schema = std::make_shared<columnar::Schema>();
  for (const Column& column : columns) {
    if (column.type.type == iceberg::ColumnType::kVariant) continue;
    HOGLAKE_ASSIGN_OR_RETURN(Field field, WriterField(column, column.name));
    schema->fields.push_back(std::move(field));
  }
  return columnar::SchemaPtr(schema);
}

Status CheckReservedNames(const columnar::Schema& schema) {
  std::vector<std::string> paths;
  for (const Field& field : schema.fields) {
    if (field.name.rfind("_hog", 0) == 0) paths.push_back(field.name);
    CollectReservedIn(*field.type, field.name, &paths);
  }
  if (!paths.empty()) return wire::ReservedPrefixError(paths);
  return Status::Ok();
}

Result<columnar::RecordBatch> AlignBatch(const columnar::RecordBatch& batch,
                                         const columnar::SchemaPtr& target) {
  const columnar::Schema& source = *batch.schema;
  std::vector<std::string> missing, extra;
  for (const Field& field : target->fields) {
    if (source.FieldIndex(field.name) < 0) missing.push_back(field.name);
  }
  for (const Field& field : source.fields) {
    if (target->FieldIndex(field.name) < 0) extra.push_back(field.name);
  }
  if (!missing.empty()) return Validation("data is missing table columns: ", PyList(missing));
  if (!extra.empty()) {
    return Validation("data has columns not in the table schema: ", PyList(extra));
  }
  for (const Field& field : target->fields) {
    CompareNames(source.fields[static_cast<size_t>(source.FieldIndex(field.name))], field,
                 field.name, &missing, &extra);
  }
  if (!missing.empty()) {
    return Validation("data is missing nested table fields: ", PyList(missing));
  }
  if (!extra.empty()) {
    return Validation("data has nested fields not in the table schema: ", PyList(extra));
  }
  columnar::RecordBatch out;
  out.schema = target;
  out.num_rows = batch.num_rows;
  for (const Field& field : target->fields) {
    const int index = source.FieldIndex(field.name);
    HOGLAKE_ASSIGN_OR_RETURN(ArrayPtr column,
                             Convert(batch.columns[static_cast<size_t>(index)],
                                     source.fields[static_cast<size_t>(index)], field, field.name));
    out.columns.push_back(std::move(column));
  }
  return out;
}

std::vector<parquet::StatsColumn> StatsColumnsFor(const std::vector<Column>& columns) {
  std::vector<parquet::StatsColumn> out;
  for (const Column& column : columns) CollectLeaves(column, &out);
  return out;
}

Result<PartitionSource> FindPartitionSource(const columnar::RecordBatch& aligned,
                                            const std::vector<Column>& columns, int32_t field_id) {
  // Walk top-level columns and struct members, remembering the chain.
  struct Step {
    const Column* column;
    int index;  // position among the written siblings
  };
  std::vector<Step> chain;
  auto search = [&](auto&& self, const std::vector<Column>& level) -> bool {
    int written = 0;
    for (const Column& column : level) {
      if (column.type.type == iceberg::ColumnType::kVariant) continue;
      chain.push_back({&column, written++});
      if (column.field_id == field_id && !iceberg::IsContainer(column.type.type)) return true;
      if (column.type.type == iceberg::ColumnType::kStruct && self(self, column.children)) {
        return true;
      }
      chain.pop_back();
    }
    return false;
  };
  if (!search(search, columns)) {
    return Validation("partition source field ", field_id,
                      " is not a top-level or struct leaf of the table");
  }
  // Fold the nulls of every enclosing struct into the leaf's validity.
  ArrayPtr current = aligned.columns[static_cast<size_t>(chain[0].index)];
  std::string path = chain[0].column->name;
  const int64_t n = aligned.num_rows;
  // valid[i] for logical row i of the top-level column.
  std::vector<uint8_t> valid(static_cast<size_t>(n), 1);
  int64_t base = 0;  // index of row 0 in `current`'s logical positions
  for (size_t depth = 0;; ++depth) {
    for (int64_t i = 0; i < n; ++i) {
      if (valid[static_cast<size_t>(i)] && current->IsNull(base + i))
        valid[static_cast<size_t>(i)] = 0;
    }
    if (depth + 1 == chain.size()) break;
    base += current->offset;  // struct children are indexed with the parent's offset
    current = current->children[static_cast<size_t>(chain[depth + 1].index)];
    path += "." + chain[depth + 1].column->name;
  }
  // A copy of the leaf window [base, base + n) with the folded validity.
  auto leaf = std::make_shared<ArrayData>(*current);
  leaf->offset = current->offset + base;
  leaf->length = n;
  int64_t nulls = 0;
  for (uint8_t v : valid) nulls += v ? 0 : 1;
  leaf->null_count = nulls;
  if (nulls == 0) {
    leaf->buffers[0] = nullptr;
  } else {
    // A bitmap covering [0, offset + n) so the leaf's offset stays valid.
    auto bits = Buffer::Allocate(columnar::BytesForBits(leaf->offset + n));
    for (int64_t i = 0; i < n; ++i) {
      if (valid[static_cast<size_t>(i)]) columnar::SetBit(bits->mutable_data(), leaf->offset + i);
    }
    leaf->buffers[0] = bits;
  }
  return PartitionSource{leaf, chain.back().column->type, path};
}

}  // namespace hoglake::client
