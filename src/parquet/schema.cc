#include "parquet/schema.h"

#include <functional>

namespace hoglake::parquet {

using columnar::DataType;
using columnar::DataTypePtr;
using columnar::Field;
using columnar::TimeUnit;
using columnar::TypeId;

int32_t DecimalByteWidth(int32_t precision) {
  // Smallest n with 10^precision - 1 < 2^(8n - 1).
  for (int32_t n = 1; n < 16; ++n) {
    __int128 max = (__int128{1} << (8 * n - 1)) - 1;
    __int128 p10 = 1;
    bool fits = true;
    for (int32_t i = 0; i < precision; ++i) {
      p10 *= 10;
      if (p10 - 1 > max) {
        fits = false;
        break;
      }
    }
    if (fits) return n;
  }
  return 16;
}

namespace {

LogicalType IntLogical(int bits, bool is_signed) {
  LogicalType t = LogicalType::Of(LogicalType::Kind::kInteger);
  t.bit_width = static_cast<int8_t>(bits);
  t.is_signed = is_signed;
  return t;
}

LogicalType TimeLogical(LogicalType::Kind kind, LogicalTimeUnit unit, bool utc) {
  LogicalType t = LogicalType::Of(kind);
  t.unit = unit;
  t.is_adjusted_to_utc = utc;
  return t;
}

// ---- Arrow → Parquet -----------------------------------------------------------

class ArrowToParquet {
 public:
  explicit ArrowToParquet(ParquetSchema* out) : out_(out) {}

  Status AddColumn(const Field& field, SchemaNode* node) {
    return AddNode(field, field.name, node, /*parent_def=*/0, /*slot_def=*/0, /*rep=*/0, {});
  }

 private:
  Status AddNode(const Field& field, const std::string& name, SchemaNode* node, int16_t parent_def,
                 int16_t slot_def, int16_t rep, std::vector<std::string> path) {
    if (++depth_ > 64) return InvalidArgument("field '", field.name, "' is nested too deeply");
    path.push_back(name);
    node->field = field;
    node->optional = field.nullable;
    node->slot_def = slot_def;
    node->rep_level = rep;
    node->def_level = static_cast<int16_t>(parent_def + (field.nullable ? 1 : 0));
    SchemaElement e;
    e.name = name;
    e.repetition_type = field.nullable ? Repetition::kOptional : Repetition::kRequired;
    e.field_id = field.field_id();
    const DataType& type = *field.type;
    const int16_t def = node->def_level;
    switch (type.id) {
      case TypeId::kStruct: {
        if (type.children.empty()) {
          return InvalidArgument("struct field '", field.name, "' has no children");
        }
        node->kind = SchemaNode::Kind::kStruct;
        e.num_children = static_cast<int32_t>(type.children.size());
        out_->elements.push_back(e);
        node->children.resize(type.children.size());
        for (size_t i = 0; i < type.children.size(); ++i) {
          HOGLAKE_RETURN_IF_ERROR(AddNode(type.children[i], type.children[i].name,
                                          &node->children[i], def, slot_def, rep, path));
        }
        break;
      }
      case TypeId::kList: {
        node->kind = SchemaNode::Kind::kList;
        node->repeated_def = static_cast<int16_t>(def + 1);
        e.num_children = 1;
        e.converted_type = ConvertedType::kList;
        e.logical_type = LogicalType::Of(LogicalType::Kind::kList);
        out_->elements.push_back(e);
        SchemaElement group;
        group.name = "list";
        group.repetition_type = Repetition::kRepeated;
        group.num_children = 1;
        out_->elements.push_back(group);
        path.push_back("list");
        node->children.resize(1);
        HOGLAKE_RETURN_IF_ERROR(AddNode(type.children[0], "element", &node->children[0],
                                        node->repeated_def, node->repeated_def,
                                        static_cast<int16_t>(rep + 1), path));
        break;
      }
      case TypeId::kMap: {
        node->kind = SchemaNode::Kind::kMap;
        node->repeated_def = static_cast<int16_t>(def + 1);
        e.num_children = 1;
        e.converted_type = ConvertedType::kMap;
        e.logical_type = LogicalType::Of(LogicalType::Kind::kMap);
        out_->elements.push_back(e);
        SchemaElement group;
        group.name = "key_value";
        group.repetition_type = Repetition::kRepeated;
        group.num_children = 2;
        out_->elements.push_back(group);
        path.push_back("key_value");
        node->children.resize(2);
        Field key = type.map_key();
        key.nullable = false;
        HOGLAKE_RETURN_IF_ERROR(AddNode(key, "key", &node->children[0], node->repeated_def,
                                        node->repeated_def, static_cast<int16_t>(rep + 1), path));
        HOGLAKE_RETURN_IF_ERROR(AddNode(type.map_value(), "value", &node->children[1],
                                        node->repeated_def, node->repeated_def,
                                        static_cast<int16_t>(rep + 1), path));
        break;
      }
      default: {
        node->kind = SchemaNode::Kind::kLeaf;
        LeafColumn leaf;
        HOGLAKE_RETURN_IF_ERROR(Primitive(field, &e, &leaf));
        out_->elements.push_back(e);
        leaf.path = path;
        leaf.max_def = def;
        leaf.max_rep = rep;
        leaf.type = field.type;
        out_->leaves.push_back(std::move(leaf));
      }
    }
    --depth_;
    return Status::Ok();
  }

