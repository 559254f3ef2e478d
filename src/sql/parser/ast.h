// The SQL engine's syntax tree: what the parser produces from PostgreSQL's
// grammar and the binder consumes. It mirrors the query subset of
// PostgreSQL's raw parse tree (SelectStmt, A_Expr, FuncCall, …) but owns its
// data and knows nothing of libpg_query; only src/sql/parser/parser.cc sees
// pg_query.h.
//
// Names are as written after PostgreSQL's identifier rules: unquoted
// identifiers arrive folded to lower case, quoted ones exactly as quoted.
// `location` is the byte offset of the construct in the SQL text (-1 when the
// grammar gives none), used by error messages ("at position 17").
//
// Special syntaxes arrive as the function calls PostgreSQL's grammar makes of
// them: EXTRACT(f FROM x) → pg_catalog.extract('f', x); SUBSTRING(s FROM a
// FOR b) → pg_catalog.substring(s, a, b); POSITION(a IN b) →
// pg_catalog.position(b, a); TRIM(BOTH x FROM s) → pg_catalog.btrim(s, x);
// CURRENT_DATE and friends → kValueFunction; `date '2024-01-01'` → a cast of
// a string literal.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace hoglake::sql::ast {

struct Expr;
struct QueryNode;
struct TableRef;
using ExprPtr = std::unique_ptr<Expr>;
using QueryPtr = std::unique_ptr<QueryNode>;
using TableRefPtr = std::unique_ptr<TableRef>;

// ---- expressions -----------------------------------------------------------

enum class ExprKind {
  kColumnRef,      // a.b.c or a.* (ColumnRef)
  kConstant,       // a literal (A_Const)
  kParameter,      // $1 (ParamRef); refused by the binder for now
  kOperator,       // a + b, -a, a = b, a ~~ b … (A_Expr AEXPR_OP and the like)
  kQuantified,     // a = ANY (array expr), a > ALL (…)  (AEXPR_OP_ANY/ALL)
  kDistinctFrom,   // a IS [NOT] DISTINCT FROM b
  kNullIf,         // NULLIF(a, b)
  kInList,         // a [NOT] IN (x, y, …)
  kBetween,        // a [NOT] BETWEEN [SYMMETRIC] lo AND hi
  kLike,           // a [NOT] LIKE / ILIKE p [ESCAPE e]; SIMILAR TO is refused
  kBool,           // AND / OR / NOT
  kNullTest,       // a IS [NOT] NULL
  kBooleanTest,    // a IS [NOT] TRUE / FALSE / UNKNOWN
  kFunction,       // f(args), aggregates and window calls included
  kCast,           // CAST(a AS t), a::t, typed literals
  kCase,           // CASE [arg] WHEN … THEN … [ELSE …] END
  kCoalesce,       // COALESCE(a, b, …)
  kMinMax,         // GREATEST / LEAST
  kSubquery,       // (SELECT …), EXISTS, IN (SELECT …), op ANY/ALL (SELECT …), ARRAY(SELECT …)
  kIndirection,    // a[1], a[1:2], (s).f
  kArray,          // ARRAY[a, b]
  kRow,            // ROW(a, b) or (a, b)
  kValueFunction,  // CURRENT_DATE, CURRENT_TIMESTAMP, LOCALTIMESTAMP, CURRENT_TIME, …
  kStar,           // a bare * in a select list (SELECT *); count(*) sets FunctionCall::star
};

struct Expr {
  explicit Expr(ExprKind k, int loc = -1) : kind(k), location(loc) {}
  virtual ~Expr() = default;
  Expr(const Expr&) = delete;
  Expr& operator=(const Expr&) = delete;

  const ExprKind kind;
  int location;
};

// a, t.a, s.t.a, c.s.t.a; `star` for t.* (parts then name the relation).
// A bare `*` is a Star, not a ColumnRef.
struct ColumnRef : Expr {
  explicit ColumnRef(int loc = -1) : Expr(ExprKind::kColumnRef, loc) {}
  std::vector<std::string> parts;
  bool star = false;
};

struct Star : Expr {
  explicit Star(int loc = -1) : Expr(ExprKind::kStar, loc) {}
};

enum class ConstantKind {
  kNull,
  kBool,
  kInteger,    // fits int32 per the grammar (ival)
  kNumeric,    // a numeric literal too big for int32 or with a point/exponent, as written
  kString,     // an unknown-typed string literal
  kBitString,  // B'0101' / X'1F' as written by the grammar
};

struct Constant : Expr {
  explicit Constant(int loc = -1) : Expr(ExprKind::kConstant, loc) {}
  ConstantKind constant_kind = ConstantKind::kNull;
  bool bool_value = false;
  int64_t integer_value = 0;
  std::string text;  // kNumeric, kString, kBitString
};

