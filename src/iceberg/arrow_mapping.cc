#include "iceberg/arrow_mapping.h"

namespace hoglake::iceberg {
namespace {

using columnar::DataType;
using columnar::Field;
using columnar::TimeUnit;
using columnar::TypeId;

constexpr std::string_view kSupportedTypes =
    "supported types are bool, int8, int16, int32, int64, uint8, uint16, uint32, uint64, float, "
    "double, decimal128(p, s), date32, time64[us], timestamp[s|ms|us|ns] (a time zone only with "
    "us), utf8 (json with the arrow.json extension), binary, fixed_size_binary[16] (uuid), list, "
    "non-empty struct and map";

Error Unsupported(const Field& field, std::string_view why) {
  return InvalidArgument("column '", field.name, "' has Arrow type ", field.type->ToString(), " (",
                         why, "), which hoglake cannot store; ", kSupportedTypes);
}

Result<TypeSpec> FromArrow(const Field& field, int depth) {
  if (depth > kMaxColumnNestingDepth) {
    return InvalidArgument("column '", field.name, "': nesting depth ", depth,
                           " exceeds the maximum ", kMaxColumnNestingDepth);
  }
  const DataType& type = *field.type;
  const std::string_view extension = field.extension_name();
  if (extension == columnar::kJsonExtension) {
    if (type.id != TypeId::kUtf8) return Unsupported(field, "arrow.json on non-utf8 storage");
    if (field.Metadata(kVariantMetadataKey)) return TypeSpec(ColumnType::kVariant);
    return TypeSpec(ColumnType::kJson);
  }
  if (extension == columnar::kUuidExtension) {
    if (type.id != TypeId::kFixedSizeBinary || type.byte_width != 16) {
      return Unsupported(field, "arrow.uuid on storage other than fixed_size_binary[16]");
    }
    return TypeSpec(ColumnType::kUuid);
  }
  switch (type.id) {
    case TypeId::kBool:
      return TypeSpec(ColumnType::kBoolean);
    case TypeId::kInt8:
      return TypeSpec(ColumnType::kInt8);
    case TypeId::kInt16:
      return TypeSpec(ColumnType::kInt16);
    case TypeId::kInt32:
      return TypeSpec(ColumnType::kInt);
    case TypeId::kInt64:
      return TypeSpec(ColumnType::kLong);
    case TypeId::kUInt8:
      return TypeSpec(ColumnType::kUInt8);
    case TypeId::kUInt16:
      return TypeSpec(ColumnType::kUInt16);
    case TypeId::kUInt32:
      return TypeSpec(ColumnType::kUInt32);
    case TypeId::kUInt64:
      return TypeSpec(ColumnType::kUInt64);
    case TypeId::kFloat32:
      return TypeSpec(ColumnType::kFloat);
    case TypeId::kFloat64:
      return TypeSpec(ColumnType::kDouble);
    case TypeId::kDecimal128:
      return TypeSpec::Decimal(type.precision, type.scale);
    case TypeId::kDate32:
      return TypeSpec(ColumnType::kDate);
    case TypeId::kTime64:
      if (type.unit != TimeUnit::kMicro) return Unsupported(field, "time is stored in micros");
      return TypeSpec(ColumnType::kTime);
    case TypeId::kTimestamp:
      if (!type.timezone.empty()) {
        if (type.unit != TimeUnit::kMicro) {
          return Unsupported(field, "a timestamp with a time zone must be in micros");
        }
        return TypeSpec(ColumnType::kTimestamptz);
      }
      switch (type.unit) {
        case TimeUnit::kSecond:
          return TypeSpec(ColumnType::kTimestampS);
        case TimeUnit::kMilli:
          return TypeSpec(ColumnType::kTimestampMs);
        case TimeUnit::kMicro:
          return TypeSpec(ColumnType::kTimestamp);
        case TimeUnit::kNano:
          return TypeSpec(ColumnType::kTimestampNs);
      }
      break;
    case TypeId::kUtf8:
      return TypeSpec(ColumnType::kString);
    case TypeId::kBinary:
      return TypeSpec(ColumnType::kBinary);
    case TypeId::kFixedSizeBinary:
      if (type.byte_width != 16) return Unsupported(field, "only 16-byte fixed binary (uuid)");
      return TypeSpec(ColumnType::kUuid);
    case TypeId::kIntervalMonthDayNano:
      return Unsupported(field, "intervals are not a catalog column type");
    case TypeId::kMap: {
      HOGLAKE_RETURN_IF_ERROR(FromArrow(type.map_key(), depth + 1));
      HOGLAKE_RETURN_IF_ERROR(FromArrow(type.map_value(), depth + 1));
      return TypeSpec(ColumnType::kMap);
    }
    case TypeId::kList:
      HOGLAKE_RETURN_IF_ERROR(FromArrow(type.list_element(), depth + 1));
      return TypeSpec(ColumnType::kList);
    case TypeId::kStruct:
      if (type.children.empty()) return Unsupported(field, "a struct needs at least one field");
      for (const Field& child : type.children) {
        HOGLAKE_RETURN_IF_ERROR(FromArrow(child, depth + 1));
      }
      return TypeSpec(ColumnType::kStruct);
  }
  return Unsupported(field, "no catalog type");
}

}  // namespace

Result<columnar::DataTypePtr> WriterArrowType(const TypeSpec& type) {
  using T = ColumnType;
  switch (type.type) {
    case T::kBoolean:
      return columnar::Bool();
    case T::kInt8:
      return columnar::Int8();
    case T::kInt16:
      return columnar::Int16();
    case T::kInt:
      return columnar::Int32();
    case T::kLong:
      return columnar::Int64();
    case T::kUInt8:
      return columnar::UInt8();
    case T::kUInt16:
      return columnar::UInt16();
    case T::kUInt32:
      return columnar::Int64();  // the writer contract, see the header
    case T::kUInt64:
      return columnar::UInt64();
    case T::kFloat:
      return columnar::Float32();
    case T::kDouble:
      return columnar::Float64();
    case T::kDecimal: {
      auto decimal = columnar::MakeDecimal128(type.precision, type.scale);
      if (!decimal.ok()) {
        return InvalidArgument("decimal column needs type_params precision and scale: ",
                               decimal.error().message);
      }
      return *decimal;
    }
    case T::kDate:
      return columnar::Date32();
    case T::kTime:
      return columnar::Time64(TimeUnit::kMicro);
    case T::kTimestampS:
      return columnar::Timestamp(TimeUnit::kSecond);
    case T::kTimestampMs:
      return columnar::Timestamp(TimeUnit::kMilli);
    case T::kTimestamp:
      return columnar::Timestamp(TimeUnit::kMicro);
    case T::kTimestampNs:
      return columnar::Timestamp(TimeUnit::kNano);
    case T::kTimestamptz:
      return columnar::Timestamp(TimeUnit::kMicro, "UTC");
    case T::kString:
    case T::kJson:
      return columnar::Utf8();
    case T::kUuid:
      return columnar::FixedSizeBinary(16);
    case T::kBinary:
      return columnar::Binary();
    case T::kVariant:
      return InvalidArgument("a variant column has no Arrow writer type (it is written as a ",
                             "native VARIANT group)");
    case T::kList:
    case T::kStruct:
    case T::kMap:
      return InvalidArgument("'", ColumnTypeName(type.type),
                             "' is a nested container: its Arrow type is built from its children");
  }
  return Internal("unhandled column type");
}

Result<columnar::Field> WriterArrowField(std::string name, const TypeSpec& type, bool nullable) {
  HOGLAKE_ASSIGN_OR_RETURN(columnar::DataTypePtr arrow, WriterArrowType(type));
  Field field{std::move(name), std::move(arrow), nullable, {}};
  if (type.type == ColumnType::kJson) {
    field.metadata.emplace_back(columnar::kExtensionNameKey, columnar::kJsonExtension);
  } else if (type.type == ColumnType::kUuid) {
    field.metadata.emplace_back(columnar::kExtensionNameKey, columnar::kUuidExtension);
  }
  return field;
}

Result<TypeSpec> ColumnTypeFromArrow(const Field& field) { return FromArrow(field, 1); }

}  // namespace hoglake::iceberg
