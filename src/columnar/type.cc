#include "columnar/type.h"

#include <charconv>

namespace hoglake::columnar {

std::string_view TimeUnitName(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::kSecond:
      return "s";
    case TimeUnit::kMilli:
      return "ms";
    case TimeUnit::kMicro:
      return "us";
    case TimeUnit::kNano:
      return "ns";
  }
  return "?";
}

int64_t TicksPerSecond(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::kSecond:
      return 1;
    case TimeUnit::kMilli:
      return 1000;
    case TimeUnit::kMicro:
      return 1000000;
    case TimeUnit::kNano:
      return 1000000000;
  }
  return 1;
}

// ---- Field -----------------------------------------------------------------

std::optional<std::string_view> Field::Metadata(std::string_view key) const {
  for (const auto& [k, v] : metadata) {
    if (k == key) return std::string_view(v);
  }
  return std::nullopt;
}

std::optional<int32_t> Field::field_id() const {
  auto text = Metadata(kFieldIdKey);
  if (!text) return std::nullopt;
  int32_t id = 0;
  auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), id);
  if (ec != std::errc() || end != text->data() + text->size()) return std::nullopt;
  return id;
}

Field Field::WithFieldId(int32_t id) const {
  Field copy = *this;
  for (auto& [k, v] : copy.metadata) {
    if (k == kFieldIdKey) {
      v = std::to_string(id);
      return copy;
    }
  }
  copy.metadata.emplace_back(std::string(kFieldIdKey), std::to_string(id));
  return copy;
}

std::string_view Field::extension_name() const {
  return Metadata(kExtensionNameKey).value_or(std::string_view());
}

bool Field::Equals(const Field& other) const {
  return name == other.name && nullable == other.nullable && metadata == other.metadata &&
         type->Equals(*other.type);
}

std::string Field::ToString() const {
  std::string out = name + ": " + type->ToString();
  if (!nullable) out += " not null";
  if (!metadata.empty()) {
    out += " {";
    for (size_t i = 0; i < metadata.size(); ++i) {
      if (i) out += ", ";
      out += metadata[i].first + "=" + metadata[i].second;
    }
    out += "}";
  }
  return out;
}

// ---- DataType --------------------------------------------------------------

int DataType::bit_width() const {
  switch (id) {
    case TypeId::kBool:
      return 1;
    case TypeId::kInt8:
    case TypeId::kUInt8:
      return 8;
    case TypeId::kInt16:
    case TypeId::kUInt16:
      return 16;
    case TypeId::kInt32:
    case TypeId::kUInt32:
    case TypeId::kFloat32:
    case TypeId::kDate32:
      return 32;
    case TypeId::kInt64:
    case TypeId::kUInt64:
    case TypeId::kFloat64:
    case TypeId::kTime64:
    case TypeId::kTimestamp:
      return 64;
    case TypeId::kDecimal128:
    case TypeId::kIntervalMonthDayNano:
      return 128;
    case TypeId::kFixedSizeBinary:
      return byte_width * 8;
    default:
      return 0;
  }
}

int BufferCount(TypeId id) {
  switch (id) {
    case TypeId::kUtf8:
    case TypeId::kBinary:
      return 3;
    case TypeId::kStruct:
      return 1;
    default:
      return 2;
  }
}

bool DataType::Equals(const DataType& other) const {
  if (id != other.id) return false;
  switch (id) {
    case TypeId::kDecimal128:
      return precision == other.precision && scale == other.scale;
    case TypeId::kFixedSizeBinary:
      return byte_width == other.byte_width;
    case TypeId::kTime64:
      return unit == other.unit;
    case TypeId::kTimestamp:
      return unit == other.unit && timezone == other.timezone;
    case TypeId::kList:
    case TypeId::kStruct:
    case TypeId::kMap:
      if (children.size() != other.children.size()) return false;
      if (id == TypeId::kMap && keys_sorted != other.keys_sorted) return false;
      for (size_t i = 0; i < children.size(); ++i) {
        if (!children[i].Equals(other.children[i])) return false;
      }
      return true;
    default:
      return true;
  }
}

std::string DataType::ToString() const {
  switch (id) {
    case TypeId::kBool:
      return "bool";
    case TypeId::kInt8:
      return "int8";
    case TypeId::kInt16:
      return "int16";
    case TypeId::kInt32:
      return "int32";
    case TypeId::kInt64:
      return "int64";
    case TypeId::kUInt8:
      return "uint8";
    case TypeId::kUInt16:
      return "uint16";
    case TypeId::kUInt32:
      return "uint32";
    case TypeId::kUInt64:
      return "uint64";
    case TypeId::kFloat32:
      return "float";
    case TypeId::kFloat64:
      return "double";
    case TypeId::kDecimal128:
      return "decimal128(" + std::to_string(precision) + ", " + std::to_string(scale) + ")";
    case TypeId::kDate32:
      return "date32[day]";
    case TypeId::kTime64:
      return "time64[" + std::string(TimeUnitName(unit)) + "]";
    case TypeId::kTimestamp: {
      std::string out = "timestamp[" + std::string(TimeUnitName(unit));
      if (!timezone.empty()) out += ", tz=" + timezone;
      return out + "]";
    }
    case TypeId::kUtf8:
      return "utf8";
    case TypeId::kBinary:
      return "binary";
    case TypeId::kFixedSizeBinary:
      return "fixed_size_binary[" + std::to_string(byte_width) + "]";
    case TypeId::kIntervalMonthDayNano:
      return "month_day_nano_interval";
    case TypeId::kList:
      return "list<" + children[0].ToString() + ">";
    case TypeId::kStruct: {
      std::string out = "struct<";
      for (size_t i = 0; i < children.size(); ++i) {
        if (i) out += ", ";
        out += children[i].ToString();
      }
      return out + ">";
    }
    case TypeId::kMap:
      return "map<" + map_key().type->ToString() + ", " + map_value().ToString() + ">";
  }
  return "?";
}