struct Parameter : Expr {
  explicit Parameter(int loc = -1) : Expr(ExprKind::kParameter, loc) {}
  int number = 0;
};

// An operator by its PostgreSQL name ("+", "=", "<>", "~~", "||", …).
// `left` is null for a prefix operator (-a, NOT is kBool).
struct Operator : Expr {
  explicit Operator(int loc = -1) : Expr(ExprKind::kOperator, loc) {}
  std::string name;
  ExprPtr left;
  ExprPtr right;
};

struct Quantified : Expr {
  explicit Quantified(int loc = -1) : Expr(ExprKind::kQuantified, loc) {}
  std::string name;  // the comparison operator
  bool all = false;  // ALL rather than ANY/SOME
  ExprPtr left;
  ExprPtr right;  // an array-valued expression
};

struct DistinctFrom : Expr {
  explicit DistinctFrom(int loc = -1) : Expr(ExprKind::kDistinctFrom, loc) {}
  bool negated = false;  // IS NOT DISTINCT FROM
  ExprPtr left;
  ExprPtr right;
};

struct NullIf : Expr {
  explicit NullIf(int loc = -1) : Expr(ExprKind::kNullIf, loc) {}
  ExprPtr left;
  ExprPtr right;
};

struct InList : Expr {
  explicit InList(int loc = -1) : Expr(ExprKind::kInList, loc) {}
  bool negated = false;
  ExprPtr value;
  std::vector<ExprPtr> list;
};

struct Between : Expr {
  explicit Between(int loc = -1) : Expr(ExprKind::kBetween, loc) {}
  bool negated = false;
  bool symmetric = false;
  ExprPtr value;
  ExprPtr low;
  ExprPtr high;
};

struct Like : Expr {
  explicit Like(int loc = -1) : Expr(ExprKind::kLike, loc) {}
  bool negated = false;
  bool case_insensitive = false;  // ILIKE
  ExprPtr value;
  ExprPtr pattern;
  ExprPtr escape;  // null: the default escape '\'
};

enum class BoolOp { kAnd, kOr, kNot };

struct BoolExpr : Expr {
  explicit BoolExpr(int loc = -1) : Expr(ExprKind::kBool, loc) {}
  BoolOp op = BoolOp::kAnd;
  std::vector<ExprPtr> args;  // NOT has one
};

struct NullTest : Expr {
  explicit NullTest(int loc = -1) : Expr(ExprKind::kNullTest, loc) {}
  bool negated = false;  // IS NOT NULL
  ExprPtr arg;
};

enum class BooleanTestKind { kIsTrue, kIsNotTrue, kIsFalse, kIsNotFalse, kIsUnknown, kIsNotUnknown };

struct BooleanTest : Expr {
  explicit BooleanTest(int loc = -1) : Expr(ExprKind::kBooleanTest, loc) {}
  BooleanTestKind test = BooleanTestKind::kIsTrue;
  ExprPtr arg;
};

// ---- ORDER BY ----------------------------------------------------------------

enum class SortDirection { kDefault, kAscending, kDescending };
enum class NullsOrder { kDefault, kFirst, kLast };

struct OrderItem {
  ExprPtr expr;
  SortDirection direction = SortDirection::kDefault;
  NullsOrder nulls = NullsOrder::kDefault;
  bool using_operator = false;  // ORDER BY x USING < (refused by the binder)
};

// ROWS / RANGE / GROUPS frame bounds.
enum class FrameBoundKind {
  kUnboundedPreceding,
  kPreceding,  // offset PRECEDING
  kCurrentRow,
  kFollowing,  // offset FOLLOWING
  kUnboundedFollowing,
};
enum class FrameUnit { kRange, kRows, kGroups };

struct WindowSpec {
  std::string name;       // WINDOW w AS (…) when defining, else empty
  std::string reference;  // OVER w or OVER (w …): the referenced window name
  std::vector<ExprPtr> partition_by;
  std::vector<OrderItem> order_by;
  bool has_frame = false;  // false: the default frame
  FrameUnit frame_unit = FrameUnit::kRange;
  FrameBoundKind frame_start = FrameBoundKind::kUnboundedPreceding;
  FrameBoundKind frame_end = FrameBoundKind::kCurrentRow;
  ExprPtr start_offset;
  ExprPtr end_offset;
  bool frame_exclusion = false;  // any EXCLUDE clause (refused by the binder)
  int location = -1;
};

