#include "catalog/model/table_schema.h"

#include <gtest/gtest.h>

namespace hoglake::catalog {
namespace {

using iceberg::ColumnType;

ColumnNode Leaf(std::string name, ColumnType type, bool nullable = true) {
  ColumnNode node;
  node.name = std::move(name);
  node.type = type;
  node.nullable = nullable;
  return node;
}

ColumnNode Container(std::string name, ColumnType type, std::vector<ColumnNode> children) {
  ColumnNode node = Leaf(std::move(name), type);
  node.children = std::move(children);
  return node;
}

TEST(TableSchemaTest, FieldIdsAreDepthFirstAndOrdinalsPerSibling) {
  std::vector<ColumnNode> columns = {
      Leaf("id", ColumnType::kLong),
      Container("tags", ColumnType::kList, {Leaf("element", ColumnType::kString)}),
      Container("m", ColumnType::kMap,
                {Leaf("key", ColumnType::kString, false),
                 Container("value", ColumnType::kStruct,
                           {Leaf("a", ColumnType::kInt), Leaf("b", ColumnType::kInt)})}),
  };
  ASSERT_TRUE(ValidateColumns(columns).ok());
  EXPECT_EQ(*AssignFieldIds(columns, 1), 9);
  EXPECT_EQ(columns[1].field_id, 2);
  EXPECT_EQ(columns[1].children[0].field_id, 3);
  EXPECT_EQ(columns[2].field_id, 4);
  EXPECT_EQ(columns[2].children[1].children[1].field_id, 8);
  EXPECT_EQ(columns[2].children[1].children[1].ordinal, 1);
  EXPECT_EQ(columns[2].ordinal, 2);
  EXPECT_EQ(CountNodes(columns), 8);
}

TEST(TableSchemaTest, ReservedFieldIdIsSkipped) {
  std::vector<ColumnNode> columns = {Leaf("a", ColumnType::kInt), Leaf("b", ColumnType::kInt)};
  ASSERT_TRUE(AssignFieldIds(columns, kReservedRowIdFieldId - 1).ok());
  EXPECT_EQ(columns[0].field_id, kReservedRowIdFieldId - 1);
  EXPECT_EQ(columns[1].field_id, kReservedRowIdFieldId + 1);  // the reserved id is skipped
  columns.push_back(Leaf("c", ColumnType::kInt));
  EXPECT_FALSE(AssignFieldIds(columns, kReservedRowIdFieldId - 1).ok());  // out of ids
}

TEST(TableSchemaTest, ShapeRulesNameThePath) {
  std::vector<ColumnNode> bad_map = {
      Container("m", ColumnType::kMap,
                {Leaf("key", ColumnType::kString, true), Leaf("value", ColumnType::kInt)})};
  Status s = ValidateColumns(bad_map);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().message.find("m.key"), std::string::npos) << s.error().message;

  std::vector<ColumnNode> hog = {
      Container("s", ColumnType::kStruct, {Leaf("_hog_x", ColumnType::kInt)})};
  s = ValidateColumns(hog);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().message.find("s._hog_x"), std::string::npos) << s.error().message;

  ColumnNode deep = Leaf("leaf", ColumnType::kInt);
  for (int i = 0; i < 7; ++i)
    deep = Container("s" + std::to_string(i), ColumnType::kStruct, {deep});
  EXPECT_TRUE(ValidateColumns({deep}).ok());  // 8 levels
  deep = Container("top", ColumnType::kStruct, {deep});
  EXPECT_FALSE(ValidateColumns({deep}).ok());  // 9 levels

  std::vector<ColumnNode> many;
  for (int i = 0; i < kMaxColumnNodes + 1; ++i)
    many.push_back(Leaf("c" + std::to_string(i), ColumnType::kInt));
  EXPECT_FALSE(ValidateColumns(many).ok());
}

TEST(TableSchemaTest, PropertiesAndComments) {
  EXPECT_TRUE(ValidateProperties({{"owner", "x"}, {"a.b-c_d", "y"}}).ok());
  EXPECT_FALSE(ValidateProperties({{"Owner", "x"}}).ok());
  EXPECT_FALSE(ValidateProperties({{"trino.x", "x"}}).ok());
  EXPECT_FALSE(ValidateProperties({{"sorted_by", "x"}}).ok());
  EXPECT_FALSE(ValidateProperties({{"k", std::string(4097, 'v')}}).ok());
  EXPECT_TRUE(ValidateProperties({{"write.format.default", "parquet"}}).ok());
  EXPECT_TRUE(ValidateComment("c", std::string(16384, 'x')).ok());
  EXPECT_FALSE(ValidateComment("c", std::string(16385, 'x')).ok());
  EXPECT_FALSE(ValidateComment("c", std::string("a\0b", 3)).ok());
}

}  // namespace
}  // namespace hoglake::catalog
