// ParseSql against parser.h's contract: each construct's tree (kinds, names,
// operators, flags, nesting, a few locations), whole TPC-H-shaped queries,
// EXPLAIN, several statements, statements that are not queries (their tags),
// syntax errors (message, position, SQLSTATE 42601), refused constructs
// (SQLSTATE 0A000), deep nesting and empty text.
#include "sql/parser/parser.h"

#include <gtest/gtest.h>
#include <pthread.h>

#include <string>
#include <utility>
#include <vector>

#include "sql/sql_error.h"

namespace hoglake::sql {
namespace {

using ast::ExprKind;

// The statements of `sql`; a test failure (and none) when it does not parse.
std::vector<ast::Statement> All(std::string_view sql) {
  Result<std::vector<ast::Statement>> parsed = ParseSql(sql);
  if (!parsed.ok()) {
    ADD_FAILURE() << sql << "\n→ " << parsed.error().message;
    return {};
  }
  return std::move(parsed).value();
}

// The one statement of `sql`; a test failure (and an empty one) otherwise.
ast::Statement One(std::string_view sql) {
  std::vector<ast::Statement> statements = All(sql);
  if (statements.size() != 1) {
    ADD_FAILURE() << sql << "\n→ " << statements.size() << " statements";
    return {};
  }
  return std::move(statements[0]);
}

// The query of the one statement of `sql`, never null.
ast::QueryPtr Query(std::string_view sql) {
  ast::Statement statement = One(sql);
  if (statement.kind != ast::StatementKind::kQuery || statement.query == nullptr) {
    ADD_FAILURE() << sql << "\n→ not a query";
    return std::make_unique<ast::QueryNode>();
  }
  return std::move(statement.query);
}

// The expression of the only select-list item of `sql`, never null.
ast::ExprPtr Scalar(std::string_view sql) {
  ast::QueryPtr query = Query(sql);
  if (query->targets.size() != 1) {
    ADD_FAILURE() << sql << "\n→ " << query->targets.size() << " select-list items";
    return std::make_unique<ast::Star>();
  }
  return std::move(query->targets[0].expr);
}

// The WHERE clause of `sql`, never null.
ast::ExprPtr Where(std::string_view sql) {
  ast::QueryPtr query = Query(sql);
  if (query->where == nullptr) {
    ADD_FAILURE() << sql << "\n→ no WHERE";
    return std::make_unique<ast::Star>();
  }
  return std::move(query->where);
}

// The error `sql` fails with; a test failure when it parses.
Error ErrorOf(std::string_view sql) {
  Result<std::vector<ast::Statement>> parsed = ParseSql(sql);
  if (parsed.ok()) {
    ADD_FAILURE() << sql << "\n→ parsed";
    return Error{ErrorCode::kInternal, "parsed"};
  }
  return parsed.error();
}

template <typename T, typename P>
const T* As(const P& pointer) {
  return dynamic_cast<const T*>(pointer.get());
}

std::string ColumnName(const ast::ExprPtr& expr) {
  const auto* column = As<ast::ColumnRef>(expr);
  if (column == nullptr) return "<not a column>";
  std::string name;
  for (const std::string& part : column->parts) name += (name.empty() ? "" : ".") + part;
  return name;
}

int64_t IntegerValue(const ast::ExprPtr& expr) {
  const auto* constant = As<ast::Constant>(expr);
  if (constant == nullptr || constant->constant_kind != ast::ConstantKind::kInteger) {
    ADD_FAILURE() << "not an integer constant";
    return -999;
  }
  return constant->integer_value;
}

std::string StringValue(const ast::ExprPtr& expr) {
  const auto* constant = As<ast::Constant>(expr);
  if (constant == nullptr || constant->constant_kind != ast::ConstantKind::kString) {
    ADD_FAILURE() << "not a string constant";
    return "<not a string>";
  }
  return constant->text;
}

void ExpectNotSupported(std::string_view sql, std::string_view message) {
  SCOPED_TRACE(std::string(sql));
  const Error error = ErrorOf(sql);
  EXPECT_EQ(SqlErrorKindOf(error), SqlErrorKind::kFeatureNotSupported);
  EXPECT_EQ(error.detail.sqlstate, "0A000");
  EXPECT_EQ(error.code, ErrorCode::kNotImplemented);
  EXPECT_EQ(error.message, message);
}

std::string Repeat(std::string_view piece, int times) {
  std::string out;
  out.reserve(piece.size() * times);
  for (int i = 0; i < times; ++i) out += piece;
  return out;
}

// ---- empty input -----------------------------------------------------------------

TEST(ParserTest, EmptyTextAndCommentsGiveNoStatements) {
  for (std::string_view sql : {"", "   \n\t", "-- just a comment", "/* block */", ";", " ; ;"}) {
    SCOPED_TRACE(std::string(sql));
    Result<std::vector<ast::Statement>> parsed = ParseSql(sql);
    ASSERT_TRUE(parsed.ok()) << parsed.error().message;
    EXPECT_TRUE(parsed->empty());
  }
}

// ---- select list and names ---------------------------------------------------------

TEST(ParserTest, SelectListStarsColumnsAndAliases) {
  ast::QueryPtr q = Query("SELECT *, t.*, a AS x, s.t.c, \"Quoted\", Folded FROM t");
  EXPECT_EQ(q->kind, ast::QueryKind::kSelect);
  ASSERT_EQ(q->targets.size(), 6u);
  EXPECT_EQ(q->targets[0].expr->kind, ExprKind::kStar);
  EXPECT_EQ(q->targets[0].expr->location, 7);
  const auto* t_star = As<ast::ColumnRef>(q->targets[1].expr);
  ASSERT_NE(t_star, nullptr);
  EXPECT_TRUE(t_star->star);
  EXPECT_EQ(t_star->parts, std::vector<std::string>{"t"});
  EXPECT_EQ(ColumnName(q->targets[2].expr), "a");
  EXPECT_EQ(q->targets[2].alias, "x");
  EXPECT_EQ(q->targets[2].location, 15);
  EXPECT_EQ(ColumnName(q->targets[3].expr), "s.t.c");
  EXPECT_FALSE(As<ast::ColumnRef>(q->targets[3].expr)->star);
  EXPECT_EQ(q->targets[3].alias, "");
  EXPECT_EQ(ColumnName(q->targets[4].expr), "Quoted");
  EXPECT_EQ(ColumnName(q->targets[5].expr), "folded");
}

TEST(ParserTest, LocationsAreByteOffsets) {
  ast::QueryPtr q = Query("SELECT a + 1 FROM tab WHERE b = 'x'");
  ASSERT_EQ(q->targets.size(), 1u);
  const auto* plus = As<ast::Operator>(q->targets[0].expr);
  ASSERT_NE(plus, nullptr);
  EXPECT_EQ(plus->location, 9);
  EXPECT_EQ(plus->left->location, 7);
  EXPECT_EQ(plus->right->location, 11);
  ASSERT_EQ(q->from.size(), 1u);
  EXPECT_EQ(q->from[0]->location, 18);
  const auto* eq = As<ast::Operator>(q->where);
  ASSERT_NE(eq, nullptr);
  EXPECT_EQ(eq->right->location, 32);
  EXPECT_EQ(q->location, 0);
}

// ---- constants and parameters -------------------------------------------------------

TEST(ParserTest, Constants) {
  ast::QueryPtr q =
      Query("SELECT 1, -7, 2147483648, 1.5e3, 'it''s', true, false, NULL, B'101', X'1F', $2");
  ASSERT_EQ(q->targets.size(), 11u);
  EXPECT_EQ(IntegerValue(q->targets[0].expr), 1);
  EXPECT_EQ(IntegerValue(q->targets[1].expr), -7);  // folded by the grammar
  const auto* big = As<ast::Constant>(q->targets[2].expr);
  ASSERT_NE(big, nullptr);
  EXPECT_EQ(big->constant_kind, ast::ConstantKind::kNumeric);
  EXPECT_EQ(big->text, "2147483648");
  EXPECT_EQ(As<ast::Constant>(q->targets[3].expr)->text, "1.5e3");
  EXPECT_EQ(StringValue(q->targets[4].expr), "it's");
  const auto* yes = As<ast::Constant>(q->targets[5].expr);
  ASSERT_NE(yes, nullptr);
  EXPECT_EQ(yes->constant_kind, ast::ConstantKind::kBool);
  EXPECT_TRUE(yes->bool_value);
  EXPECT_FALSE(As<ast::Constant>(q->targets[6].expr)->bool_value);
  EXPECT_EQ(As<ast::Constant>(q->targets[7].expr)->constant_kind, ast::ConstantKind::kNull);
  const auto* bits = As<ast::Constant>(q->targets[8].expr);
  ASSERT_NE(bits, nullptr);
  EXPECT_EQ(bits->constant_kind, ast::ConstantKind::kBitString);
  EXPECT_EQ(bits->text, "b101");
  EXPECT_EQ(As<ast::Constant>(q->targets[9].expr)->text, "x1F");
  const auto* param = As<ast::Parameter>(q->targets[10].expr);
  ASSERT_NE(param, nullptr);
  EXPECT_EQ(param->number, 2);
}

// ---- operators -------------------------------------------------------------------------

TEST(ParserTest, OperatorsNestByPrecedence) {
  ast::ExprPtr e = Scalar("SELECT -a + b * c || 'x'");
  const auto* concat = As<ast::Operator>(e);
  ASSERT_NE(concat, nullptr);
  EXPECT_EQ(concat->name, "||");
  const auto* plus = As<ast::Operator>(concat->left);
  ASSERT_NE(plus, nullptr);
  EXPECT_EQ(plus->name, "+");
  const auto* negate = As<ast::Operator>(plus->left);
  ASSERT_NE(negate, nullptr);
  EXPECT_EQ(negate->name, "-");
  EXPECT_EQ(negate->left, nullptr);
  EXPECT_EQ(ColumnName(negate->right), "a");
  const auto* times = As<ast::Operator>(plus->right);
  ASSERT_NE(times, nullptr);
  EXPECT_EQ(times->name, "*");
}

TEST(ParserTest, QualifiedOperatorTakesTheLastName) {
  const ast::ExprPtr e = Scalar("SELECT a OPERATOR(pg_catalog.+) b");
  const auto* op = As<ast::Operator>(e);
  ASSERT_NE(op, nullptr);
  EXPECT_EQ(op->name, "+");
  EXPECT_EQ(ColumnName(op->left), "a");
}

TEST(ParserTest, QuantifiedComparisons) {
  ast::QueryPtr q = Query("SELECT a = ANY(ARRAY[1, 2]), a > ALL(b), a < SOME(c)");
  ASSERT_EQ(q->targets.size(), 3u);
  const auto* any = As<ast::Quantified>(q->targets[0].expr);
  ASSERT_NE(any, nullptr);
  EXPECT_EQ(any->name, "=");
  EXPECT_FALSE(any->all);
  EXPECT_EQ(any->right->kind, ExprKind::kArray);
  const auto* all = As<ast::Quantified>(q->targets[1].expr);
  ASSERT_NE(all, nullptr);
  EXPECT_EQ(all->name, ">");
  EXPECT_TRUE(all->all);
  EXPECT_FALSE(As<ast::Quantified>(q->targets[2].expr)->all);
}

TEST(ParserTest, DistinctFromAndNullIf) {
  ast::QueryPtr q = Query("SELECT a IS DISTINCT FROM b, a IS NOT DISTINCT FROM b, NULLIF(a, 0)");
  ASSERT_EQ(q->targets.size(), 3u);
  const auto* distinct = As<ast::DistinctFrom>(q->targets[0].expr);
  ASSERT_NE(distinct, nullptr);
  EXPECT_FALSE(distinct->negated);
  EXPECT_EQ(ColumnName(distinct->right), "b");
  EXPECT_TRUE(As<ast::DistinctFrom>(q->targets[1].expr)->negated);
  const auto* nullif = As<ast::NullIf>(q->targets[2].expr);
  ASSERT_NE(nullif, nullptr);
  EXPECT_EQ(ColumnName(nullif->left), "a");
  EXPECT_EQ(IntegerValue(nullif->right), 0);
}

TEST(ParserTest, InLists) {
  ast::QueryPtr q = Query("SELECT a IN (1, 2, 3), b NOT IN ('x')");
  ASSERT_EQ(q->targets.size(), 2u);
  const auto* in = As<ast::InList>(q->targets[0].expr);
  ASSERT_NE(in, nullptr);
  EXPECT_FALSE(in->negated);
  EXPECT_EQ(ColumnName(in->value), "a");
  ASSERT_EQ(in->list.size(), 3u);
  EXPECT_EQ(IntegerValue(in->list[2]), 3);
  const auto* not_in = As<ast::InList>(q->targets[1].expr);
  ASSERT_NE(not_in, nullptr);
  EXPECT_TRUE(not_in->negated);
  ASSERT_EQ(not_in->list.size(), 1u);
  EXPECT_EQ(StringValue(not_in->list[0]), "x");
}

TEST(ParserTest, LikeAndIlikeWithEscape) {
  ast::QueryPtr q = Query(
      "SELECT a LIKE 'x%', a NOT LIKE 'y', a ILIKE 'z', a NOT ILIKE 'w' ESCAPE '#', "
      "a LIKE 'p!%' ESCAPE '!'");
  ASSERT_EQ(q->targets.size(), 5u);
  const auto* like = As<ast::Like>(q->targets[0].expr);
  ASSERT_NE(like, nullptr);
  EXPECT_FALSE(like->negated);
  EXPECT_FALSE(like->case_insensitive);
  EXPECT_EQ(StringValue(like->pattern), "x%");
  EXPECT_EQ(like->escape, nullptr);
  EXPECT_TRUE(As<ast::Like>(q->targets[1].expr)->negated);
  const auto* ilike = As<ast::Like>(q->targets[2].expr);
  EXPECT_TRUE(ilike->case_insensitive);
  EXPECT_FALSE(ilike->negated);
  const auto* not_ilike = As<ast::Like>(q->targets[3].expr);
  EXPECT_TRUE(not_ilike->case_insensitive);
  EXPECT_TRUE(not_ilike->negated);
  EXPECT_EQ(StringValue(not_ilike->pattern), "w");
  EXPECT_EQ(StringValue(not_ilike->escape), "#");
  const auto* escaped = As<ast::Like>(q->targets[4].expr);
  EXPECT_EQ(StringValue(escaped->pattern), "p!%");
  EXPECT_EQ(StringValue(escaped->escape), "!");
}

TEST(ParserTest, BetweenVariants) {
  ast::QueryPtr q = Query(
      "SELECT a BETWEEN 1 AND 2, a NOT BETWEEN 3 AND 4, a BETWEEN SYMMETRIC 5 AND 6, "
      "a NOT BETWEEN SYMMETRIC 7 AND 8");
  ASSERT_EQ(q->targets.size(), 4u);
  const auto* plain = As<ast::Between>(q->targets[0].expr);
  ASSERT_NE(plain, nullptr);
  EXPECT_FALSE(plain->negated);
  EXPECT_FALSE(plain->symmetric);
  EXPECT_EQ(ColumnName(plain->value), "a");
  EXPECT_EQ(IntegerValue(plain->low), 1);
  EXPECT_EQ(IntegerValue(plain->high), 2);
  const auto* negated = As<ast::Between>(q->targets[1].expr);
  EXPECT_TRUE(negated->negated);
  EXPECT_FALSE(negated->symmetric);
  const auto* symmetric = As<ast::Between>(q->targets[2].expr);
  EXPECT_FALSE(symmetric->negated);
  EXPECT_TRUE(symmetric->symmetric);
  const auto* both = As<ast::Between>(q->targets[3].expr);
  EXPECT_TRUE(both->negated);
  EXPECT_TRUE(both->symmetric);
  EXPECT_EQ(IntegerValue(both->high), 8);
}

TEST(ParserTest, BooleanConnectives) {
  const ast::ExprPtr e = Where("SELECT 1 WHERE a AND b AND c OR NOT d");
  const auto* o = As<ast::BoolExpr>(e);
  ASSERT_NE(o, nullptr);
  EXPECT_EQ(o->op, ast::BoolOp::kOr);
  ASSERT_EQ(o->args.size(), 2u);
  const auto* a = As<ast::BoolExpr>(o->args[0]);
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->op, ast::BoolOp::kAnd);
  ASSERT_EQ(a->args.size(), 3u);  // the grammar flattens AND chains
  EXPECT_EQ(ColumnName(a->args[2]), "c");
  const auto* n = As<ast::BoolExpr>(o->args[1]);
  ASSERT_NE(n, nullptr);
  EXPECT_EQ(n->op, ast::BoolOp::kNot);
  ASSERT_EQ(n->args.size(), 1u);
  EXPECT_EQ(ColumnName(n->args[0]), "d");
}

TEST(ParserTest, NullAndBooleanTests) {
  ast::QueryPtr q = Query(
      "SELECT a IS NULL, a IS NOT NULL, a IS TRUE, a IS NOT TRUE, a IS FALSE, a IS NOT FALSE, "
      "a IS UNKNOWN, a IS NOT UNKNOWN");
  ASSERT_EQ(q->targets.size(), 8u);
  EXPECT_FALSE(As<ast::NullTest>(q->targets[0].expr)->negated);
  EXPECT_TRUE(As<ast::NullTest>(q->targets[1].expr)->negated);
  using K = ast::BooleanTestKind;
  const K expected[] = {K::kIsTrue,     K::kIsNotTrue, K::kIsFalse,
                        K::kIsNotFalse, K::kIsUnknown, K::kIsNotUnknown};
  for (size_t i = 0; i < 6; ++i) {
    const auto* test = As<ast::BooleanTest>(q->targets[i + 2].expr);
    ASSERT_NE(test, nullptr) << i;
    EXPECT_EQ(test->test, expected[i]) << i;
    EXPECT_EQ(ColumnName(test->arg), "a");
  }
}

// ---- functions and windows -------------------------------------------------------------

TEST(ParserTest, NamedArgumentsKeepTheirNames) {
  ast::QueryPtr q = Query("SELECT make_interval(1, days => 2, secs => 3.5)");
  const auto* call = As<ast::FunctionCall>(q->targets[0].expr);
  ASSERT_NE(call, nullptr);
  ASSERT_EQ(call->args.size(), 3u);
  EXPECT_EQ(call->arg_names, (std::vector<std::string>{"", "days", "secs"}));
  EXPECT_EQ(IntegerValue(call->args[1]), 2);
}

TEST(ParserTest, AggregateCalls) {
  ast::QueryPtr q = Query(
      "SELECT count(*), count(DISTINCT a), sum(a) FILTER (WHERE a > 1), "
      "string_agg(a, ',' ORDER BY a DESC), percentile_cont(0.5) WITHIN GROUP (ORDER BY a), "
      "f(VARIADIC arr), pg_catalog.lower(s) FROM t");
  ASSERT_EQ(q->targets.size(), 7u);
  const auto* count_star = As<ast::FunctionCall>(q->targets[0].expr);
  ASSERT_NE(count_star, nullptr);
  EXPECT_EQ(count_star->name, std::vector<std::string>{"count"});
  EXPECT_TRUE(count_star->star);
  EXPECT_TRUE(count_star->args.empty());
  const auto* count_distinct = As<ast::FunctionCall>(q->targets[1].expr);
  EXPECT_TRUE(count_distinct->distinct);
  EXPECT_FALSE(count_distinct->star);
  ASSERT_EQ(count_distinct->args.size(), 1u);
  const auto* filtered = As<ast::FunctionCall>(q->targets[2].expr);
  ASSERT_NE(filtered->filter, nullptr);
  EXPECT_EQ(As<ast::Operator>(filtered->filter)->name, ">");
  const auto* ordered = As<ast::FunctionCall>(q->targets[3].expr);
  ASSERT_EQ(ordered->args.size(), 2u);
  ASSERT_EQ(ordered->order_by.size(), 1u);
  EXPECT_EQ(ordered->order_by[0].direction, ast::SortDirection::kDescending);
  EXPECT_FALSE(ordered->within_group);
  const auto* within = As<ast::FunctionCall>(q->targets[4].expr);
  EXPECT_TRUE(within->within_group);
  ASSERT_EQ(within->order_by.size(), 1u);
  EXPECT_EQ(ColumnName(within->order_by[0].expr), "a");
  EXPECT_TRUE(As<ast::FunctionCall>(q->targets[5].expr)->variadic);
  EXPECT_EQ(As<ast::FunctionCall>(q->targets[6].expr)->name,
            (std::vector<std::string>{"pg_catalog", "lower"}));
}

TEST(ParserTest, SpecialSyntaxesBecomeCatalogFunctions) {
  ast::QueryPtr q = Query(
      "SELECT EXTRACT(year FROM d), SUBSTRING(s FROM 2 FOR 3), POSITION('a' IN s), "
      "TRIM(BOTH 'x' FROM s)");
  ASSERT_EQ(q->targets.size(), 4u);
  const auto* extract = As<ast::FunctionCall>(q->targets[0].expr);
  ASSERT_NE(extract, nullptr);
  EXPECT_EQ(extract->name, (std::vector<std::string>{"pg_catalog", "extract"}));
  ASSERT_EQ(extract->args.size(), 2u);
  EXPECT_EQ(StringValue(extract->args[0]), "year");
  const auto* substring = As<ast::FunctionCall>(q->targets[1].expr);
  EXPECT_EQ(substring->name, (std::vector<std::string>{"pg_catalog", "substring"}));
  ASSERT_EQ(substring->args.size(), 3u);
  EXPECT_EQ(IntegerValue(substring->args[2]), 3);
  const auto* position = As<ast::FunctionCall>(q->targets[2].expr);
  ASSERT_EQ(position->args.size(), 2u);
  EXPECT_EQ(ColumnName(position->args[0]), "s");
  EXPECT_EQ(StringValue(position->args[1]), "a");
  const auto* trim = As<ast::FunctionCall>(q->targets[3].expr);
  EXPECT_EQ(trim->name, (std::vector<std::string>{"pg_catalog", "btrim"}));
}

TEST(ParserTest, WindowSpecificationsAndFrames) {
  ast::QueryPtr q = Query(
      "SELECT sum(a) OVER (PARTITION BY b ORDER BY c ROWS BETWEEN 2 PRECEDING AND CURRENT ROW), "
      "sum(a) OVER (RANGE BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING), "
      "sum(a) OVER (ORDER BY c GROUPS BETWEEN 1 FOLLOWING AND 3 FOLLOWING EXCLUDE TIES), "
      "sum(a) OVER (ORDER BY c ROWS 5 PRECEDING), "
      "rank() OVER () FROM t");
  ASSERT_EQ(q->targets.size(), 5u);
  const auto* rows = As<ast::FunctionCall>(q->targets[0].expr);
  ASSERT_NE(rows, nullptr);
  ASSERT_NE(rows->over, nullptr);
  const ast::WindowSpec& w0 = *rows->over;
  ASSERT_EQ(w0.partition_by.size(), 1u);
  EXPECT_EQ(ColumnName(w0.partition_by[0]), "b");
  ASSERT_EQ(w0.order_by.size(), 1u);
  EXPECT_TRUE(w0.has_frame);
  EXPECT_EQ(w0.frame_unit, ast::FrameUnit::kRows);
  EXPECT_EQ(w0.frame_start, ast::FrameBoundKind::kPreceding);
  EXPECT_EQ(IntegerValue(w0.start_offset), 2);
  EXPECT_EQ(w0.frame_end, ast::FrameBoundKind::kCurrentRow);
  EXPECT_EQ(w0.end_offset, nullptr);
  EXPECT_FALSE(w0.frame_exclusion);
  EXPECT_EQ(w0.name, "");
  EXPECT_EQ(w0.reference, "");

  const ast::WindowSpec& w1 = *As<ast::FunctionCall>(q->targets[1].expr)->over;
  EXPECT_TRUE(w1.has_frame);
  EXPECT_EQ(w1.frame_unit, ast::FrameUnit::kRange);
  EXPECT_EQ(w1.frame_start, ast::FrameBoundKind::kUnboundedPreceding);
  EXPECT_EQ(w1.frame_end, ast::FrameBoundKind::kUnboundedFollowing);

  const ast::WindowSpec& w2 = *As<ast::FunctionCall>(q->targets[2].expr)->over;
  EXPECT_EQ(w2.frame_unit, ast::FrameUnit::kGroups);
  EXPECT_EQ(w2.frame_start, ast::FrameBoundKind::kFollowing);
  EXPECT_EQ(w2.frame_end, ast::FrameBoundKind::kFollowing);
  EXPECT_EQ(IntegerValue(w2.start_offset), 1);
  EXPECT_EQ(IntegerValue(w2.end_offset), 3);
  EXPECT_TRUE(w2.frame_exclusion);

  const ast::WindowSpec& w3 = *As<ast::FunctionCall>(q->targets[3].expr)->over;
  EXPECT_EQ(w3.frame_unit, ast::FrameUnit::kRows);
  EXPECT_EQ(w3.frame_start, ast::FrameBoundKind::kPreceding);
  EXPECT_EQ(IntegerValue(w3.start_offset), 5);
  EXPECT_EQ(w3.frame_end, ast::FrameBoundKind::kCurrentRow);

  const ast::WindowSpec& w4 = *As<ast::FunctionCall>(q->targets[4].expr)->over;
  EXPECT_FALSE(w4.has_frame);
  EXPECT_TRUE(w4.partition_by.empty());
  EXPECT_TRUE(w4.order_by.empty());
}

TEST(ParserTest, NamedWindows) {
  ast::QueryPtr q = Query(
      "SELECT count(*) OVER w, sum(a) OVER (w2 ORDER BY c) FROM t "
      "WINDOW w AS (PARTITION BY a), w2 AS (w ROWS UNBOUNDED PRECEDING)");
  ASSERT_EQ(q->targets.size(), 2u);
  const auto* by_name = As<ast::FunctionCall>(q->targets[0].expr);
  ASSERT_NE(by_name, nullptr);
  ASSERT_NE(by_name->over, nullptr);
  EXPECT_EQ(by_name->over->reference, "w");
  EXPECT_EQ(by_name->over->name, "");
  EXPECT_FALSE(by_name->over->has_frame);
  const auto* refined = As<ast::FunctionCall>(q->targets[1].expr);
  EXPECT_EQ(refined->over->reference, "w2");
  EXPECT_EQ(refined->over->name, "");
  EXPECT_EQ(refined->over->order_by.size(), 1u);

  ASSERT_EQ(q->windows.size(), 2u);
  EXPECT_EQ(q->windows[0].name, "w");
  EXPECT_EQ(q->windows[0].reference, "");
  ASSERT_EQ(q->windows[0].partition_by.size(), 1u);
  EXPECT_EQ(q->windows[1].name, "w2");
  EXPECT_EQ(q->windows[1].reference, "w");
  EXPECT_TRUE(q->windows[1].has_frame);
  EXPECT_EQ(q->windows[1].frame_start, ast::FrameBoundKind::kUnboundedPreceding);
  EXPECT_EQ(q->windows[1].frame_end, ast::FrameBoundKind::kCurrentRow);
}

// ---- casts and other expression forms ---------------------------------------------------

TEST(ParserTest, CastsAndTypeNames) {
  ast::QueryPtr q = Query(
      "SELECT CAST(a AS numeric(10, 2)), a::int[], b::text[][], date '2024-01-01', "
      "interval '1' day, 'x'::varchar(5), a::my_schema.my_type");
  ASSERT_EQ(q->targets.size(), 7u);
  const auto* numeric = As<ast::Cast>(q->targets[0].expr);
  ASSERT_NE(numeric, nullptr);
  EXPECT_EQ(numeric->type.names, (std::vector<std::string>{"pg_catalog", "numeric"}));
  EXPECT_EQ(numeric->type.modifiers, (std::vector<int64_t>{10, 2}));
  EXPECT_EQ(numeric->type.array_dimensions, 0);
  EXPECT_EQ(ColumnName(numeric->arg), "a");
  const auto* int_array = As<ast::Cast>(q->targets[1].expr);
  EXPECT_EQ(int_array->type.names, (std::vector<std::string>{"pg_catalog", "int4"}));
  EXPECT_EQ(int_array->type.array_dimensions, 1);
  EXPECT_EQ(As<ast::Cast>(q->targets[2].expr)->type.array_dimensions, 2);
  const auto* date = As<ast::Cast>(q->targets[3].expr);
  EXPECT_EQ(date->type.names, std::vector<std::string>{"date"});
  EXPECT_EQ(StringValue(date->arg), "2024-01-01");
  EXPECT_EQ(date->location, q->targets[3].location);  // the type's, for a typed literal
  const auto* interval = As<ast::Cast>(q->targets[4].expr);
  EXPECT_EQ(interval->type.names, (std::vector<std::string>{"pg_catalog", "interval"}));
  EXPECT_EQ(interval->type.modifiers, std::vector<int64_t>{8});  // INTERVAL_MASK(DAY)
  EXPECT_EQ(As<ast::Cast>(q->targets[5].expr)->type.modifiers, std::vector<int64_t>{5});
  EXPECT_EQ(As<ast::Cast>(q->targets[6].expr)->type.names,
            (std::vector<std::string>{"my_schema", "my_type"}));
}

TEST(ParserTest, CaseCoalesceGreatestLeast) {
  ast::QueryPtr q = Query(
      "SELECT CASE a WHEN 1 THEN 'one' WHEN 2 THEN 'two' ELSE 'many' END, "
      "CASE WHEN a > 0 THEN 1 END, COALESCE(a, b, 0), GREATEST(a, b), LEAST(a)");
  ASSERT_EQ(q->targets.size(), 5u);
  const auto* simple = As<ast::Case>(q->targets[0].expr);
  ASSERT_NE(simple, nullptr);
  EXPECT_EQ(ColumnName(simple->arg), "a");
  ASSERT_EQ(simple->whens.size(), 2u);
  EXPECT_EQ(IntegerValue(simple->whens[1].condition), 2);
  EXPECT_EQ(StringValue(simple->whens[1].result), "two");
  EXPECT_EQ(StringValue(simple->else_result), "many");
  const auto* searched = As<ast::Case>(q->targets[1].expr);
  EXPECT_EQ(searched->arg, nullptr);
  ASSERT_EQ(searched->whens.size(), 1u);
  EXPECT_EQ(searched->whens[0].condition->kind, ExprKind::kOperator);
  EXPECT_EQ(searched->else_result, nullptr);
  EXPECT_EQ(As<ast::Coalesce>(q->targets[2].expr)->args.size(), 3u);
  const auto* greatest = As<ast::MinMax>(q->targets[3].expr);
  EXPECT_TRUE(greatest->greatest);
  EXPECT_EQ(greatest->args.size(), 2u);
  const auto* least = As<ast::MinMax>(q->targets[4].expr);
  EXPECT_FALSE(least->greatest);
  EXPECT_EQ(least->args.size(), 1u);
}

TEST(ParserTest, Subqueries) {
  ast::QueryPtr q = Query(
      "SELECT EXISTS (SELECT 1), a IN (SELECT b FROM u), a NOT IN (SELECT b FROM u), "
      "a > ALL (SELECT c FROM v), a < SOME (SELECT c FROM v), (SELECT max(x) FROM w), "
      "ARRAY(SELECT y FROM z)");
  ASSERT_EQ(q->targets.size(), 7u);
  const auto* exists = As<ast::Subquery>(q->targets[0].expr);
  ASSERT_NE(exists, nullptr);
  EXPECT_EQ(exists->subquery_kind, ast::SubqueryKind::kExists);
  EXPECT_EQ(exists->test, nullptr);
  ASSERT_NE(exists->query, nullptr);
  EXPECT_EQ(exists->query->location, -1);
  const auto* in = As<ast::Subquery>(q->targets[1].expr);
  EXPECT_EQ(in->subquery_kind, ast::SubqueryKind::kAny);
  EXPECT_EQ(in->operator_name, "=");
  EXPECT_EQ(ColumnName(in->test), "a");
  ASSERT_EQ(in->query->from.size(), 1u);
  EXPECT_EQ(As<ast::BaseTableRef>(in->query->from[0])->name, "u");
  const auto* not_in = As<ast::BoolExpr>(q->targets[2].expr);
  ASSERT_NE(not_in, nullptr);
  EXPECT_EQ(not_in->op, ast::BoolOp::kNot);
  EXPECT_EQ(As<ast::Subquery>(not_in->args[0])->subquery_kind, ast::SubqueryKind::kAny);
  const auto* all = As<ast::Subquery>(q->targets[3].expr);
  EXPECT_EQ(all->subquery_kind, ast::SubqueryKind::kAll);
  EXPECT_EQ(all->operator_name, ">");
  const auto* some = As<ast::Subquery>(q->targets[4].expr);
  EXPECT_EQ(some->subquery_kind, ast::SubqueryKind::kAny);
  EXPECT_EQ(some->operator_name, "<");
  const auto* scalar = As<ast::Subquery>(q->targets[5].expr);
  EXPECT_EQ(scalar->subquery_kind, ast::SubqueryKind::kScalar);
  ASSERT_EQ(scalar->query->targets.size(), 1u);
  EXPECT_EQ(scalar->query->targets[0].expr->kind, ExprKind::kFunction);
  EXPECT_EQ(As<ast::Subquery>(q->targets[6].expr)->subquery_kind, ast::SubqueryKind::kArray);
}

TEST(ParserTest, IndirectionArraysRowsValueFunctions) {
  ast::QueryPtr q = Query(
      "SELECT a[1], a[2:3], a[:4], (s).f, (s).*, ARRAY[[1, 2], [3, 4]], ROW(1, 'x'), (1, 2), "
      "CURRENT_DATE, CURRENT_TIMESTAMP(3), LOCALTIMESTAMP, CURRENT_USER, CURRENT_SCHEMA");
  ASSERT_EQ(q->targets.size(), 13u);
  const auto* subscript = As<ast::Indirection>(q->targets[0].expr);
  ASSERT_NE(subscript, nullptr);
  EXPECT_EQ(ColumnName(subscript->arg), "a");
  ASSERT_EQ(subscript->steps.size(), 1u);
  EXPECT_EQ(subscript->steps[0].kind, ast::IndirectionStep::kSubscript);
  EXPECT_EQ(IntegerValue(subscript->steps[0].lower), 1);
  const ast::IndirectionStep& slice = As<ast::Indirection>(q->targets[1].expr)->steps.at(0);
  EXPECT_EQ(slice.kind, ast::IndirectionStep::kSlice);
  EXPECT_EQ(IntegerValue(slice.lower), 2);
  EXPECT_EQ(IntegerValue(slice.upper), 3);
  const ast::IndirectionStep& open = As<ast::Indirection>(q->targets[2].expr)->steps.at(0);
  EXPECT_EQ(open.kind, ast::IndirectionStep::kSlice);
  EXPECT_EQ(open.lower, nullptr);
  EXPECT_EQ(IntegerValue(open.upper), 4);
  const ast::IndirectionStep& field = As<ast::Indirection>(q->targets[3].expr)->steps.at(0);
  EXPECT_EQ(field.kind, ast::IndirectionStep::kField);
  EXPECT_EQ(field.field, "f");
  EXPECT_EQ(As<ast::Indirection>(q->targets[4].expr)->steps.at(0).kind,
            ast::IndirectionStep::kStar);
  const auto* array = As<ast::ArrayExpr>(q->targets[5].expr);
  ASSERT_NE(array, nullptr);
  ASSERT_EQ(array->elements.size(), 2u);
  EXPECT_EQ(As<ast::ArrayExpr>(array->elements[1])->elements.size(), 2u);
  EXPECT_EQ(As<ast::RowExpr>(q->targets[6].expr)->fields.size(), 2u);
  EXPECT_EQ(As<ast::RowExpr>(q->targets[7].expr)->fields.size(), 2u);
  using K = ast::ValueFunctionKind;
  const auto* date = As<ast::ValueFunction>(q->targets[8].expr);
  ASSERT_NE(date, nullptr);
  EXPECT_EQ(date->function, K::kCurrentDate);
  EXPECT_EQ(date->precision, -1);
  const auto* timestamp = As<ast::ValueFunction>(q->targets[9].expr);
  EXPECT_EQ(timestamp->function, K::kCurrentTimestamp);
  EXPECT_EQ(timestamp->precision, 3);
  EXPECT_EQ(As<ast::ValueFunction>(q->targets[10].expr)->function, K::kLocalTimestamp);
  EXPECT_EQ(As<ast::ValueFunction>(q->targets[11].expr)->function, K::kCurrentUser);
  EXPECT_EQ(As<ast::ValueFunction>(q->targets[12].expr)->function, K::kCurrentSchema);
}

// ---- FROM --------------------------------------------------------------------------------

TEST(ParserTest, BaseTablesSubqueriesAndFunctions) {
  ast::QueryPtr q = Query(
      "SELECT 1 FROM cat.sch.t1 AS x (c1, c2), sch.t2, ONLY t3, "
      "LATERAL (SELECT 1) AS s (q), generate_series(1, 3) WITH ORDINALITY AS g, "
      "ROWS FROM (unnest(a)) AS u");
  ASSERT_EQ(q->from.size(), 6u);
  const auto* t1 = As<ast::BaseTableRef>(q->from[0]);
  ASSERT_NE(t1, nullptr);
  EXPECT_EQ(t1->catalog, "cat");
  EXPECT_EQ(t1->schema, "sch");
  EXPECT_EQ(t1->name, "t1");
  EXPECT_EQ(t1->alias, "x");
  EXPECT_EQ(t1->column_aliases, (std::vector<std::string>{"c1", "c2"}));
  EXPECT_FALSE(t1->only);
  EXPECT_EQ(t1->location, 14);
  const auto* t2 = As<ast::BaseTableRef>(q->from[1]);
  EXPECT_EQ(t2->catalog, "");
  EXPECT_EQ(t2->schema, "sch");
  EXPECT_EQ(t2->alias, "");
  EXPECT_TRUE(As<ast::BaseTableRef>(q->from[2])->only);
  const auto* sub = As<ast::SubqueryRef>(q->from[3]);
  ASSERT_NE(sub, nullptr);
  EXPECT_TRUE(sub->lateral);
  EXPECT_EQ(sub->alias, "s");
  EXPECT_EQ(sub->column_aliases, std::vector<std::string>{"q"});
  ASSERT_NE(sub->query, nullptr);
  const auto* series = As<ast::FunctionRef>(q->from[4]);
  ASSERT_NE(series, nullptr);
  EXPECT_TRUE(series->with_ordinality);
  EXPECT_FALSE(series->lateral);
  EXPECT_EQ(series->alias, "g");
  const auto* call = As<ast::FunctionCall>(series->call);
  ASSERT_NE(call, nullptr);
  EXPECT_EQ(call->name, std::vector<std::string>{"generate_series"});
  EXPECT_EQ(call->args.size(), 2u);
  EXPECT_EQ(series->location, call->location);
  const auto* rows_from = As<ast::FunctionRef>(q->from[5]);
  ASSERT_NE(rows_from, nullptr);
  EXPECT_EQ(As<ast::FunctionCall>(rows_from->call)->name, std::vector<std::string>{"unnest"});
}

TEST(ParserTest, Joins) {
  ast::QueryPtr q = Query(
      "SELECT 1 FROM a JOIN b ON a.x = b.x LEFT JOIN c USING (x, y) RIGHT OUTER JOIN d ON true "
      "FULL JOIN e ON false, f CROSS JOIN g, h NATURAL JOIN i, (j JOIN k ON j.z = k.z) AS jk (p)");
  ASSERT_EQ(q->from.size(), 4u);
  const auto* full = As<ast::JoinRef>(q->from[0]);
  ASSERT_NE(full, nullptr);
  EXPECT_EQ(full->join_type, ast::JoinType::kFull);
  EXPECT_EQ(full->location, -1);
  const auto* right = As<ast::JoinRef>(full->left);
  ASSERT_NE(right, nullptr);
  EXPECT_EQ(right->join_type, ast::JoinType::kRight);
  const auto* left = As<ast::JoinRef>(right->left);
  ASSERT_NE(left, nullptr);
  EXPECT_EQ(left->join_type, ast::JoinType::kLeft);
  EXPECT_EQ(left->using_columns, (std::vector<std::string>{"x", "y"}));
  EXPECT_EQ(left->condition, nullptr);
  const auto* inner = As<ast::JoinRef>(left->left);
  ASSERT_NE(inner, nullptr);
  EXPECT_EQ(inner->join_type, ast::JoinType::kInner);
  ASSERT_NE(inner->condition, nullptr);
  EXPECT_EQ(As<ast::Operator>(inner->condition)->name, "=");
  EXPECT_EQ(As<ast::BaseTableRef>(inner->left)->name, "a");
  EXPECT_EQ(As<ast::BaseTableRef>(inner->right)->name, "b");
  EXPECT_EQ(As<ast::BaseTableRef>(full->right)->name, "e");

  const auto* cross = As<ast::JoinRef>(q->from[1]);
  EXPECT_EQ(cross->join_type, ast::JoinType::kCross);
  EXPECT_EQ(cross->condition, nullptr);
  const auto* natural = As<ast::JoinRef>(q->from[2]);
  EXPECT_EQ(natural->join_type, ast::JoinType::kInner);
  EXPECT_TRUE(natural->natural);
  const auto* aliased = As<ast::JoinRef>(q->from[3]);
  EXPECT_EQ(aliased->alias, "jk");
  EXPECT_EQ(aliased->column_aliases, std::vector<std::string>{"p"});
  EXPECT_EQ(aliased->join_type, ast::JoinType::kInner);
}

// ---- query clauses ------------------------------------------------------------------------

TEST(ParserTest, WhereGroupByHaving) {
  ast::QueryPtr q =
      Query("SELECT a, count(*) FROM t WHERE b > 0 GROUP BY a, 2 HAVING count(*) > 1");
  ASSERT_NE(q->where, nullptr);
  ASSERT_EQ(q->group_by.size(), 2u);
  EXPECT_EQ(ColumnName(q->group_by[0]), "a");
  EXPECT_EQ(IntegerValue(q->group_by[1]), 2);
  EXPECT_FALSE(q->group_by_special);
  ASSERT_NE(q->having, nullptr);
  EXPECT_EQ(As<ast::Operator>(q->having)->name, ">");
  EXPECT_FALSE(q->distinct);
  EXPECT_FALSE(q->select_into);
}

TEST(ParserTest, GroupingSetsOnlyRaiseTheFlag) {
  ast::QueryPtr q = Query("SELECT a, b FROM t GROUP BY ROLLUP (a), b");
  EXPECT_TRUE(q->group_by_special);
  ASSERT_EQ(q->group_by.size(), 1u);
  EXPECT_EQ(ColumnName(q->group_by[0]), "b");
  EXPECT_TRUE(Query("SELECT 1 FROM t GROUP BY CUBE (a, b)")->group_by_special);
  EXPECT_TRUE(Query("SELECT 1 FROM t GROUP BY GROUPING SETS ((a), ())")->group_by_special);
  EXPECT_TRUE(Query("SELECT 1 FROM t GROUP BY ()")->group_by_special);
}

TEST(ParserTest, DistinctAndDistinctOn) {
  ast::QueryPtr plain = Query("SELECT DISTINCT a FROM t");
  EXPECT_TRUE(plain->distinct);
  EXPECT_TRUE(plain->distinct_on.empty());
  ast::QueryPtr on = Query("SELECT DISTINCT ON (a, b + 1) a FROM t");
  EXPECT_TRUE(on->distinct);
  ASSERT_EQ(on->distinct_on.size(), 2u);
  EXPECT_EQ(ColumnName(on->distinct_on[0]), "a");
  EXPECT_EQ(on->distinct_on[1]->kind, ExprKind::kOperator);
  EXPECT_FALSE(Query("SELECT ALL a FROM t")->distinct);
}

TEST(ParserTest, OrderLimitOffsetLocking) {
  ast::QueryPtr q = Query(
      "SELECT a FROM t ORDER BY a, b ASC, c DESC NULLS FIRST, d NULLS LAST, e USING > "
      "LIMIT 10 OFFSET 5 FOR UPDATE");
  ASSERT_EQ(q->order_by.size(), 5u);
  EXPECT_EQ(q->order_by[0].direction, ast::SortDirection::kDefault);
  EXPECT_EQ(q->order_by[0].nulls, ast::NullsOrder::kDefault);
  EXPECT_EQ(q->order_by[1].direction, ast::SortDirection::kAscending);
  EXPECT_EQ(q->order_by[2].direction, ast::SortDirection::kDescending);
  EXPECT_EQ(q->order_by[2].nulls, ast::NullsOrder::kFirst);
  EXPECT_EQ(q->order_by[3].nulls, ast::NullsOrder::kLast);
  EXPECT_TRUE(q->order_by[4].using_operator);
  EXPECT_FALSE(q->order_by[3].using_operator);
  EXPECT_EQ(IntegerValue(q->limit), 10);
  EXPECT_EQ(IntegerValue(q->offset), 5);
  EXPECT_TRUE(q->for_update);
  EXPECT_FALSE(q->limit_with_ties);

  ast::QueryPtr all = Query("SELECT a FROM t LIMIT ALL");
  EXPECT_EQ(all->limit, nullptr);
  EXPECT_EQ(all->offset, nullptr);
  EXPECT_FALSE(all->for_update);

  ast::QueryPtr ties = Query("SELECT a FROM t ORDER BY a FETCH FIRST 3 ROWS WITH TIES");
  EXPECT_EQ(IntegerValue(ties->limit), 3);
  EXPECT_TRUE(ties->limit_with_ties);
  EXPECT_EQ(IntegerValue(Query("SELECT a FROM t OFFSET 2 ROWS FETCH NEXT 4 ROWS ONLY")->limit), 4);
  EXPECT_TRUE(Query("SELECT a FROM t FOR SHARE")->for_update);
}

TEST(ParserTest, SelectIntoIsFlagged) {
  ast::QueryPtr q = Query("SELECT a INTO new_table FROM t");
  EXPECT_TRUE(q->select_into);
  EXPECT_EQ(q->targets.size(), 1u);
}

TEST(ParserTest, Values) {
  ast::QueryPtr q = Query("VALUES (1, 'a'), (2, 'b') ORDER BY 1 LIMIT 1");
  EXPECT_EQ(q->kind, ast::QueryKind::kValues);
  ASSERT_EQ(q->values.size(), 2u);
  ASSERT_EQ(q->values[1].size(), 2u);
  EXPECT_EQ(IntegerValue(q->values[1][0]), 2);
  EXPECT_EQ(StringValue(q->values[1][1]), "b");
  EXPECT_EQ(q->order_by.size(), 1u);
  EXPECT_EQ(IntegerValue(q->limit), 1);
  EXPECT_TRUE(q->targets.empty());
}

TEST(ParserTest, SetOperations) {
  ast::QueryPtr q = Query(
      "(SELECT a FROM t ORDER BY a LIMIT 1) UNION ALL SELECT b FROM u INTERSECT SELECT c FROM v "
      "EXCEPT SELECT d FROM w ORDER BY 1 LIMIT 7");
  EXPECT_EQ(q->kind, ast::QueryKind::kSetOperation);
  EXPECT_EQ(q->set_operation, ast::SetOperation::kExcept);
  EXPECT_FALSE(q->set_all);
  ASSERT_EQ(q->order_by.size(), 1u);
  EXPECT_EQ(IntegerValue(q->limit), 7);
  ASSERT_NE(q->left, nullptr);
  ASSERT_NE(q->right, nullptr);
  EXPECT_EQ(q->right->kind, ast::QueryKind::kSelect);

  const ast::QueryNode& union_all = *q->left;
  EXPECT_EQ(union_all.kind, ast::QueryKind::kSetOperation);
  EXPECT_EQ(union_all.set_operation, ast::SetOperation::kUnion);
  EXPECT_TRUE(union_all.set_all);
  EXPECT_TRUE(union_all.order_by.empty());
  // The parenthesized branch keeps its own ORDER BY and LIMIT.
  const ast::QueryNode& first = *union_all.left;
  EXPECT_EQ(first.kind, ast::QueryKind::kSelect);
  ASSERT_EQ(first.order_by.size(), 1u);
  EXPECT_EQ(IntegerValue(first.limit), 1);
  // INTERSECT binds tighter than UNION.
  const ast::QueryNode& intersect = *union_all.right;
  EXPECT_EQ(intersect.kind, ast::QueryKind::kSetOperation);
  EXPECT_EQ(intersect.set_operation, ast::SetOperation::kIntersect);
  ASSERT_EQ(intersect.left->targets.size(), 1u);
  EXPECT_EQ(ColumnName(intersect.left->targets[0].expr), "b");
}

TEST(ParserTest, CommonTableExpressions) {
  ast::QueryPtr q = Query(
      "WITH a (x, y) AS (SELECT 1, 2), b AS MATERIALIZED (SELECT 3), "
      "c AS NOT MATERIALIZED (SELECT * FROM a) SELECT * FROM a, b, c");
  ASSERT_EQ(q->with.size(), 3u);
  EXPECT_EQ(q->with[0].name, "a");
  EXPECT_EQ(q->with[0].column_aliases, (std::vector<std::string>{"x", "y"}));
  EXPECT_EQ(q->with[0].materialized, 0);
  EXPECT_FALSE(q->with[0].recursive);
  EXPECT_EQ(q->with[0].location, 5);
  ASSERT_NE(q->with[0].query, nullptr);
  EXPECT_EQ(q->with[0].query->targets.size(), 2u);
  EXPECT_EQ(q->with[1].materialized, 1);
  EXPECT_EQ(q->with[2].materialized, -1);
  EXPECT_EQ(q->from.size(), 3u);

  ast::QueryPtr recursive = Query(
      "WITH RECURSIVE r (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 5) "
      "SELECT n FROM r");
  ASSERT_EQ(recursive->with.size(), 1u);
  EXPECT_TRUE(recursive->with[0].recursive);
  EXPECT_EQ(recursive->with[0].query->kind, ast::QueryKind::kSetOperation);
}

// ---- TPC-H shapes ----------------------------------------------------------------------------

TEST(ParserTest, TpchQ1) {
  ast::QueryPtr q = Query(R"sql(
    SELECT l_returnflag, l_linestatus, sum(l_quantity) AS sum_qty,
           sum(l_extendedprice * (1 - l_discount)) AS sum_disc_price,
           avg(l_discount) AS avg_disc, count(*) AS count_order
    FROM lineitem
    WHERE l_shipdate <= date '1998-12-01' - interval '90' day
    GROUP BY l_returnflag, l_linestatus
    ORDER BY l_returnflag, l_linestatus)sql");
  ASSERT_EQ(q->targets.size(), 6u);
  EXPECT_EQ(q->targets[2].alias, "sum_qty");
  const auto* sum = As<ast::FunctionCall>(q->targets[3].expr);
  ASSERT_NE(sum, nullptr);
  ASSERT_EQ(sum->args.size(), 1u);
  const auto* times = As<ast::Operator>(sum->args[0]);
  ASSERT_NE(times, nullptr);
  EXPECT_EQ(times->name, "*");
  EXPECT_EQ(As<ast::Operator>(times->right)->name, "-");
  EXPECT_TRUE(As<ast::FunctionCall>(q->targets[5].expr)->star);
  const auto* le = As<ast::Operator>(q->where);
  ASSERT_NE(le, nullptr);
  EXPECT_EQ(le->name, "<=");
  const auto* minus = As<ast::Operator>(le->right);
  ASSERT_NE(minus, nullptr);
  EXPECT_EQ(As<ast::Cast>(minus->left)->type.names, std::vector<std::string>{"date"});
  EXPECT_EQ(As<ast::Cast>(minus->right)->type.modifiers, std::vector<int64_t>{8});
  EXPECT_EQ(q->group_by.size(), 2u);
  EXPECT_EQ(q->order_by.size(), 2u);
  EXPECT_EQ(As<ast::BaseTableRef>(q->from.at(0))->name, "lineitem");
}

TEST(ParserTest, TpchQ2CorrelatedSubquery) {
  ast::QueryPtr q = Query(R"sql(
    SELECT s_acctbal, s_name, n_name, p_partkey
    FROM part, supplier, partsupp, nation, region
    WHERE p_partkey = ps_partkey AND s_suppkey = ps_suppkey AND p_size = 15
      AND p_type LIKE '%BRASS' AND r_name = 'EUROPE'
      AND ps_supplycost = (SELECT min(ps_supplycost) FROM partsupp, supplier, nation, region
                           WHERE p_partkey = ps_partkey AND s_suppkey = ps_suppkey)
    ORDER BY s_acctbal DESC, n_name, s_name, p_partkey
    LIMIT 100)sql");
  EXPECT_EQ(q->from.size(), 5u);
  const auto* conjunction = As<ast::BoolExpr>(q->where);
  ASSERT_NE(conjunction, nullptr);
  ASSERT_EQ(conjunction->args.size(), 6u);
  EXPECT_EQ(As<ast::Like>(conjunction->args[3])->negated, false);
  const auto* eq = As<ast::Operator>(conjunction->args[5]);
  ASSERT_NE(eq, nullptr);
  const auto* sub = As<ast::Subquery>(eq->right);
  ASSERT_NE(sub, nullptr);
  EXPECT_EQ(sub->subquery_kind, ast::SubqueryKind::kScalar);
  EXPECT_EQ(sub->query->from.size(), 4u);
  const auto* inner_where = As<ast::BoolExpr>(sub->query->where);
  ASSERT_NE(inner_where, nullptr);
  EXPECT_EQ(ColumnName(As<ast::Operator>(inner_where->args[0])->left), "p_partkey");
  EXPECT_EQ(q->order_by[0].direction, ast::SortDirection::kDescending);
  EXPECT_EQ(IntegerValue(q->limit), 100);
}

TEST(ParserTest, TpchQ13LeftJoinWithNotLike) {
  ast::QueryPtr q = Query(R"sql(
    SELECT c_count, count(*) AS custdist
    FROM (SELECT c_custkey, count(o_orderkey)
          FROM customer LEFT OUTER JOIN orders
            ON c_custkey = o_custkey AND o_comment NOT LIKE '%special%requests%'
          GROUP BY c_custkey) AS c_orders (c_custkey, c_count)
    GROUP BY c_count
    ORDER BY custdist DESC, c_count DESC)sql");
  ASSERT_EQ(q->from.size(), 1u);
  const auto* derived = As<ast::SubqueryRef>(q->from[0]);
  ASSERT_NE(derived, nullptr);
  EXPECT_EQ(derived->alias, "c_orders");
  EXPECT_EQ(derived->column_aliases, (std::vector<std::string>{"c_custkey", "c_count"}));
  ASSERT_EQ(derived->query->from.size(), 1u);
  const auto* join = As<ast::JoinRef>(derived->query->from[0]);
  ASSERT_NE(join, nullptr);
  EXPECT_EQ(join->join_type, ast::JoinType::kLeft);
  const auto* on = As<ast::BoolExpr>(join->condition);
  ASSERT_NE(on, nullptr);
  ASSERT_EQ(on->args.size(), 2u);
  const auto* not_like = As<ast::Like>(on->args[1]);
  ASSERT_NE(not_like, nullptr);
  EXPECT_TRUE(not_like->negated);
  EXPECT_EQ(StringValue(not_like->pattern), "%special%requests%");
}

TEST(ParserTest, TpchQ15AsCommonTableExpression) {
  ast::QueryPtr q = Query(R"sql(
    WITH revenue0 (supplier_no, total_revenue) AS (
      SELECT l_suppkey, sum(l_extendedprice * (1 - l_discount))
      FROM lineitem
      WHERE l_shipdate >= date '1996-01-01'
        AND l_shipdate < date '1996-01-01' + interval '3' month
      GROUP BY l_suppkey)
    SELECT s_suppkey, s_name, total_revenue
    FROM supplier, revenue0
    WHERE s_suppkey = supplier_no
      AND total_revenue = (SELECT max(total_revenue) FROM revenue0)
    ORDER BY s_suppkey)sql");
  ASSERT_EQ(q->with.size(), 1u);
  EXPECT_EQ(q->with[0].name, "revenue0");
  EXPECT_EQ(q->with[0].column_aliases.size(), 2u);
  EXPECT_EQ(q->with[0].query->group_by.size(), 1u);
  EXPECT_EQ(As<ast::BaseTableRef>(q->from.at(1))->name, "revenue0");
  const auto* where = As<ast::BoolExpr>(q->where);
  ASSERT_NE(where, nullptr);
  const auto* max_eq = As<ast::Operator>(where->args.at(1));
  ASSERT_NE(max_eq, nullptr);
  EXPECT_EQ(As<ast::Subquery>(max_eq->right)->subquery_kind, ast::SubqueryKind::kScalar);
}

TEST(ParserTest, TpchQ22SubstringInListExists) {
  ast::QueryPtr q = Query(R"sql(
    SELECT cntrycode, count(*) AS numcust, sum(c_acctbal) AS totacctbal
    FROM (SELECT substring(c_phone FROM 1 FOR 2) AS cntrycode, c_acctbal
          FROM customer
          WHERE substring(c_phone FROM 1 FOR 2) IN ('13', '31', '23', '29', '30', '18', '17')
            AND c_acctbal > (SELECT avg(c_acctbal) FROM customer
                             WHERE c_acctbal > 0.00
                               AND substring(c_phone FROM 1 FOR 2) IN ('13', '31'))
            AND NOT EXISTS (SELECT * FROM orders WHERE o_custkey = c_custkey)) AS custsale
    GROUP BY cntrycode
    ORDER BY cntrycode)sql");
  const auto* custsale = As<ast::SubqueryRef>(q->from.at(0));
  ASSERT_NE(custsale, nullptr);
  const ast::QueryNode& inner = *custsale->query;
  EXPECT_EQ(inner.targets.at(0).alias, "cntrycode");
  const auto* substring = As<ast::FunctionCall>(inner.targets[0].expr);
  ASSERT_NE(substring, nullptr);
  EXPECT_EQ(substring->name, (std::vector<std::string>{"pg_catalog", "substring"}));
  const auto* where = As<ast::BoolExpr>(inner.where);
  ASSERT_NE(where, nullptr);
  ASSERT_EQ(where->args.size(), 3u);
  const auto* in = As<ast::InList>(where->args[0]);
  ASSERT_NE(in, nullptr);
  EXPECT_EQ(in->list.size(), 7u);
  EXPECT_EQ(StringValue(in->list[6]), "17");
  const auto* gt = As<ast::Operator>(where->args[1]);
  ASSERT_NE(gt, nullptr);
  const auto* avg = As<ast::Subquery>(gt->right);
  ASSERT_NE(avg, nullptr);
  const auto* avg_where = As<ast::BoolExpr>(avg->query->where);
  ASSERT_NE(avg_where, nullptr);
  const auto* zero = As<ast::Constant>(As<ast::Operator>(avg_where->args.at(0))->right);
  ASSERT_NE(zero, nullptr);
  EXPECT_EQ(zero->constant_kind, ast::ConstantKind::kNumeric);
  EXPECT_EQ(zero->text, "0.00");
  const auto* not_exists = As<ast::BoolExpr>(where->args[2]);
  ASSERT_NE(not_exists, nullptr);
  EXPECT_EQ(not_exists->op, ast::BoolOp::kNot);
  const auto* exists = As<ast::Subquery>(not_exists->args.at(0));
  ASSERT_NE(exists, nullptr);
  EXPECT_EQ(exists->subquery_kind, ast::SubqueryKind::kExists);
  EXPECT_EQ(exists->query->targets.at(0).expr->kind, ExprKind::kStar);
}

// ---- statements ----------------------------------------------------------------------------

TEST(ParserTest, Explain) {
  ast::Statement plain = One("EXPLAIN SELECT 1");
  EXPECT_EQ(plain.kind, ast::StatementKind::kExplain);
  ASSERT_NE(plain.query, nullptr);
  EXPECT_EQ(plain.query->targets.size(), 1u);
  EXPECT_FALSE(plain.explain_analyze);
  EXPECT_FALSE(plain.explain_verbose);

  ast::Statement analyze = One("EXPLAIN ANALYZE SELECT a FROM t");
  EXPECT_EQ(analyze.kind, ast::StatementKind::kExplain);
  EXPECT_TRUE(analyze.explain_analyze);
  EXPECT_FALSE(analyze.explain_verbose);

  ast::Statement both = One("EXPLAIN ANALYZE VERBOSE SELECT 1");
  EXPECT_TRUE(both.explain_analyze);
  EXPECT_TRUE(both.explain_verbose);

  ast::Statement options = One("EXPLAIN (VERBOSE, ANALYZE off) SELECT 1");
  EXPECT_FALSE(options.explain_analyze);
  EXPECT_TRUE(options.explain_verbose);
  EXPECT_TRUE(One("EXPLAIN (ANALYZE true) SELECT 1").explain_analyze);
  EXPECT_TRUE(One("EXPLAIN (ANALYZE 1) SELECT 1").explain_analyze);

  ast::Statement dml = One("EXPLAIN INSERT INTO t VALUES (1)");
  EXPECT_EQ(dml.kind, ast::StatementKind::kOther);
  EXPECT_EQ(dml.other_tag, "EXPLAIN INSERT");
  EXPECT_EQ(dml.query, nullptr);

  ExpectNotSupported("EXPLAIN (FORMAT JSON) SELECT 1",
                     "EXPLAIN option \"format\" is not supported");
  const Error bad = ErrorOf("EXPLAIN (ANALYZE maybe) SELECT 1");
  EXPECT_EQ(bad.detail.sqlstate, "42601");
  EXPECT_EQ(bad.message, "analyze requires a Boolean value");
}

TEST(ParserTest, MultipleStatementsKeepTheirSpans) {
  const std::string sql = "SELECT 1; SELECT 2 ;\n  EXPLAIN SELECT 3;  CREATE TABLE t (a int)";
  std::vector<ast::Statement> statements = All(sql);
  ASSERT_EQ(statements.size(), 4u);
  EXPECT_EQ(statements[0].kind, ast::StatementKind::kQuery);
  EXPECT_EQ(statements[0].location, 0);
  EXPECT_EQ(statements[0].length, 8);
  EXPECT_EQ(IntegerValue(statements[0].query->targets.at(0).expr), 1);
  EXPECT_EQ(statements[1].location, 9);
  EXPECT_EQ(sql.substr(statements[1].location, statements[1].length), " SELECT 2 ");
  EXPECT_EQ(statements[1].query->location, 9);
  EXPECT_EQ(statements[2].kind, ast::StatementKind::kExplain);
  EXPECT_EQ(statements[3].kind, ast::StatementKind::kOther);
  EXPECT_EQ(statements[3].other_tag, "CREATE TABLE");
  EXPECT_EQ(statements[3].length, 0);  // the last statement runs to the end
}

TEST(ParserTest, StatementsThatAreNotQueriesCarryTheirTags) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"CREATE TABLE t (a int)", "CREATE TABLE"},
      {"CREATE TABLE t2 AS SELECT 1", "CREATE TABLE AS"},
      {"CREATE MATERIALIZED VIEW mv AS SELECT 1", "CREATE MATERIALIZED VIEW"},
      {"CREATE VIEW v AS SELECT 1", "CREATE VIEW"},
      {"CREATE INDEX i ON t (a)", "CREATE INDEX"},
      {"CREATE SCHEMA s", "CREATE SCHEMA"},
      {"CREATE FUNCTION f() RETURNS int AS 'select 1' LANGUAGE sql", "CREATE FUNCTION"},
      {"INSERT INTO t VALUES (1)", "INSERT"},
      {"UPDATE t SET a = 1", "UPDATE"},
      {"DELETE FROM t", "DELETE"},
      {"MERGE INTO t USING u ON t.a = u.a WHEN MATCHED THEN DELETE", "MERGE"},
      {"COPY t FROM STDIN", "COPY"},
      {"SET search_path = x", "SET"},
      {"RESET search_path", "RESET"},
      {"SHOW search_path", "SHOW"},
      {"DROP TABLE t", "DROP TABLE"},
      {"DROP VIEW v", "DROP VIEW"},
      {"DROP MATERIALIZED VIEW mv", "DROP MATERIALIZED VIEW"},
      {"DROP SCHEMA s", "DROP SCHEMA"},
      {"DROP FOREIGN TABLE ft", "DROP FOREIGN TABLE"},
      {"ALTER TABLE t ADD COLUMN b int", "ALTER TABLE"},
      {"ALTER TABLE t RENAME COLUMN a TO b", "ALTER TABLE"},
      {"ALTER VIEW v RENAME TO w", "ALTER VIEW"},
      {"TRUNCATE t", "TRUNCATE TABLE"},
      {"BEGIN", "BEGIN"},
      {"START TRANSACTION", "START TRANSACTION"},
      {"COMMIT", "COMMIT"},
      {"ROLLBACK", "ROLLBACK"},
      {"SAVEPOINT sp", "SAVEPOINT"},
      {"VACUUM t", "VACUUM"},
      {"ANALYZE t", "ANALYZE"},
      {"GRANT SELECT ON t TO bob", "GRANT"},
      {"REVOKE SELECT ON t FROM bob", "REVOKE"},
      {"PREPARE p AS SELECT 1", "PREPARE"},
      {"EXECUTE p", "EXECUTE"},
      {"DEALLOCATE ALL", "DEALLOCATE ALL"},
      {"DISCARD ALL", "DISCARD ALL"},
      {"LOCK TABLE t", "LOCK TABLE"},
      {"CHECKPOINT", "CHECKPOINT"},
      {"CREATE DATABASE d", "CREATE DATABASE"},
      {"CREATE EXTENSION e", "CREATE EXTENSION"},
      {"ALTER DOMAIN d SET NOT NULL", "ALTER DOMAIN"},
  };
  for (const auto& [sql, tag] : cases) {
    SCOPED_TRACE(sql);
    ast::Statement statement = One(sql);
    EXPECT_EQ(statement.kind, ast::StatementKind::kOther);
    EXPECT_EQ(statement.other_tag, tag);
    EXPECT_EQ(statement.query, nullptr);
  }
}