  static Status Primitive(const Field& field, SchemaElement* e, LeafColumn* leaf) {
    const DataType& t = *field.type;
    auto set = [&](PhysicalType p, std::optional<LogicalType> lt = std::nullopt,
                   std::optional<ConvertedType> ct = std::nullopt) {
      e->type = p;
      leaf->physical = p;
      e->logical_type = lt;
      e->converted_type = ct;
    };
    switch (t.id) {
      case TypeId::kBool:
        set(PhysicalType::kBoolean);
        break;
      case TypeId::kInt8:
        set(PhysicalType::kInt32, IntLogical(8, true), ConvertedType::kInt8);
        break;
      case TypeId::kInt16:
        set(PhysicalType::kInt32, IntLogical(16, true), ConvertedType::kInt16);
        break;
      case TypeId::kInt32:
        set(PhysicalType::kInt32);
        break;
      case TypeId::kInt64:
        set(PhysicalType::kInt64);
        break;
      case TypeId::kUInt8:
        set(PhysicalType::kInt32, IntLogical(8, false), ConvertedType::kUint8);
        break;
      case TypeId::kUInt16:
        set(PhysicalType::kInt32, IntLogical(16, false), ConvertedType::kUint16);
        break;
      case TypeId::kUInt32:
        set(PhysicalType::kInt64);
        break;  // rulebook: uint32 rides as int64
      case TypeId::kUInt64:
        set(PhysicalType::kInt64, IntLogical(64, false), ConvertedType::kUint64);
        break;
      case TypeId::kFloat32:
        set(PhysicalType::kFloat);
        break;
      case TypeId::kFloat64:
        set(PhysicalType::kDouble);
        break;
      case TypeId::kDecimal128: {
        if (t.precision < 1 || t.precision > 38 || t.scale < 0 || t.scale > t.precision) {
          return InvalidArgument("field '", field.name, "' has an invalid decimal type");
        }
        LogicalType lt = LogicalType::Of(LogicalType::Kind::kDecimal);
        lt.precision = t.precision;
        lt.scale = t.scale;
        set(PhysicalType::kFixedLenByteArray, lt, ConvertedType::kDecimal);
        e->type_length = DecimalByteWidth(t.precision);
        e->precision = t.precision;
        e->scale = t.scale;
        leaf->type_length = *e->type_length;
        break;
      }
      case TypeId::kDate32:
        set(PhysicalType::kInt32, LogicalType::Of(LogicalType::Kind::kDate), ConvertedType::kDate);
        break;
      case TypeId::kTime64:
        if (t.unit == TimeUnit::kNano) {
          set(PhysicalType::kInt64,
              TimeLogical(LogicalType::Kind::kTime, LogicalTimeUnit::kNanos, false));
        } else {
          set(PhysicalType::kInt64,
              TimeLogical(LogicalType::Kind::kTime, LogicalTimeUnit::kMicros, false),
              ConvertedType::kTimeMicros);
        }
        break;
      case TypeId::kTimestamp: {
        const bool utc = !t.timezone.empty();
        LogicalTimeUnit unit = LogicalTimeUnit::kMicros;
        std::optional<ConvertedType> ct;
        switch (t.unit) {
          case TimeUnit::kSecond:
          case TimeUnit::kMilli:
            unit = LogicalTimeUnit::kMillis;
            if (utc) ct = ConvertedType::kTimestampMillis;
            break;
          case TimeUnit::kMicro:
            if (utc) ct = ConvertedType::kTimestampMicros;
            break;
          case TimeUnit::kNano:
            unit = LogicalTimeUnit::kNanos;
            break;
        }
        set(PhysicalType::kInt64, TimeLogical(LogicalType::Kind::kTimestamp, unit, utc), ct);
        break;
      }
      case TypeId::kUtf8:
        if (field.extension_name() == columnar::kJsonExtension) {
          set(PhysicalType::kByteArray, LogicalType::Of(LogicalType::Kind::kJson),
              ConvertedType::kJson);
        } else {
          set(PhysicalType::kByteArray, LogicalType::Of(LogicalType::Kind::kString),
              ConvertedType::kUtf8);
        }
        break;
      case TypeId::kBinary:
        set(PhysicalType::kByteArray);
        break;
      case TypeId::kFixedSizeBinary:
        if (t.byte_width <= 0) {
          return InvalidArgument("field '", field.name, "' has a non-positive byte width");
        }
        if (field.extension_name() == columnar::kUuidExtension && t.byte_width == 16) {
          set(PhysicalType::kFixedLenByteArray, LogicalType::Of(LogicalType::Kind::kUuid));
        } else {
          set(PhysicalType::kFixedLenByteArray);
        }
        e->type_length = t.byte_width;
        leaf->type_length = t.byte_width;
        break;
      default:
        return InvalidArgument("field '", field.name, "' has type ", t.ToString(),
                               " which Parquet cannot store");
    }
    return Status::Ok();
  }

