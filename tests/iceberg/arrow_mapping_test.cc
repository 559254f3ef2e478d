#include "iceberg/arrow_mapping.h"

#include <gtest/gtest.h>

namespace hoglake::iceberg {
namespace {

namespace c = columnar;
using T = ColumnType;

c::Field F(c::DataTypePtr type) { return c::Field{"col", std::move(type), true, {}}; }

TypeSpec Infer(const c::Field& field) {
  auto result = ColumnTypeFromArrow(field);
  EXPECT_TRUE(result.ok()) << result.status().ToString();
  return result.ok() ? *result : TypeSpec();
}

void ExpectRefused(const c::Field& field) {
  auto result = ColumnTypeFromArrow(field);
  ASSERT_FALSE(result.ok()) << field.ToString();
  EXPECT_EQ(result.error().code, ErrorCode::kInvalidArgument);
  EXPECT_NE(result.error().message.find("supported types"), std::string::npos)
      << result.error().message;
}

TEST(ArrowMappingTest, WriterTypesFollowTheWriterContract) {
  const std::vector<std::pair<TypeSpec, std::string>> cases = {
      {T::kBoolean, "bool"},
      {T::kInt8, "int8"},
      {T::kInt16, "int16"},
      {T::kInt, "int32"},
      {T::kLong, "int64"},
      {T::kUInt8, "uint8"},
      {T::kUInt16, "uint16"},
      {T::kUInt32, "int64"},  // asymmetric on purpose
      {T::kUInt64, "uint64"},
      {T::kFloat, "float"},
      {T::kDouble, "double"},
      {TypeSpec::Decimal(10, 2), "decimal128(10, 2)"},
      {T::kDate, "date32[day]"},
      {T::kTime, "time64[us]"},
      {T::kTimestampS, "timestamp[s]"},
      {T::kTimestampMs, "timestamp[ms]"},
      {T::kTimestamp, "timestamp[us]"},
      {T::kTimestampNs, "timestamp[ns]"},
      {T::kTimestamptz, "timestamp[us, tz=UTC]"},
      {T::kString, "utf8"},
      {T::kJson, "utf8"},
      {T::kUuid, "fixed_size_binary[16]"},
      {T::kBinary, "binary"},
  };
  for (const auto& [type, arrow] : cases) {
    auto result = WriterArrowType(type);
    ASSERT_TRUE(result.ok()) << type.ToString();
    EXPECT_EQ((*result)->ToString(), arrow) << type.ToString();
  }
}

TEST(ArrowMappingTest, WriterFieldsCarryExtensionNames) {
  auto json = WriterArrowField("doc", T::kJson, true);
  ASSERT_TRUE(json.ok());
  EXPECT_EQ(json->extension_name(), "arrow.json");
  auto uuid = WriterArrowField("id", T::kUuid, false);
  ASSERT_TRUE(uuid.ok());
  EXPECT_EQ(uuid->extension_name(), "arrow.uuid");
  EXPECT_FALSE(uuid->nullable);
  auto plain = WriterArrowField("s", T::kString, true);
  ASSERT_TRUE(plain.ok());
  EXPECT_TRUE(plain->metadata.empty());
}

TEST(ArrowMappingTest, WriterRefusesContainersVariantAndBadDecimals) {
  for (T type : {T::kList, T::kStruct, T::kMap}) {
    auto result = WriterArrowType(type);
    ASSERT_FALSE(result.ok());
    EXPECT_NE(result.error().message.find("nested container"), std::string::npos);
  }
  EXPECT_FALSE(WriterArrowType(T::kVariant).ok());
  EXPECT_FALSE(WriterArrowType(T::kDecimal).ok());  // no precision given
  EXPECT_FALSE(WriterArrowType(TypeSpec::Decimal(39, 0)).ok());
  EXPECT_FALSE(WriterArrowType(TypeSpec::Decimal(5, 6)).ok());
}

TEST(ArrowMappingTest, InferenceFromArrow) {
  EXPECT_EQ(Infer(F(c::Bool())), TypeSpec(T::kBoolean));
  EXPECT_EQ(Infer(F(c::Int8())), TypeSpec(T::kInt8));
  EXPECT_EQ(Infer(F(c::Int16())), TypeSpec(T::kInt16));
  EXPECT_EQ(Infer(F(c::Int32())), TypeSpec(T::kInt));
  EXPECT_EQ(Infer(F(c::Int64())), TypeSpec(T::kLong));
  EXPECT_EQ(Infer(F(c::UInt8())), TypeSpec(T::kUInt8));
  EXPECT_EQ(Infer(F(c::UInt16())), TypeSpec(T::kUInt16));
  EXPECT_EQ(Infer(F(c::UInt32())), TypeSpec(T::kUInt32));
  EXPECT_EQ(Infer(F(c::UInt64())), TypeSpec(T::kUInt64));
  EXPECT_EQ(Infer(F(c::Float32())), TypeSpec(T::kFloat));
  EXPECT_EQ(Infer(F(c::Float64())), TypeSpec(T::kDouble));
  EXPECT_EQ(Infer(F(c::Decimal128(12, 3))), TypeSpec::Decimal(12, 3));
  EXPECT_EQ(Infer(F(c::Date32())), TypeSpec(T::kDate));
  EXPECT_EQ(Infer(F(c::Time64(c::TimeUnit::kMicro))), TypeSpec(T::kTime));
  EXPECT_EQ(Infer(F(c::Timestamp(c::TimeUnit::kSecond))), TypeSpec(T::kTimestampS));
  EXPECT_EQ(Infer(F(c::Timestamp(c::TimeUnit::kMilli))), TypeSpec(T::kTimestampMs));
  EXPECT_EQ(Infer(F(c::Timestamp(c::TimeUnit::kMicro))), TypeSpec(T::kTimestamp));
  EXPECT_EQ(Infer(F(c::Timestamp(c::TimeUnit::kNano))), TypeSpec(T::kTimestampNs));
  EXPECT_EQ(Infer(F(c::Timestamp(c::TimeUnit::kMicro, "UTC"))), TypeSpec(T::kTimestamptz));
  EXPECT_EQ(Infer(F(c::Timestamp(c::TimeUnit::kMicro, "Europe/Paris"))), TypeSpec(T::kTimestamptz));
  EXPECT_EQ(Infer(F(c::Utf8())), TypeSpec(T::kString));  // never inferred as json
  EXPECT_EQ(Infer(c::JsonField("doc")), TypeSpec(T::kJson));
  EXPECT_EQ(Infer(c::UuidField("id")), TypeSpec(T::kUuid));
  EXPECT_EQ(Infer(F(c::FixedSizeBinary(16))), TypeSpec(T::kUuid));
  EXPECT_EQ(Infer(F(c::Binary())), TypeSpec(T::kBinary));
  EXPECT_EQ(Infer(F(c::List(c::Utf8()))), TypeSpec(T::kList));
  EXPECT_EQ(Infer(F(c::Struct({c::Field{"a", c::Int32(), true, {}}}))), TypeSpec(T::kStruct));
  EXPECT_EQ(Infer(F(c::Map(c::Utf8(), c::Int64()))), TypeSpec(T::kMap));
  c::Field variant = c::JsonField("v");
  variant.metadata.emplace_back(std::string(kVariantMetadataKey), "{}");
  EXPECT_EQ(Infer(variant), TypeSpec(T::kVariant));
}

TEST(ArrowMappingTest, WriterTypesInferBackExceptUInt32) {
  for (ColumnType type : AllColumnTypes()) {
    if (!HasBounds(type)) continue;
    const TypeSpec spec = type == T::kDecimal ? TypeSpec::Decimal(9, 2) : TypeSpec(type);
    auto field = WriterArrowField("c", spec, true);
    ASSERT_TRUE(field.ok()) << spec.ToString();
    const TypeSpec back = Infer(*field);
    EXPECT_EQ(back, type == T::kUInt32 ? TypeSpec(T::kLong) : spec) << spec.ToString();
  }
}

TEST(ArrowMappingTest, RefusedArrowTypesSaySupportedTypes) {
  ExpectRefused(F(c::Time64(c::TimeUnit::kNano)));
  ExpectRefused(F(c::Time64(c::TimeUnit::kMilli)));
  ExpectRefused(F(c::Time64(c::TimeUnit::kSecond)));
  ExpectRefused(F(c::Timestamp(c::TimeUnit::kSecond, "UTC")));
  ExpectRefused(F(c::Timestamp(c::TimeUnit::kMilli, "UTC")));
  ExpectRefused(F(c::Timestamp(c::TimeUnit::kNano, "UTC")));
  ExpectRefused(F(c::FixedSizeBinary(8)));
  ExpectRefused(F(c::Struct({})));
  c::Field bad_uuid{"u", c::Binary(), true, {{"ARROW:extension:name", "arrow.uuid"}}};
  ExpectRefused(bad_uuid);
  c::Field bad_json{"j", c::Binary(), true, {{"ARROW:extension:name", "arrow.json"}}};
  ExpectRefused(bad_json);
  // Refusal anywhere in the subtree refuses the column.
  ExpectRefused(F(c::List(c::FixedSizeBinary(4))));
  ExpectRefused(F(c::Map(c::Utf8(), c::Time64(c::TimeUnit::kNano))));
  ExpectRefused(F(c::Struct({c::Field{"a", c::Struct({}), true, {}}})));
}

TEST(ArrowMappingTest, NestingDepthIsCappedAtEight) {
  c::DataTypePtr type = c::Int32();
  for (int depth = 1; depth < kMaxColumnNestingDepth; ++depth) type = c::List(type);
  EXPECT_TRUE(ColumnTypeFromArrow(F(type)).ok());  // depth exactly 8
  auto too_deep = ColumnTypeFromArrow(F(c::List(type)));
  ASSERT_FALSE(too_deep.ok());
  EXPECT_NE(too_deep.error().message.find("nesting depth 9 exceeds the maximum 8"),
            std::string::npos)
      << too_deep.error().message;
}

}  // namespace
}  // namespace hoglake::iceberg
