#include "columnar/ipc/ipc_metadata.h"

#include <climits>
#include <string>
#include <utility>

namespace hoglake::columnar::ipc_internal {
namespace fb = ::hoglake::arrowfb;

namespace {

using flatbuffers::FlatBufferBuilder;
using flatbuffers::Offset;

// ---- writing ---------------------------------------------------------------

fb::TimeUnit ToFbUnit(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::kSecond:
      return fb::TimeUnit_SECOND;
    case TimeUnit::kMilli:
      return fb::TimeUnit_MILLISECOND;
    case TimeUnit::kMicro:
      return fb::TimeUnit_MICROSECOND;
    case TimeUnit::kNano:
      return fb::TimeUnit_NANOSECOND;
  }
  return fb::TimeUnit_MICROSECOND;
}

Offset<flatbuffers::Vector<Offset<fb::KeyValue>>> BuildMetadata(FlatBufferBuilder& fbb,
                                                                const KeyValueMetadata& metadata) {
  if (metadata.empty()) return 0;
  std::vector<Offset<fb::KeyValue>> entries;
  entries.reserve(metadata.size());
  for (const auto& [key, value] : metadata) {
    auto k = fbb.CreateString(key);
    auto v = fbb.CreateString(value);
    entries.push_back(fb::CreateKeyValue(fbb, k, v));
  }
  return fbb.CreateVector(entries);
}

struct FbType {
  fb::Type tag = fb::Type_NONE;
  Offset<void> table;
};

Result<FbType> BuildType(FlatBufferBuilder& fbb, const DataType& type, const std::string& path) {
  auto integer = [&](int bits, bool is_signed) {
    return FbType{fb::Type_Int, fb::CreateInt(fbb, bits, is_signed).Union()};
  };
  switch (type.id) {
    case TypeId::kBool:
      return FbType{fb::Type_Bool, fb::CreateBool(fbb).Union()};
    case TypeId::kInt8:
      return integer(8, true);
    case TypeId::kInt16:
      return integer(16, true);
    case TypeId::kInt32:
      return integer(32, true);
    case TypeId::kInt64:
      return integer(64, true);
    case TypeId::kUInt8:
      return integer(8, false);
    case TypeId::kUInt16:
      return integer(16, false);
    case TypeId::kUInt32:
      return integer(32, false);
    case TypeId::kUInt64:
      return integer(64, false);
    case TypeId::kFloat32:
      return FbType{fb::Type_FloatingPoint,
                    fb::CreateFloatingPoint(fbb, fb::Precision_SINGLE).Union()};
    case TypeId::kFloat64:
      return FbType{fb::Type_FloatingPoint,
                    fb::CreateFloatingPoint(fbb, fb::Precision_DOUBLE).Union()};
    case TypeId::kDecimal128:
      return FbType{fb::Type_Decimal,
                    fb::CreateDecimal(fbb, type.precision, type.scale, 128).Union()};
    case TypeId::kDate32:
      return FbType{fb::Type_Date, fb::CreateDate(fbb, fb::DateUnit_DAY).Union()};
    case TypeId::kTime64:
      if (type.unit != TimeUnit::kMicro && type.unit != TimeUnit::kNano) {
        return InvalidArgument("field '", path, "': Arrow has no 64-bit time in unit ",
                               TimeUnitName(type.unit));
      }
      return FbType{fb::Type_Time, fb::CreateTime(fbb, ToFbUnit(type.unit), 64).Union()};
    case TypeId::kTimestamp: {
      Offset<flatbuffers::String> tz = 0;
      if (!type.timezone.empty()) tz = fbb.CreateString(type.timezone);
      return FbType{fb::Type_Timestamp, fb::CreateTimestamp(fbb, ToFbUnit(type.unit), tz).Union()};
    }
    case TypeId::kUtf8:
      return FbType{fb::Type_Utf8, fb::CreateUtf8(fbb).Union()};
    case TypeId::kBinary:
      return FbType{fb::Type_Binary, fb::CreateBinary(fbb).Union()};
    case TypeId::kFixedSizeBinary:
      return FbType{fb::Type_FixedSizeBinary,
                    fb::CreateFixedSizeBinary(fbb, type.byte_width).Union()};
    case TypeId::kIntervalMonthDayNano:
      return FbType{fb::Type_Interval,
                    fb::CreateInterval(fbb, fb::IntervalUnit_MONTH_DAY_NANO).Union()};
    case TypeId::kList:
      if (type.children.size() != 1) {
        return InvalidArgument("field '", path, "': list type has ", type.children.size(),
                               " children, expected 1");
      }
      return FbType{fb::Type_List, fb::CreateList(fbb).Union()};
    case TypeId::kStruct:
      return FbType{fb::Type_Struct_, fb::CreateStruct_(fbb).Union()};
    case TypeId::kMap:
      if (type.children.size() != 1 || type.children[0].type->id != TypeId::kStruct ||
          type.children[0].type->children.size() != 2) {
        return InvalidArgument("field '", path,
                               "': map type needs one entries struct of key and value");
      }
      return FbType{fb::Type_Map, fb::CreateMap(fbb, type.keys_sorted).Union()};
  }
  return InvalidArgument("field '", path, "': unknown type id ", static_cast<int>(type.id));
}

Result<Offset<fb::Field>> BuildField(FlatBufferBuilder& fbb, const Field& field,
                                     const std::string& parent, int depth) {
  const std::string path = parent.empty() ? field.name : parent + " > " + field.name;
  if (depth > kMaxNestingDepth) {
    return InvalidArgument("field '", path, "': nesting deeper than ", kMaxNestingDepth, " levels");
  }
  if (!field.type) return InvalidArgument("field '", path, "' has no type");
  std::vector<Offset<fb::Field>> children;
  children.reserve(field.type->children.size());
  for (const Field& child : field.type->children) {
    HOGLAKE_ASSIGN_OR_RETURN(auto offset, BuildField(fbb, child, path, depth + 1));
    children.push_back(offset);
  }
  HOGLAKE_ASSIGN_OR_RETURN(FbType type, BuildType(fbb, *field.type, path));
  auto name = fbb.CreateString(field.name);
  auto child_vector = fbb.CreateVector(children);
  auto metadata = BuildMetadata(fbb, field.metadata);
  return fb::CreateField(fbb, name, field.nullable, type.tag, type.table, 0, child_vector,
                         metadata);
}

// ---- reading ---------------------------------------------------------------

std::string FbTypeName(fb::Type tag) {
  const char* name = fb::EnumNameType(tag);
  if (name == nullptr || *name == '\0') return "#" + std::to_string(static_cast<int>(tag));
  return name;
}

Result<TimeUnit> FromFbUnit(fb::TimeUnit unit, const std::string& path) {
  switch (unit) {
    case fb::TimeUnit_SECOND:
      return TimeUnit::kSecond;
    case fb::TimeUnit_MILLISECOND:
      return TimeUnit::kMilli;
    case fb::TimeUnit_MICROSECOND:
      return TimeUnit::kMicro;
    case fb::TimeUnit_NANOSECOND:
      return TimeUnit::kNano;
  }
  return InvalidData("field '", path, "': unknown time unit ", static_cast<int>(unit));
}

KeyValueMetadata DecodeMetadata(
    const flatbuffers::Vector<flatbuffers::Offset<fb::KeyValue>>* entries) {
  KeyValueMetadata out;
  if (entries == nullptr) return out;
  out.reserve(entries->size());
  for (const fb::KeyValue* kv : *entries) {
    out.emplace_back(kv->key() ? kv->key()->str() : std::string(),
                     kv->value() ? kv->value()->str() : std::string());
  }
  return out;
}

class SchemaDecoder {
 public:
  Result<Field> DecodeField(const fb::Field& f, const std::string& parent, int depth,
                            FieldLayout* layout) {
    std::string name = f.name() ? f.name()->str() : std::string();
    const std::string path = parent.empty() ? name : parent + " > " + name;
    auto fail = [&](auto... parts) { return InvalidData("field '", path, "': ", parts...); };
    if (depth > kMaxNestingDepth) {
      return fail("schema nesting deeper than ", kMaxNestingDepth, " levels");
    }
    ++num_nodes_;
    // Children first: nested types are built from them.
    std::vector<Field> children;
    if (f.children() != nullptr) {
      children.reserve(f.children()->size());
      layout->children.reserve(f.children()->size());
      for (const fb::Field* child : *f.children()) {
        layout->children.emplace_back();
        HOGLAKE_ASSIGN_OR_RETURN(Field decoded,
                                 DecodeField(*child, path, depth + 1, &layout->children.back()));
        children.push_back(std::move(decoded));
      }
    }
    const fb::Type tag = f.type_type();
    const bool nested = tag == fb::Type_List || tag == fb::Type_LargeList ||
                        tag == fb::Type_Struct_ || tag == fb::Type_Map;
    if (!nested && !children.empty() && IsReadable(tag)) {
      return fail("Arrow type ", FbTypeName(tag), " has ", children.size(),
                  " children, expected none");
    }
    DataTypePtr type;
    switch (tag) {
      case fb::Type_NONE:
        return fail("field has no type");
      case fb::Type_Int: {
        const fb::Int* t = f.type_as_Int();
        if (t == nullptr) return fail("Int type table is missing");
        const bool s = t->is_signed();
        switch (t->bit_width()) {
          case 8:
            type = s ? Int8() : UInt8();
            break;
          case 16:
            type = s ? Int16() : UInt16();
            break;
          case 32:
            type = s ? Int32() : UInt32();
            break;
          case 64:
            type = s ? Int64() : UInt64();
            break;
          default:
            return fail("integer bit width ", t->bit_width(), " is not 8, 16, 32 or 64");
        }
        break;
      }
      case fb::Type_FloatingPoint: {
        const fb::FloatingPoint* t = f.type_as_FloatingPoint();
        if (t == nullptr) return fail("FloatingPoint type table is missing");
        switch (t->precision()) {
          case fb::Precision_SINGLE:
            type = Float32();
            break;
          case fb::Precision_DOUBLE:
            type = Float64();
            break;
          case fb::Precision_HALF:
            return NotImplemented("field '", path, "': float16 is not supported");
          default:
            return fail("unknown floating point precision ", int{t->precision()});
        }
        break;
      }
      case fb::Type_Bool:
        type = Bool();
        break;
      case fb::Type_Utf8:
        type = Utf8();
        break;
      case fb::Type_Binary:
        type = Binary();
        break;
      case fb::Type_LargeUtf8:
        type = Utf8();
        layout->large_offsets = true;
        break;
      case fb::Type_LargeBinary:
        type = Binary();
        layout->large_offsets = true;
        break;
      case fb::Type_Decimal: {
        const fb::Decimal* t = f.type_as_Decimal();
        if (t == nullptr) return fail("Decimal type table is missing");
        if (t->bit_width() == 256) {
          return NotImplemented("field '", path, "': decimal256 is not supported");
        }
        if (t->bit_width() != 128) return fail("decimal bit width ", t->bit_width());
        auto decimal = MakeDecimal128(t->precision(), t->scale());
        if (!decimal.ok()) return fail(decimal.error().message);
        type = *decimal;
        break;
      }
      case fb::Type_Date: {
        const fb::Date* t = f.type_as_Date();
        if (t == nullptr) return fail("Date type table is missing");
        if (t->unit() == fb::DateUnit_MILLISECOND) {
          return NotImplemented("field '", path, "': date64 is not supported");
        }
        if (t->unit() != fb::DateUnit_DAY) return fail("unknown date unit ", int{t->unit()});
        type = Date32();
        break;
      }
      case fb::Type_Time: {
        const fb::Time* t = f.type_as_Time();
        if (t == nullptr) return fail("Time type table is missing");
        HOGLAKE_ASSIGN_OR_RETURN(TimeUnit unit, FromFbUnit(t->unit(), path));
        const bool wide = unit == TimeUnit::kMicro || unit == TimeUnit::kNano;
        if (t->bit_width() != (wide ? 64 : 32)) {
          return fail("time in unit ", TimeUnitName(unit), " has bit width ", t->bit_width());
        }
        if (!wide) return NotImplemented("field '", path, "': time32 is not supported");
        type = Time64(unit);
        break;
      }
      case fb::Type_Timestamp: {
        const fb::Timestamp* t = f.type_as_Timestamp();
        if (t == nullptr) return fail("Timestamp type table is missing");
        HOGLAKE_ASSIGN_OR_RETURN(TimeUnit unit, FromFbUnit(t->unit(), path));
        type = Timestamp(unit, t->timezone() ? t->timezone()->str() : std::string());
        break;
      }
      case fb::Type_FixedSizeBinary: {
        const fb::FixedSizeBinary* t = f.type_as_FixedSizeBinary();
        if (t == nullptr) return fail("FixedSizeBinary type table is missing");
        // Bound the width so that bit widths stay inside an int.
        if (t->byte_width() <= 0 || t->byte_width() > INT_MAX / 8) {
          return fail("fixed_size_binary width ", t->byte_width(), " is out of range");
        }
        type = FixedSizeBinary(t->byte_width());
        break;
      }
      case fb::Type_Interval: {
        const fb::Interval* t = f.type_as_Interval();
        if (t == nullptr) return fail("Interval type table is missing");
        if (t->unit() != fb::IntervalUnit_MONTH_DAY_NANO) {
          return NotImplemented("field '", path, "': interval unit ",
                                fb::EnumNameIntervalUnit(t->unit()), " is not supported");
        }
        type = IntervalMonthDayNano();
        break;
      }
      case fb::Type_List:
      case fb::Type_LargeList:
        if (children.size() != 1)
          return fail("list has ", children.size(), " children, expected 1");
        type = List(children[0]);
        layout->large_offsets = tag == fb::Type_LargeList;
        break;
      case fb::Type_Struct_:
        type = Struct(std::move(children));
        break;
      case fb::Type_Map: {
        const fb::Map* t = f.type_as_Map();
        if (t == nullptr) return fail("Map type table is missing");
        if (children.size() != 1 || children[0].type->id != TypeId::kStruct ||
            children[0].type->children.size() != 2) {
          return fail("map needs exactly one struct child with key and value fields");
        }
        // Arrow requires non-null entries and keys; hold the type to that.
        Field entries = children[0];
        auto entries_type = std::make_shared<DataType>(*entries.type);
        entries_type->children[0].nullable = false;
        entries.type = std::move(entries_type);
        entries.nullable = false;
        layout->children[0].type = entries.type;
        auto map = std::make_shared<DataType>();
        map->id = TypeId::kMap;
        map->keys_sorted = t->keys_sorted();
        map->children.push_back(std::move(entries));
        type = std::move(map);
        break;
      }
      default:
        return NotImplemented("field '", path, "': Arrow type ", FbTypeName(tag),
                              " is not supported");
    }
    layout->type = type;
    if (f.dictionary() != nullptr) {
      HOGLAKE_RETURN_IF_ERROR(DecodeDictionary(*f.dictionary(), path, layout));
      num_buffers_ += 2;  // validity and indices
    } else {
      num_buffers_ += BufferCount(type->id);
    }
    return Field{std::move(name), std::move(type), f.nullable(),
                 DecodeMetadata(f.custom_metadata())};
  }