  ParquetSchema* out_;
  int depth_ = 0;
};

// Fills leaf ranges and leaf→node pointers once the trees stop moving.
void IndexLeaves(ParquetSchema* s) {
  int next = 0;
  std::function<void(SchemaNode&, int)> walk = [&](SchemaNode& n, int column) {
    n.leaf_begin = next;
    if (n.kind == SchemaNode::Kind::kLeaf) {
      s->leaves[next].node = &n;
      s->leaves[next].column_index = column;
      ++next;
    }
    for (SchemaNode& c : n.children) walk(c, column);
    n.leaf_end = next;
  };
  for (size_t i = 0; i < s->columns.size(); ++i) walk(s->columns[i], static_cast<int>(i));
}

}  // namespace

Result<std::unique_ptr<ParquetSchema>> SchemaFromArrow(const columnar::Schema& schema) {
  auto out = std::make_unique<ParquetSchema>();
  SchemaElement root;
  root.name = "schema";
  root.num_children = schema.num_fields();
  out->elements.push_back(root);
  out->columns.resize(schema.fields.size());
  ArrowToParquet builder(out.get());
  for (size_t i = 0; i < schema.fields.size(); ++i) {
    HOGLAKE_RETURN_IF_ERROR(builder.AddColumn(schema.fields[i], &out->columns[i]));
  }
  IndexLeaves(out.get());
  out->arrow_schema = std::make_shared<columnar::Schema>(schema);
  return out;
}

// ---- Parquet → Arrow --------------------------------------------------------------

namespace {

class ParquetToArrow {
 public:
  ParquetToArrow(const std::vector<SchemaElement>& elements, ParquetSchema* out)
      : elements_(elements), out_(out) {}