struct FunctionCall : Expr {
  explicit FunctionCall(int loc = -1) : Expr(ExprKind::kFunction, loc) {}
  std::vector<std::string> name;  // ["pg_catalog", "extract"] or ["sum"]
  std::vector<ExprPtr> args;
  std::vector<std::string> arg_names;  // per argument: `name => …`'s name, else empty
  bool star = false;      // count(*)
  bool distinct = false;  // agg(DISTINCT …)
  bool variadic = false;  // VARIADIC in the call (refused by the binder)
  ExprPtr filter;         // FILTER (WHERE …)
  std::vector<OrderItem> order_by;          // agg(x ORDER BY …)
  bool within_group = false;                // WITHIN GROUP (ORDER BY …)
  std::unique_ptr<WindowSpec> over;         // OVER (…) / OVER w
  // In `over`, OVER w and OVER (w …) both set reference = "w"; name is empty.
};

// A type as written: qualified name parts, modifiers, array bounds.
struct TypeName {
  std::vector<std::string> names;  // ["pg_catalog", "int4"] or ["numeric"]
  std::vector<int64_t> modifiers;  // numeric(10, 2) → {10, 2}; varchar(5) → {5}
  // For interval fields (INTERVAL '1' DAY), the typmod the grammar encodes
  // is kept in modifiers as written by PostgreSQL.
  int array_dimensions = 0;  // int[] → 1
  int location = -1;
};

// location: the CAST or `::`; for a typed literal (date '…'), the type name's.
struct Cast : Expr {
  explicit Cast(int loc = -1) : Expr(ExprKind::kCast, loc) {}
  ExprPtr arg;
  TypeName type;
};

struct CaseWhen {
  ExprPtr condition;
  ExprPtr result;
};

struct Case : Expr {
  explicit Case(int loc = -1) : Expr(ExprKind::kCase, loc) {}
  ExprPtr arg;  // CASE arg WHEN … (simple form); null for the searched form
  std::vector<CaseWhen> whens;
  ExprPtr else_result;  // may be null
};

struct Coalesce : Expr {
  explicit Coalesce(int loc = -1) : Expr(ExprKind::kCoalesce, loc) {}
  std::vector<ExprPtr> args;
};

struct MinMax : Expr {
  explicit MinMax(int loc = -1) : Expr(ExprKind::kMinMax, loc) {}
  bool greatest = true;  // false: LEAST
  std::vector<ExprPtr> args;
};

enum class SubqueryKind {
  kScalar,      // (SELECT …)
  kExists,      // EXISTS (SELECT …)
  kAny,         // x IN (SELECT …) is `=` ANY; x op ANY/SOME (SELECT …)
  kAll,         // x op ALL (SELECT …); NOT IN arrives as NOT (x = ANY …)
  kArray,       // ARRAY(SELECT …)
};

struct Subquery : Expr {
  explicit Subquery(int loc = -1) : Expr(ExprKind::kSubquery, loc) {}
  SubqueryKind subquery_kind = SubqueryKind::kScalar;
  ExprPtr test;           // kAny / kAll: the left-hand expression
  std::string operator_name;  // kAny / kAll: "=" for IN
  QueryPtr query;
};

struct IndirectionStep {
  enum Kind { kSubscript, kSlice, kField, kStar } kind = kSubscript;
  ExprPtr lower;  // kSubscript: the index; kSlice: lower bound (may be null)
  ExprPtr upper;  // kSlice: upper bound (may be null)
  std::string field;  // kField
};

// location: the arg's (the grammar gives the indirection none).
struct Indirection : Expr {
  explicit Indirection(int loc = -1) : Expr(ExprKind::kIndirection, loc) {}
  ExprPtr arg;
  std::vector<IndirectionStep> steps;
};

struct ArrayExpr : Expr {
  explicit ArrayExpr(int loc = -1) : Expr(ExprKind::kArray, loc) {}
  std::vector<ExprPtr> elements;
};

struct RowExpr : Expr {
  explicit RowExpr(int loc = -1) : Expr(ExprKind::kRow, loc) {}
  std::vector<ExprPtr> fields;
};

enum class ValueFunctionKind {
  kCurrentDate,
  kCurrentTime,
  kCurrentTimestamp,
  kLocalTime,
  kLocalTimestamp,
  kCurrentRole,
  kCurrentUser,
  kSessionUser,
  kUser,
  kCurrentCatalog,
  kCurrentSchema,
};

struct ValueFunction : Expr {
  explicit ValueFunction(int loc = -1) : Expr(ExprKind::kValueFunction, loc) {}
  ValueFunctionKind function = ValueFunctionKind::kCurrentTimestamp;
  int precision = -1;  // CURRENT_TIMESTAMP(3); -1 when not given
};

// ---- FROM --------------------------------------------------------------------

enum class TableRefKind { kBaseTable, kSubquery, kJoin, kFunction };

struct TableRef {
  explicit TableRef(TableRefKind k, int loc = -1) : kind(k), location(loc) {}
  virtual ~TableRef() = default;
  TableRef(const TableRef&) = delete;
  TableRef& operator=(const TableRef&) = delete;