// ---- errors ---------------------------------------------------------------------------------

TEST(ParserTest, SyntaxErrorsCarryPostgresMessageAndPosition) {
  const Error error = ErrorOf("SELECT * FORM t");
  EXPECT_EQ(error.message, "syntax error at or near \"FORM\" at position 10");
  EXPECT_EQ(error.detail.sqlstate, "42601");
  EXPECT_EQ(SqlErrorKindOf(error), SqlErrorKind::kSyntaxError);
  EXPECT_EQ(error.code, ErrorCode::kInvalidArgument);

  EXPECT_EQ(ErrorOf("SELECT (").message, "syntax error at end of input at position 9");
  EXPECT_EQ(ErrorOf("SELECT 'abc").message,
            "unterminated quoted string at or near \"'abc\" at position 8");
  // An error in a later statement fails the whole text.
  EXPECT_EQ(ErrorOf("SELECT 1; SELEC 2").message,
            "syntax error at or near \"SELEC\" at position 11");
}

TEST(ParserTest, GrammarErrorsWithoutAPositionHaveNoSuffix) {
  const Error error = ErrorOf("SELECT 1 FETCH FIRST 1 ROWS WITH TIES");
  EXPECT_EQ(error.message, "WITH TIES cannot be specified without ORDER BY clause");
  EXPECT_EQ(error.detail.sqlstate, "42601");
}

