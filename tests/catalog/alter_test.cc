// ALTER ops applied to the in-memory table model (alter_ops.h).
#include "catalog/ddl/alter_ops.h"

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

// id=1 long, score=2 float, addr=3 struct{city=4 string, zip=5 int}, tags=6 list{element=7},
// ts=8 timestamp, v=9 variant.
AlterState Sample() {
  TableInfo t;
  t.name = "events";
  t.columns = {
      Leaf("id", ColumnType::kLong, false),
      Leaf("score", ColumnType::kFloat),
      Container("addr", ColumnType::kStruct,
                {Leaf("city", ColumnType::kString), Leaf("zip", ColumnType::kInt)}),
      Container("tags", ColumnType::kList, {Leaf("element", ColumnType::kString)}),
      Leaf("ts", ColumnType::kTimestamp),
      Leaf("v", ColumnType::kVariant),
  };
  const int32_t next = *AssignFieldIds(t.columns, 1);
  return AlterStateOf(t, next);
}

AlterOp Op(AlterOpKind kind, std::string path = "", std::string to = "") {
  AlterOp op;
  op.kind = kind;
  op.path = std::move(path);
  op.to = std::move(to);
  return op;
}

AlterOp Add(ColumnNode column, std::optional<std::string> parent = std::nullopt) {
  AlterOp op = Op(AlterOpKind::kAddColumn);
  op.column = std::move(column);
  op.parent = std::move(parent);
  return op;
}

AlterOp Partition(std::vector<PartitionFieldInput> fields) {
  AlterOp op = Op(AlterOpKind::kSetPartitionSpec);
  op.partition_fields = std::move(fields);
  return op;
}

AlterOp Sort(std::vector<SortFieldInput> fields) {
  AlterOp op = Op(AlterOpKind::kSetSortOrder);
  op.sort_fields = std::move(fields);
  return op;
}

Status Apply(AlterState& s, std::vector<AlterOp> ops, AlterEnvironment env = {}) {
  return ApplyAlterOps(s, ops, env);
}

ErrorCode CodeOf(const Status& s) { return s.ok() ? ErrorCode::kInternal : s.error().code; }

TEST(AlterOpsTest, OpNamesRoundTrip) {
  for (auto name : {"add_column", "add_column_with_metadata", "drop_column", "rename_column",
                    "promote_column", "rename_table", "set_partition_spec", "set_sort_order",
                    "set_table_comment", "set_column_comment", "set_properties"}) {
    auto kind = ParseAlterOpKind(name);
    ASSERT_TRUE(kind.has_value()) << name;
    EXPECT_EQ(AlterOpName(*kind), name);
  }
  EXPECT_FALSE(ParseAlterOpKind("add_columns").has_value());
}

TEST(AlterOpsTest, AddColumnAllocatesIdsDepthFirstAndNextOrdinal) {
  AlterState s = Sample();
  ASSERT_EQ(s.next_field_id, 10);
  ASSERT_TRUE(Apply(s, {Add(Container("m", ColumnType::kMap,
                                      {Leaf("key", ColumnType::kString, false),
                                       Leaf("value", ColumnType::kLong)})),
                        Add(Leaf("country", ColumnType::kString), "addr")})
                  .ok());
  ASSERT_EQ(s.columns.size(), 7u);
  EXPECT_EQ(s.columns[6].field_id, 10);
  EXPECT_EQ(s.columns[6].ordinal, 6);
  EXPECT_EQ(s.columns[6].children[0].field_id, 11);
  EXPECT_EQ(s.columns[6].children[1].field_id, 12);
  EXPECT_EQ(s.columns[6].children[1].ordinal, 1);
  const ColumnNode& country = s.columns[2].children[2];
  EXPECT_EQ(country.name, "country");
  EXPECT_EQ(country.field_id, 13);
  EXPECT_EQ(country.ordinal, 2);
  EXPECT_EQ(s.next_field_id, 14);
}