  const TableRefKind kind;
  int location;
  // AS alias (c1, c2, …); empty alias when none.
  std::string alias;
  std::vector<std::string> column_aliases;
};

// [catalog.][schema.]name
struct BaseTableRef : TableRef {
  explicit BaseTableRef(int loc = -1) : TableRef(TableRefKind::kBaseTable, loc) {}
  std::string catalog;  // empty when not written
  std::string schema;   // empty when not written
  std::string name;
  bool only = false;  // ONLY name (inheritance marker; meaningless here)
};

// location: -1 (the grammar gives a subquery in FROM none).
struct SubqueryRef : TableRef {
  explicit SubqueryRef(int loc = -1) : TableRef(TableRefKind::kSubquery, loc) {}
  QueryPtr query;
  bool lateral = false;
};

// f(args) in FROM, e.g. generate_series(1, 10), unnest(a).
struct FunctionRef : TableRef {
  explicit FunctionRef(int loc = -1) : TableRef(TableRefKind::kFunction, loc) {}
  ExprPtr call;  // a FunctionCall
  bool lateral = false;
  bool with_ordinality = false;
};

enum class JoinType { kInner, kLeft, kRight, kFull, kCross };

// location: -1 (the grammar gives a join none).
struct JoinRef : TableRef {
  explicit JoinRef(int loc = -1) : TableRef(TableRefKind::kJoin, loc) {}
  JoinType join_type = JoinType::kInner;
  TableRefPtr left;
  TableRefPtr right;
  ExprPtr condition;                 // ON …; null for USING, NATURAL and CROSS
  std::vector<std::string> using_columns;
  bool natural = false;
};

// ---- queries -----------------------------------------------------------------

enum class QueryKind { kSelect, kSetOperation, kValues };
enum class SetOperation { kUnion, kIntersect, kExcept };

struct CommonTableExpr {
  std::string name;
  std::vector<std::string> column_aliases;
  QueryPtr query;
  bool recursive = false;  // inside WITH RECURSIVE (refused by the binder)
  int materialized = 0;    // 0 default, 1 MATERIALIZED, -1 NOT MATERIALIZED
  int location = -1;
};

struct SelectItem {
  ExprPtr expr;       // may be a Star or a ColumnRef with star = true
  std::string alias;  // AS alias; empty when not written
  int location = -1;
};

struct QueryNode {
  QueryKind kind = QueryKind::kSelect;
  // The statement's offset for a statement's top-level query; -1 for nested
  // queries (PostgreSQL's SelectStmt carries no position).
  int location = -1;

  // WITH, ORDER BY, LIMIT, OFFSET apply to every kind.
  std::vector<CommonTableExpr> with;
  std::vector<OrderItem> order_by;
  ExprPtr limit;   // LIMIT n / FETCH FIRST n ROWS ONLY; null for none or LIMIT ALL
  ExprPtr offset;  // null for none
  bool limit_with_ties = false;  // FETCH FIRST … WITH TIES (refused by the binder)
  bool for_update = false;       // any locking clause (refused by the binder)

  // kSelect
  bool distinct = false;
  std::vector<ExprPtr> distinct_on;  // DISTINCT ON (…); implies distinct
  std::vector<SelectItem> targets;
  std::vector<TableRefPtr> from;
  ExprPtr where;
  // The plain expressions; GROUPING SETS / ROLLUP / CUBE / () only set
  // group_by_special (refused by the binder).
  std::vector<ExprPtr> group_by;
  bool group_by_special = false;
  ExprPtr having;
  std::vector<WindowSpec> windows;  // WINDOW w AS (…)
  bool select_into = false;         // SELECT … INTO t (refused: not a query)

  // kValues: rows of expressions
  std::vector<std::vector<ExprPtr>> values;

  // kSetOperation
  SetOperation set_operation = SetOperation::kUnion;
  bool set_all = false;
  QueryPtr left;
  QueryPtr right;
};

// ---- statements --------------------------------------------------------------

enum class StatementKind { kQuery, kExplain, kOther };

struct Statement {
  StatementKind kind = StatementKind::kQuery;
  int location = 0;  // byte offset of the statement in the text
  int length = 0;    // its length in bytes (0: to the end)
  QueryPtr query;    // kQuery, and the explained query of kExplain
  bool explain_analyze = false;
  bool explain_verbose = false;
  // kOther: what it is, as PostgreSQL's command tag spells it ("CREATE TABLE",
  // "INSERT", "COPY", "SET", …), so the refusal can name it. EXPLAIN of a
  // statement that is not a query is "EXPLAIN " + that statement's tag
  // ("EXPLAIN INSERT").
  std::string other_tag;
};

}  // namespace hoglake::sql::ast
