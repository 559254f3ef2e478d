#include "sql/types/sql_type.h"

#include <string_view>

#include "sql/sql_error.h"

namespace hoglake::sql {

SqlType SqlType::Array(SqlType element) {
  SqlType type = Of(SqlTypeId::kArray);
  type.members.emplace_back("", std::move(element));
  return type;
}

std::string PgTypeName(const SqlType& type) {
  switch (type.id) {
    case SqlTypeId::kUnknown:
      return "unknown";
    case SqlTypeId::kBoolean:
      return "boolean";
    case SqlTypeId::kSmallint:
      return "smallint";
    case SqlTypeId::kInteger:
      return "integer";
    case SqlTypeId::kBigint:
      return "bigint";
    case SqlTypeId::kReal:
      return "real";
    case SqlTypeId::kDouble:
      return "double precision";
    case SqlTypeId::kNumeric:
      if (type.precision < 0) return "numeric";
      return StrCat("numeric(", type.precision, ",", type.scale, ")");
    case SqlTypeId::kDate:
      return "date";
    case SqlTypeId::kTime:
      return "time without time zone";
    case SqlTypeId::kTimestamp:
      return "timestamp without time zone";
    case SqlTypeId::kTimestampTz:
      return "timestamp with time zone";
    case SqlTypeId::kInterval:
      return "interval";
    case SqlTypeId::kText:
      return "text";
    case SqlTypeId::kBytea:
      return "bytea";
    case SqlTypeId::kUuid:
      return "uuid";
    case SqlTypeId::kJson:
      return "json";
    case SqlTypeId::kArray:
      return PgTypeName(type.element()) + "[]";
    case SqlTypeId::kComposite: {
      std::string out = "record(";
      for (size_t i = 0; i < type.members.size(); ++i) {
        if (i > 0) out += ", ";
        out += type.members[i].first + " " + PgTypeName(type.members[i].second);
      }
      return out + ")";
    }
    case SqlTypeId::kMap:
      return "map(" + PgTypeName(type.members[0].second) + ", " +
             PgTypeName(type.members[1].second) + ")";
  }
  return "unknown";
}

columnar::DataTypePtr CarrierType(const SqlType& type) {
  using namespace columnar;
  switch (type.id) {
    case SqlTypeId::kUnknown:
    case SqlTypeId::kText:
    case SqlTypeId::kJson:
      return Utf8();
    case SqlTypeId::kBoolean:
      return Bool();
    case SqlTypeId::kSmallint:
      return Int16();
    case SqlTypeId::kInteger:
      return Int32();
    case SqlTypeId::kBigint:
      return Int64();
    case SqlTypeId::kReal:
      return Float32();
    case SqlTypeId::kDouble:
      return Float64();
    case SqlTypeId::kNumeric:
      return Decimal128(type.precision < 0 ? kMaxNumericPrecision : type.precision, type.scale);
    case SqlTypeId::kDate:
      return Date32();
    case SqlTypeId::kTime:
      return Time64(TimeUnit::kMicro);
    case SqlTypeId::kTimestamp:
      return Timestamp(TimeUnit::kMicro);
    case SqlTypeId::kTimestampTz:
      return Timestamp(TimeUnit::kMicro, "UTC");
    case SqlTypeId::kInterval:
    case SqlTypeId::kUuid:
      return FixedSizeBinary(16);
    case SqlTypeId::kBytea:
      return Binary();
    case SqlTypeId::kArray:
      return List(CarrierType(type.element()));
    case SqlTypeId::kComposite: {
      std::vector<Field> fields;
      for (const auto& [name, member] : type.members) {
        fields.push_back(Field{name, CarrierType(member), true, {}});
      }
      return Struct(std::move(fields));
    }
    case SqlTypeId::kMap:
      return Map(CarrierType(type.members[0].second), CarrierType(type.members[1].second));
  }
  return Utf8();
}

Result<SqlType> SqlTypeOfField(const columnar::Field& field) {
  using columnar::TypeId;
  const columnar::DataType& t = *field.type;
  std::string_view extension = field.extension_name();
  switch (t.id) {
    case TypeId::kBool:
      return SqlType::Of(SqlTypeId::kBoolean);
    case TypeId::kInt8:
    case TypeId::kInt16:
    case TypeId::kUInt8:
      return SqlType::Of(SqlTypeId::kSmallint);
    case TypeId::kInt32:
    case TypeId::kUInt16:
      return SqlType::Of(SqlTypeId::kInteger);
    case TypeId::kInt64:
    case TypeId::kUInt32:
      return SqlType::Of(SqlTypeId::kBigint);
    case TypeId::kUInt64:
      return SqlType::Numeric(20, 0);
    case TypeId::kFloat32:
      return SqlType::Of(SqlTypeId::kReal);
    case TypeId::kFloat64:
      return SqlType::Of(SqlTypeId::kDouble);
    case TypeId::kDecimal128:
      return SqlType::Numeric(t.precision, t.scale);
    case TypeId::kDate32:
      return SqlType::Of(SqlTypeId::kDate);
    case TypeId::kTime64:
      return SqlType::Of(SqlTypeId::kTime);
    case TypeId::kTimestamp:
      return SqlType::Of(t.timezone.empty() ? SqlTypeId::kTimestamp : SqlTypeId::kTimestampTz);
    case TypeId::kUtf8:
      return SqlType::Of(extension == columnar::kJsonExtension ? SqlTypeId::kJson
                                                               : SqlTypeId::kText);
    case TypeId::kBinary:
      return SqlType::Of(SqlTypeId::kBytea);
    case TypeId::kFixedSizeBinary:
      if (t.byte_width == 16) return SqlType::Of(SqlTypeId::kUuid);
      return SqlType::Of(SqlTypeId::kBytea);
    case TypeId::kIntervalMonthDayNano:
      break;  // only in Arrow results; the engine's intervals ride fixed_size_binary(16)
    case TypeId::kList: {
      HOGLAKE_ASSIGN_OR_RETURN(SqlType element, SqlTypeOfField(t.list_element()));
      return SqlType::Array(std::move(element));
    }
    case TypeId::kStruct: {
      SqlType type = SqlType::Of(SqlTypeId::kComposite);
      for (const columnar::Field& child : t.children) {
        HOGLAKE_ASSIGN_OR_RETURN(SqlType member, SqlTypeOfField(child));
        type.members.emplace_back(child.name, std::move(member));
      }
      return type;
    }
    case TypeId::kMap: {
      SqlType type = SqlType::Of(SqlTypeId::kMap);
      HOGLAKE_ASSIGN_OR_RETURN(SqlType key, SqlTypeOfField(t.map_key()));
      HOGLAKE_ASSIGN_OR_RETURN(SqlType value, SqlTypeOfField(t.map_value()));
      type.members.emplace_back("key", std::move(key));
      type.members.emplace_back("value", std::move(value));
      return type;
    }
  }
  return SqlError(SqlErrorKind::kFeatureNotSupported, "column \"", field.name, "\" has type ",
                  t.ToString(), ", which SQL cannot read yet");
}

namespace {

struct TypeAlias {
  std::string_view name;
  SqlTypeId id;
};

constexpr TypeAlias kTypeAliases[] = {
    {"bool", SqlTypeId::kBoolean},
    {"boolean", SqlTypeId::kBoolean},
    {"int2", SqlTypeId::kSmallint},
    {"smallint", SqlTypeId::kSmallint},
    {"int4", SqlTypeId::kInteger},
    {"int", SqlTypeId::kInteger},
    {"integer", SqlTypeId::kInteger},
    {"int8", SqlTypeId::kBigint},
    {"bigint", SqlTypeId::kBigint},
    {"float4", SqlTypeId::kReal},
    {"real", SqlTypeId::kReal},
    {"float8", SqlTypeId::kDouble},
    {"double precision", SqlTypeId::kDouble},
    {"numeric", SqlTypeId::kNumeric},
    {"decimal", SqlTypeId::kNumeric},
    {"date", SqlTypeId::kDate},
    {"time", SqlTypeId::kTime},
    {"timestamp", SqlTypeId::kTimestamp},
    {"timestamptz", SqlTypeId::kTimestampTz},
    {"interval", SqlTypeId::kInterval},
    {"text", SqlTypeId::kText},
    {"varchar", SqlTypeId::kText},
    {"bpchar", SqlTypeId::kText},
    {"character varying", SqlTypeId::kText},
    {"name", SqlTypeId::kText},
    {"string", SqlTypeId::kText},
    {"bytea", SqlTypeId::kBytea},
    {"uuid", SqlTypeId::kUuid},
    {"json", SqlTypeId::kJson},
    {"jsonb", SqlTypeId::kJson},
};

}  // namespace

Result<SqlType> SqlTypeFromName(const std::vector<std::string>& names,
                                const std::vector<int64_t>& modifiers, int array_dimensions) {
  if (names.empty()) return SqlError(SqlErrorKind::kUndefinedObject, "empty type name");
  std::string_view name = names.back();
  if (names.size() == 2 && names[0] != "pg_catalog") {
    return SqlError(SqlErrorKind::kUndefinedObject, "type \"", names[0], ".", name,
                    "\" does not exist");
  }
  if (names.size() > 2) {
    return SqlError(SqlErrorKind::kUndefinedObject, "improper qualified type name");
  }
  // The grammar spells some types with a pg_catalog prefix and internal names
  // (float8 for DOUBLE PRECISION; timestamptz for TIMESTAMP WITH TIME ZONE).
  const TypeAlias* found = nullptr;
  for (const TypeAlias& alias : kTypeAliases) {
    if (alias.name == name) found = &alias;
  }
  if (found == nullptr) {
    return SqlError(SqlErrorKind::kUndefinedObject, "type \"", name, "\" does not exist");
  }
  SqlType type = SqlType::Of(found->id);
  if (type.id == SqlTypeId::kNumeric) {
    if (modifiers.size() > 2) {
      return SqlError(SqlErrorKind::kSyntaxError, "invalid NUMERIC type modifier");
    }
    if (!modifiers.empty()) {
      int64_t precision = modifiers[0];
      int64_t scale = modifiers.size() == 2 ? modifiers[1] : 0;
      if (precision < 1 || precision > kMaxNumericPrecision) {
        return SqlError(SqlErrorKind::kFeatureNotSupported, "NUMERIC precision ", precision,
                        " must be between 1 and ", kMaxNumericPrecision);
      }
      if (scale < 0 || scale > precision) {
        return SqlError(SqlErrorKind::kFeatureNotSupported, "NUMERIC scale ", scale,
                        " must be between 0 and precision ", precision);
      }
      type = SqlType::Numeric(static_cast<int>(precision), static_cast<int>(scale));
    }
  } else if (!modifiers.empty() && (type.id == SqlTypeId::kText || type.id == SqlTypeId::kInterval)) {
    // varchar(n) truncates and interval fields change how text is read;
    // ignoring the modifier would give wrong answers.
    return SqlError(SqlErrorKind::kFeatureNotSupported, "type modifiers on ", name,
                    " are not supported");
  } else if ((type.id == SqlTypeId::kTimestamp || type.id == SqlTypeId::kTimestampTz ||
              type.id == SqlTypeId::kTime) &&
             !modifiers.empty() && modifiers[0] != 6) {
    return SqlError(SqlErrorKind::kFeatureNotSupported, name,
                    " precision other than 6 is not supported");
  }
  for (int i = 0; i < array_dimensions; ++i) type = SqlType::Array(std::move(type));
  return type;
}

}  // namespace hoglake::sql