  Status Run() {
    if (elements_.empty()) return InvalidData("Parquet schema has no root element");
    const SchemaElement& root = elements_[0];
    const int32_t n = root.num_children.value_or(0);
    if (n < 0 || static_cast<size_t>(n) > elements_.size() - 1) {
      return InvalidData("Parquet schema root declares ", n, " children but the schema has ",
                         elements_.size() - 1, " elements");
    }
    pos_ = 1;
    out_->columns.resize(static_cast<size_t>(n));
    for (int32_t i = 0; i < n; ++i) {
      HOGLAKE_RETURN_IF_ERROR(Node(&out_->columns[i], 0, 0, 0, {}));
    }
    if (pos_ != elements_.size()) {
      return InvalidData("Parquet schema has ", elements_.size() - pos_,
                         " elements outside the root's children");
    }
    return Status::Ok();
  }

 private:
  Result<const SchemaElement*> Next() {
    if (pos_ >= elements_.size()) return InvalidData("Parquet schema ends inside a group");
    return &elements_[pos_++];
  }

  static bool IsGroup(const SchemaElement& e) { return e.num_children.has_value() && !e.type; }
  static Repetition Rep(const SchemaElement& e) {
    return e.repetition_type.value_or(Repetition::kOptional);
  }
  static bool Annotated(const SchemaElement& e, LogicalType::Kind lk, ConvertedType ct) {
    if (e.logical_type) return e.logical_type->kind == lk;
    return e.converted_type == ct;
  }
  static Field WithId(Field f, const SchemaElement& e) {
    if (e.field_id) return f.WithFieldId(*e.field_id);
    return f;
  }

  // Reads the element at pos_ (and its subtree) into `node`.
  Status Node(SchemaNode* node, int16_t parent_def, int16_t slot_def, int16_t rep,
              std::vector<std::string> path) {
    if (++depth_ > 64) return InvalidData("Parquet schema is nested deeper than 64 levels");
    HOGLAKE_ASSIGN_OR_RETURN(const SchemaElement* e, Next());
    path.push_back(e->name);
    const Repetition r = Rep(*e);
    if (r == Repetition::kRepeated) {
      // An unannotated repeated field: a required list of required elements.
      node->kind = SchemaNode::Kind::kList;
      node->optional = false;
      node->slot_def = slot_def;
      node->rep_level = rep;
      node->def_level = parent_def;
      node->repeated_def = static_cast<int16_t>(parent_def + 1);
      node->children.resize(1);
      --pos_;
      HOGLAKE_RETURN_IF_ERROR(Body(&node->children[0], *e, /*optional=*/false, node->repeated_def,
                                   node->repeated_def, static_cast<int16_t>(rep + 1), path,
                                   "element"));
      node->field = Field{e->name, columnar::List(node->children[0].field), false, {}};
      --depth_;
      return Status::Ok();
    }
    --pos_;
    HOGLAKE_RETURN_IF_ERROR(
        Body(node, *e, r == Repetition::kOptional, parent_def, slot_def, rep, path, e->name));
    --depth_;
    return Status::Ok();
  }