// ---- Schema ----------------------------------------------------------------

int Schema::FieldIndex(std::string_view name) const {
  for (size_t i = 0; i < fields.size(); ++i) {
    if (fields[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

bool Schema::Equals(const Schema& other) const {
  if (fields.size() != other.fields.size() || metadata != other.metadata) return false;
  for (size_t i = 0; i < fields.size(); ++i) {
    if (!fields[i].Equals(other.fields[i])) return false;
  }
  return true;
}

std::string Schema::ToString() const {
  std::string out;
  for (const auto& field : fields) out += field.ToString() + "\n";
  return out;
}

// ---- factories -------------------------------------------------------------

namespace {
DataTypePtr Simple(TypeId id) {
  auto type = std::make_shared<DataType>();
  type->id = id;
  return type;
}
}  // namespace

#define HOGLAKE_SIMPLE_TYPE(Name, Id)            \
  DataTypePtr Name() {                           \
    static const DataTypePtr kType = Simple(Id); \
    return kType;                                \
  }
HOGLAKE_SIMPLE_TYPE(Bool, TypeId::kBool)
HOGLAKE_SIMPLE_TYPE(Int8, TypeId::kInt8)
HOGLAKE_SIMPLE_TYPE(Int16, TypeId::kInt16)
HOGLAKE_SIMPLE_TYPE(Int32, TypeId::kInt32)
HOGLAKE_SIMPLE_TYPE(Int64, TypeId::kInt64)
HOGLAKE_SIMPLE_TYPE(UInt8, TypeId::kUInt8)
HOGLAKE_SIMPLE_TYPE(UInt16, TypeId::kUInt16)
HOGLAKE_SIMPLE_TYPE(UInt32, TypeId::kUInt32)
HOGLAKE_SIMPLE_TYPE(UInt64, TypeId::kUInt64)
HOGLAKE_SIMPLE_TYPE(Float32, TypeId::kFloat32)
HOGLAKE_SIMPLE_TYPE(Float64, TypeId::kFloat64)
HOGLAKE_SIMPLE_TYPE(Date32, TypeId::kDate32)
HOGLAKE_SIMPLE_TYPE(Utf8, TypeId::kUtf8)
HOGLAKE_SIMPLE_TYPE(Binary, TypeId::kBinary)
#undef HOGLAKE_SIMPLE_TYPE

DataTypePtr Time64(TimeUnit unit) {
  auto type = std::make_shared<DataType>();
  type->id = TypeId::kTime64;
  type->unit = unit;
  return type;
}

DataTypePtr Timestamp(TimeUnit unit, std::string timezone) {
  auto type = std::make_shared<DataType>();
  type->id = TypeId::kTimestamp;
  type->unit = unit;
  type->timezone = std::move(timezone);
  return type;
}

DataTypePtr FixedSizeBinary(int32_t byte_width) {
  auto type = std::make_shared<DataType>();
  type->id = TypeId::kFixedSizeBinary;
  type->byte_width = byte_width;
  return type;
}

DataTypePtr IntervalMonthDayNano() {
  static const DataTypePtr kType = [] {
    auto type = std::make_shared<DataType>();
    type->id = TypeId::kIntervalMonthDayNano;
    type->byte_width = 16;
    return type;
  }();
  return kType;
}

DataTypePtr Decimal128(int32_t precision, int32_t scale) {
  auto type = std::make_shared<DataType>();
  type->id = TypeId::kDecimal128;
  type->precision = precision;
  type->scale = scale;
  type->byte_width = 16;
  return type;
}

Result<DataTypePtr> MakeDecimal128(int32_t precision, int32_t scale) {
  if (precision < 1 || precision > 38) {
    return InvalidArgument("decimal128 precision ", precision, " is outside 1..38");
  }
  if (scale < 0 || scale > precision) {
    return InvalidArgument("decimal128 scale ", scale, " is outside 0..precision (", precision,
                           ")");
  }
  return Decimal128(precision, scale);
}

DataTypePtr List(Field element) {
  auto type = std::make_shared<DataType>();
  type->id = TypeId::kList;
  type->children.push_back(std::move(element));
  return type;
}

DataTypePtr List(DataTypePtr element_type, bool element_nullable) {
  return List(Field{"element", std::move(element_type), element_nullable, {}});
}

DataTypePtr Struct(std::vector<Field> fields) {
  auto type = std::make_shared<DataType>();
  type->id = TypeId::kStruct;
  type->children = std::move(fields);
  return type;
}

DataTypePtr Map(DataTypePtr key_type, Field value) {
  auto entries = Struct({Field{"key", std::move(key_type), false, {}}, std::move(value)});
  auto type = std::make_shared<DataType>();
  type->id = TypeId::kMap;
  type->children.push_back(Field{"entries", std::move(entries), false, {}});
  return type;
}

DataTypePtr Map(DataTypePtr key_type, DataTypePtr value_type, bool value_nullable) {
  return Map(std::move(key_type), Field{"value", std::move(value_type), value_nullable, {}});
}

Field JsonField(std::string name, bool nullable) {
  return Field{std::move(name),
               Utf8(),
               nullable,
               {{std::string(kExtensionNameKey), std::string(kJsonExtension)}}};
}

Field UuidField(std::string name, bool nullable) {
  return Field{std::move(name),
               FixedSizeBinary(16),
               nullable,
               {{std::string(kExtensionNameKey), std::string(kUuidExtension)}}};
}

}  // namespace hoglake::columnar
