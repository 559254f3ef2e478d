// FuseStatements: fusable statements with the same text and params[0] become
// one with their array parameters concatenated in member order; everything
// else keeps its place and order.
#include "pg/statement_fusion.h"

#include <gtest/gtest.h>

namespace hoglake::pg {
namespace {

constexpr const char* kInsert = "INSERT … unnest($2, $3)";
constexpr const char* kStage = "INSERT … unnest($2)";
constexpr const char* kOther = "INSERT INTO receipts …";

std::string ConcatArrayLiterals(std::string a, const std::string& b) {
  AppendArrayLiteral(b, &a);
  return a;
}

PgStatement Fusable(const char* sql, std::vector<PgParam> params) {
  PgStatement s{sql, std::move(params)};
  s.fusable = true;
  return s;
}

TEST(StatementFusionTest, ConcatenatesArrayLiterals) {
  EXPECT_EQ(ConcatArrayLiterals("{1,2}", "{3}"), "{1,2,3}");
  EXPECT_EQ(ConcatArrayLiterals("{}", "{3}"), "{3}");
  EXPECT_EQ(ConcatArrayLiterals("{1}", "{}"), "{1}");
  EXPECT_EQ(ConcatArrayLiterals("{}", "{}"), "{}");
  // Quoted elements and NULLs as PgTextArray writes them.
  const std::string a = PgTextArray({std::string("a,\"}"), std::nullopt});
  const std::string b = PgTextArray({std::string("{x}")});
  EXPECT_EQ(ConcatArrayLiterals(a, b),
            PgTextArray({std::string("a,\"}"), std::nullopt, std::string("{x}")}));
}

TEST(StatementFusionTest, FusesSameTextAndCatalogInMemberOrder) {
  std::vector<std::vector<PgStatement>> members = {
      {Fusable(kInsert, {"7", "{1,2}", "{\"a\",\"b\"}"}),
       {kOther, {"k1"}},
       Fusable(kStage, {"7", "{10}"})},
      {Fusable(kInsert, {"7", "{3}", "{\"c\"}"}), Fusable(kStage, {"7", "{11}"})},
      {Fusable(kInsert, {"7", "{}", "{}"}), {kOther, {"k3"}}, Fusable(kStage, {"7", "{12}"})},
  };
  FusedStatements out = FuseStatements(std::move(members));
  EXPECT_TRUE(out.fused);
  ASSERT_EQ(out.statements.size(), 4u);
  EXPECT_EQ(out.statements[0].sql, kInsert);
  EXPECT_EQ(out.statements[0].params,
            (std::vector<PgParam>{"7", "{1,2,3}", "{\"a\",\"b\",\"c\"}"}));
  EXPECT_EQ(out.statements[1].sql, kOther);
  EXPECT_EQ(out.statements[1].params, (std::vector<PgParam>{"k1"}));
  EXPECT_EQ(out.statements[2].sql, kStage);
  EXPECT_EQ(out.statements[2].params, (std::vector<PgParam>{"7", "{10,11,12}"}));
  EXPECT_EQ(out.statements[3].sql, kOther);
  EXPECT_EQ(out.statements[3].params, (std::vector<PgParam>{"k3"}));
}

TEST(StatementFusionTest, KeepsWhatCannotFuse) {
  std::vector<std::vector<PgStatement>> members = {
      // Another catalog: its own statement.
      {Fusable(kStage, {"7", "{1}"})},
      {Fusable(kStage, {"8", "{2}"})},
      // A parameter that is not an array literal (NULL, a scalar): unfused.
      {Fusable(kStage, {"7", std::nullopt})},
      {Fusable(kStage, {"7", "5"})},
      // Not marked fusable.
      {PgStatement{kStage, {"7", "{3}"}}},
  };
  FusedStatements out = FuseStatements(std::move(members));
  EXPECT_FALSE(out.fused);
  ASSERT_EQ(out.statements.size(), 5u);
  EXPECT_EQ(out.statements[0].params, (std::vector<PgParam>{"7", "{1}"}));
  EXPECT_EQ(out.statements[1].params, (std::vector<PgParam>{"8", "{2}"}));
  EXPECT_EQ(out.statements[4].params, (std::vector<PgParam>{"7", "{3}"}));
}

}  // namespace
}  // namespace hoglake::pg