TEST(ParserTest, ZeroBytesAreRefused) {
  const Error error = ErrorOf(std::string_view("SELECT 1\0", 9));
  EXPECT_EQ(error.detail.sqlstate, "42601");
  EXPECT_EQ(error.message, "zero byte in SQL text at position 9");
}

TEST(ParserTest, UnsupportedConstructsAreNamed) {
  ExpectNotSupported("SELECT a COLLATE \"C\" FROM t", "COLLATE is not supported");
  ExpectNotSupported("SELECT a SIMILAR TO 'x%' FROM t", "SIMILAR TO is not supported");
  ExpectNotSupported("SELECT XMLCONCAT(a, b) FROM t", "XMLCONCAT is not supported");
  ExpectNotSupported("SELECT XMLELEMENT(name foo) FROM t", "XMLELEMENT is not supported");
  ExpectNotSupported("SELECT GROUPING(a) FROM t GROUP BY ROLLUP (a)", "GROUPING is not supported");
  ExpectNotSupported("SELECT * FROM t TABLESAMPLE SYSTEM (10)", "TABLESAMPLE is not supported");
  ExpectNotSupported("SELECT * FROM f() AS (a int)", "a column definition list is not supported");
  ExpectNotSupported("SELECT * FROM ROWS FROM (f(1), g(2))",
                     "ROWS FROM with more than one function is not supported");
  ExpectNotSupported("SELECT * FROM CURRENT_DATE", "SQLValueFunction in FROM is not supported");
  ExpectNotSupported("SELECT 1 FROM t JOIN u USING (a) AS j",
                     "an alias on JOIN USING is not supported");
  ExpectNotSupported("SELECT a FROM t GROUP BY DISTINCT a", "GROUP BY DISTINCT is not supported");
  ExpectNotSupported("WITH x AS (DELETE FROM t RETURNING *) SELECT * FROM x",
                     "DELETE inside a query is not supported");
  ExpectNotSupported(
      "WITH RECURSIVE x (a) AS (SELECT 1) SEARCH DEPTH FIRST BY a SET o SELECT * FROM x",
      "SEARCH in WITH RECURSIVE is not supported");
  ExpectNotSupported("VALUES (DEFAULT)", "DEFAULT is not supported");
  ExpectNotSupported("SELECT a::SETOF int FROM t", "SETOF is not supported");
  ExpectNotSupported("SELECT 'x'::my_type('abc')",
                     "a type modifier that is not an integer constant is not supported");
}

