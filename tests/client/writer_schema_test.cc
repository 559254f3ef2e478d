#include "client/writer_schema.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "columnar/builder.h"
#include "columnar/json_rows.h"

namespace hoglake::client {
namespace {

using columnar::Field;
using iceberg::ColumnType;

Column Leaf(std::string name, iceberg::TypeSpec type, int32_t id, bool nullable = true) {
  Column c;
  c.name = std::move(name);
  c.type = type;
  c.field_id = id;
  c.nullable = nullable;
  return c;
}
Column Container(std::string name, ColumnType type, int32_t id, std::vector<Column> children) {
  Column c = Leaf(std::move(name), type, id);
  c.children = std::move(children);
  return c;
}

// id long not null, s struct<a string, b int>, l list<uuid>, m map<string, uint32>
std::vector<Column> NestedTable() {
  return {Leaf("id", ColumnType::kLong, 1, false),
          Container("s", ColumnType::kStruct, 2,
                    {Leaf("a", ColumnType::kString, 3), Leaf("b", ColumnType::kInt, 4)}),
          Container("l", ColumnType::kList, 5, {Leaf("element", ColumnType::kUuid, 6)}),
          Container(
              "m", ColumnType::kMap, 7,
              {Leaf("key", ColumnType::kString, 8, false), Leaf("value", ColumnType::kUInt32, 9)})};
}

TEST(WriterSchemaTest, FieldIdsOnEveryLevelAndWriterTypes) {
  auto schema = WriterSchema(NestedTable());
  ASSERT_TRUE(schema.ok()) << schema.status().ToString();
  const auto& f = (*schema)->fields;
  ASSERT_EQ(f.size(), 4u);
  EXPECT_EQ(f[0].field_id(), 1);
  EXPECT_FALSE(f[0].nullable);
  EXPECT_EQ(f[1].field_id(), 2);
  EXPECT_EQ(f[1].type->children[0].field_id(), 3);
  EXPECT_EQ(f[1].type->children[1].field_id(), 4);
  EXPECT_EQ(f[2].type->list_element().name, "element");
  EXPECT_EQ(f[2].type->list_element().field_id(), 6);
  EXPECT_EQ(f[2].type->list_element().extension_name(), columnar::kUuidExtension);
  EXPECT_EQ(f[3].type->map_key().field_id(), 8);
  EXPECT_FALSE(f[3].type->map_key().nullable);
  EXPECT_EQ(f[3].type->map_value().field_id(), 9);
  EXPECT_EQ(f[3].type->map_value().type->id, columnar::TypeId::kInt64);  // uint32 as int64
}

TEST(WriterSchemaTest, StatsColumnsAreTheLeaves) {
  std::vector<int32_t> ids;
  for (const auto& c : StatsColumnsFor(NestedTable())) ids.push_back(c.field_id);
  EXPECT_EQ(ids, (std::vector<int32_t>{1, 3, 4, 6, 8, 9}));
}

columnar::RecordBatch Batch(std::vector<Field> fields, std::vector<columnar::ArrayPtr> columns) {
  auto schema = std::make_shared<columnar::Schema>();
  schema->fields = std::move(fields);
  auto batch = columnar::MakeRecordBatch(schema, std::move(columns));
  EXPECT_TRUE(batch.ok()) << batch.status().ToString();
  return *batch;
}

columnar::ArrayPtr Int32s(std::vector<std::optional<int32_t>> values) {
  columnar::Int32Builder b;
  for (auto v : values) v ? b.Append(*v) : b.AppendNull();
  return *b.Finish();
}
columnar::ArrayPtr Strings(std::vector<std::optional<std::string>> values) {
  columnar::StringBuilder b;
  for (auto& v : values) v ? b.Append(*v) : b.AppendNull();
  return *b.Finish();
}

std::vector<Column> FlatTable() {
  return {Leaf("id", ColumnType::kLong, 1, false), Leaf("name", ColumnType::kString, 2)};
}

TEST(AlignBatchTest, ReordersToCatalogOrderAndWidensIntegers) {
  auto target = *WriterSchema(FlatTable());
  auto batch =
      Batch({Field{"name", columnar::Utf8(), true, {}}, Field{"id", columnar::Int32(), true, {}}},
            {Strings({"a", std::nullopt}), Int32s({7, -2})});
  auto aligned = AlignBatch(batch, target);
  ASSERT_TRUE(aligned.ok()) << aligned.status().ToString();
  EXPECT_EQ(aligned->schema, target);
  std::string text;
  columnar::AppendJsonLines(*aligned, &text);
  EXPECT_EQ(text, "{\"id\":7,\"name\":\"a\"}\n{\"id\":-2,\"name\":null}\n");
}

TEST(AlignBatchTest, NamesWhatIsMissingOrExtra) {
  auto target = *WriterSchema(FlatTable());
  auto missing = AlignBatch(Batch({Field{"id", columnar::Int64(), false, {}}}, {[] {
                                    columnar::Int64Builder b;
                                    b.Append(1);
                                    return *b.Finish();
                                  }()}),
                            target);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().message, "data is missing table columns: ['name']");
  auto extra = AlignBatch(
      Batch({Field{"id", columnar::Int32(), true, {}}, Field{"name", columnar::Utf8(), true, {}},
             Field{"zz", columnar::Utf8(), true, {}}},
            {Int32s({1}), Strings({"a"}), Strings({"b"})}),
      target);
  ASSERT_FALSE(extra.ok());
  EXPECT_EQ(extra.error().message, "data has columns not in the table schema: ['zz']");
  EXPECT_EQ(extra.error().code, ErrorCode::kValidation);
}

TEST(AlignBatchTest, RefusesNullsInNotNullAndNarrowingTypes) {
  auto target = *WriterSchema(FlatTable());
  auto nulls = AlignBatch(
      Batch({Field{"id", columnar::Int32(), true, {}}, Field{"name", columnar::Utf8(), true, {}}},
            {Int32s({1, std::nullopt}), Strings({"a", "b"})}),
      target);
  ASSERT_FALSE(nulls.ok());
  EXPECT_EQ(nulls.error().message, "column 'id' is not nullable but the data has 1 null(s)");
  auto narrow = AlignBatch(
      Batch({Field{"id", columnar::Int32(), true, {}}, Field{"name", columnar::Int32(), true, {}}},
            {Int32s({1}), Int32s({2})}),
      target);
  ASSERT_FALSE(narrow.ok());
  EXPECT_EQ(narrow.error().message, "column 'name' has type int32; the table wants utf8");
}

TEST(AlignBatchTest, NestedNamesAreCheckedByPath) {
  std::vector<Column> table = {
      Container("s", ColumnType::kStruct, 1,
                {Leaf("a", ColumnType::kString, 2), Leaf("b", ColumnType::kInt, 3)})};
  auto target = *WriterSchema(table);
  auto type = columnar::Struct(
      {Field{"a", columnar::Utf8(), true, {}}, Field{"typo", columnar::Int32(), true, {}}});
  columnar::StructBuilder b(type);
  b.Append();
  b.child<columnar::StringBuilder>(0).Append("x");
  b.child<columnar::Int32Builder>(1).Append(1);
  auto result = AlignBatch(Batch({Field{"s", type, true, {}}}, {*b.Finish()}), target);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().message, "data is missing nested table fields: ['s.b']");
}

