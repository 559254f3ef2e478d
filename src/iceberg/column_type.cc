#include "iceberg/column_type.h"

namespace hoglake::iceberg {
namespace {

struct MemberInfo {
  ColumnType type;
  std::string_view name;
  IcebergType iceberg;
};

// One row per member, in contract order (the enum's order).
constexpr MemberInfo kMembers[kColumnTypeCount] = {
    {ColumnType::kBoolean, "boolean", IcebergType::kBoolean},
    {ColumnType::kInt8, "int8", IcebergType::kInt},
    {ColumnType::kInt16, "int16", IcebergType::kInt},
    {ColumnType::kInt, "int", IcebergType::kInt},
    {ColumnType::kLong, "long", IcebergType::kLong},
    {ColumnType::kUInt8, "uint8", IcebergType::kInt},
    {ColumnType::kUInt16, "uint16", IcebergType::kInt},
    {ColumnType::kUInt32, "uint32", IcebergType::kLong},
    {ColumnType::kUInt64, "uint64", IcebergType::kDecimal},
    {ColumnType::kFloat, "float", IcebergType::kFloat},
    {ColumnType::kDouble, "double", IcebergType::kDouble},
    {ColumnType::kDecimal, "decimal", IcebergType::kDecimal},
    {ColumnType::kDate, "date", IcebergType::kDate},
    {ColumnType::kTime, "time", IcebergType::kTime},
    {ColumnType::kTimestampS, "timestamp_s", IcebergType::kTimestamp},
    {ColumnType::kTimestampMs, "timestamp_ms", IcebergType::kTimestamp},
    {ColumnType::kTimestamp, "timestamp", IcebergType::kTimestamp},
    {ColumnType::kTimestampNs, "timestamp_ns", IcebergType::kTimestampNs},
    {ColumnType::kTimestamptz, "timestamptz", IcebergType::kTimestamptz},
    {ColumnType::kString, "string", IcebergType::kString},
    {ColumnType::kJson, "json", IcebergType::kString},
    {ColumnType::kUuid, "uuid", IcebergType::kUuid},
    {ColumnType::kBinary, "binary", IcebergType::kBinary},
    {ColumnType::kVariant, "variant", IcebergType::kVariant},
    {ColumnType::kList, "list", IcebergType::kList},
    {ColumnType::kStruct, "struct", IcebergType::kStruct},
    {ColumnType::kMap, "map", IcebergType::kMap},
};

constexpr std::string_view kWideIntReason =
    "its values need 39 decimal digits, more than Iceberg's widest decimal(38) holds";
constexpr std::string_view kGeometryReason =
    "geometry types have no Iceberg mapping in the hoglake vocabulary";

constexpr RefusedTypeName kRefused[] = {
    {"int128", kWideIntReason},
    {"uint128", kWideIntReason},
    {"timetz", "Iceberg has no time of day with a time zone (no Iceberg mapping)"},
    {"interval", "Iceberg has no interval type (no Iceberg mapping)"},
    {"point", kGeometryReason},
    {"linestring", kGeometryReason},
    {"polygon", kGeometryReason},
    {"multipoint", kGeometryReason},
    {"multilinestring", kGeometryReason},
    {"multipolygon", kGeometryReason},
    {"linestring_z", kGeometryReason},
    {"geometrycollection", kGeometryReason},
};

bool EqualsIgnoreAsciiCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    char x = a[i];
    if (x >= 'A' && x <= 'Z') x = static_cast<char>(x - 'A' + 'a');
    if (x != b[i]) return false;  // b is a lowercase table spelling
  }
  return true;
}

std::string ForColumn(std::string_view column) {
  return column.empty() ? std::string() : " for column '" + std::string(column) + "'";
}

}  // namespace

const std::array<ColumnType, kColumnTypeCount>& AllColumnTypes() {
  static const std::array<ColumnType, kColumnTypeCount> kAll = [] {
    std::array<ColumnType, kColumnTypeCount> all{};
    for (int i = 0; i < kColumnTypeCount; ++i) all[i] = kMembers[i].type;
    return all;
  }();
  return kAll;
}