// ---- nesting ----------------------------------------------------------------------------------

TEST(ParserTest, DeepParenthesesCollapse) {
  const std::string sql = "SELECT " + Repeat("(", 5000) + "1" + Repeat(")", 5000);
  ast::ExprPtr e = Scalar(sql);
  EXPECT_EQ(IntegerValue(e), 1);
}

TEST(ParserTest, ModeratelyDeepTreesAreKept) {
  const std::string calls = "SELECT " + Repeat("f(", 900) + "1" + Repeat(")", 900);
  ast::ExprPtr e = Scalar(calls);
  int depth = 0;
  const ast::Expr* at = e.get();
  while (at != nullptr && at->kind == ExprKind::kFunction) {
    const auto* call = static_cast<const ast::FunctionCall*>(at);
    at = call->args.empty() ? nullptr : call->args[0].get();
    ++depth;
  }
  EXPECT_EQ(depth, 900);

  const std::string subqueries = Repeat("SELECT (", 300) + "1" + Repeat(")", 300);
  EXPECT_TRUE(ParseSql(subqueries).ok());
}

TEST(ParserTest, TooDeepTreesAreRefusedNotCrashed) {
  const std::vector<std::string> deep = {
      "SELECT 1" + Repeat(" + 1", 1500),   // past the translation's limit
      "SELECT a" + Repeat("::int", 2400),  // unpacked near the limit, then refused
      "SELECT 1" + Repeat("+1", 100000),   // refused before the protobuf is made
      "SELECT " + Repeat("f(", 2000) + "1" + Repeat(")", 2000),
      "SELECT a" + Repeat("::int", 20000),
      "SELECT 1" + Repeat(" UNION SELECT 1", 3000),
      "SELECT 1 FROM t" + Repeat(" JOIN t ON true", 3000),
  };
  for (const std::string& sql : deep) {
    SCOPED_TRACE(sql.substr(0, 40));
    const Error error = ErrorOf(sql);
    EXPECT_EQ(error.detail.sqlstate, "0A000");
    EXPECT_EQ(error.message, "expression nesting too deep");
  }
  // Deep bracket nesting can also hit the grammar's own stack first.
  const Error grammar = ErrorOf(Repeat("SELECT (", 5000) + "1" + Repeat(")", 5000));
  EXPECT_TRUE(grammar.message == "expression nesting too deep" ||
              grammar.message.starts_with("memory exhausted"))
      << grammar.message;
}