TEST(ReservedNamesTest, EveryDepthListed) {
  auto inner = columnar::Struct({Field{"_hogx", columnar::Int32(), true, {}}});
  columnar::Schema schema;
  schema.fields = {
      Field{"_hog_row_id", columnar::Int64(), true, {}},
      Field{"s", columnar::Struct({Field{"_hog_a", columnar::Int32(), true, {}}}), true, {}},
      Field{"l", columnar::List(inner), true, {}}, Field{"_leading", columnar::Int32(), true, {}}};
  Status status = CheckReservedNames(schema);
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.error().message.find("['_hog_row_id', 's._hog_a', 'l._hogx']"),
            std::string::npos)
      << status.error().message;
  EXPECT_NE(status.error().message.find("reserved prefix '_hog'"), std::string::npos);
}

TEST(PartitionSourceTest, StructLeafFoldsParentNulls) {
  std::vector<Column> table = {
      Leaf("id", ColumnType::kLong, 1),
      Container("s", ColumnType::kStruct, 2, {Leaf("team", ColumnType::kInt, 3)})};
  auto target = *WriterSchema(table);
  columnar::Int64Builder ids;
  for (int i = 0; i < 4; ++i) ids.Append(i);
  // The struct is null at row 1 while its member holds 99 there: the fold hides it.
  auto team = Int32s({0, 99, std::nullopt, 30});
  auto s = std::make_shared<columnar::ArrayData>();
  s->type = target->fields[1].type;
  s->length = 4;
  s->null_count = 1;
  auto bits = columnar::Buffer::Allocate(1);
  bits->mutable_data()[0] = 0b1101;
  s->buffers = {bits};
  s->children = {team};
  auto batch = Batch(target->fields, {*ids.Finish(), s});
  auto source = FindPartitionSource(batch, table, 3);
  ASSERT_TRUE(source.ok()) << source.status().ToString();
  EXPECT_EQ(source->path, "s.team");
  EXPECT_EQ(source->values->null_count, 2);
  EXPECT_TRUE(source->values->IsValid(0));
  EXPECT_TRUE(source->values->IsNull(1));
  EXPECT_TRUE(source->values->IsNull(2));
  EXPECT_EQ(source->values->values<int32_t>()[3], 30);
  EXPECT_FALSE(FindPartitionSource(batch, table, 2).ok());  // a container
  EXPECT_FALSE(FindPartitionSource(batch, table, 42).ok());
}

}  // namespace
}  // namespace hoglake::client