  // Reads element `e` (at pos_) as a non-repeated node of the given optionality.
  Status Body(SchemaNode* node, const SchemaElement& e, bool optional, int16_t parent_def,
              int16_t slot_def, int16_t rep, std::vector<std::string> path,
              const std::string& arrow_name) {
    ++pos_;
    node->optional = optional;
    node->slot_def = slot_def;
    node->rep_level = rep;
    node->def_level = static_cast<int16_t>(parent_def + (optional ? 1 : 0));
    const int16_t def = node->def_level;
    if (!IsGroup(e)) {
      if (!e.type) return InvalidData("Parquet schema element '", e.name, "' has no type");
      node->kind = SchemaNode::Kind::kLeaf;
      LeafColumn leaf;
      leaf.physical = *e.type;
      leaf.type_length = e.type_length.value_or(0);
      leaf.max_def = def;
      leaf.max_rep = rep;
      leaf.path = path;
      HOGLAKE_ASSIGN_OR_RETURN(Field f, PrimitiveField(e, arrow_name, optional));
      leaf.type = f.type;
      node->field = WithId(std::move(f), e);
      out_->leaves.push_back(std::move(leaf));
      return Status::Ok();
    }
    const int32_t n = *e.num_children;
    if (n <= 0) return InvalidData("Parquet group '", e.name, "' has no children");
    if (static_cast<size_t>(n) > elements_.size() - pos_) {
      return InvalidData("Parquet group '", e.name, "' declares ", n,
                         " children past the end of the schema");
    }
    const bool is_list = Annotated(e, LogicalType::Kind::kList, ConvertedType::kList);
    const bool is_map = Annotated(e, LogicalType::Kind::kMap, ConvertedType::kMap) ||
                        (!e.logical_type && e.converted_type == ConvertedType::kMapKeyValue);
    if ((is_list || is_map) && n == 1 && Rep(elements_[pos_]) == Repetition::kRepeated) {
      HOGLAKE_ASSIGN_OR_RETURN(const SchemaElement* repeated, Next());
      path.push_back(repeated->name);
      node->repeated_def = static_cast<int16_t>(def + 1);
      const int16_t child_rep = static_cast<int16_t>(rep + 1);
      if (is_map) {
        if (!IsGroup(*repeated) || *repeated->num_children != 2) {
          return NotImplemented("Parquet map '", e.name, "' without a key and a value");
        }
        node->kind = SchemaNode::Kind::kMap;
        node->children.resize(2);
        for (int k = 0; k < 2; ++k) {
          if (Rep(elements_[pos_]) == Repetition::kRepeated) {
            return InvalidData("Parquet map '", e.name, "' has a repeated key or value");
          }
          HOGLAKE_RETURN_IF_ERROR(
              Node(&node->children[k], node->repeated_def, node->repeated_def, child_rep, path));
        }
        Field key = node->children[0].field;
        key.name = "key";
        key.nullable = false;
        Field value = node->children[1].field;
        value.name = "value";
        auto map_type = std::make_shared<DataType>(*columnar::Map(key.type, value));
        auto entries = std::make_shared<DataType>(*map_type->children[0].type);
        entries->children[0] = key;
        map_type->children[0].type = entries;
        node->field = WithId(Field{arrow_name, map_type, optional, {}}, e);
        return Status::Ok();
      }
      node->kind = SchemaNode::Kind::kList;
      node->children.resize(1);
      const bool two_level = !IsGroup(*repeated) || *repeated->num_children != 1 ||
                             repeated->name == "array" || repeated->name == e.name + "_tuple";
      if (two_level) {
        // The repeated node itself is the (required) element.
        --pos_;
        path.pop_back();
        HOGLAKE_RETURN_IF_ERROR(Body(&node->children[0], *repeated, false, node->repeated_def,
                                     node->repeated_def, child_rep, path, "element"));
      } else {
        if (Rep(elements_[pos_]) == Repetition::kRepeated) {
          return NotImplemented("Parquet list '", e.name, "' with a repeated element");
        }
        HOGLAKE_RETURN_IF_ERROR(
            Node(&node->children[0], node->repeated_def, node->repeated_def, child_rep, path));
      }
      Field element = node->children[0].field;
      element.name = "element";
      node->children[0].field = element;
      node->field = WithId(Field{arrow_name, columnar::List(element), optional, {}}, e);
      return Status::Ok();
    }
    if (is_list || is_map) {
      return NotImplemented("Parquet ", is_list ? "list" : "map", " '", e.name,
                            "' in a layout hoglake does not read");
    }
    node->kind = SchemaNode::Kind::kStruct;
    node->children.resize(static_cast<size_t>(n));
    std::vector<Field> fields;
    for (int32_t i = 0; i < n; ++i) {
      HOGLAKE_RETURN_IF_ERROR(Node(&node->children[i], def, slot_def, rep, path));
      fields.push_back(node->children[i].field);
    }
    node->field = WithId(Field{arrow_name, columnar::Struct(std::move(fields)), optional, {}}, e);
    return Status::Ok();
  }