TEST(ParserTest, LongShallowTextsParse) {
  std::string sql = "SELECT a FROM t WHERE a IN (0";
  for (int i = 1; i < 3000; ++i) sql += ", " + std::to_string(i);
  sql += ")";
  ASSERT_GT(sql.size(), 10000u);
  const ast::ExprPtr where = Where(sql);
  const auto* in = As<ast::InList>(where);
  ASSERT_NE(in, nullptr);
  ASSERT_EQ(in->list.size(), 3000u);
  EXPECT_EQ(IntegerValue(in->list[2999]), 2999);

  const Error error = ErrorOf(sql + " FORM");
  EXPECT_EQ(error.message,
            "syntax error at or near \"FORM\" at position " + std::to_string(sql.size() + 2));
}

// The parse does not depend on the caller's stack: a small-stack thread
// parses a tree that would overflow it.
TEST(ParserTest, SmallCallerStackIsEnough) {
  struct Job {
    std::string sql;
    bool ok = false;
    std::string message;
  } job{"SELECT 1" + Repeat("+1", 500), false, ""};
  pthread_attr_t attr;
  ASSERT_EQ(pthread_attr_init(&attr), 0);
  ASSERT_EQ(pthread_attr_setstacksize(&attr, 256 * 1024), 0);
  pthread_t thread;
  auto run = [](void* arg) -> void* {
    auto* job = static_cast<Job*>(arg);
    Result<std::vector<ast::Statement>> parsed = ParseSql(job->sql);
    job->ok = parsed.ok();
    if (!parsed.ok()) job->message = parsed.error().message;
    return nullptr;
  };
  ASSERT_EQ(pthread_create(&thread, &attr, run, &job), 0);
  pthread_attr_destroy(&attr);
  ASSERT_EQ(pthread_join(thread, nullptr), 0);
  EXPECT_TRUE(job.ok) << job.message;
}

}  // namespace
}  // namespace hoglake::sql
