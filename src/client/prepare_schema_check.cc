// Prepared-file validation (prepare_schema_check.h; pyhoglake-writer
// §10.3–§10.5).
#include "client/prepare_schema_check.h"

#include <algorithm>
#include <set>
#include <utility>

#include "client/writer_schema.h"
#include "iceberg/arrow_mapping.h"

namespace hoglake::client {
namespace {

using columnar::DataType;
using columnar::Field;
using columnar::TypeId;

// The VARIANT member of parquet.thrift's LogicalType union.
constexpr int16_t kVariantMember = 16;

// ---- field comparison ---------------------------------------------------------

bool IsUuidStorage(const DataType& type) {
  return type.id == TypeId::kFixedSizeBinary && type.byte_width == 16;
}

// The metadata that takes part in a comparison: sorted pairs, the arrow.uuid
// extension dropped on fixed_size_binary(16) (the uuid licence), the field
// id dropped unless `with_ids`.
columnar::KeyValueMetadata ComparableMetadata(const Field& field, bool with_ids) {
  columnar::KeyValueMetadata out;
  for (const auto& [key, value] : field.metadata) {
    if (!with_ids && key == columnar::kFieldIdKey) continue;
    if (key == columnar::kExtensionNameKey && value == columnar::kUuidExtension &&
        IsUuidStorage(*field.type)) {
      continue;
    }
    out.emplace_back(key, value);
  }
  std::sort(out.begin(), out.end());
  return out;
}

bool TypesEqual(const DataType& a, const DataType& b, bool with_ids);

// Names (list elements excepted), nullability, types and metadata.
bool FieldsEqual(const Field& a, const Field& b, bool with_ids, bool check_name = true) {
  if (check_name && a.name != b.name) return false;
  if (a.nullable != b.nullable) return false;
  if (ComparableMetadata(a, with_ids) != ComparableMetadata(b, with_ids)) return false;
  return TypesEqual(*a.type, *b.type, with_ids);
}

bool TypesEqual(const DataType& a, const DataType& b, bool with_ids) {
  if (a.id != b.id || a.children.size() != b.children.size()) return false;
  switch (a.id) {
    case TypeId::kDecimal128:
      if (a.precision != b.precision || a.scale != b.scale) return false;
      break;
    case TypeId::kFixedSizeBinary:
      if (a.byte_width != b.byte_width) return false;
      break;
    case TypeId::kTime64:
      if (a.unit != b.unit) return false;
      break;
    case TypeId::kTimestamp:
      if (a.unit != b.unit || a.timezone != b.timezone) return false;
      break;
    default:
      break;
  }
  for (size_t i = 0; i < a.children.size(); ++i) {
    if (!FieldsEqual(a.children[i], b.children[i], with_ids, a.id != TypeId::kList)) return false;
  }
  return true;
}

// Struct members, list element, map key and value.
std::vector<const Field*> ChildFields(const DataType& type) {
  std::vector<const Field*> out;
  if (type.id == TypeId::kStruct) {
    for (const Field& f : type.children) out.push_back(&f);
  } else if (type.id == TypeId::kList) {
    out.push_back(&type.list_element());
  } else if (type.id == TypeId::kMap) {
    out.push_back(&type.map_key());
    out.push_back(&type.map_value());
  }
  return out;
}

int LeafCount(const DataType& type) {
  std::vector<const Field*> children = ChildFields(type);
  if (children.empty()) return 1;
  int n = 0;
  for (const Field* child : children) n += LeafCount(*child->type);
  return n;
}

// "prepared field ID differs for s.x" for the first nested id mismatch.
std::optional<std::string> FieldIdFault(const Field& expected, const Field& actual,
                                        const std::string& path) {
  std::vector<const Field*> want = ChildFields(*expected.type);
  std::vector<const Field*> got = ChildFields(*actual.type);
  for (size_t i = 0; i < want.size() && i < got.size(); ++i) {
    const std::string here = path + "." + want[i]->name;
    if (want[i]->field_id() != got[i]->field_id()) {
      return "prepared field ID differs for " + here;
    }
    if (auto deeper = FieldIdFault(*want[i], *got[i], here)) return deeper;
  }
  return std::nullopt;
}

// timestamp[s] → timestamp[ms] at any depth.
Field MillisForSeconds(const Field& field) {
  Field out = field;
  const DataType& type = *field.type;
  const bool seconds = type.id == TypeId::kTimestamp && type.unit == columnar::TimeUnit::kSecond;
  if (!seconds && type.children.empty()) return out;
  auto copy = std::make_shared<DataType>(type);
  if (seconds) copy->unit = columnar::TimeUnit::kMilli;
  for (Field& child : copy->children) child = MillisForSeconds(child);
  out.type = copy;
  return out;
}

// ---- the physical check (§10.4, §10.5) ----------------------------------------

struct TopLevel {
  size_t element = 0;  // index into FileMetaData::schema
  int leaf_begin = 0;
  int leaf_end = 0;
};

Result<std::vector<TopLevel>> TopLevelElements(const std::vector<parquet::SchemaElement>& schema) {
  if (schema.empty()) return Validation("invalid prepared Parquet schema: no root element");
  std::vector<TopLevel> out;
  size_t cursor = 1;
  int leaves = 0;
  for (int32_t i = 0; i < schema[0].num_children.value_or(0); ++i) {
    TopLevel top{cursor, leaves, leaves};
    int64_t pending = 1;
    while (pending > 0) {
      if (cursor >= schema.size()) return Validation("invalid prepared Parquet schema: truncated");
      const int32_t children = schema[cursor].num_children.value_or(0);
      if (children < 0) {
        return Validation("invalid prepared Parquet schema: negative schema child count");
      }
      if (children == 0) ++leaves;
      pending += children - 1;
      ++cursor;
    }
    top.leaf_end = leaves;
    out.push_back(top);
  }
  if (cursor != schema.size()) return Validation("invalid prepared Parquet schema: invalid tree");
  return out;
}

Status CheckVariant(const Column& column, const Field& field, const RawSchemaElement& raw) {
  if (raw.has_physical_type || raw.logical_members != std::vector<int16_t>{kVariantMember} ||
      raw.variant_version != 1 || field.type->id != TypeId::kStruct) {
    return Validation(column.name, " must be native Parquet VARIANT version 1");
  }
  std::set<std::string> names;
  const Field* metadata = nullptr;
  const Field* value = nullptr;
  bool typed_value = false;
  bool bad = false;
  for (const Field& child : field.type->children) {
    bad = bad || !names.insert(child.name).second;
    if (child.name == "metadata") {
      metadata = &child;
    } else if (child.name == "value") {
      value = &child;
    } else if (child.name == "typed_value") {
      typed_value = true;
    } else {
      bad = true;
    }
  }
  if (bad || !metadata || metadata->type->id != TypeId::kBinary || metadata->nullable ||
      !(value || typed_value) || (value && value->type->id != TypeId::kBinary)) {
    return Validation("invalid native VARIANT storage for ", column.name);
  }
  return Status::Ok();
}

// The scalar type a column's file must carry: the writer type (timestamp_s
// as ms), its extension (uuid dropped), time zones as UTC.
struct ScalarShape {
  DataType type;
  std::string extension;
  bool operator==(const ScalarShape& other) const {
    return extension == other.extension && TypesEqual(type, other.type, false);
  }
};
ScalarShape ShapeOf(const Field& field) {
  ScalarShape shape{*field.type, std::string(field.extension_name())};
  if (shape.type.id == TypeId::kTimestamp && shape.type.unit == columnar::TimeUnit::kSecond) {
    shape.type.unit = columnar::TimeUnit::kMilli;
  }
  if (shape.type.id == TypeId::kTimestamp && !shape.type.timezone.empty()) {
    shape.type.timezone = "UTC";
  }
  if (IsUuidStorage(shape.type) && shape.extension == columnar::kUuidExtension) {
    shape.extension.clear();
  }
  return shape;
}

Status CheckPhysical(const PreparedFileFacts& file, const std::vector<Column>& columns,
                     const columnar::Schema& expected) {
  HOGLAKE_ASSIGN_OR_RETURN(std::vector<TopLevel> tops, TopLevelElements(file.metadata.schema));
  const columnar::Schema& arrow = *file.schema;
  bool same_names = arrow.fields.size() == columns.size() && tops.size() == columns.size();
  for (size_t i = 0; same_names && i < columns.size(); ++i) {
    same_names = arrow.fields[i].name == columns[i].name;
  }
  if (!same_names) return Validation("prepared Parquet columns differ from destination");
  for (size_t i = 0; i < columns.size(); ++i) {
    const Column& column = columns[i];
    const Field& field = arrow.fields[i];
    const parquet::SchemaElement& element = file.metadata.schema[tops[i].element];
    if (element.field_id != column.field_id || field.field_id() != column.field_id) {
      return Validation("prepared field ID differs for ", column.name);
    }
    const auto repetition = element.repetition_type;
    if (element.name != column.name || !repetition ||
        (*repetition != parquet::Repetition::kRequired &&
         *repetition != parquet::Repetition::kOptional)) {
      return Validation("invalid prepared field ", column.name);
    }
    std::vector<int> proof;
    bool all_of = true;
    if (column.type.type == iceberg::ColumnType::kVariant) {
      HOGLAKE_RETURN_IF_ERROR(CheckVariant(column, field, file.raw[tops[i].element]));
      int offset = 0;
      for (const Field& child : field.type->children) {
        if (child.name == "metadata") break;
        offset += LeafCount(*child.type);
      }
      proof.push_back(tops[i].leaf_begin + offset);
    } else if (iceberg::IsContainer(column.type.type)) {
      const int index = expected.FieldIndex(column.name);
      if (index < 0 || !TypesEqual(*field.type, *expected.fields[index].type, false)) {
        return Validation("prepared Parquet type differs for ", column.name);
      }
      if (auto fault = FieldIdFault(expected.fields[index], field, column.name)) {
        return Validation(*fault);
      }
      for (int leaf = tops[i].leaf_begin; leaf < tops[i].leaf_end; ++leaf) proof.push_back(leaf);
      all_of = false;
    } else {
      auto want = iceberg::WriterArrowField(column.name, column.type, column.nullable);
      if (!want.ok()) {
        return Validation("cannot describe destination column ", column.name, ": ",
                          want.error().message);
      }
      if (element.num_children || !(ShapeOf(*want) == ShapeOf(field))) {
        return Validation("prepared Parquet type differs for ", column.name);
      }
      for (int leaf = tops[i].leaf_begin; leaf < tops[i].leaf_end; ++leaf) proof.push_back(leaf);
    }
    if (column.nullable || !field.nullable) continue;
    // A NOT NULL column written OPTIONAL (DuckDB): the statistics must prove it.
    for (const parquet::RowGroup& group : file.metadata.row_groups) {
      if (proof.empty() || proof.back() >= static_cast<int>(group.columns.size())) {
        return Validation("prepared file has no columns for ", column.name);
      }
      int clean = 0;
      for (int leaf : proof) {
        const auto& meta = group.columns[leaf].meta_data;
        if (meta && meta->statistics && meta->statistics->null_count &&
            *meta->statistics->null_count == 0) {
          ++clean;
        }
      }
      if (all_of ? clean != static_cast<int>(proof.size()) : clean == 0) {
        return Validation("prepared file cannot prove non-null values for ", column.name);
      }
    }
  }
  return Status::Ok();
}

// ---- layout comparison --------------------------------------------------------

bool SameColumns(const std::vector<Column>& a, const std::vector<Column>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].name != b[i].name || !(a[i].type == b[i].type) || a[i].field_id != b[i].field_id ||
        a[i].ordinal != b[i].ordinal || a[i].nullable != b[i].nullable ||
        !SameColumns(a[i].children, b[i].children)) {
      return false;
    }
  }
  return true;
}