TEST(AlterOpsTest, AddColumnRefusals) {
  AlterState s = Sample();
  EXPECT_EQ(CodeOf(Apply(s, {Add(Leaf("id", ColumnType::kInt))})), ErrorCode::kValidation);
  s = Sample();
  EXPECT_EQ(CodeOf(Apply(s, {Add(Leaf("x", ColumnType::kInt), "tags")})), ErrorCode::kValidation);
  s = Sample();
  EXPECT_EQ(CodeOf(Apply(s, {Add(Leaf("x", ColumnType::kInt), "tags.element")})),
            ErrorCode::kValidation);
  s = Sample();
  EXPECT_EQ(CodeOf(Apply(s, {Add(Leaf("x", ColumnType::kInt), "nope")})), ErrorCode::kValidation);
  s = Sample();
  EXPECT_EQ(CodeOf(Apply(s, {Add(Leaf("_hog_x", ColumnType::kInt))})), ErrorCode::kValidation);
  s = Sample();
  EXPECT_EQ(CodeOf(Apply(s, {Add(Container("bad", ColumnType::kList, {}))})),
            ErrorCode::kValidation);
  s = Sample();
  s.idless_files_present = true;
  Status idless = Apply(s, {Add(Leaf("x", ColumnType::kInt))});
  EXPECT_EQ(CodeOf(idless), ErrorCode::kIdlessFilesPresent);
  EXPECT_NE(idless.error().message.find("ops[0] (add_column)"), std::string::npos);
}

TEST(AlterOpsTest, AddColumnRespectsDepthLimit) {
  AlterState s = Sample();
  ColumnNode deep = Leaf("leaf", ColumnType::kInt);
  for (int i = 0; i < 7; ++i)
    deep = Container("s" + std::to_string(i), ColumnType::kStruct, {deep});
  EXPECT_TRUE(Apply(s, {Add(deep)}).ok());  // depth 8 at top level
  s = Sample();
  EXPECT_EQ(CodeOf(Apply(s, {Add(deep, "addr")})), ErrorCode::kValidation);  // depth 9
}

TEST(AlterOpsTest, DropColumnRules) {
  AlterState s = Sample();
  ASSERT_TRUE(Apply(s, {Op(AlterOpKind::kDropColumn, "addr.city")}).ok());
  ASSERT_EQ(s.columns[2].children.size(), 1u);
  EXPECT_EQ(CodeOf(Apply(s, {Op(AlterOpKind::kDropColumn, "addr.zip")})), ErrorCode::kValidation)
      << "last field of a struct";
  EXPECT_EQ(CodeOf(Apply(s, {Op(AlterOpKind::kDropColumn, "tags.element")})),
            ErrorCode::kValidation);
  ASSERT_TRUE(Apply(s, {Op(AlterOpKind::kDropColumn, "addr")}).ok());
  EXPECT_EQ(s.columns.size(), 5u);

  AlterState one;
  one.name = "t";
  one.columns = {Leaf("only", ColumnType::kInt)};
  one.columns[0].field_id = 1;
  EXPECT_EQ(CodeOf(Apply(one, {Op(AlterOpKind::kDropColumn, "only")})), ErrorCode::kValidation);

  s = Sample();
  ASSERT_TRUE(Apply(s, {Partition({{5, "bucket", 4}})}).ok());
  Status source = Apply(s, {Op(AlterOpKind::kDropColumn, "addr")});
  EXPECT_EQ(CodeOf(source), ErrorCode::kValidation);
  EXPECT_NE(source.error().message.find("partition"), std::string::npos);
  s = Sample();
  ASSERT_TRUE(Apply(s, {Sort({{1, "asc", "nulls_first"}})}).ok());
  EXPECT_EQ(CodeOf(Apply(s, {Op(AlterOpKind::kDropColumn, "id")})), ErrorCode::kValidation);
  // Clearing the sort order first (same request) makes the drop legal.
  s = Sample();
  EXPECT_TRUE(
      Apply(s, {Sort({{1, "asc", "nulls_first"}}), Sort({}), Op(AlterOpKind::kDropColumn, "id")})
          .ok());
}

