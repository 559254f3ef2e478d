// Alter op wire shapes, ColumnDef rendering and checks, and DDL inference
// from an Arrow-layout schema (client.h; pyhoglake-writer §1.6, §2.1, §2.3, §12).
#include <gtest/gtest.h>

#include "client/client.h"
#include "client/request_wire.h"
#include "columnar/type.h"
#include "iceberg/arrow_mapping.h"

namespace hoglake::client {
namespace {

using iceberg::ColumnType;

std::string Wire(const AlterOp& op) {
  return "{\"op\":\"" + op.op + "\"" + (op.body_json.empty() ? "" : "," + op.body_json) + "}";
}

ColumnDef Col(std::string name, iceberg::TypeSpec type, bool nullable = true,
              std::vector<ColumnDef> children = {}) {
  ColumnDef c;
  c.name = std::move(name);
  c.type = type;
  c.nullable = nullable;
  c.children = std::move(children);
  return c;
}

std::string Render(const ColumnDef& column) {
  JsonWriter w;
  wire::WriteColumnDef(column, w);
  return w.Take();
}

TEST(AlterOpTest, WireShapes) {
  EXPECT_EQ(Wire(AddColumn(Col("score", ColumnType::kDouble))),
            R"({"op":"add_column","column":{"name":"score","type":"double","nullable":true}})");
  EXPECT_EQ(
      Wire(AddColumn(Col("zip", ColumnType::kInt, false), "addr")),
      R"({"op":"add_column","column":{"name":"zip","type":"int","nullable":false},"parent":"addr"})");
  ColumnDef commented = Col("price", iceberg::TypeSpec::Decimal(10, 2));
  commented.comment = "EUR";
  EXPECT_EQ(
      Wire(AddColumn(commented)),
      R"({"op":"add_column_with_metadata","column":{"name":"price","type":"decimal","nullable":true,"type_params":{"precision":10,"scale":2},"comment":"EUR"}})");
  EXPECT_EQ(Wire(DropColumn("addr.zip")), R"({"op":"drop_column","name":"addr.zip"})");
  EXPECT_EQ(Wire(RenameColumn("a", "b")), R"({"op":"rename_column","from":"a","to":"b"})");
  EXPECT_EQ(Wire(PromoteColumn("n", ColumnType::kLong)),
            R"({"op":"promote_column","name":"n","to":"long"})");
  EXPECT_EQ(Wire(RenameTable("events2")), R"({"op":"rename_table","new_name":"events2"})");
  EXPECT_EQ(
      Wire(SetPartitionSpec({{1, "bucket", 16}, {2, "day", std::nullopt}})),
      R"({"op":"set_partition_spec","fields":[{"source_field_id":1,"transform":"bucket","transform_param":16},{"source_field_id":2,"transform":"day"}]})");
  EXPECT_EQ(Wire(SetPartitionSpec({})), R"({"op":"set_partition_spec","fields":[]})");
  EXPECT_EQ(
      Wire(SetSortOrder({{3, "desc", "nulls_first"}, SortFieldDef{4}})),
      R"({"op":"set_sort_order","sort_fields":[{"source_field_id":3,"direction":"desc","null_order":"nulls_first"},{"source_field_id":4,"direction":"asc","null_order":"nulls_last"}]})");
  EXPECT_EQ(Wire(SetTableComment("hi \"there\"")),
            R"({"op":"set_table_comment","comment":"hi \"there\""})");
  EXPECT_EQ(Wire(SetTableComment(std::nullopt)), R"({"op":"set_table_comment","comment":null})");
  EXPECT_EQ(Wire(SetColumnComment("s.a", "x")),
            R"({"op":"set_column_comment","name":"s.a","comment":"x"})");
  EXPECT_EQ(Wire(SetColumnComment("s.a", std::nullopt)),
            R"({"op":"set_column_comment","name":"s.a","comment":null})");
  EXPECT_EQ(Wire(SetProperties({{"owner", "a"}, {"tier", "gold"}})),
            R"({"op":"set_properties","properties":{"owner":"a","tier":"gold"}})");
  EXPECT_EQ(Wire(SetProperties({})), R"({"op":"set_properties","properties":{}})");
}

TEST(ColumnDefTest, ContainersUseIcebergsSyntheticChildNames) {
  ColumnDef tags = Col("tags", ColumnType::kList, true, {Col("item", ColumnType::kString)});
  EXPECT_EQ(
      Render(tags),
      R"({"name":"tags","type":"list","nullable":true,"children":[{"name":"element","type":"string","nullable":true}]})");
  ColumnDef props = Col("props", ColumnType::kMap, true,
                        {Col("k", ColumnType::kString), Col("v", ColumnType::kLong, false)});
  EXPECT_EQ(
      Render(props),
      R"({"name":"props","type":"map","nullable":true,"children":[{"name":"key","type":"string","nullable":false},{"name":"value","type":"long","nullable":false}]})");
  ColumnDef v = Col("v", ColumnType::kVariant);
  v.shredding_json = R"({"type":"object","fields":{}})";
  EXPECT_EQ(
      Render(v),
      R"({"name":"v","type":"variant","nullable":true,"type_params":{"shredding":{"type":"object","fields":{}}}})");
}

TEST(ColumnDefTest, ReservedPrefixAtEveryLevelIsListedInOneError) {
  std::vector<ColumnDef> columns = {
      Col("_leading", ColumnType::kLong),  // fine
      Col("s", ColumnType::kStruct, true, {Col("_hog_row_id", ColumnType::kLong)}),
      Col("l", ColumnType::kList, true, {Col("_hogx", ColumnType::kInt)}),
      Col("m", ColumnType::kMap, true,
          {Col("k", ColumnType::kString), Col("_hog_v", ColumnType::kInt)}),
      Col("_hog", ColumnType::kInt),
  };
  Status status = wire::CheckColumnDefs(columns);
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().code, ErrorCode::kValidation);
  EXPECT_EQ(status.error().message,
            "column name(s) ['s._hog_row_id', 'l._hogx', 'm._hog_v', '_hog'] use the reserved "
            "prefix '_hog': names starting with it belong to hoglake's own physical columns "
            "(compaction's _hog_row_id); rename them");
}