bool SamePartitionSpec(const TableInfo& a, const TableInfo& b) {
  if (a.partitioned() != b.partitioned()) return false;
  if (!a.partitioned()) return true;
  const PartitionSpec& x = *a.partition_spec;
  const PartitionSpec& y = *b.partition_spec;
  if (x.spec_id != y.spec_id || x.fields.size() != y.fields.size()) return false;
  for (size_t i = 0; i < x.fields.size(); ++i) {
    const PartitionField& f = x.fields[i];
    const PartitionField& g = y.fields[i];
    if (f.source_field_id != g.source_field_id || f.transform != g.transform ||
        f.transform_param != g.transform_param || f.key_index != g.key_index || f.name != g.name) {
      return false;
    }
  }
  return true;
}

bool SameSortSpec(const TableInfo& a, const TableInfo& b) {
  const bool sa = a.sort_spec && !a.sort_spec->fields.empty();
  const bool sb = b.sort_spec && !b.sort_spec->fields.empty();
  if (sa != sb) return false;
  if (!sa) return true;
  const SortSpec& x = *a.sort_spec;
  const SortSpec& y = *b.sort_spec;
  if (x.sort_id != y.sort_id || x.fields.size() != y.fields.size()) return false;
  for (size_t i = 0; i < x.fields.size(); ++i) {
    if (x.fields[i].source_field_id != y.fields[i].source_field_id ||
        x.fields[i].direction != y.fields[i].direction ||
        x.fields[i].null_order != y.fields[i].null_order) {
      return false;
    }
  }
  return true;
}

}  // namespace