  static Result<Field> PrimitiveField(const SchemaElement& e, const std::string& name,
                                      bool nullable) {
    Field f{name, nullptr, nullable, {}};
    const PhysicalType p = *e.type;
    const std::optional<LogicalType>& lt = e.logical_type;
    using K = LogicalType::Kind;
    const std::optional<ConvertedType> ct = e.converted_type;
    auto bad = [&](const char* what) {
      return InvalidData("Parquet column '", e.name, "': ", what);
    };
    // Decimal from either annotation.
    if ((lt && lt->kind == K::kDecimal) || (!lt && ct == ConvertedType::kDecimal)) {
      const int32_t precision = lt ? lt->precision : e.precision.value_or(0);
      const int32_t scale = lt ? lt->scale : e.scale.value_or(0);
      if (precision < 1 || precision > 38 || scale < 0 || scale > precision) {
        return NotImplemented("Parquet column '", e.name, "': decimal(", precision, ", ", scale,
                              ") is outside decimal128");
      }
      if (p != PhysicalType::kInt32 && p != PhysicalType::kInt64 && p != PhysicalType::kByteArray &&
          p != PhysicalType::kFixedLenByteArray) {
        return bad("DECIMAL on an unsupported physical type");
      }
      if (p == PhysicalType::kFixedLenByteArray &&
          (e.type_length.value_or(0) < 1 || *e.type_length > 16)) {
        return NotImplemented("Parquet column '", e.name, "': decimal stored in ",
                              e.type_length.value_or(0), " bytes");
      }
      f.type = columnar::Decimal128(precision, scale);
      return f;
    }
    switch (p) {
      case PhysicalType::kBoolean:
        f.type = columnar::Bool();
        return f;
      case PhysicalType::kInt32: {
        int bits = 32;
        bool is_signed = true;
        if (lt && lt->kind == K::kInteger) {
          bits = lt->bit_width;
          is_signed = lt->is_signed;
        } else if (!lt && ct) {
          switch (*ct) {
            case ConvertedType::kInt8:
              bits = 8;
              break;
            case ConvertedType::kInt16:
              bits = 16;
              break;
            case ConvertedType::kUint8:
              bits = 8, is_signed = false;
              break;
            case ConvertedType::kUint16:
              bits = 16, is_signed = false;
              break;
            case ConvertedType::kUint32:
              is_signed = false;
              break;
            case ConvertedType::kDate:
              f.type = columnar::Date32();
              return f;
            case ConvertedType::kTimeMillis:
              f.type = columnar::Time64(TimeUnit::kMilli);
              return f;
            default:
              break;
          }
        } else if (lt && lt->kind == K::kDate) {
          f.type = columnar::Date32();
          return f;
        } else if (lt && lt->kind == K::kTime) {
          if (lt->unit != LogicalTimeUnit::kMillis) return bad("INT32 TIME must be in MILLIS");
          f.type = columnar::Time64(TimeUnit::kMilli);
          return f;
        } else if (lt) {
          return NotImplemented("Parquet column '", e.name, "': INT32 with logical type ",
                                static_cast<int>(lt->kind));
        }
        switch (bits) {
          case 8:
            f.type = is_signed ? columnar::Int8() : columnar::UInt8();
            break;
          case 16:
            f.type = is_signed ? columnar::Int16() : columnar::UInt16();
            break;
          case 32:
            f.type = is_signed ? columnar::Int32() : columnar::UInt32();
            break;
          default:
            return bad("INT32 with an INTEGER bit width other than 8, 16 or 32");
        }
        return f;
      }
      case PhysicalType::kInt64: {
        if (lt && lt->kind == K::kTimestamp) {
          const TimeUnit unit = lt->unit == LogicalTimeUnit::kMillis  ? TimeUnit::kMilli
                                : lt->unit == LogicalTimeUnit::kNanos ? TimeUnit::kNano
                                                                      : TimeUnit::kMicro;
          f.type = columnar::Timestamp(unit, lt->is_adjusted_to_utc ? "UTC" : "");
        } else if (lt && lt->kind == K::kTime) {
          if (lt->unit == LogicalTimeUnit::kMillis) return bad("INT64 TIME in MILLIS");
          f.type = columnar::Time64(lt->unit == LogicalTimeUnit::kNanos ? TimeUnit::kNano
                                                                        : TimeUnit::kMicro);
        } else if (lt && lt->kind == K::kInteger) {
          if (lt->bit_width != 64) return bad("INT64 with an INTEGER bit width other than 64");
          f.type = lt->is_signed ? columnar::Int64() : columnar::UInt64();
        } else if (lt) {
          return NotImplemented("Parquet column '", e.name, "': INT64 with logical type ",
                                static_cast<int>(lt->kind));
        } else if (ct == ConvertedType::kTimestampMillis) {
          f.type = columnar::Timestamp(TimeUnit::kMilli, "UTC");
        } else if (ct == ConvertedType::kTimestampMicros) {
          f.type = columnar::Timestamp(TimeUnit::kMicro, "UTC");
        } else if (ct == ConvertedType::kTimeMicros) {
          f.type = columnar::Time64(TimeUnit::kMicro);
        } else if (ct == ConvertedType::kUint64) {
          f.type = columnar::UInt64();
        } else {
          f.type = columnar::Int64();
        }
        return f;
      }
      case PhysicalType::kInt96:
        f.type = columnar::Timestamp(TimeUnit::kNano);
        return f;
      case PhysicalType::kFloat:
        if (lt && lt->kind == K::kFloat16) return bad("FLOAT16 is not supported");
        f.type = columnar::Float32();
        return f;
      case PhysicalType::kDouble:
        f.type = columnar::Float64();
        return f;
      case PhysicalType::kByteArray:
        if ((lt && (lt->kind == K::kString || lt->kind == K::kEnum)) ||
            (!lt && (ct == ConvertedType::kUtf8 || ct == ConvertedType::kEnum))) {
          f.type = columnar::Utf8();
        } else if ((lt && lt->kind == K::kJson) || (!lt && ct == ConvertedType::kJson)) {
          f = columnar::JsonField(name, nullable);
        } else {
          f.type = columnar::Binary();
        }
        return f;
      case PhysicalType::kFixedLenByteArray: {
        const int32_t width = e.type_length.value_or(0);
        if (width <= 0) return bad("FIXED_LEN_BYTE_ARRAY without a positive type_length");
        if (lt && lt->kind == K::kFloat16) {
          return NotImplemented("Parquet column '", e.name, "': FLOAT16");
        }
        if (lt && lt->kind == K::kUuid && width == 16) {
          f = columnar::UuidField(name, nullable);
        } else {
          f.type = columnar::FixedSizeBinary(width);
        }
        return f;
      }
    }
    return bad("unknown physical type");
  }

  const std::vector<SchemaElement>& elements_;
  ParquetSchema* out_;
  size_t pos_ = 0;
  int depth_ = 0;
};

}  // namespace

Result<std::unique_ptr<ParquetSchema>> SchemaFromParquet(
    const std::vector<SchemaElement>& elements) {
  auto out = std::make_unique<ParquetSchema>();
  out->elements = elements;
  ParquetToArrow builder(out->elements, out.get());
  HOGLAKE_RETURN_IF_ERROR(builder.Run());
  IndexLeaves(out.get());
  auto schema = std::make_shared<columnar::Schema>();
  for (const SchemaNode& c : out->columns) schema->fields.push_back(c.field);
  out->arrow_schema = schema;
  return out;
}

}  // namespace hoglake::parquet