TEST(AlterOpsTest, RenameColumnKeepsFieldIdAndChecksSiblings) {
  AlterState s = Sample();
  ASSERT_TRUE(Apply(s, {Op(AlterOpKind::kRenameColumn, "addr.city", "town")}).ok());
  EXPECT_EQ(s.columns[2].children[0].name, "town");
  EXPECT_EQ(s.columns[2].children[0].field_id, 4);
  EXPECT_EQ(CodeOf(Apply(s, {Op(AlterOpKind::kRenameColumn, "addr.town", "zip")})),
            ErrorCode::kValidation);
  EXPECT_EQ(CodeOf(Apply(s, {Op(AlterOpKind::kRenameColumn, "id", "bad name")})),
            ErrorCode::kValidation);
  EXPECT_EQ(CodeOf(Apply(s, {Op(AlterOpKind::kRenameColumn, "id", "_hog_id")})),
            ErrorCode::kValidation);
  s = Sample();  // a refused op leaves the state unspecified
  s.idless_files_present = true;
  EXPECT_EQ(CodeOf(Apply(s, {Op(AlterOpKind::kRenameColumn, "id", "ident")})),
            ErrorCode::kIdlessFilesPresent);
}

TEST(AlterOpsTest, PromoteColumnFollowsTheMatrix) {
  AlterState s = Sample();
  ASSERT_TRUE(Apply(s, {Op(AlterOpKind::kPromoteColumn, "addr.zip", "long"),
                        Op(AlterOpKind::kPromoteColumn, "score", "double")})
                  .ok());
  EXPECT_EQ(s.columns[2].children[1].type.type, ColumnType::kLong);
  EXPECT_EQ(s.promoted_from.at(5), ColumnType::kInt);
  EXPECT_EQ(s.promoted_from.at(2), ColumnType::kFloat);
  EXPECT_EQ(CodeOf(Apply(s, {Op(AlterOpKind::kPromoteColumn, "id", "int")})),
            ErrorCode::kValidation);
  EXPECT_EQ(CodeOf(Apply(s, {Op(AlterOpKind::kPromoteColumn, "addr", "long")})),
            ErrorCode::kValidation);
  EXPECT_EQ(CodeOf(Apply(s, {Op(AlterOpKind::kPromoteColumn, "id", "bogus")})),
            ErrorCode::kValidation);
  // A partition source may only become a type its transform accepts
  // (uint32 is not bucketable).
  TableInfo u;
  u.name = "u";
  u.columns = {Leaf("small", ColumnType::kUInt16), Leaf("other", ColumnType::kUInt16)};
  AlterState us = AlterStateOf(u, *AssignFieldIds(u.columns, 1));
  ASSERT_TRUE(Apply(us, {Partition({{1, "bucket", 8}, {2, "identity", std::nullopt}})}).ok());
  EXPECT_EQ(CodeOf(Apply(us, {Op(AlterOpKind::kPromoteColumn, "small", "uint32")})),
            ErrorCode::kValidation);
  EXPECT_TRUE(Apply(us, {Op(AlterOpKind::kPromoteColumn, "other", "uint32")}).ok());
  // A ladder within one request remembers the type before the request.
  TableInfo t;
  t.name = "t";
  t.columns = {Leaf("small", ColumnType::kInt8)};
  AlterState l = AlterStateOf(t, *AssignFieldIds(t.columns, 1));
  ASSERT_TRUE(Apply(l, {Op(AlterOpKind::kPromoteColumn, "small", "int16"),
                        Op(AlterOpKind::kPromoteColumn, "small", "long")})
                  .ok());
  EXPECT_EQ(l.promoted_from.at(1), ColumnType::kInt8);
  EXPECT_EQ(l.columns[0].type.type, ColumnType::kLong);
}

