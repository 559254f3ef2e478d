// How a load's columns meet a table's: the widening rule, the alter ops
// planned (promotions, new nullable columns), the refusals naming the
// column and both types, and the widening kernel (values, nulls, offsets).
#include "query/load/load_columns.h"

#include <gtest/gtest.h>

#include "columnar/builder.h"
#include "columnar/slice.h"

namespace hoglake::query {
namespace {

using iceberg::ColumnType;
using iceberg::TypeSpec;

catalog::TableInfo Table(std::vector<std::pair<std::string, TypeSpec>> columns) {
  catalog::TableInfo table;
  table.namespace_name = "main";
  table.name = "t";
  int32_t id = 1;
  for (auto& [name, type] : columns) {
    catalog::ColumnNode c;
    c.name = name;
    c.type = type;
    c.field_id = id++;
    table.columns.push_back(c);
  }
  return table;
}

columnar::Schema Data(std::vector<std::pair<std::string, columnar::DataTypePtr>> fields) {
  columnar::Schema schema;
  for (auto& [name, type] : fields) schema.fields.push_back({name, type, true, {}});
  return schema;
}

TEST(LoadColumnsTest, WidensFollowsTheCatalogMatrixAndDecimalPrecision) {
  EXPECT_TRUE(Widens(ColumnType::kInt, ColumnType::kLong));
  EXPECT_TRUE(Widens(ColumnType::kInt8, ColumnType::kInt));
  EXPECT_TRUE(Widens(ColumnType::kFloat, ColumnType::kDouble));
  EXPECT_TRUE(Widens(TypeSpec::Decimal(10, 2), TypeSpec::Decimal(12, 2)));
  EXPECT_FALSE(Widens(ColumnType::kLong, ColumnType::kInt));
  EXPECT_FALSE(Widens(ColumnType::kInt, ColumnType::kInt));
  EXPECT_FALSE(Widens(ColumnType::kInt, ColumnType::kDouble));
  EXPECT_FALSE(Widens(TypeSpec::Decimal(10, 2), TypeSpec::Decimal(12, 3)));
  EXPECT_FALSE(Widens(TypeSpec::Decimal(12, 2), TypeSpec::Decimal(10, 2)));
}

TEST(LoadColumnsTest, PlansPromotionsAndNewNullableColumns) {
  const catalog::TableInfo table =
      Table({{"id", ColumnType::kInt}, {"score", ColumnType::kDouble}});
  // Same types: nothing to change; narrower data: nothing either.
  auto same = PlanTableChanges(table, Data({{"id", columnar::Int32()},
                                            {"score", columnar::Float32()}}));
  ASSERT_TRUE(same.ok()) << same.status().ToString();
  EXPECT_TRUE(same->empty());
  auto plan = PlanTableChanges(table, Data({{"note", columnar::Utf8()},
                                            {"id", columnar::Int64()},
                                            {"score", columnar::Float64()}}));
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  ASSERT_EQ(plan->size(), 2u);
  EXPECT_EQ((*plan)[0].kind, catalog::AlterOpKind::kAddColumn);
  EXPECT_EQ((*plan)[0].column.name, "note");
  EXPECT_TRUE((*plan)[0].column.nullable);
  EXPECT_EQ((*plan)[0].column.type, TypeSpec(ColumnType::kString));
  EXPECT_EQ((*plan)[1].kind, catalog::AlterOpKind::kPromoteColumn);
  EXPECT_EQ((*plan)[1].path, "id");
  EXPECT_EQ((*plan)[1].to, "long");
}

TEST(LoadColumnsTest, WiderDecimalPrecisionPromotesTheColumn) {
  const catalog::TableInfo table = Table({{"amount", TypeSpec::Decimal(12, 2)}});
  auto plan = PlanTableChanges(table, Data({{"amount", columnar::Decimal128(20, 2)}}));
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  ASSERT_EQ(plan->size(), 1u);
  EXPECT_EQ((*plan)[0].kind, catalog::AlterOpKind::kPromoteColumn);
  EXPECT_EQ((*plan)[0].path, "amount");
  EXPECT_EQ((*plan)[0].to, "decimal(20,2)");
  // Narrower precision: no change, the values widen on the way in.
  auto narrower = PlanTableChanges(table, Data({{"amount", columnar::Decimal128(9, 2)}}));
  ASSERT_TRUE(narrower.ok()) << narrower.status().ToString();
  EXPECT_TRUE(narrower->empty());
}

TEST(LoadColumnsTest, RefusesWhatDoesNotWidenNamingTheColumnAndBothTypes) {
  const catalog::TableInfo table = Table({{"id", ColumnType::kLong},
                                          {"amount", TypeSpec::Decimal(12, 2)}});
  auto text = PlanTableChanges(table, Data({{"id", columnar::Utf8()},
                                            {"amount", columnar::Decimal128(12, 2)}}));
  ASSERT_FALSE(text.ok());
  EXPECT_EQ(text.error().code, ErrorCode::kCommitConflict);
  EXPECT_NE(text.error().message.find("column 'id'"), std::string::npos) << text.error().message;
  EXPECT_NE(text.error().message.find("long"), std::string::npos);
  EXPECT_NE(text.error().message.find("string"), std::string::npos);
  // A decimal of another scale, wider or narrower: refused naming both.
  for (const auto& data_type : {columnar::Decimal128(14, 3), columnar::Decimal128(10, 1)}) {
    auto scale = PlanTableChanges(table, Data({{"id", columnar::Int64()}, {"amount", data_type}}));
    ASSERT_FALSE(scale.ok()) << data_type->ToString();
    EXPECT_EQ(scale.error().code, ErrorCode::kCommitConflict);
    EXPECT_NE(scale.error().message.find("decimal(12,2)"), std::string::npos)
        << scale.error().message;
    EXPECT_NE(scale.error().message.find("column 'amount'"), std::string::npos)
        << scale.error().message;
  }
  // A nullable column the data lacks is fine (loaded as NULL), a required
  // one is not.
  auto nullable = PlanTableChanges(table, Data({{"id", columnar::Int64()}}));
  ASSERT_TRUE(nullable.ok()) << nullable.status().ToString();
  EXPECT_TRUE(nullable->empty());
  catalog::TableInfo required = table;
  required.columns[1].nullable = false;
  auto missing = PlanTableChanges(required, Data({{"id", columnar::Int64()}}));
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message.find("'amount'"), std::string::npos);
}

TEST(LoadColumnsTest, WidenArrayKeepsValuesNullsAndOffsets) {
  columnar::Int32Builder ints;
  ints.Append(-5);
  ints.AppendNull();
  ints.Append(2147483647);
  ints.Append(7);
  auto array = ints.Finish();
  ASSERT_TRUE(array.ok());
  auto tail_or = columnar::Slice(*array, 1, 3);
  ASSERT_TRUE(tail_or.ok());
  const columnar::ArrayPtr tail = *tail_or;
  auto wide = WidenArray(tail, columnar::Int64());
  ASSERT_TRUE(wide.ok()) << wide.status().ToString();
  ASSERT_EQ((*wide)->length, 3);
  EXPECT_TRUE((*wide)->IsNull(0));
  EXPECT_EQ((*wide)->values<int64_t>()[1], 2147483647);
  EXPECT_EQ((*wide)->values<int64_t>()[2], 7);
  EXPECT_EQ((*wide)->null_count, 1);

  columnar::Float32Builder floats;
  floats.Append(0.5f);
  auto doubles = WidenArray(*floats.Finish(), columnar::Float64());
  ASSERT_TRUE(doubles.ok());
  EXPECT_EQ((*doubles)->values<double>()[0], 0.5);

  columnar::Decimal128Builder decimals(columnar::Decimal128(10, 2));
  decimals.Append(12345);
  auto wider = WidenArray(*decimals.Finish(), columnar::Decimal128(12, 2));
  ASSERT_TRUE(wider.ok());
  EXPECT_EQ((*wider)->type->precision, 12);
  EXPECT_EQ((*wider)->values<__int128>()[0], 12345);

  EXPECT_FALSE(WidenArray(*array, columnar::Int16()).ok());
  EXPECT_FALSE(WidenArray(*array, columnar::UInt64()).ok());
  EXPECT_FALSE(WidenArray(*array, columnar::Float64()).ok());
}

}  // namespace
}  // namespace hoglake::query