TEST(ColumnDefTest, ContainerShapesAreCheckedBeforeAnyRequest) {
  EXPECT_TRUE(wire::CheckColumnDefs({Col("a", ColumnType::kLong)}).ok());
  EXPECT_FALSE(wire::CheckColumnDefs({Col("l", ColumnType::kList)}).ok());
  EXPECT_FALSE(
      wire::CheckColumnDefs({Col("m", ColumnType::kMap, true, {Col("k", ColumnType::kString)})})
          .ok());
  EXPECT_FALSE(wire::CheckColumnDefs({Col("s", ColumnType::kStruct)}).ok());
  Status scalar = wire::CheckColumnDefs(
      {Col("s", ColumnType::kStruct, true,
           {Col("x", ColumnType::kLong, true, {Col("y", ColumnType::kInt)})})});
  ASSERT_FALSE(scalar.ok());
  EXPECT_EQ(scalar.error().message, "column 's.x': a long column has no children");
}

TEST(ColumnDefsFromSchemaTest, InfersTypesAndNestedChildren) {
  using namespace columnar;
  Schema schema;
  schema.fields = {
      Field{"id", Int64(), false, {}},
      Field{"tags", List(Field{"item", Utf8(), true, {}}), true, {}},
      Field{"addr",
            Struct({Field{"city", Utf8(), true, {}}, Field{"zip", Int32(), true, {}}}),
            true,
            {}},
      Field{"props", Map(Utf8(), Int64()), true, {}},
      Field{"price", Decimal128(12, 3), true, {}},
      UuidField("u"),
      Field{"ts", Timestamp(TimeUnit::kMicro, "Europe/Paris"), true, {}},
  };
  Result<std::vector<ColumnDef>> defs = ColumnDefsFromSchema(schema);
  ASSERT_TRUE(defs.ok()) << defs.error().ToString();
  ASSERT_EQ(defs->size(), 7u);
  std::string body;
  for (const ColumnDef& d : *defs) body += Render(d) + "\n";
  EXPECT_EQ(body,
            R"({"name":"id","type":"long","nullable":false}
{"name":"tags","type":"list","nullable":true,"children":[{"name":"element","type":"string","nullable":true}]}
{"name":"addr","type":"struct","nullable":true,"children":[{"name":"city","type":"string","nullable":true},{"name":"zip","type":"int","nullable":true}]}
{"name":"props","type":"map","nullable":true,"children":[{"name":"key","type":"string","nullable":false},{"name":"value","type":"long","nullable":true}]}
{"name":"price","type":"decimal","nullable":true,"type_params":{"precision":12,"scale":3}}
{"name":"u","type":"uuid","nullable":true}
{"name":"ts","type":"timestamptz","nullable":true}
)");
  EXPECT_EQ((*defs)[1].children[0].name, "element");
  EXPECT_EQ((*defs)[3].children[0].name, "key");
}

TEST(ColumnDefsFromSchemaTest, RefusedTypesAreValidationErrors) {
  using namespace columnar;
  Schema schema;
  schema.fields = {Field{"t", Time64(TimeUnit::kNano), true, {}}};
  Result<std::vector<ColumnDef>> defs = ColumnDefsFromSchema(schema);
  ASSERT_FALSE(defs.ok());
  EXPECT_EQ(defs.error().code, ErrorCode::kValidation);
  EXPECT_NE(defs.error().message.find("supported types"), std::string::npos)
      << defs.error().message;
  Schema fixed;
  fixed.fields = {Field{"f", FixedSizeBinary(8), true, {}}};
  EXPECT_FALSE(ColumnDefsFromSchema(fixed).ok());
}

TEST(ColumnDefsFromSchemaTest, VariantCarriesItsShreddingDeclaration) {
  using namespace columnar;
  Field v = JsonField("v");
  v.metadata.emplace_back(std::string(iceberg::kVariantMetadataKey),
                          R"({"shredding": {"type": "int64"}})");
  Field plain = JsonField("p");
  plain.metadata.emplace_back(std::string(iceberg::kVariantMetadataKey), "{}");
  Schema schema;
  schema.fields = {v, plain, JsonField("j")};
  Result<std::vector<ColumnDef>> defs = ColumnDefsFromSchema(schema);
  ASSERT_TRUE(defs.ok()) << defs.error().ToString();
  EXPECT_EQ((*defs)[0].type.type, ColumnType::kVariant);
  EXPECT_EQ((*defs)[0].shredding_json, R"({"type":"int64"})");
  EXPECT_EQ((*defs)[1].type.type, ColumnType::kVariant);
  EXPECT_EQ((*defs)[1].shredding_json, std::nullopt);
  EXPECT_EQ((*defs)[2].type.type, ColumnType::kJson);
}

}  // namespace
}  // namespace hoglake::client