TEST(AlterOpsTest, PromoteColumnWidensDecimalPrecisionOfTheSameScale) {
  TableInfo t;
  t.name = "t";
  ColumnNode amount = Leaf("amount", ColumnType::kDecimal);
  amount.type = iceberg::TypeSpec::Decimal(12, 2);
  t.columns = {amount, Leaf("n", ColumnType::kLong)};
  const int32_t next = *AssignFieldIds(t.columns, 1);
  AlterState s = AlterStateOf(t, next);
  ASSERT_TRUE(Apply(s, {Op(AlterOpKind::kPromoteColumn, "amount", "decimal(14,2)")}).ok());
  EXPECT_EQ(s.columns[0].type, iceberg::TypeSpec::Decimal(14, 2));
  EXPECT_EQ(s.promoted_from.at(1), ColumnType::kDecimal);
  // Across the 18-digit line (8-byte to 16-byte storage) and spelled in
  // capitals; then to 38, the most a decimal holds.
  ASSERT_TRUE(Apply(s, {Op(AlterOpKind::kPromoteColumn, "amount", "DECIMAL(20,2)"),
                        Op(AlterOpKind::kPromoteColumn, "amount", "decimal(38,2)")})
                  .ok());
  EXPECT_EQ(s.columns[0].type, iceberg::TypeSpec::Decimal(38, 2));

  // Refused, each with a message saying why: narrowing, the same precision,
  // a scale change, past 38, a malformed spelling, a bare "decimal", a
  // decimal onto a non-decimal column and a decimal to another type.
  const struct {
    std::string column, to, why;
  } refused[] = {
      {"amount", "decimal(12,2)", "can only grow"},
      {"amount", "decimal(38,2)", "can only grow"},
      {"amount", "decimal(38,3)", "scale cannot change"},
      {"amount", "decimal(39,2)", "precision 1..38"},
      {"amount", "decimal(20, 2", "spelled decimal(P,S)"},
      {"amount", "decimal(20,2)x", "spelled decimal(P,S)"},
      {"amount", "decimal", "cannot promote column 'amount'"},
      {"n", "decimal(38,0)", "only a decimal column"},
      {"amount", "double", "cannot promote column 'amount' from decimal(38,2)"},
  };
  for (const auto& r : refused) {
    Status status = Apply(s, {Op(AlterOpKind::kPromoteColumn, r.column, r.to)});
    ASSERT_FALSE(status.ok()) << r.to;
    EXPECT_EQ(status.error().code, ErrorCode::kValidation) << r.to;
    EXPECT_NE(status.error().message.find(r.why), std::string::npos)
        << r.to << ": " << status.error().message;
  }
  EXPECT_EQ(s.columns[0].type, iceberg::TypeSpec::Decimal(38, 2));
}

TEST(AlterOpsTest, RenameTableChecksTheNamespace) {
  AlterState s = Sample();
  AlterEnvironment env;
  env.namespace_name = "web";
  env.table_name_taken = [](std::string_view name) -> Result<bool> { return name == "taken"; };
  ASSERT_TRUE(Apply(s, {Op(AlterOpKind::kRenameTable, "", "clicks")}, env).ok());
  EXPECT_EQ(s.name, "clicks");
  EXPECT_EQ(CodeOf(Apply(s, {Op(AlterOpKind::kRenameTable, "", "taken")}, env)),
            ErrorCode::kAlreadyExists);
  EXPECT_EQ(CodeOf(Apply(s, {Op(AlterOpKind::kRenameTable, "", "no way")}, env)),
            ErrorCode::kValidation);
}

TEST(AlterOpsTest, PartitionSpecRules) {
  AlterState s = Sample();
  s.max_spec_id = 3;
  ASSERT_TRUE(Apply(s, {Partition({{8, "day", std::nullopt}, {1, "bucket", 16}})}).ok());
  ASSERT_TRUE(s.partition_spec.has_value());
  EXPECT_EQ(s.partition_spec->spec_id, 4);
  EXPECT_EQ(s.partition_spec->fields[1].transform, "bucket");
  EXPECT_EQ(s.partition_spec->fields[1].transform_param, 16);
  EXPECT_TRUE(s.partition_changed);
  for (const PartitionFieldInput& bad :
       std::vector<PartitionFieldInput>{{99, "identity", std::nullopt},  // not a column
                                        {3, "identity", std::nullopt},   // container
                                        {7, "identity", std::nullopt},   // under a list
                                        {9, "identity", std::nullopt},   // variant
                                        {1, "bucket", std::nullopt},     // bucket needs N
                                        {1, "bucket", 0},                // N ≥ 1
                                        {2, "bucket", 4},                // float is not bucketable
                                        {1, "identity", 3},              // identity takes no param
                                        {1, "year", std::nullopt},       // year needs a temporal
                                        {1, "truncate", 10},            // not a spec transform here
                                        {1, "radix", std::nullopt}}) {  // unknown
    AlterState t = Sample();
    EXPECT_EQ(CodeOf(Apply(t, {Partition({bad})})), ErrorCode::kValidation)
        << bad.source_field_id << " " << bad.transform;
  }
  ASSERT_TRUE(Apply(s, {Partition({})}).ok());
  EXPECT_FALSE(s.partition_spec.has_value());
  EXPECT_TRUE(Apply(s, {Partition({{4, "identity", std::nullopt}})}).ok())  // struct leaf
      << "a struct's leaf is a valid source";
}

