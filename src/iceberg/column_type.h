// The closed column-type vocabulary of the hoglake wire contract (contract
// §3.1): THE one definition of its 27 members, their wire spellings, the
// names refused forever, each member's Iceberg mapping and the promotion
// matrix. Everything else that spells a type (the SQL CHECK on
// hog_column.col_type, the OpenAPI enum, docs) is checked against
// AllColumnTypes() by a parity test.
//
// Order is load-bearing: ColumnType's declaration order is the contract's
// order, which the database CHECK reproduces.
//
// Parsing is ASCII case-insensitive ("UUID" parses as uuid) and exact
// otherwise (no trimming). Unknown names and refused names are `kValidation`
// errors (HTTP 422) whose messages follow the contract.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "common/status.h"

namespace hoglake::iceberg {

enum class ColumnType : uint8_t {
  kBoolean,
  kInt8,
  kInt16,
  kInt,
  kLong,
  kUInt8,
  kUInt16,
  kUInt32,
  kUInt64,
  kFloat,
  kDouble,
  kDecimal,
  kDate,
  kTime,
  kTimestampS,
  kTimestampMs,
  kTimestamp,
  kTimestampNs,
  kTimestamptz,
  kString,
  kJson,
  kUuid,
  kBinary,
  kVariant,
  kList,
  kStruct,
  kMap,
};

inline constexpr int kColumnTypeCount = 27;

// Every member in contract order.
const std::array<ColumnType, kColumnTypeCount>& AllColumnTypes();

// The wire spelling: "boolean", "int8", …, "timestamp_ns", "uuid", "map".
std::string_view ColumnTypeName(ColumnType type);

// Parses a wire spelling, ASCII case-insensitively. Errors (kValidation):
//   unknown          "unknown column type '<t>'"
//   refused forever  "column type '<t>' is refused: <its own reason>"
// When `column` is not empty, " for column '<column>'" is appended.
Result<ColumnType> ParseColumnType(std::string_view name, std::string_view column = {});

// A name that is never accepted as a column type, with the reason given.
struct RefusedTypeName {
  std::string_view name;
  std::string_view reason;
};
// int128, uint128, timetz, interval and the geometry family.
std::span<const RefusedTypeName> RefusedColumnTypeNames();

// list, struct, map.
bool IsContainer(ColumnType type);
// Types whose columns carry footer statistics bounds: every scalar except
// variant (containers and variant never have bounds).
bool HasBounds(ColumnType type);
// int8, int16, int, long, uint8, uint16, uint32, uint64.
bool IsIntegerType(ColumnType type);
// timestamp_s, timestamp_ms, timestamp, timestamp_ns, timestamptz.
bool IsTimestampType(ColumnType type);

// A column type together with its type_params: decimal precision and scale.
// Implicitly constructible from a ColumnType so that callers can write
// `EncodeBound(ColumnType::kLong, …)`. Other members ignore the numbers.
struct TypeSpec {
  ColumnType type = ColumnType::kBoolean;
  int32_t precision = 0;  // decimal: 1..38
  int32_t scale = 0;      // decimal: 0..precision

  TypeSpec() = default;
  TypeSpec(ColumnType t) : type(t) {}  // NOLINT: implicit by design
  static TypeSpec Decimal(int32_t precision, int32_t scale) {
    TypeSpec spec(ColumnType::kDecimal);
    spec.precision = precision;
    spec.scale = scale;
    return spec;
  }
  bool operator==(const TypeSpec& other) const = default;
  // "long", "decimal(10,2)".
  std::string ToString() const;
};

// The Iceberg type each member maps to (contract §3.1). uint64 maps to
// decimal(20,0); bounds are always encoded as the MAPPED type.
enum class IcebergType : uint8_t {
  kBoolean,
  kInt,
  kLong,
  kFloat,
  kDouble,
  kDecimal,
  kDate,
  kTime,
  kTimestamp,
  kTimestampNs,
  kTimestamptz,
  kString,
  kUuid,
  kBinary,
  kVariant,
  kList,
  kStruct,
  kMap,
};

IcebergType IcebergTypeOf(ColumnType type);
// The Iceberg spelling of the mapped type: "int", "long", "decimal(20,0)",
// "decimal(10,2)", "timestamp", "timestamp_ns", "timestamptz", "string", …
std::string IcebergTypeString(const TypeSpec& type);

// promote_column's matrix (contract §3.1): int8→int16/int/long, int16→int/
// long, int→long, uint8→uint16/uint32, uint16→uint32, float→double. Nothing
// else, and never a type to itself.
bool CanPromote(ColumnType from, ColumnType to);

}  // namespace hoglake::iceberg