  int64_t num_nodes() const { return num_nodes_; }
  std::map<int64_t, FieldLayout>& dictionaries() { return dictionaries_; }
  int64_t num_buffers() const { return num_buffers_; }

 private:
  static bool IsReadable(fb::Type tag) {
    return tag != fb::Type_NONE && tag <= fb::Type_LargeList && tag != fb::Type_Null &&
           tag != fb::Type_Union && tag != fb::Type_FixedSizeList && tag != fb::Type_Duration;
  }

  // Records the index type and dictionary id of a dictionary-encoded field
  // whose value type is already in `layout`.
  Status DecodeDictionary(const fb::DictionaryEncoding& encoding, const std::string& path,
                          FieldLayout* layout) {
    if (!layout->type->is_binary_like()) {
      return NotImplemented("field '", path, "': dictionary-encoded ", layout->type->ToString(),
                            " values are not supported (only utf8 and binary)");
    }
    const fb::Int* index = encoding.index_type();
    layout->index_bit_width = index ? index->bit_width() : 32;
    layout->index_signed = index ? index->is_signed() : true;
    const int bits = layout->index_bit_width;
    if (bits != 8 && bits != 16 && bits != 32 && bits != 64) {
      return InvalidData("field '", path, "': dictionary index bit width ", bits,
                         " is not 8, 16, 32 or 64");
    }
    layout->dictionary_id = encoding.id();
    FieldLayout values{layout->type, layout->large_offsets, {}, std::nullopt, 32, true};
    auto [it, inserted] = dictionaries_.emplace(encoding.id(), values);
    if (!inserted && (!it->second.type->Equals(*values.type) ||
                      it->second.large_offsets != values.large_offsets)) {
      return InvalidData("field '", path, "': dictionary id ", encoding.id(),
                         " is used with two different value types");
    }
    return Status::Ok();
  }