TEST(AlterOpsTest, SortOrderRules) {
  AlterState s = Sample();
  ASSERT_TRUE(Apply(s, {Sort({{1, "desc", "nulls_last"}, {5, "asc", "nulls_first"}})}).ok());
  EXPECT_EQ(s.sort_spec->sort_id, 1);
  EXPECT_EQ(s.sort_spec->fields[0].direction, "desc");
  for (const SortFieldInput& bad : std::vector<SortFieldInput>{{1, "up", "nulls_last"},
                                                               {1, "asc", "nulls_middle"},
                                                               {7, "asc", "nulls_last"},
                                                               {6, "asc", "nulls_last"},
                                                               {9, "asc", "nulls_last"}}) {
    AlterState t = Sample();
    EXPECT_EQ(CodeOf(Apply(t, {Sort({bad})})), ErrorCode::kValidation) << bad.source_field_id;
  }
  AlterState t = Sample();
  EXPECT_EQ(CodeOf(Apply(t, {Sort({{1, "asc", "nulls_last"}, {1, "desc", "nulls_last"}})})),
            ErrorCode::kValidation);
}

TEST(AlterOpsTest, CommentsAndProperties) {
  AlterState s = Sample();
  AlterOp table_comment = Op(AlterOpKind::kSetTableComment);
  table_comment.comment = "all events";
  AlterOp column_comment = Op(AlterOpKind::kSetColumnComment, "addr.zip");
  column_comment.comment = "postal";
  AlterOp props = Op(AlterOpKind::kSetProperties);
  props.properties = {{"write.format.default", "parquet"}, {"owner", "data"}};
  ASSERT_TRUE(Apply(s, {table_comment, column_comment, props}).ok());
  EXPECT_EQ(s.comment, "all events");
  EXPECT_EQ(s.columns[2].children[1].comment, "postal");
  ASSERT_EQ(s.properties.size(), 1u);
  EXPECT_EQ(s.properties[0].first, "owner");
  table_comment.comment.reset();
  ASSERT_TRUE(Apply(s, {table_comment}).ok());
  EXPECT_FALSE(s.comment.has_value());
  props.properties = {{"hoglake.secret", "x"}};
  EXPECT_EQ(CodeOf(Apply(s, {props})), ErrorCode::kValidation);
  column_comment.path = "tags.element";
  EXPECT_EQ(CodeOf(Apply(s, {column_comment})), ErrorCode::kValidation);
}

TEST(AlterOpsTest, LaterOpsSeeEarlierOnes) {
  AlterState s = Sample();
  AlterOp rename = Op(AlterOpKind::kRenameColumn, "score", "rating");
  ASSERT_TRUE(Apply(s, {Add(Leaf("extra", ColumnType::kInt)), rename,
                        Op(AlterOpKind::kPromoteColumn, "extra", "long"),
                        Op(AlterOpKind::kPromoteColumn, "rating", "double"),
                        Partition({{10, "identity", std::nullopt}})})
                  .ok());
  EXPECT_EQ(s.columns[6].type.type, ColumnType::kLong);
  EXPECT_EQ(s.partition_spec->fields[0].source_field_id, 10);
  // The old name is gone once renamed.
  EXPECT_EQ(CodeOf(Apply(s, {Op(AlterOpKind::kDropColumn, "score")})), ErrorCode::kValidation);
  Status second =
      Apply(s, {Op(AlterOpKind::kDropColumn, "rating"), Op(AlterOpKind::kDropColumn, "nope")});
  EXPECT_NE(second.error().message.find("ops[1] (drop_column)"), std::string::npos);
}

}  // namespace
}  // namespace hoglake::catalog