Result<columnar::SchemaPtr> PreparedExpectedSchema(const std::vector<Column>& columns) {
  HOGLAKE_ASSIGN_OR_RETURN(columnar::SchemaPtr writer, WriterSchema(columns));
  auto schema = std::make_shared<columnar::Schema>();
  for (const Field& field : writer->fields) schema->fields.push_back(MillisForSeconds(field));
  return columnar::SchemaPtr(schema);
}

Status CheckPreparedFile(const PreparedFileFacts& file, const std::vector<Column>& columns,
                         const columnar::Schema& expected, bool allow_optional_fields) {
  const bool has_variant = std::any_of(columns.begin(), columns.end(), [](const Column& c) {
    return c.type.type == iceberg::ColumnType::kVariant;
  });
  if (has_variant || allow_optional_fields) return CheckPhysical(file, columns, expected);
  const columnar::Schema& found = *file.schema;
  bool same = found.fields.size() == expected.fields.size();
  for (size_t i = 0; same && i < found.fields.size(); ++i) {
    same = FieldsEqual(found.fields[i], expected.fields[i], /*with_ids=*/true);
  }
  if (!same) return Validation("prepared Parquet schema/field IDs differ from destination");
  return Status::Ok();
}

bool SameLayout(const TableInfo& a, const TableInfo& b) {
  return SameColumns(a.columns, b.columns) && SamePartitionSpec(a, b) && SameSortSpec(a, b);
}

}  // namespace hoglake::client