  int64_t num_nodes_ = 0;
  int64_t num_buffers_ = 0;
  std::map<int64_t, FieldLayout> dictionaries_;
};

}  // namespace

Result<flatbuffers::Offset<arrowfb::Schema>> BuildSchema(flatbuffers::FlatBufferBuilder& fbb,
                                                         const Schema& schema) {
  std::vector<Offset<fb::Field>> fields;
  fields.reserve(schema.fields.size());
  for (const Field& field : schema.fields) {
    HOGLAKE_ASSIGN_OR_RETURN(auto offset, BuildField(fbb, field, "", 1));
    fields.push_back(offset);
  }
  auto field_vector = fbb.CreateVector(fields);
  auto metadata = BuildMetadata(fbb, schema.metadata);
  return fb::CreateSchema(fbb, fb::Endianness_Little, field_vector, metadata);
}

Result<SchemaLayout> DecodeSchema(const arrowfb::Schema& schema) {
  if (schema.endianness() != fb::Endianness_Little) {
    return NotImplemented("big-endian IPC streams are not supported");
  }
  SchemaLayout out;
  auto decoded = std::make_shared<Schema>();
  SchemaDecoder decoder;
  if (schema.fields() != nullptr) {
    decoded->fields.reserve(schema.fields()->size());
    out.fields.reserve(schema.fields()->size());
    for (const fb::Field* field : *schema.fields()) {
      out.fields.emplace_back();
      HOGLAKE_ASSIGN_OR_RETURN(Field f, decoder.DecodeField(*field, "", 1, &out.fields.back()));
      decoded->fields.push_back(std::move(f));
    }
  }
  decoded->metadata = DecodeMetadata(schema.custom_metadata());
  out.schema = std::move(decoded);
  out.num_nodes = decoder.num_nodes();
  out.num_buffers = decoder.num_buffers();
  out.dictionaries = std::move(decoder.dictionaries());
  return out;
}

}  // namespace hoglake::columnar::ipc_internal