std::string_view ColumnTypeName(ColumnType type) { return kMembers[static_cast<int>(type)].name; }

Result<ColumnType> ParseColumnType(std::string_view name, std::string_view column) {
  for (const MemberInfo& member : kMembers) {
    if (EqualsIgnoreAsciiCase(name, member.name)) return member.type;
  }
  for (const RefusedTypeName& refused : kRefused) {
    if (EqualsIgnoreAsciiCase(name, refused.name)) {
      return Validation("column type '", name, "' is refused", ForColumn(column), ": ",
                        refused.reason);
    }
  }
  return Validation("unknown column type '", name, "'", ForColumn(column));
}

std::span<const RefusedTypeName> RefusedColumnTypeNames() { return kRefused; }

bool IsContainer(ColumnType type) {
  return type == ColumnType::kList || type == ColumnType::kStruct || type == ColumnType::kMap;
}

bool HasBounds(ColumnType type) { return !IsContainer(type) && type != ColumnType::kVariant; }

bool IsIntegerType(ColumnType type) {
  switch (type) {
    case ColumnType::kInt8:
    case ColumnType::kInt16:
    case ColumnType::kInt:
    case ColumnType::kLong:
    case ColumnType::kUInt8:
    case ColumnType::kUInt16:
    case ColumnType::kUInt32:
    case ColumnType::kUInt64:
      return true;
    default:
      return false;
  }
}

bool IsTimestampType(ColumnType type) {
  switch (type) {
    case ColumnType::kTimestampS:
    case ColumnType::kTimestampMs:
    case ColumnType::kTimestamp:
    case ColumnType::kTimestampNs:
    case ColumnType::kTimestamptz:
      return true;
    default:
      return false;
  }
}

std::string TypeSpec::ToString() const {
  std::string out(ColumnTypeName(type));
  if (type == ColumnType::kDecimal) {
    out += "(" + std::to_string(precision) + "," + std::to_string(scale) + ")";
  }
  return out;
}

IcebergType IcebergTypeOf(ColumnType type) { return kMembers[static_cast<int>(type)].iceberg; }

std::string IcebergTypeString(const TypeSpec& type) {
  switch (IcebergTypeOf(type.type)) {
    case IcebergType::kBoolean:
      return "boolean";
    case IcebergType::kInt:
      return "int";
    case IcebergType::kLong:
      return "long";
    case IcebergType::kFloat:
      return "float";
    case IcebergType::kDouble:
      return "double";
    case IcebergType::kDecimal:
      if (type.type == ColumnType::kUInt64) return "decimal(20,0)";
      return "decimal(" + std::to_string(type.precision) + "," + std::to_string(type.scale) + ")";
    case IcebergType::kDate:
      return "date";
    case IcebergType::kTime:
      return "time";
    case IcebergType::kTimestamp:
      return "timestamp";
    case IcebergType::kTimestampNs:
      return "timestamp_ns";
    case IcebergType::kTimestamptz:
      return "timestamptz";
    case IcebergType::kString:
      return "string";
    case IcebergType::kUuid:
      return "uuid";
    case IcebergType::kBinary:
      return "binary";
    case IcebergType::kVariant:
      return "variant";
    case IcebergType::kList:
      return "list";
    case IcebergType::kStruct:
      return "struct";
    case IcebergType::kMap:
      return "map";
  }
  return "?";
}

bool CanPromote(ColumnType from, ColumnType to) {
  using T = ColumnType;
  switch (from) {
    case T::kInt8:
      return to == T::kInt16 || to == T::kInt || to == T::kLong;
    case T::kInt16:
      return to == T::kInt || to == T::kLong;
    case T::kInt:
      return to == T::kLong;
    case T::kUInt8:
      return to == T::kUInt16 || to == T::kUInt32;
    case T::kUInt16:
      return to == T::kUInt32;
    case T::kFloat:
      return to == T::kDouble;
    default:
      return false;
  }
}

}  // namespace hoglake::iceberg
