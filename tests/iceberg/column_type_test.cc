#include "iceberg/column_type.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

namespace hoglake::iceberg {
namespace {

// The contract's order (§3.1), spelled out independently of the source.
const std::vector<std::string> kContractOrder = {
    "boolean",     "int8",         "int16",     "int",          "long",        "uint8",  "uint16",
    "uint32",      "uint64",       "float",     "double",       "decimal",     "date",   "time",
    "timestamp_s", "timestamp_ms", "timestamp", "timestamp_ns", "timestamptz", "string", "json",
    "uuid",        "binary",       "variant",   "list",         "struct",      "map"};

TEST(ColumnTypeTest, VocabularyIsTheContractsInOrder) {
  ASSERT_EQ(AllColumnTypes().size(), kContractOrder.size());
  for (size_t i = 0; i < kContractOrder.size(); ++i) {
    const ColumnType type = AllColumnTypes()[i];
    EXPECT_EQ(static_cast<size_t>(type), i);
    EXPECT_EQ(ColumnTypeName(type), kContractOrder[i]);
  }
}

TEST(ColumnTypeTest, EverySpellingParsesInAnyCase) {
  for (const std::string& name : kContractOrder) {
    auto parsed = ParseColumnType(name);
    ASSERT_TRUE(parsed.ok()) << name;
    EXPECT_EQ(ColumnTypeName(*parsed), name);
    std::string upper = name;
    for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    auto parsed_upper = ParseColumnType(upper);
    ASSERT_TRUE(parsed_upper.ok()) << upper;
    EXPECT_EQ(*parsed_upper, *parsed);
  }
  EXPECT_EQ(*ParseColumnType("TimeStampTZ"), ColumnType::kTimestamptz);
  EXPECT_EQ(*ParseColumnType("Uuid"), ColumnType::kUuid);
}

TEST(ColumnTypeTest, UnknownNamesAreValidationErrors) {
  for (std::string name : {"UUID_T", "uuid_t", "integer", "bigint", "varchar", "", " int", "int ",
                           "timestamp_us", "decimal(10,2)", "array"}) {
    auto parsed = ParseColumnType(name, "c");
    ASSERT_FALSE(parsed.ok()) << name;
    EXPECT_EQ(parsed.error().code, ErrorCode::kValidation);
    EXPECT_EQ(parsed.error().message, "unknown column type '" + name + "' for column 'c'");
  }
  EXPECT_EQ(ParseColumnType("nope").error().message, "unknown column type 'nope'");
}

TEST(ColumnTypeTest, RefusedNamesCarryTheirOwnReasons) {
  const std::vector<std::string> expected = {"int128",       "uint128",      "timetz",
                                             "interval",     "point",        "linestring",
                                             "polygon",      "multipoint",   "multilinestring",
                                             "multipolygon", "linestring_z", "geometrycollection"};
  std::vector<std::string> names;
  for (const RefusedTypeName& refused : RefusedColumnTypeNames()) {
    names.emplace_back(refused.name);
    auto parsed = ParseColumnType(refused.name);
    ASSERT_FALSE(parsed.ok());
    EXPECT_EQ(parsed.error().code, ErrorCode::kValidation);
    EXPECT_NE(parsed.error().message.find("is refused"), std::string::npos);
    EXPECT_NE(parsed.error().message.find(refused.reason), std::string::npos);
    EXPECT_EQ(parsed.error().message.find("unknown"), std::string::npos);
  }
  EXPECT_EQ(names, expected);
  EXPECT_NE(ParseColumnType("INT128").error().message.find("39"), std::string::npos);
  EXPECT_NE(ParseColumnType("uint128").error().message.find("39"), std::string::npos);
  EXPECT_NE(ParseColumnType("TimeTZ").error().message.find("time zone"), std::string::npos);
  EXPECT_NE(ParseColumnType("interval").error().message.find("interval"), std::string::npos);
  EXPECT_NE(ParseColumnType("Polygon", "shape").error().message.find("geometry"),
            std::string::npos);
  EXPECT_NE(ParseColumnType("Polygon", "shape").error().message.find("for column 'shape'"),
            std::string::npos);
  // No refused name is a member.
  std::set<std::string> members(kContractOrder.begin(), kContractOrder.end());
  for (const std::string& name : names) EXPECT_EQ(members.count(name), 0u) << name;
}

TEST(ColumnTypeTest, IcebergMapping) {
  using T = ColumnType;
  const std::vector<std::pair<TypeSpec, std::string>> cases = {
      {T::kBoolean, "boolean"},
      {T::kInt8, "int"},
      {T::kInt16, "int"},
      {T::kInt, "int"},
      {T::kLong, "long"},
      {T::kUInt8, "int"},
      {T::kUInt16, "int"},
      {T::kUInt32, "long"},
      {T::kUInt64, "decimal(20,0)"},
      {T::kFloat, "float"},
      {T::kDouble, "double"},
      {TypeSpec::Decimal(10, 2), "decimal(10,2)"},
      {T::kDate, "date"},
      {T::kTime, "time"},
      {T::kTimestampS, "timestamp"},
      {T::kTimestampMs, "timestamp"},
      {T::kTimestamp, "timestamp"},
      {T::kTimestampNs, "timestamp_ns"},
      {T::kTimestamptz, "timestamptz"},
      {T::kString, "string"},
      {T::kJson, "string"},
      {T::kUuid, "uuid"},
      {T::kBinary, "binary"},
      {T::kVariant, "variant"},
      {T::kList, "list"},
      {T::kStruct, "struct"},
      {T::kMap, "map"}};
  ASSERT_EQ(cases.size(), 27u);
  for (const auto& [type, iceberg] : cases) {
    EXPECT_EQ(IcebergTypeString(type), iceberg) << type.ToString();
  }
  EXPECT_EQ(IcebergTypeOf(T::kUInt64), IcebergType::kDecimal);
  EXPECT_EQ(TypeSpec::Decimal(38, 4).ToString(), "decimal(38,4)");
}

TEST(ColumnTypeTest, Classification) {
  int containers = 0, with_bounds = 0, integers = 0, timestamps = 0;
  for (ColumnType type : AllColumnTypes()) {
    containers += IsContainer(type);
    with_bounds += HasBounds(type);
    integers += IsIntegerType(type);
    timestamps += IsTimestampType(type);
  }
  EXPECT_EQ(containers, 3);
  EXPECT_EQ(with_bounds, 23);
  EXPECT_EQ(integers, 8);
  EXPECT_EQ(timestamps, 5);
  EXPECT_FALSE(HasBounds(ColumnType::kVariant));
}

TEST(ColumnTypeTest, PromotionMatrixIsExactlyTheContracts) {
  using T = ColumnType;
  const std::set<std::pair<T, T>> allowed = {{T::kInt8, T::kInt16},    {T::kInt8, T::kInt},
                                             {T::kInt8, T::kLong},     {T::kInt16, T::kInt},
                                             {T::kInt16, T::kLong},    {T::kInt, T::kLong},
                                             {T::kUInt8, T::kUInt16},  {T::kUInt8, T::kUInt32},
                                             {T::kUInt16, T::kUInt32}, {T::kFloat, T::kDouble}};
  int count = 0;
  for (T from : AllColumnTypes()) {
    for (T to : AllColumnTypes()) {
      const bool expected = allowed.count({from, to}) > 0;
      EXPECT_EQ(CanPromote(from, to), expected)
          << ColumnTypeName(from) << " -> " << ColumnTypeName(to);
      count += CanPromote(from, to);
    }
  }
  EXPECT_EQ(count, 10);
}

}  // namespace
}  // namespace hoglake::iceberg
