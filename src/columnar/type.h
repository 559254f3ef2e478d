// Data types, fields and schemas of hoglake's columnar layer.
//
// The physical types are the Arrow types hoglake's closed column vocabulary
// maps to (see docs/types.md): bool, signed/unsigned ints of 8–64 bits,
// float32/64, decimal128(p ≤ 38, s), date32, time64(us), timestamp(s/ms/us/ns,
// optional time zone), utf8, binary, fixed_size_binary(n), list, struct and
// map, plus interval[month_day_nano] for query results handed to Arrow users
// (never a catalog column). Layouts follow the Arrow columnar format, so data moves to and from
// other Arrow implementations (C Data Interface, IPC) without conversion.
//
// Catalog-level meaning rides on field metadata, as other Arrow tools do it:
//   "PARQUET:field_id"      the catalog field id (decimal integer)
//   "ARROW:extension:name"  "arrow.json" on utf8 for json columns,
//                           "arrow.uuid" on fixed_size_binary(16) for uuid
//
// Types are immutable and shared (`DataTypePtr`); build them with the factory
// functions at the bottom of this file.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/status.h"

namespace hoglake::columnar {

enum class TypeId : uint8_t {
  kBool,
  kInt8,
  kInt16,
  kInt32,
  kInt64,
  kUInt8,
  kUInt16,
  kUInt32,
  kUInt64,
  kFloat32,
  kFloat64,
  kDecimal128,
  kDate32,     // days since 1970-01-01, int32
  kTime64,     // time of day, int64 in `unit` (microseconds in the vocabulary)
  kTimestamp,  // int64 in `unit` since the epoch; `timezone` empty = naive
  kUtf8,
  kBinary,
  kFixedSizeBinary,
  // interval[month_day_nano]: 16-byte values of months int32, days int32,
  // nanoseconds int64 (little-endian, in that order); byte_width 16.
  kIntervalMonthDayNano,
  kList,
  kStruct,
  kMap,
};

enum class TimeUnit : uint8_t { kSecond, kMilli, kMicro, kNano };

// "s", "ms", "us", "ns".
std::string_view TimeUnitName(TimeUnit unit);
// Ticks of `unit` per second: 1, 1e3, 1e6, 1e9.
int64_t TicksPerSecond(TimeUnit unit);

inline constexpr std::string_view kFieldIdKey = "PARQUET:field_id";
inline constexpr std::string_view kExtensionNameKey = "ARROW:extension:name";
inline constexpr std::string_view kExtensionMetadataKey = "ARROW:extension:metadata";
inline constexpr std::string_view kJsonExtension = "arrow.json";
inline constexpr std::string_view kUuidExtension = "arrow.uuid";

using KeyValueMetadata = std::vector<std::pair<std::string, std::string>>;

struct DataType;
using DataTypePtr = std::shared_ptr<const DataType>;

// A named, typed slot of a schema or of a nested type.
struct Field {
  std::string name;
  DataTypePtr type;
  bool nullable = true;
  KeyValueMetadata metadata;

  // The value stored under `key`, if any.
  std::optional<std::string_view> Metadata(std::string_view key) const;
  // The catalog field id from "PARQUET:field_id"; nullopt when absent or not
  // an integer.
  std::optional<int32_t> field_id() const;
  // This field with "PARQUET:field_id" set (replacing an earlier value).
  Field WithFieldId(int32_t id) const;
  // The Arrow extension name, e.g. "arrow.uuid"; empty when none.
  std::string_view extension_name() const;

  // Names, types, nullability and metadata all equal (recursively).
  bool Equals(const Field& other) const;
  // "name: type" or "name: type not null", with metadata in braces.
  std::string ToString() const;
};

struct DataType {
  TypeId id;
  // decimal128
  int32_t precision = 0;
  int32_t scale = 0;
  // fixed_size_binary: byte width; decimal128, interval[month_day_nano]: 16
  int32_t byte_width = 0;
  // time64, timestamp
  TimeUnit unit = TimeUnit::kMicro;
  std::string timezone;  // timestamp only; empty means naive
  // list: one child (the element); struct: its fields; map: one non-null
  // "entries" struct child whose two fields are key (non-null) and value.
  std::vector<Field> children;
  bool keys_sorted = false;  // map only

  // Bits per value in the values buffer: 1 for bool, 8·width for fixed
  // widths, 0 for var-width and nested types.
  int bit_width() const;
  bool is_nested() const {
    return id == TypeId::kList || id == TypeId::kStruct || id == TypeId::kMap;
  }
  // Offsets + data buffers (utf8, binary).
  bool is_binary_like() const { return id == TypeId::kUtf8 || id == TypeId::kBinary; }

  // map accessors: the key and value fields of the entries struct.
  const Field& map_key() const { return children[0].type->children[0]; }
  const Field& map_value() const { return children[0].type->children[1]; }
  // list accessor
  const Field& list_element() const { return children[0]; }

  bool Equals(const DataType& other) const;
  // Arrow-style spelling: "int64", "timestamp[us, tz=UTC]", "decimal128(10, 2)",
  // "list<element: string>", "struct<a: int32, b: utf8>", "map<utf8, int64>".
  std::string ToString() const;
};

// Number of buffers an array of this type carries, validity included:
// bool/fixed width 2, utf8/binary 3, list/map 2, struct 1.
int BufferCount(TypeId id);

// The schema of a record batch: top-level fields plus schema metadata.
struct Schema {
  std::vector<Field> fields;
  KeyValueMetadata metadata;

  int num_fields() const { return static_cast<int>(fields.size()); }
  // Index of the first top-level field named `name`, or -1.
  int FieldIndex(std::string_view name) const;
  bool Equals(const Schema& other) const;
  std::string ToString() const;  // one field per line
};
using SchemaPtr = std::shared_ptr<const Schema>;

// ---- factories -------------------------------------------------------------
DataTypePtr Bool();
DataTypePtr Int8();
DataTypePtr Int16();
DataTypePtr Int32();
DataTypePtr Int64();
DataTypePtr UInt8();
DataTypePtr UInt16();
DataTypePtr UInt32();
DataTypePtr UInt64();
DataTypePtr Float32();
DataTypePtr Float64();
DataTypePtr Date32();
DataTypePtr Utf8();
DataTypePtr Binary();
DataTypePtr Time64(TimeUnit unit = TimeUnit::kMicro);
DataTypePtr Timestamp(TimeUnit unit, std::string timezone = "");
DataTypePtr FixedSizeBinary(int32_t byte_width);
DataTypePtr IntervalMonthDayNano();
// Precision 1..38 and 0 ≤ scale ≤ precision are checked by Validate, and by
// MakeDecimal128 which reports them.
DataTypePtr Decimal128(int32_t precision, int32_t scale);
Result<DataTypePtr> MakeDecimal128(int32_t precision, int32_t scale);
DataTypePtr List(Field element);
DataTypePtr List(DataTypePtr element_type, bool element_nullable = true);
DataTypePtr Struct(std::vector<Field> fields);
// map<key, value>: entries struct named "entries", key forced non-null.
DataTypePtr Map(DataTypePtr key_type, Field value);
DataTypePtr Map(DataTypePtr key_type, DataTypePtr value_type, bool value_nullable = true);

// A utf8 field carrying the arrow.json extension name.
Field JsonField(std::string name, bool nullable = true);
// A fixed_size_binary(16) field carrying the arrow.uuid extension name.
Field UuidField(std::string name, bool nullable = true);

}  // namespace hoglake::columnar
