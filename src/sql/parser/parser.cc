// ParseSql: PostgreSQL 15's grammar (libpg_query) → ast::Statement.
//
// The contract is parser.h's; this file is the only one that sees
// libpg_query. libpg_query parses the text and hands back its raw parse tree
// as protobuf (pg_query.proto); we unpack that with protobuf-c and translate
// it node by node into ast.h's tree. Every node kind the translation does not
// know is refused with kFeatureNotSupported naming it; nothing is dropped.
//
// Deep trees: libpg_query and protobuf-c walk the tree recursively, and a
// long left-deep chain (`1+1+1+…`) nests as deep as the text is long; worse,
// protobuf-c's packing costs time quadratic in the depth (100,000 levels take
// seconds). So:
//  - the whole parse runs on a thread of its own whose stack grows with the
//    text;
//  - a text long enough to nest expensively is first parsed to libpg_query's
//    JSON (linear in the depth), whose nesting is counted, and refused past
//    kMaxMessageDepth before the protobuf is made;
//  - the packed tree's nesting is measured iteratively before unpacking, with
//    the same limit;
//  - the translation stops at kMaxNestingDepth levels.
// Each refusal reads "expression nesting too deep".
#include "sql/parser/parser.h"

#include <pg_query.h>
#include <pg_query/pg_query.pb-c.h>
#include <pthread.h>

#include <cctype>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <new>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "sql/sql_error.h"

namespace hoglake::sql {
namespace {

using Node = PgQuery__Node;
using NodeList = std::span<Node* const>;
using ast::ExprPtr;

// ---- limits ------------------------------------------------------------------

// Nested expressions, queries and FROM items the translation accepts.
constexpr int kMaxNestingDepth = 1000;
// Nested protobuf messages accepted before unpacking: a few per tree level.
constexpr size_t kMaxMessageDepth = 5 * kMaxNestingDepth;
// Texts at least this long are checked through the JSON output first: a
// shorter one cannot nest deep enough for the packing's cost to matter.
constexpr size_t kJsonCheckMinBytes = 4096;
// The parser thread's stack (only touched pages are committed): the bounded
// unpack and translation need under 8 MiB in an optimized build, the rest of
// the base is headroom for sanitizer builds, and a base this size stays in
// glibc's cache of thread stacks. On top, what libpg_query's own recursion
// may need for a text of that length: its deepest trees, left-deep operator
// chains, take at least two bytes of text and under 300 bytes of stack per
// level.
constexpr size_t kParserStackBase = size_t{32} << 20;
constexpr size_t kParserStackPerByte = 256;

// PostgreSQL 15's WindowDef.frameOptions bits (src/include/nodes/parsenodes.h).
constexpr int kFrameNonDefault = 0x00001;
constexpr int kFrameRange = 0x00002;
constexpr int kFrameRows = 0x00004;
constexpr int kFrameGroups = 0x00008;
constexpr int kFrameStartUnboundedPreceding = 0x00020;
constexpr int kFrameEndUnboundedPreceding = 0x00040;
constexpr int kFrameStartUnboundedFollowing = 0x00080;
constexpr int kFrameEndUnboundedFollowing = 0x00100;
constexpr int kFrameStartCurrentRow = 0x00200;
constexpr int kFrameEndCurrentRow = 0x00400;
constexpr int kFrameStartOffsetPreceding = 0x00800;
constexpr int kFrameEndOffsetPreceding = 0x01000;
constexpr int kFrameStartOffsetFollowing = 0x02000;
constexpr int kFrameEndOffsetFollowing = 0x04000;
constexpr int kFrameExcludeCurrentRow = 0x08000;
constexpr int kFrameExcludeGroup = 0x10000;
constexpr int kFrameExcludeTies = 0x20000;

// ---- small helpers -----------------------------------------------------------

NodeList Items(Node** items, size_t count) { return NodeList(items, count); }

std::string Text(const char* s) { return s == nullptr ? std::string() : std::string(s); }

bool IsEmptyNode(const Node* node) {
  return node == nullptr || node->node_case == PG_QUERY__NODE__NODE__NOT_SET;
}

bool Is(const Node* node, PgQuery__Node__NodeCase node_case) {
  return node != nullptr && node->node_case == node_case;
}

// The kind of a node as pg_query.proto names it ("XmlExpr", "RangeTableSample").
std::string NodeTypeName(const Node& node) {
  const ProtobufCFieldDescriptor* field =
      protobuf_c_message_descriptor_get_field(&pg_query__node__descriptor, node.node_case);
  if (field == nullptr || field->descriptor == nullptr) {
    return StrCat("node #", static_cast<int>(node.node_case));
  }
  return static_cast<const ProtobufCMessageDescriptor*>(field->descriptor)->short_name;
}

Error NotSupported(std::string_view what) {
  return SqlError(SqlErrorKind::kFeatureNotSupported, what, " is not supported");
}

Error TooDeep() {
  return SqlError(SqlErrorKind::kFeatureNotSupported, "expression nesting too deep");
}

// libpg_query handed back a tree its grammar cannot make: a bug, not the user's.
Error Malformed(std::string_view what) {
  return SqlError(SqlErrorKind::kInternalError, "unexpected parse tree from libpg_query: ", what);
}

Result<std::string> StringValue(const Node* node) {
  if (!Is(node, PG_QUERY__NODE__NODE_STRING)) return Malformed("a name is not a String");
  return Text(node->string->sval);
}

Result<std::vector<std::string>> Names(NodeList nodes) {
  std::vector<std::string> names;
  names.reserve(nodes.size());
  for (const Node* node : nodes) {
    HOGLAKE_ASSIGN_OR_RETURN(std::string name, StringValue(node));
    names.push_back(std::move(name));
  }
  return names;
}

// An operator's name: the last part of a possibly qualified
// OPERATOR(pg_catalog.+).
Result<std::string> OperatorName(NodeList name) {
  if (name.empty()) return Malformed("an operator without a name");
  return StringValue(name.back());
}

bool IsNullConstant(const Node* node) {
  return Is(node, PG_QUERY__NODE__NODE_A_CONST) && node->a_const->isnull;
}

// Counts nesting while alive; too_deep() once past kMaxNestingDepth.
class DepthScope {
 public:
  explicit DepthScope(int& depth) : depth_(depth) { ++depth_; }
  ~DepthScope() { --depth_; }
  DepthScope(const DepthScope&) = delete;
  DepthScope& operator=(const DepthScope&) = delete;
  bool too_deep() const { return depth_ > kMaxNestingDepth; }

 private:
  int& depth_;
};

// ---- command tags of statements that are not queries -------------------------

// "OBJECT_FOREIGN_TABLE" → "FOREIGN TABLE", with PostgreSQL's spellings for
// the abbreviated ones.
std::string ObjectTypeWords(PgQuery__ObjectType type) {
  switch (type) {
    case PG_QUERY__OBJECT_TYPE__OBJECT_MATVIEW:
      return "MATERIALIZED VIEW";
    case PG_QUERY__OBJECT_TYPE__OBJECT_FDW:
      return "FOREIGN DATA WRAPPER";
    case PG_QUERY__OBJECT_TYPE__OBJECT_FOREIGN_SERVER:
      return "SERVER";
    case PG_QUERY__OBJECT_TYPE__OBJECT_COLUMN:
    case PG_QUERY__OBJECT_TYPE__OBJECT_TABCONSTRAINT:
      return "TABLE";
    case PG_QUERY__OBJECT_TYPE__OBJECT_ATTRIBUTE:
      return "TYPE";
    case PG_QUERY__OBJECT_TYPE__OBJECT_DOMCONSTRAINT:
      return "DOMAIN";
    case PG_QUERY__OBJECT_TYPE__OBJECT_LARGEOBJECT:
      return "LARGE OBJECT";
    case PG_QUERY__OBJECT_TYPE__OBJECT_OPCLASS:
      return "OPERATOR CLASS";
    case PG_QUERY__OBJECT_TYPE__OBJECT_OPFAMILY:
      return "OPERATOR FAMILY";
    case PG_QUERY__OBJECT_TYPE__OBJECT_STATISTIC_EXT:
      return "STATISTICS";
    case PG_QUERY__OBJECT_TYPE__OBJECT_TSCONFIGURATION:
      return "TEXT SEARCH CONFIGURATION";
    case PG_QUERY__OBJECT_TYPE__OBJECT_TSDICTIONARY:
      return "TEXT SEARCH DICTIONARY";
    case PG_QUERY__OBJECT_TYPE__OBJECT_TSPARSER:
      return "TEXT SEARCH PARSER";
    case PG_QUERY__OBJECT_TYPE__OBJECT_TSTEMPLATE:
      return "TEXT SEARCH TEMPLATE";
    default:
      break;
  }
  const ProtobufCEnumValue* value =
      protobuf_c_enum_descriptor_get_value(&pg_query__object_type__descriptor, type);
  if (value == nullptr) return "OBJECT";
  std::string_view name = value->name;
  if (name.starts_with("OBJECT_")) name.remove_prefix(7);
  std::string words(name);
  for (char& c : words) {
    if (c == '_') c = ' ';
  }
  return words;
}

// "AlterDomainStmt" → "ALTER DOMAIN": the fallback for statements without a
// spelling of their own below.
std::string TagFromNodeName(std::string name) {
  if (name.ends_with("Stmt")) name.resize(name.size() - 4);
  std::string tag;
  for (size_t i = 0; i < name.size(); ++i) {
    const bool upper = std::isupper(static_cast<unsigned char>(name[i])) != 0;
    const bool after_lower = i > 0 && std::islower(static_cast<unsigned char>(name[i - 1])) != 0;
    const bool before_lower =
        i > 0 && i + 1 < name.size() && std::islower(static_cast<unsigned char>(name[i + 1])) != 0;
    if (upper && (after_lower || before_lower) && !tag.empty()) tag += ' ';
    tag += static_cast<char>(std::toupper(static_cast<unsigned char>(name[i])));
  }
  return tag;
}

std::string TransactionTag(PgQuery__TransactionStmtKind kind) {
  switch (kind) {
    case PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_BEGIN:
      return "BEGIN";
    case PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_START:
      return "START TRANSACTION";
    case PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_COMMIT:
      return "COMMIT";
    case PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_ROLLBACK:
    case PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_ROLLBACK_TO:
      return "ROLLBACK";
    case PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_SAVEPOINT:
      return "SAVEPOINT";
    case PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_RELEASE:
      return "RELEASE";
    case PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_PREPARE:
      return "PREPARE TRANSACTION";
    case PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_COMMIT_PREPARED:
      return "COMMIT PREPARED";
    case PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_ROLLBACK_PREPARED:
      return "ROLLBACK PREPARED";
    default:
      return "TRANSACTION";
  }
}

std::string DiscardTag(PgQuery__DiscardMode mode) {
  switch (mode) {
    case PG_QUERY__DISCARD_MODE__DISCARD_PLANS:
      return "DISCARD PLANS";
    case PG_QUERY__DISCARD_MODE__DISCARD_SEQUENCES:
      return "DISCARD SEQUENCES";
    case PG_QUERY__DISCARD_MODE__DISCARD_TEMP:
      return "DISCARD TEMP";
    default:
      return "DISCARD ALL";
  }
}

std::string CreateTableAsTag(const PgQuery__CreateTableAsStmt& stmt) {
  if (stmt.objtype == PG_QUERY__OBJECT_TYPE__OBJECT_MATVIEW) return "CREATE MATERIALIZED VIEW";
  return stmt.is_select_into ? "SELECT INTO" : "CREATE TABLE AS";
}

// Tags whose spelling depends on the statement's fields.
std::optional<std::string> VariantTag(const Node& node) {
  switch (node.node_case) {
    case PG_QUERY__NODE__NODE_CREATE_TABLE_AS_STMT:
      return CreateTableAsTag(*node.create_table_as_stmt);
    case PG_QUERY__NODE__NODE_CREATE_FUNCTION_STMT:
      return node.create_function_stmt->is_procedure ? "CREATE PROCEDURE" : "CREATE FUNCTION";
    case PG_QUERY__NODE__NODE_DROP_STMT:
      return "DROP " + ObjectTypeWords(node.drop_stmt->remove_type);
    case PG_QUERY__NODE__NODE_ALTER_TABLE_STMT:
      return "ALTER " + ObjectTypeWords(node.alter_table_stmt->objtype);
    case PG_QUERY__NODE__NODE_RENAME_STMT:
      return "ALTER " + ObjectTypeWords(node.rename_stmt->rename_type);
    case PG_QUERY__NODE__NODE_VARIABLE_SET_STMT: {
      const PgQuery__VariableSetKind kind = node.variable_set_stmt->kind;
      const bool reset = kind == PG_QUERY__VARIABLE_SET_KIND__VAR_RESET ||
                         kind == PG_QUERY__VARIABLE_SET_KIND__VAR_RESET_ALL;
      return reset ? "RESET" : "SET";
    }
    case PG_QUERY__NODE__NODE_TRANSACTION_STMT:
      return TransactionTag(node.transaction_stmt->kind);
    case PG_QUERY__NODE__NODE_VACUUM_STMT:
      return node.vacuum_stmt->is_vacuumcmd ? "VACUUM" : "ANALYZE";
    case PG_QUERY__NODE__NODE_GRANT_STMT:
      return node.grant_stmt->is_grant ? "GRANT" : "REVOKE";
    case PG_QUERY__NODE__NODE_GRANT_ROLE_STMT:
      return node.grant_role_stmt->is_grant ? "GRANT ROLE" : "REVOKE ROLE";
    case PG_QUERY__NODE__NODE_FETCH_STMT:
      return node.fetch_stmt->ismove ? "MOVE" : "FETCH";
    case PG_QUERY__NODE__NODE_DEALLOCATE_STMT:
      return Text(node.deallocate_stmt->name).empty() ? "DEALLOCATE ALL" : "DEALLOCATE";
    case PG_QUERY__NODE__NODE_CLOSE_PORTAL_STMT:
      return Text(node.close_portal_stmt->portalname).empty() ? "CLOSE CURSOR ALL" : "CLOSE CURSOR";
    case PG_QUERY__NODE__NODE_DISCARD_STMT:
      return DiscardTag(node.discard_stmt->target);
    default:
      return std::nullopt;
  }
}

// Tags fixed by the statement's kind.
std::optional<std::string> FixedTag(PgQuery__Node__NodeCase node_case) {
  switch (node_case) {
    case PG_QUERY__NODE__NODE_INSERT_STMT:
      return "INSERT";
    case PG_QUERY__NODE__NODE_UPDATE_STMT:
      return "UPDATE";
    case PG_QUERY__NODE__NODE_DELETE_STMT:
      return "DELETE";
    case PG_QUERY__NODE__NODE_MERGE_STMT:
      return "MERGE";
    case PG_QUERY__NODE__NODE_CREATE_STMT:
      return "CREATE TABLE";
    case PG_QUERY__NODE__NODE_VIEW_STMT:
      return "CREATE VIEW";
    case PG_QUERY__NODE__NODE_INDEX_STMT:
      return "CREATE INDEX";
    case PG_QUERY__NODE__NODE_CREATE_SCHEMA_STMT:
      return "CREATE SCHEMA";
    case PG_QUERY__NODE__NODE_CREATE_SEQ_STMT:
      return "CREATE SEQUENCE";
    case PG_QUERY__NODE__NODE_CREATEDB_STMT:
      return "CREATE DATABASE";
    case PG_QUERY__NODE__NODE_DROPDB_STMT:
      return "DROP DATABASE";
    case PG_QUERY__NODE__NODE_CREATE_TABLE_SPACE_STMT:
      return "CREATE TABLESPACE";
    case PG_QUERY__NODE__NODE_DROP_TABLE_SPACE_STMT:
      return "DROP TABLESPACE";
    case PG_QUERY__NODE__NODE_CREATE_PLANG_STMT:
      return "CREATE LANGUAGE";
    case PG_QUERY__NODE__NODE_COMPOSITE_TYPE_STMT:
    case PG_QUERY__NODE__NODE_CREATE_ENUM_STMT:
    case PG_QUERY__NODE__NODE_CREATE_RANGE_STMT:
      return "CREATE TYPE";
    case PG_QUERY__NODE__NODE_CREATE_TRIG_STMT:
      return "CREATE TRIGGER";
    case PG_QUERY__NODE__NODE_CREATE_STATS_STMT:
      return "CREATE STATISTICS";
    case PG_QUERY__NODE__NODE_TRUNCATE_STMT:
      return "TRUNCATE TABLE";
    case PG_QUERY__NODE__NODE_COPY_STMT:
      return "COPY";
    case PG_QUERY__NODE__NODE_VARIABLE_SHOW_STMT:
      return "SHOW";
    case PG_QUERY__NODE__NODE_LOCK_STMT:
      return "LOCK TABLE";
    case PG_QUERY__NODE__NODE_DECLARE_CURSOR_STMT:
      return "DECLARE CURSOR";
    case PG_QUERY__NODE__NODE_CHECK_POINT_STMT:
      return "CHECKPOINT";
    case PG_QUERY__NODE__NODE_REFRESH_MAT_VIEW_STMT:
      return "REFRESH MATERIALIZED VIEW";
    case PG_QUERY__NODE__NODE_SEC_LABEL_STMT:
      return "SECURITY LABEL";
    default:
      return std::nullopt;
  }
}

// PostgreSQL's command tag for a statement that is not a query: "CREATE
// TABLE", "INSERT", "SET", …; for kinds without a spelling here, the node's
// name in words ("AlterDomainStmt" → "ALTER DOMAIN").
std::string CommandTag(const Node& node) {
  if (std::optional<std::string> tag = VariantTag(node)) return *tag;
  if (std::optional<std::string> tag = FixedTag(node.node_case)) return *tag;
  if (node.node_case == PG_QUERY__NODE__NODE_SELECT_STMT) return "SELECT";
  if (node.node_case == PG_QUERY__NODE__NODE_EXPLAIN_STMT) {
    const Node* query = node.explain_stmt->query;
    return IsEmptyNode(query) ? "EXPLAIN" : "EXPLAIN " + CommandTag(*query);
  }
  return TagFromNodeName(NodeTypeName(node));
}

// ---- EXPLAIN options -----------------------------------------------------------

// PostgreSQL's parse_bool: unique prefixes of true/false/yes/no, on/off, 1/0.
std::optional<bool> ParseBoolWord(std::string word) {
  for (char& c : word) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (word.empty()) return std::nullopt;
  auto prefix_of = [&word](std::string_view full) { return full.starts_with(word); };
  if (prefix_of("true") || prefix_of("yes") || word == "on" || word == "1") return true;
  if (prefix_of("false") || prefix_of("no") || word == "of" || word == "off" || word == "0") {
    return false;
  }
  return std::nullopt;
}

// An option's Boolean value as defGetBoolean reads it: absent means true.
Result<bool> DefElemBoolean(const PgQuery__DefElem& option) {
  const Node* arg = option.arg;
  std::optional<bool> value;
  if (IsEmptyNode(arg)) {
    value = true;
  } else if (Is(arg, PG_QUERY__NODE__NODE_STRING)) {
    value = ParseBoolWord(Text(arg->string->sval));
  } else if (Is(arg, PG_QUERY__NODE__NODE_BOOLEAN)) {
    value = arg->boolean->boolval != 0;
  } else if (Is(arg, PG_QUERY__NODE__NODE_INTEGER) &&
             (arg->integer->ival == 0 || arg->integer->ival == 1)) {
    value = arg->integer->ival == 1;
  }
  if (!value) {
    return SqlError(SqlErrorKind::kSyntaxError, Text(option.defname), " requires a Boolean value");
  }
  return *value;
}

// ---- the tree translation --------------------------------------------------------

ast::FrameBoundKind FrameStart(int options) {
  if (options & kFrameStartUnboundedPreceding) return ast::FrameBoundKind::kUnboundedPreceding;
  if (options & kFrameStartOffsetPreceding) return ast::FrameBoundKind::kPreceding;
  if (options & kFrameStartCurrentRow) return ast::FrameBoundKind::kCurrentRow;
  if (options & kFrameStartOffsetFollowing) return ast::FrameBoundKind::kFollowing;
  if (options & kFrameStartUnboundedFollowing) return ast::FrameBoundKind::kUnboundedFollowing;
  return ast::FrameBoundKind::kUnboundedPreceding;  // PostgreSQL's default start
}

// A single bound (`ROWS 2 PRECEDING`) comes with END_CURRENT_ROW set.
ast::FrameBoundKind FrameEnd(int options) {
  if (options & kFrameEndCurrentRow) return ast::FrameBoundKind::kCurrentRow;
  if (options & kFrameEndUnboundedPreceding) return ast::FrameBoundKind::kUnboundedPreceding;
  if (options & kFrameEndOffsetPreceding) return ast::FrameBoundKind::kPreceding;
  if (options & kFrameEndOffsetFollowing) return ast::FrameBoundKind::kFollowing;
  if (options & kFrameEndUnboundedFollowing) return ast::FrameBoundKind::kUnboundedFollowing;
  return ast::FrameBoundKind::kCurrentRow;
}

// Unit, bounds and exclusion from the bits; offsets are the caller's.
void DecodeFrame(int options, ast::WindowSpec& spec) {
  spec.has_frame = (options & kFrameNonDefault) != 0;
  if (!spec.has_frame) return;
  if (options & kFrameRows) {
    spec.frame_unit = ast::FrameUnit::kRows;
  } else if (options & kFrameGroups) {
    spec.frame_unit = ast::FrameUnit::kGroups;
  } else if (options & kFrameRange) {
    spec.frame_unit = ast::FrameUnit::kRange;
  }
  spec.frame_start = FrameStart(options);
  spec.frame_end = FrameEnd(options);
  spec.frame_exclusion =
      (options & (kFrameExcludeCurrentRow | kFrameExcludeGroup | kFrameExcludeTies)) != 0;
}

std::optional<ast::ValueFunctionKind> ValueFunctionKindOf(PgQuery__SQLValueFunctionOp op) {
  using K = ast::ValueFunctionKind;
  switch (op) {
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_DATE:
      return K::kCurrentDate;
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_TIME:
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_TIME_N:
      return K::kCurrentTime;
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_TIMESTAMP:
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_TIMESTAMP_N:
      return K::kCurrentTimestamp;
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_LOCALTIME:
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_LOCALTIME_N:
      return K::kLocalTime;
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_LOCALTIMESTAMP:
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_LOCALTIMESTAMP_N:
      return K::kLocalTimestamp;
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_ROLE:
      return K::kCurrentRole;
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_USER:
      return K::kCurrentUser;
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_USER:
      return K::kUser;
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_SESSION_USER:
      return K::kSessionUser;
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_CATALOG:
      return K::kCurrentCatalog;
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_SCHEMA:
      return K::kCurrentSchema;
    default:
      return std::nullopt;
  }
}

bool HasPrecision(PgQuery__SQLValueFunctionOp op) {
  return op == PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_TIME_N ||
         op == PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_TIMESTAMP_N ||
         op == PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_LOCALTIME_N ||
         op == PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_LOCALTIMESTAMP_N;
}

std::optional<ast::BooleanTestKind> BooleanTestKindOf(PgQuery__BoolTestType type) {
  using K = ast::BooleanTestKind;
  switch (type) {
    case PG_QUERY__BOOL_TEST_TYPE__IS_TRUE:
      return K::kIsTrue;
    case PG_QUERY__BOOL_TEST_TYPE__IS_NOT_TRUE:
      return K::kIsNotTrue;
    case PG_QUERY__BOOL_TEST_TYPE__IS_FALSE:
      return K::kIsFalse;
    case PG_QUERY__BOOL_TEST_TYPE__IS_NOT_FALSE:
      return K::kIsNotFalse;
    case PG_QUERY__BOOL_TEST_TYPE__IS_UNKNOWN:
      return K::kIsUnknown;
    case PG_QUERY__BOOL_TEST_TYPE__IS_NOT_UNKNOWN:
      return K::kIsNotUnknown;
    default:
      return std::nullopt;
  }
}

// The XML construct an XmlExpr stands for, for the refusal.
std::string XmlConstructName(PgQuery__XmlExprOp op) {
  switch (op) {
    case PG_QUERY__XML_EXPR_OP__IS_XMLCONCAT:
      return "XMLCONCAT";
    case PG_QUERY__XML_EXPR_OP__IS_XMLELEMENT:
      return "XMLELEMENT";
    case PG_QUERY__XML_EXPR_OP__IS_XMLFOREST:
      return "XMLFOREST";
    case PG_QUERY__XML_EXPR_OP__IS_XMLPARSE:
      return "XMLPARSE";
    case PG_QUERY__XML_EXPR_OP__IS_XMLPI:
      return "XMLPI";
    case PG_QUERY__XML_EXPR_OP__IS_XMLROOT:
      return "XMLROOT";
    case PG_QUERY__XML_EXPR_OP__IS_XMLSERIALIZE:
      return "XMLSERIALIZE";
    case PG_QUERY__XML_EXPR_OP__IS_DOCUMENT:
      return "IS DOCUMENT";
    default:
      return "XML function";
  }
}

// The grammar's spelling of `x LIKE p ESCAPE e`: the pattern wrapped in
// pg_catalog.like_escape(p, e).
const PgQuery__FuncCall* LikeEscapeCall(const Node* pattern) {
  if (!Is(pattern, PG_QUERY__NODE__NODE_FUNC_CALL)) return nullptr;
  const PgQuery__FuncCall* call = pattern->func_call;
  if (call->n_funcname != 2 || call->n_args != 2) return nullptr;
  if (!Is(call->funcname[0], PG_QUERY__NODE__NODE_STRING) ||
      !Is(call->funcname[1], PG_QUERY__NODE__NODE_STRING)) {
    return nullptr;
  }
  const bool named = Text(call->funcname[0]->string->sval) == "pg_catalog" &&
                     Text(call->funcname[1]->string->sval) == "like_escape";
  return named ? call : nullptr;
}

class Translator {
 public:
  Result<ast::Statement> Statement(const PgQuery__RawStmt& raw);

 private:
  // statements
  Status Explain(const PgQuery__ExplainStmt& explain, ast::Statement& out);

  // queries
  Result<ast::QueryPtr> Query(const Node* node);
  Result<ast::QueryPtr> Select(const PgQuery__SelectStmt& select);
  Status With(const PgQuery__WithClause& with, ast::QueryNode& query);
  Result<ast::CommonTableExpr> Cte(const Node* node, bool recursive);
  Status SelectBody(const PgQuery__SelectStmt& select, ast::QueryNode& query);
  Status Distinct(NodeList clause, ast::QueryNode& query);
  Result<ast::SelectItem> Target(const Node* node);
  Status GroupBy(NodeList clause, ast::QueryNode& query);
  Status Values(const PgQuery__SelectStmt& select, ast::QueryNode& query);
  Status SetOperation(const PgQuery__SelectStmt& select, ast::QueryNode& query);
  Status QueryTail(const PgQuery__SelectStmt& select, ast::QueryNode& query);

  // FROM
  Result<ast::TableRefPtr> TableRef(const Node* node);
  Result<ast::TableRefPtr> BaseTable(const PgQuery__RangeVar& range);
  Result<ast::TableRefPtr> SubqueryTable(const PgQuery__RangeSubselect& range);
  Result<ast::TableRefPtr> FunctionTable(const PgQuery__RangeFunction& range);
  Result<ast::TableRefPtr> Join(const PgQuery__JoinExpr& join);

  // expressions
  Result<ExprPtr> Expr(const Node* node);
  Result<ExprPtr> OptionalExpr(const Node* node);
  Result<std::vector<ExprPtr>> Exprs(NodeList nodes);
  Result<ExprPtr> Dispatch(const Node& node);
  Result<ExprPtr> ColumnRef(const PgQuery__ColumnRef& ref);
  Result<ExprPtr> Constant(const PgQuery__AConst& value);
  Result<ExprPtr> AExpr(const PgQuery__AExpr& expr);
  Result<ExprPtr> Operator(const PgQuery__AExpr& expr);
  Result<ExprPtr> Quantified(const PgQuery__AExpr& expr);
  Result<ExprPtr> DistinctFrom(const PgQuery__AExpr& expr);
  Result<ExprPtr> NullIf(const PgQuery__AExpr& expr);
  Result<ExprPtr> InList(const PgQuery__AExpr& expr);
  Result<ExprPtr> Like(const PgQuery__AExpr& expr);
  Result<ExprPtr> Between(const PgQuery__AExpr& expr);
  Result<ExprPtr> Bool(const PgQuery__BoolExpr& expr);
  Result<ExprPtr> Function(const PgQuery__FuncCall& call);
  Result<ExprPtr> Cast(const PgQuery__TypeCast& cast);
  Result<ExprPtr> Case(const PgQuery__CaseExpr& expr);
  Result<ExprPtr> Coalesce(const PgQuery__CoalesceExpr& expr);
  Result<ExprPtr> MinMax(const PgQuery__MinMaxExpr& expr);
  Result<ExprPtr> NullTest(const PgQuery__NullTest& test);
  Result<ExprPtr> BooleanTest(const PgQuery__BooleanTest& test);
  Result<ExprPtr> Subquery(const PgQuery__SubLink& link);
  Result<ExprPtr> Indirection(const PgQuery__AIndirection& expr);
  Result<ast::IndirectionStep> IndirectionStep(const Node* node);
  Result<ExprPtr> Array(const PgQuery__AArrayExpr& expr);
  Result<ExprPtr> Row(const PgQuery__RowExpr& expr);
  Result<ExprPtr> ValueFunction(const PgQuery__SQLValueFunction& function);

  // pieces
  Result<std::vector<ast::OrderItem>> OrderItems(NodeList nodes);
  Status Window(const PgQuery__WindowDef& def, ast::WindowSpec& spec);
  Result<ast::TypeName> Type(const PgQuery__TypeName* type);
  Status Alias(const PgQuery__Alias* alias, ast::TableRef& ref);

  int depth_ = 0;
};

// ---- statements ----

Result<ast::Statement> Translator::Statement(const PgQuery__RawStmt& raw) {
  ast::Statement out;
  out.location = raw.stmt_location;
  out.length = raw.stmt_len;
  const Node* node = raw.stmt;
  if (IsEmptyNode(node)) return Malformed("a statement without a body");
  if (Is(node, PG_QUERY__NODE__NODE_SELECT_STMT)) {
    out.kind = ast::StatementKind::kQuery;
    HOGLAKE_ASSIGN_OR_RETURN(out.query, Select(*node->select_stmt));
    out.query->location = raw.stmt_location;
    return out;
  }
  if (Is(node, PG_QUERY__NODE__NODE_EXPLAIN_STMT) &&
      Is(node->explain_stmt->query, PG_QUERY__NODE__NODE_SELECT_STMT)) {
    out.kind = ast::StatementKind::kExplain;
    HOGLAKE_RETURN_IF_ERROR(Explain(*node->explain_stmt, out));
    return out;
  }
  out.kind = ast::StatementKind::kOther;
  out.other_tag = CommandTag(*node);
  return out;
}

Status Translator::Explain(const PgQuery__ExplainStmt& explain, ast::Statement& out) {
  for (const Node* node : Items(explain.options, explain.n_options)) {
    if (!Is(node, PG_QUERY__NODE__NODE_DEF_ELEM)) return Malformed("an EXPLAIN option");
    const PgQuery__DefElem& option = *node->def_elem;
    const std::string name = Text(option.defname);
    if (name == "analyze") {
      HOGLAKE_ASSIGN_OR_RETURN(out.explain_analyze, DefElemBoolean(option));
    } else if (name == "verbose") {
      HOGLAKE_ASSIGN_OR_RETURN(out.explain_verbose, DefElemBoolean(option));
    } else {
      return NotSupported(StrCat("EXPLAIN option \"", name, "\""));
    }
  }
  HOGLAKE_ASSIGN_OR_RETURN(out.query, Select(*explain.query->select_stmt));
  return Status::Ok();
}

// ---- queries ----

Result<ast::QueryPtr> Translator::Query(const Node* node) {
  if (IsEmptyNode(node)) return Malformed("a missing subquery");
  if (!Is(node, PG_QUERY__NODE__NODE_SELECT_STMT)) {
    return NotSupported(StrCat(CommandTag(*node), " inside a query"));
  }
  return Select(*node->select_stmt);
}

Result<ast::QueryPtr> Translator::Select(const PgQuery__SelectStmt& select) {
  DepthScope scope(depth_);
  if (scope.too_deep()) return TooDeep();
  auto query = std::make_unique<ast::QueryNode>();
  if (select.with_clause != nullptr) HOGLAKE_RETURN_IF_ERROR(With(*select.with_clause, *query));
  switch (select.op) {
    case PG_QUERY__SET_OPERATION__SETOP_NONE:
      if (select.n_values_lists > 0) {
        HOGLAKE_RETURN_IF_ERROR(Values(select, *query));
      } else {
        HOGLAKE_RETURN_IF_ERROR(SelectBody(select, *query));
      }
      break;
    case PG_QUERY__SET_OPERATION__SETOP_UNION:
    case PG_QUERY__SET_OPERATION__SETOP_INTERSECT:
    case PG_QUERY__SET_OPERATION__SETOP_EXCEPT:
      HOGLAKE_RETURN_IF_ERROR(SetOperation(select, *query));
      break;
    default:
      return Malformed("a SELECT without a set operation kind");
  }
  HOGLAKE_RETURN_IF_ERROR(QueryTail(select, *query));
  return query;
}

Status Translator::With(const PgQuery__WithClause& with, ast::QueryNode& query) {
  for (const Node* node : Items(with.ctes, with.n_ctes)) {
    HOGLAKE_ASSIGN_OR_RETURN(ast::CommonTableExpr cte, Cte(node, with.recursive != 0));
    query.with.push_back(std::move(cte));
  }
  return Status::Ok();
}

Result<ast::CommonTableExpr> Translator::Cte(const Node* node, bool recursive) {
  if (!Is(node, PG_QUERY__NODE__NODE_COMMON_TABLE_EXPR)) return Malformed("a WITH item");
  const PgQuery__CommonTableExpr& cte = *node->common_table_expr;
  if (cte.search_clause != nullptr) return NotSupported("SEARCH in WITH RECURSIVE");
  if (cte.cycle_clause != nullptr) return NotSupported("CYCLE in WITH RECURSIVE");
  ast::CommonTableExpr out;
  out.name = Text(cte.ctename);
  HOGLAKE_ASSIGN_OR_RETURN(out.column_aliases,
                           Names(Items(cte.aliascolnames, cte.n_aliascolnames)));
  HOGLAKE_ASSIGN_OR_RETURN(out.query, Query(cte.ctequery));
  out.recursive = recursive;
  if (cte.ctematerialized == PG_QUERY__CTEMATERIALIZE__CTEMaterializeAlways) out.materialized = 1;
  if (cte.ctematerialized == PG_QUERY__CTEMATERIALIZE__CTEMaterializeNever) out.materialized = -1;
  out.location = cte.location;
  return out;
}

Status Translator::SelectBody(const PgQuery__SelectStmt& select, ast::QueryNode& query) {
  query.kind = ast::QueryKind::kSelect;
  if (select.group_distinct) return NotSupported("GROUP BY DISTINCT");
  HOGLAKE_RETURN_IF_ERROR(Distinct(Items(select.distinct_clause, select.n_distinct_clause), query));
  for (const Node* node : Items(select.target_list, select.n_target_list)) {
    HOGLAKE_ASSIGN_OR_RETURN(ast::SelectItem item, Target(node));
    query.targets.push_back(std::move(item));
  }
  for (const Node* node : Items(select.from_clause, select.n_from_clause)) {
    HOGLAKE_ASSIGN_OR_RETURN(ast::TableRefPtr ref, TableRef(node));
    query.from.push_back(std::move(ref));
  }
  HOGLAKE_ASSIGN_OR_RETURN(query.where, OptionalExpr(select.where_clause));
  HOGLAKE_RETURN_IF_ERROR(GroupBy(Items(select.group_clause, select.n_group_clause), query));
  HOGLAKE_ASSIGN_OR_RETURN(query.having, OptionalExpr(select.having_clause));
  for (const Node* node : Items(select.window_clause, select.n_window_clause)) {
    if (!Is(node, PG_QUERY__NODE__NODE_WINDOW_DEF)) return Malformed("a WINDOW item");
    ast::WindowSpec spec;
    HOGLAKE_RETURN_IF_ERROR(Window(*node->window_def, spec));
    query.windows.push_back(std::move(spec));
  }
  query.select_into = select.into_clause != nullptr;
  return Status::Ok();
}

// DISTINCT arrives as a list holding one empty node; DISTINCT ON as its
// expressions.
Status Translator::Distinct(NodeList clause, ast::QueryNode& query) {
  if (clause.empty()) return Status::Ok();
  query.distinct = true;
  if (clause.size() == 1 && IsEmptyNode(clause[0])) return Status::Ok();
  HOGLAKE_ASSIGN_OR_RETURN(query.distinct_on, Exprs(clause));
  return Status::Ok();
}

Result<ast::SelectItem> Translator::Target(const Node* node) {
  if (!Is(node, PG_QUERY__NODE__NODE_RES_TARGET)) return Malformed("a select-list item");
  const PgQuery__ResTarget& target = *node->res_target;
  if (target.n_indirection > 0) return NotSupported("a subscripted select-list target");
  ast::SelectItem item;
  HOGLAKE_ASSIGN_OR_RETURN(item.expr, Expr(target.val));
  item.alias = Text(target.name);
  item.location = target.location;
  return item;
}

// GROUPING SETS, ROLLUP, CUBE and () only raise group_by_special; the plain
// expressions beside them are kept.
Status Translator::GroupBy(NodeList clause, ast::QueryNode& query) {
  for (const Node* node : clause) {
    if (Is(node, PG_QUERY__NODE__NODE_GROUPING_SET)) {
      query.group_by_special = true;
      continue;
    }
    HOGLAKE_ASSIGN_OR_RETURN(ExprPtr expr, Expr(node));
    query.group_by.push_back(std::move(expr));
  }
  return Status::Ok();
}

Status Translator::Values(const PgQuery__SelectStmt& select, ast::QueryNode& query) {
  query.kind = ast::QueryKind::kValues;
  for (const Node* row : Items(select.values_lists, select.n_values_lists)) {
    if (!Is(row, PG_QUERY__NODE__NODE_LIST)) return Malformed("a VALUES row");
    HOGLAKE_ASSIGN_OR_RETURN(std::vector<ExprPtr> values,
                             Exprs(Items(row->list->items, row->list->n_items)));
    query.values.push_back(std::move(values));
  }
  return Status::Ok();
}

Status Translator::SetOperation(const PgQuery__SelectStmt& select, ast::QueryNode& query) {
  if (select.larg == nullptr || select.rarg == nullptr) return Malformed("a set operation side");
  query.kind = ast::QueryKind::kSetOperation;
  switch (select.op) {
    case PG_QUERY__SET_OPERATION__SETOP_INTERSECT:
      query.set_operation = ast::SetOperation::kIntersect;
      break;
    case PG_QUERY__SET_OPERATION__SETOP_EXCEPT:
      query.set_operation = ast::SetOperation::kExcept;
      break;
    default:
      query.set_operation = ast::SetOperation::kUnion;
      break;
  }
  query.set_all = select.all != 0;
  HOGLAKE_ASSIGN_OR_RETURN(query.left, Select(*select.larg));
  HOGLAKE_ASSIGN_OR_RETURN(query.right, Select(*select.rarg));
  return Status::Ok();
}

// ORDER BY, LIMIT/FETCH, OFFSET and locking, which every kind of query takes.
Status Translator::QueryTail(const PgQuery__SelectStmt& select, ast::QueryNode& query) {
  HOGLAKE_ASSIGN_OR_RETURN(query.order_by,
                           OrderItems(Items(select.sort_clause, select.n_sort_clause)));
  if (!IsNullConstant(select.limit_count)) {  // LIMIT ALL is a null constant
    HOGLAKE_ASSIGN_OR_RETURN(query.limit, OptionalExpr(select.limit_count));
  }
  HOGLAKE_ASSIGN_OR_RETURN(query.offset, OptionalExpr(select.limit_offset));
  query.limit_with_ties = select.limit_option == PG_QUERY__LIMIT_OPTION__LIMIT_OPTION_WITH_TIES;
  query.for_update = select.n_locking_clause > 0;
  return Status::Ok();
}

// ---- FROM ----

Result<ast::TableRefPtr> Translator::TableRef(const Node* node) {
  if (IsEmptyNode(node)) return Malformed("a missing FROM item");
  DepthScope scope(depth_);
  if (scope.too_deep()) return TooDeep();
  switch (node->node_case) {
    case PG_QUERY__NODE__NODE_RANGE_VAR:
      return BaseTable(*node->range_var);
    case PG_QUERY__NODE__NODE_RANGE_SUBSELECT:
      return SubqueryTable(*node->range_subselect);
    case PG_QUERY__NODE__NODE_RANGE_FUNCTION:
      return FunctionTable(*node->range_function);
    case PG_QUERY__NODE__NODE_JOIN_EXPR:
      return Join(*node->join_expr);
    case PG_QUERY__NODE__NODE_RANGE_TABLE_SAMPLE:
      return NotSupported("TABLESAMPLE");
    case PG_QUERY__NODE__NODE_RANGE_TABLE_FUNC:
      return NotSupported("XMLTABLE");
    default:
      return NotSupported(StrCat(NodeTypeName(*node), " in FROM"));
  }
}

Result<ast::TableRefPtr> Translator::BaseTable(const PgQuery__RangeVar& range) {
  auto ref = std::make_unique<ast::BaseTableRef>(range.location);
  ref->catalog = Text(range.catalogname);
  ref->schema = Text(range.schemaname);
  ref->name = Text(range.relname);
  ref->only = range.inh == 0;
  HOGLAKE_RETURN_IF_ERROR(Alias(range.alias, *ref));
  return ast::TableRefPtr(std::move(ref));
}

Result<ast::TableRefPtr> Translator::SubqueryTable(const PgQuery__RangeSubselect& range) {
  auto ref = std::make_unique<ast::SubqueryRef>();
  HOGLAKE_ASSIGN_OR_RETURN(ref->query, Query(range.subquery));
  ref->lateral = range.lateral != 0;
  HOGLAKE_RETURN_IF_ERROR(Alias(range.alias, *ref));
  return ast::TableRefPtr(std::move(ref));
}

// Each of RangeFunction's functions is a two-item list: the call and its
// column definition list (empty unless `AS (a int, …)` was written).
Result<ast::TableRefPtr> Translator::FunctionTable(const PgQuery__RangeFunction& range) {
  if (range.n_functions != 1) return NotSupported("ROWS FROM with more than one function");
  if (range.n_coldeflist > 0) return NotSupported("a column definition list");
  const Node* entry = range.functions[0];
  if (!Is(entry, PG_QUERY__NODE__NODE_LIST) || entry->list->n_items == 0) {
    return Malformed("a FROM function entry");
  }
  const NodeList parts = Items(entry->list->items, entry->list->n_items);
  if (parts.size() > 1 && !IsEmptyNode(parts[1])) {
    const bool empty_list = Is(parts[1], PG_QUERY__NODE__NODE_LIST) && parts[1]->list->n_items == 0;
    if (!empty_list) return NotSupported("a column definition list");
  }
  const Node* call = parts[0];
  if (IsEmptyNode(call)) return Malformed("a FROM function without a call");
  if (!Is(call, PG_QUERY__NODE__NODE_FUNC_CALL)) {
    return NotSupported(StrCat(NodeTypeName(*call), " in FROM"));
  }
  auto ref = std::make_unique<ast::FunctionRef>(call->func_call->location);
  HOGLAKE_ASSIGN_OR_RETURN(ref->call, Expr(call));
  ref->lateral = range.lateral != 0;
  ref->with_ordinality = range.ordinality != 0;
  HOGLAKE_RETURN_IF_ERROR(Alias(range.alias, *ref));
  return ast::TableRefPtr(std::move(ref));
}

Result<ast::TableRefPtr> Translator::Join(const PgQuery__JoinExpr& join) {
  if (join.join_using_alias != nullptr) return NotSupported("an alias on JOIN USING");
  auto ref = std::make_unique<ast::JoinRef>();
  switch (join.jointype) {
    case PG_QUERY__JOIN_TYPE__JOIN_INNER: {
      const bool cross = !join.is_natural && join.n_using_clause == 0 && IsEmptyNode(join.quals);
      ref->join_type = cross ? ast::JoinType::kCross : ast::JoinType::kInner;
      break;
    }
    case PG_QUERY__JOIN_TYPE__JOIN_LEFT:
      ref->join_type = ast::JoinType::kLeft;
      break;
    case PG_QUERY__JOIN_TYPE__JOIN_RIGHT:
      ref->join_type = ast::JoinType::kRight;
      break;
    case PG_QUERY__JOIN_TYPE__JOIN_FULL:
      ref->join_type = ast::JoinType::kFull;
      break;
    default:
      return Malformed("a join type the grammar does not make");
  }
  HOGLAKE_ASSIGN_OR_RETURN(ref->left, TableRef(join.larg));
  HOGLAKE_ASSIGN_OR_RETURN(ref->right, TableRef(join.rarg));
  HOGLAKE_ASSIGN_OR_RETURN(ref->condition, OptionalExpr(join.quals));
  HOGLAKE_ASSIGN_OR_RETURN(ref->using_columns,
                           Names(Items(join.using_clause, join.n_using_clause)));
  ref->natural = join.is_natural != 0;
  HOGLAKE_RETURN_IF_ERROR(Alias(join.alias, *ref));
  return ast::TableRefPtr(std::move(ref));
}

Status Translator::Alias(const PgQuery__Alias* alias, ast::TableRef& ref) {
  if (alias == nullptr) return Status::Ok();
  ref.alias = Text(alias->aliasname);
  HOGLAKE_ASSIGN_OR_RETURN(ref.column_aliases, Names(Items(alias->colnames, alias->n_colnames)));
  return Status::Ok();
}

// ---- expressions ----

Result<ExprPtr> Translator::Expr(const Node* node) {
  if (IsEmptyNode(node)) return Malformed("a missing expression");
  DepthScope scope(depth_);
  if (scope.too_deep()) return TooDeep();
  return Dispatch(*node);
}

Result<ExprPtr> Translator::OptionalExpr(const Node* node) {
  if (IsEmptyNode(node)) return ExprPtr();
  return Expr(node);
}

Result<std::vector<ExprPtr>> Translator::Exprs(NodeList nodes) {
  std::vector<ExprPtr> exprs;
  exprs.reserve(nodes.size());
  for (const Node* node : nodes) {
    HOGLAKE_ASSIGN_OR_RETURN(ExprPtr expr, Expr(node));
    exprs.push_back(std::move(expr));
  }
  return exprs;
}

Result<ExprPtr> Translator::Dispatch(const Node& node) {
  switch (node.node_case) {
    case PG_QUERY__NODE__NODE_COLUMN_REF:
      return ColumnRef(*node.column_ref);
    case PG_QUERY__NODE__NODE_A_CONST:
      return Constant(*node.a_const);
    case PG_QUERY__NODE__NODE_PARAM_REF: {
      auto param = std::make_unique<ast::Parameter>(node.param_ref->location);
      param->number = node.param_ref->number;
      return ExprPtr(std::move(param));
    }
    case PG_QUERY__NODE__NODE_A_EXPR:
      return AExpr(*node.a_expr);
    case PG_QUERY__NODE__NODE_BOOL_EXPR:
      return Bool(*node.bool_expr);
    case PG_QUERY__NODE__NODE_FUNC_CALL:
      return Function(*node.func_call);
    case PG_QUERY__NODE__NODE_TYPE_CAST:
      return Cast(*node.type_cast);
    case PG_QUERY__NODE__NODE_CASE_EXPR:
      return Case(*node.case_expr);
    case PG_QUERY__NODE__NODE_COALESCE_EXPR:
      return Coalesce(*node.coalesce_expr);
    case PG_QUERY__NODE__NODE_MIN_MAX_EXPR:
      return MinMax(*node.min_max_expr);
    case PG_QUERY__NODE__NODE_NULL_TEST:
      return NullTest(*node.null_test);
    case PG_QUERY__NODE__NODE_BOOLEAN_TEST:
      return BooleanTest(*node.boolean_test);
    case PG_QUERY__NODE__NODE_SUB_LINK:
      return Subquery(*node.sub_link);
    case PG_QUERY__NODE__NODE_A_INDIRECTION:
      return Indirection(*node.a_indirection);
    case PG_QUERY__NODE__NODE_A_ARRAY_EXPR:
      return Array(*node.a_array_expr);
    case PG_QUERY__NODE__NODE_ROW_EXPR:
      return Row(*node.row_expr);
    case PG_QUERY__NODE__NODE_SQLVALUE_FUNCTION:
      return ValueFunction(*node.sqlvalue_function);
    case PG_QUERY__NODE__NODE_COLLATE_CLAUSE:
      return NotSupported("COLLATE");
    case PG_QUERY__NODE__NODE_XML_EXPR:
      return NotSupported(XmlConstructName(node.xml_expr->op));
    case PG_QUERY__NODE__NODE_XML_SERIALIZE:
      return NotSupported("XMLSERIALIZE");
    case PG_QUERY__NODE__NODE_GROUPING_FUNC:
      return NotSupported("GROUPING");
    case PG_QUERY__NODE__NODE_NAMED_ARG_EXPR:
      return NotSupported("a named function argument");
    case PG_QUERY__NODE__NODE_SET_TO_DEFAULT:
      return NotSupported("DEFAULT");
    default:
      return NotSupported(NodeTypeName(node));
  }
}

// `*` alone is a Star; `t.*` a ColumnRef with star set.
Result<ExprPtr> Translator::ColumnRef(const PgQuery__ColumnRef& ref) {
  const NodeList fields = Items(ref.fields, ref.n_fields);
  if (fields.empty()) return Malformed("a column reference without fields");
  const bool star = Is(fields.back(), PG_QUERY__NODE__NODE_A_STAR);
  if (star && fields.size() == 1) return ExprPtr(std::make_unique<ast::Star>(ref.location));
  auto column = std::make_unique<ast::ColumnRef>(ref.location);
  HOGLAKE_ASSIGN_OR_RETURN(column->parts, Names(star ? fields.first(fields.size() - 1) : fields));
  column->star = star;
  return ExprPtr(std::move(column));
}

Result<ExprPtr> Translator::Constant(const PgQuery__AConst& value) {
  auto constant = std::make_unique<ast::Constant>(value.location);
  if (value.isnull) {
    constant->constant_kind = ast::ConstantKind::kNull;
    return ExprPtr(std::move(constant));
  }
  switch (value.val_case) {
    case PG_QUERY__A__CONST__VAL_IVAL:
      constant->constant_kind = ast::ConstantKind::kInteger;
      constant->integer_value = value.ival->ival;
      break;
    case PG_QUERY__A__CONST__VAL_FVAL:
      constant->constant_kind = ast::ConstantKind::kNumeric;
      constant->text = Text(value.fval->fval);
      break;
    case PG_QUERY__A__CONST__VAL_BOOLVAL:
      constant->constant_kind = ast::ConstantKind::kBool;
      constant->bool_value = value.boolval->boolval != 0;
      break;
    case PG_QUERY__A__CONST__VAL_SVAL:
      constant->constant_kind = ast::ConstantKind::kString;
      constant->text = Text(value.sval->sval);
      break;
    case PG_QUERY__A__CONST__VAL_BSVAL:
      constant->constant_kind = ast::ConstantKind::kBitString;
      constant->text = Text(value.bsval->bsval);
      break;
    default:
      return Malformed("a constant without a value");
  }
  return ExprPtr(std::move(constant));
}

Result<ExprPtr> Translator::AExpr(const PgQuery__AExpr& expr) {
  switch (expr.kind) {
    case PG_QUERY__A__EXPR__KIND__AEXPR_OP:
      return Operator(expr);
    case PG_QUERY__A__EXPR__KIND__AEXPR_OP_ANY:
    case PG_QUERY__A__EXPR__KIND__AEXPR_OP_ALL:
      return Quantified(expr);
    case PG_QUERY__A__EXPR__KIND__AEXPR_DISTINCT:
    case PG_QUERY__A__EXPR__KIND__AEXPR_NOT_DISTINCT:
      return DistinctFrom(expr);
    case PG_QUERY__A__EXPR__KIND__AEXPR_NULLIF:
      return NullIf(expr);
    case PG_QUERY__A__EXPR__KIND__AEXPR_IN:
      return InList(expr);
    case PG_QUERY__A__EXPR__KIND__AEXPR_LIKE:
    case PG_QUERY__A__EXPR__KIND__AEXPR_ILIKE:
      return Like(expr);
    case PG_QUERY__A__EXPR__KIND__AEXPR_SIMILAR:
      return NotSupported("SIMILAR TO");
    case PG_QUERY__A__EXPR__KIND__AEXPR_BETWEEN:
    case PG_QUERY__A__EXPR__KIND__AEXPR_NOT_BETWEEN:
    case PG_QUERY__A__EXPR__KIND__AEXPR_BETWEEN_SYM:
    case PG_QUERY__A__EXPR__KIND__AEXPR_NOT_BETWEEN_SYM:
      return Between(expr);
    default:
      return Malformed("an operator expression of unknown kind");
  }
}

Result<ExprPtr> Translator::Operator(const PgQuery__AExpr& expr) {
  auto op = std::make_unique<ast::Operator>(expr.location);
  HOGLAKE_ASSIGN_OR_RETURN(op->name, OperatorName(Items(expr.name, expr.n_name)));
  HOGLAKE_ASSIGN_OR_RETURN(op->left, OptionalExpr(expr.lexpr));
  HOGLAKE_ASSIGN_OR_RETURN(op->right, Expr(expr.rexpr));
  return ExprPtr(std::move(op));
}

Result<ExprPtr> Translator::Quantified(const PgQuery__AExpr& expr) {
  auto quantified = std::make_unique<ast::Quantified>(expr.location);
  HOGLAKE_ASSIGN_OR_RETURN(quantified->name, OperatorName(Items(expr.name, expr.n_name)));
  quantified->all = expr.kind == PG_QUERY__A__EXPR__KIND__AEXPR_OP_ALL;
  HOGLAKE_ASSIGN_OR_RETURN(quantified->left, Expr(expr.lexpr));
  HOGLAKE_ASSIGN_OR_RETURN(quantified->right, Expr(expr.rexpr));
  return ExprPtr(std::move(quantified));
}

Result<ExprPtr> Translator::DistinctFrom(const PgQuery__AExpr& expr) {
  auto distinct = std::make_unique<ast::DistinctFrom>(expr.location);
  distinct->negated = expr.kind == PG_QUERY__A__EXPR__KIND__AEXPR_NOT_DISTINCT;
  HOGLAKE_ASSIGN_OR_RETURN(distinct->left, Expr(expr.lexpr));
  HOGLAKE_ASSIGN_OR_RETURN(distinct->right, Expr(expr.rexpr));
  return ExprPtr(std::move(distinct));
}

Result<ExprPtr> Translator::NullIf(const PgQuery__AExpr& expr) {
  auto nullif = std::make_unique<ast::NullIf>(expr.location);
  HOGLAKE_ASSIGN_OR_RETURN(nullif->left, Expr(expr.lexpr));
  HOGLAKE_ASSIGN_OR_RETURN(nullif->right, Expr(expr.rexpr));
  return ExprPtr(std::move(nullif));
}

// IN is the operator "=", NOT IN "<>"; the values come as a List.
Result<ExprPtr> Translator::InList(const PgQuery__AExpr& expr) {
  HOGLAKE_ASSIGN_OR_RETURN(const std::string name, OperatorName(Items(expr.name, expr.n_name)));
  if (name != "=" && name != "<>") return Malformed("an IN list with operator " + name);
  if (!Is(expr.rexpr, PG_QUERY__NODE__NODE_LIST)) return Malformed("an IN list that is not a list");
  auto in = std::make_unique<ast::InList>(expr.location);
  in->negated = name == "<>";
  HOGLAKE_ASSIGN_OR_RETURN(in->value, Expr(expr.lexpr));
  const PgQuery__List& list = *expr.rexpr->list;
  HOGLAKE_ASSIGN_OR_RETURN(in->list, Exprs(Items(list.items, list.n_items)));
  return ExprPtr(std::move(in));
}

// LIKE is "~~", NOT LIKE "!~~", ILIKE "~~*", NOT ILIKE "!~~*".
Result<ExprPtr> Translator::Like(const PgQuery__AExpr& expr) {
  HOGLAKE_ASSIGN_OR_RETURN(const std::string name, OperatorName(Items(expr.name, expr.n_name)));
  auto like = std::make_unique<ast::Like>(expr.location);
  like->negated = name.starts_with("!");
  like->case_insensitive = expr.kind == PG_QUERY__A__EXPR__KIND__AEXPR_ILIKE;
  HOGLAKE_ASSIGN_OR_RETURN(like->value, Expr(expr.lexpr));
  if (const PgQuery__FuncCall* escape = LikeEscapeCall(expr.rexpr)) {
    HOGLAKE_ASSIGN_OR_RETURN(like->pattern, Expr(escape->args[0]));
    HOGLAKE_ASSIGN_OR_RETURN(like->escape, Expr(escape->args[1]));
  } else {
    HOGLAKE_ASSIGN_OR_RETURN(like->pattern, Expr(expr.rexpr));
  }
  return ExprPtr(std::move(like));
}

// The bounds come as a List of two.
Result<ExprPtr> Translator::Between(const PgQuery__AExpr& expr) {
  if (!Is(expr.rexpr, PG_QUERY__NODE__NODE_LIST) || expr.rexpr->list->n_items != 2) {
    return Malformed("BETWEEN bounds that are not a pair");
  }
  auto between = std::make_unique<ast::Between>(expr.location);
  between->negated = expr.kind == PG_QUERY__A__EXPR__KIND__AEXPR_NOT_BETWEEN ||
                     expr.kind == PG_QUERY__A__EXPR__KIND__AEXPR_NOT_BETWEEN_SYM;
  between->symmetric = expr.kind == PG_QUERY__A__EXPR__KIND__AEXPR_BETWEEN_SYM ||
                       expr.kind == PG_QUERY__A__EXPR__KIND__AEXPR_NOT_BETWEEN_SYM;
  HOGLAKE_ASSIGN_OR_RETURN(between->value, Expr(expr.lexpr));
  HOGLAKE_ASSIGN_OR_RETURN(between->low, Expr(expr.rexpr->list->items[0]));
  HOGLAKE_ASSIGN_OR_RETURN(between->high, Expr(expr.rexpr->list->items[1]));
  return ExprPtr(std::move(between));
}

Result<ExprPtr> Translator::Bool(const PgQuery__BoolExpr& expr) {
  auto out = std::make_unique<ast::BoolExpr>(expr.location);
  switch (expr.boolop) {
    case PG_QUERY__BOOL_EXPR_TYPE__AND_EXPR:
      out->op = ast::BoolOp::kAnd;
      break;
    case PG_QUERY__BOOL_EXPR_TYPE__OR_EXPR:
      out->op = ast::BoolOp::kOr;
      break;
    case PG_QUERY__BOOL_EXPR_TYPE__NOT_EXPR:
      out->op = ast::BoolOp::kNot;
      break;
    default:
      return Malformed("a Boolean expression of unknown kind");
  }
  HOGLAKE_ASSIGN_OR_RETURN(out->args, Exprs(Items(expr.args, expr.n_args)));
  return ExprPtr(std::move(out));
}

Result<ExprPtr> Translator::Function(const PgQuery__FuncCall& call) {
  auto out = std::make_unique<ast::FunctionCall>(call.location);
  HOGLAKE_ASSIGN_OR_RETURN(out->name, Names(Items(call.funcname, call.n_funcname)));
  for (const Node* node : Items(call.args, call.n_args)) {
    // f(name => value): the argument, its name kept beside it.
    std::string arg_name;
    if (Is(node, PG_QUERY__NODE__NODE_NAMED_ARG_EXPR)) {
      arg_name = node->named_arg_expr->name;
      node = node->named_arg_expr->arg;
    }
    HOGLAKE_ASSIGN_OR_RETURN(ExprPtr arg, Expr(node));
    out->args.push_back(std::move(arg));
    out->arg_names.push_back(std::move(arg_name));
  }
  out->star = call.agg_star != 0;
  out->distinct = call.agg_distinct != 0;
  out->variadic = call.func_variadic != 0;
  HOGLAKE_ASSIGN_OR_RETURN(out->filter, OptionalExpr(call.agg_filter));
  HOGLAKE_ASSIGN_OR_RETURN(out->order_by, OrderItems(Items(call.agg_order, call.n_agg_order)));
  out->within_group = call.agg_within_group != 0;
  if (call.over != nullptr) {
    out->over = std::make_unique<ast::WindowSpec>();
    HOGLAKE_RETURN_IF_ERROR(Window(*call.over, *out->over));
    // OVER w arrives as a window named w: here it names the window used.
    if (out->over->reference.empty()) out->over->reference = std::move(out->over->name);
    out->over->name.clear();
  }
  return ExprPtr(std::move(out));
}

// A typed literal (`date '…'`) has no location of its own; the type's stands in.
Result<ExprPtr> Translator::Cast(const PgQuery__TypeCast& cast) {
  HOGLAKE_ASSIGN_OR_RETURN(ast::TypeName type, Type(cast.type_name));
  auto out = std::make_unique<ast::Cast>(cast.location >= 0 ? cast.location : type.location);
  HOGLAKE_ASSIGN_OR_RETURN(out->arg, Expr(cast.arg));
  out->type = std::move(type);
  return ExprPtr(std::move(out));
}

Result<ExprPtr> Translator::Case(const PgQuery__CaseExpr& expr) {
  auto out = std::make_unique<ast::Case>(expr.location);
  HOGLAKE_ASSIGN_OR_RETURN(out->arg, OptionalExpr(expr.arg));
  for (const Node* node : Items(expr.args, expr.n_args)) {
    if (!Is(node, PG_QUERY__NODE__NODE_CASE_WHEN)) return Malformed("a CASE branch");
    ast::CaseWhen when;
    HOGLAKE_ASSIGN_OR_RETURN(when.condition, Expr(node->case_when->expr));
    HOGLAKE_ASSIGN_OR_RETURN(when.result, Expr(node->case_when->result));
    out->whens.push_back(std::move(when));
  }
  HOGLAKE_ASSIGN_OR_RETURN(out->else_result, OptionalExpr(expr.defresult));
  return ExprPtr(std::move(out));
}

Result<ExprPtr> Translator::Coalesce(const PgQuery__CoalesceExpr& expr) {
  auto out = std::make_unique<ast::Coalesce>(expr.location);
  HOGLAKE_ASSIGN_OR_RETURN(out->args, Exprs(Items(expr.args, expr.n_args)));
  return ExprPtr(std::move(out));
}

Result<ExprPtr> Translator::MinMax(const PgQuery__MinMaxExpr& expr) {
  auto out = std::make_unique<ast::MinMax>(expr.location);
  out->greatest = expr.op != PG_QUERY__MIN_MAX_OP__IS_LEAST;
  HOGLAKE_ASSIGN_OR_RETURN(out->args, Exprs(Items(expr.args, expr.n_args)));
  return ExprPtr(std::move(out));
}

Result<ExprPtr> Translator::NullTest(const PgQuery__NullTest& test) {
  auto out = std::make_unique<ast::NullTest>(test.location);
  out->negated = test.nulltesttype == PG_QUERY__NULL_TEST_TYPE__IS_NOT_NULL;
  HOGLAKE_ASSIGN_OR_RETURN(out->arg, Expr(test.arg));
  return ExprPtr(std::move(out));
}

Result<ExprPtr> Translator::BooleanTest(const PgQuery__BooleanTest& test) {
  const std::optional<ast::BooleanTestKind> kind = BooleanTestKindOf(test.booltesttype);
  if (!kind) return Malformed("a Boolean test of unknown kind");
  auto out = std::make_unique<ast::BooleanTest>(test.location);
  out->test = *kind;
  HOGLAKE_ASSIGN_OR_RETURN(out->arg, Expr(test.arg));
  return ExprPtr(std::move(out));
}

Result<ExprPtr> Translator::Subquery(const PgQuery__SubLink& link) {
  auto out = std::make_unique<ast::Subquery>(link.location);
  switch (link.sub_link_type) {
    case PG_QUERY__SUB_LINK_TYPE__EXISTS_SUBLINK:
      out->subquery_kind = ast::SubqueryKind::kExists;
      break;
    case PG_QUERY__SUB_LINK_TYPE__EXPR_SUBLINK:
      out->subquery_kind = ast::SubqueryKind::kScalar;
      break;
    case PG_QUERY__SUB_LINK_TYPE__ARRAY_SUBLINK:
      out->subquery_kind = ast::SubqueryKind::kArray;
      break;
    case PG_QUERY__SUB_LINK_TYPE__ANY_SUBLINK:
    case PG_QUERY__SUB_LINK_TYPE__ALL_SUBLINK: {
      const bool all = link.sub_link_type == PG_QUERY__SUB_LINK_TYPE__ALL_SUBLINK;
      out->subquery_kind = all ? ast::SubqueryKind::kAll : ast::SubqueryKind::kAny;
      out->operator_name = "=";  // IN (SELECT …) names no operator
      if (link.n_oper_name > 0) {
        HOGLAKE_ASSIGN_OR_RETURN(out->operator_name,
                                 OperatorName(Items(link.oper_name, link.n_oper_name)));
      }
      HOGLAKE_ASSIGN_OR_RETURN(out->test, Expr(link.testexpr));
      break;
    }
    case PG_QUERY__SUB_LINK_TYPE__ROWCOMPARE_SUBLINK:
      return NotSupported("a row comparison with a subquery");
    case PG_QUERY__SUB_LINK_TYPE__MULTIEXPR_SUBLINK:
      return NotSupported("a multiple-column subquery assignment");
    default:
      return NotSupported("a subquery of this kind");
  }
  HOGLAKE_ASSIGN_OR_RETURN(out->query, Query(link.subselect));
  return ExprPtr(std::move(out));
}

Result<ExprPtr> Translator::Indirection(const PgQuery__AIndirection& expr) {
  auto out = std::make_unique<ast::Indirection>();
  HOGLAKE_ASSIGN_OR_RETURN(out->arg, Expr(expr.arg));
  out->location = out->arg->location;
  for (const Node* node : Items(expr.indirection, expr.n_indirection)) {
    HOGLAKE_ASSIGN_OR_RETURN(ast::IndirectionStep step, IndirectionStep(node));
    out->steps.push_back(std::move(step));
  }
  return ExprPtr(std::move(out));
}

// a[i] puts i in A_Indices.uidx; a[l:u] sets is_slice with either bound
// optional; (s).f is a String, (s).* an A_Star.
Result<ast::IndirectionStep> Translator::IndirectionStep(const Node* node) {
  ast::IndirectionStep step;
  if (Is(node, PG_QUERY__NODE__NODE_A_INDICES)) {
    const PgQuery__AIndices& indices = *node->a_indices;
    if (indices.is_slice) {
      step.kind = ast::IndirectionStep::kSlice;
      HOGLAKE_ASSIGN_OR_RETURN(step.lower, OptionalExpr(indices.lidx));
      HOGLAKE_ASSIGN_OR_RETURN(step.upper, OptionalExpr(indices.uidx));
    } else {
      step.kind = ast::IndirectionStep::kSubscript;
      HOGLAKE_ASSIGN_OR_RETURN(step.lower, Expr(indices.uidx));
    }
  } else if (Is(node, PG_QUERY__NODE__NODE_STRING)) {
    step.kind = ast::IndirectionStep::kField;
    step.field = Text(node->string->sval);
  } else if (Is(node, PG_QUERY__NODE__NODE_A_STAR)) {
    step.kind = ast::IndirectionStep::kStar;
  } else {
    return Malformed("an indirection step");
  }
  return step;
}

Result<ExprPtr> Translator::Array(const PgQuery__AArrayExpr& expr) {
  auto out = std::make_unique<ast::ArrayExpr>(expr.location);
  HOGLAKE_ASSIGN_OR_RETURN(out->elements, Exprs(Items(expr.elements, expr.n_elements)));
  return ExprPtr(std::move(out));
}

Result<ExprPtr> Translator::Row(const PgQuery__RowExpr& expr) {
  auto out = std::make_unique<ast::RowExpr>(expr.location);
  HOGLAKE_ASSIGN_OR_RETURN(out->fields, Exprs(Items(expr.args, expr.n_args)));
  return ExprPtr(std::move(out));
}

Result<ExprPtr> Translator::ValueFunction(const PgQuery__SQLValueFunction& function) {
  const std::optional<ast::ValueFunctionKind> kind = ValueFunctionKindOf(function.op);
  if (!kind) return Malformed("an SQL value function of unknown kind");
  auto out = std::make_unique<ast::ValueFunction>(function.location);
  out->function = *kind;
  out->precision = HasPrecision(function.op) ? function.typmod : -1;
  return ExprPtr(std::move(out));
}

// ---- pieces ----

Result<std::vector<ast::OrderItem>> Translator::OrderItems(NodeList nodes) {
  std::vector<ast::OrderItem> items;
  items.reserve(nodes.size());
  for (const Node* node : nodes) {
    if (!Is(node, PG_QUERY__NODE__NODE_SORT_BY)) return Malformed("an ORDER BY item");
    const PgQuery__SortBy& sort = *node->sort_by;
    ast::OrderItem item;
    HOGLAKE_ASSIGN_OR_RETURN(item.expr, Expr(sort.node));
    if (sort.sortby_dir == PG_QUERY__SORT_BY_DIR__SORTBY_ASC) {
      item.direction = ast::SortDirection::kAscending;
    } else if (sort.sortby_dir == PG_QUERY__SORT_BY_DIR__SORTBY_DESC) {
      item.direction = ast::SortDirection::kDescending;
    }
    item.using_operator = sort.sortby_dir == PG_QUERY__SORT_BY_DIR__SORTBY_USING;
    if (sort.sortby_nulls == PG_QUERY__SORT_BY_NULLS__SORTBY_NULLS_FIRST) {
      item.nulls = ast::NullsOrder::kFirst;
    } else if (sort.sortby_nulls == PG_QUERY__SORT_BY_NULLS__SORTBY_NULLS_LAST) {
      item.nulls = ast::NullsOrder::kLast;
    }
    items.push_back(std::move(item));
  }
  return items;
}

Status Translator::Window(const PgQuery__WindowDef& def, ast::WindowSpec& spec) {
  spec.name = Text(def.name);
  spec.reference = Text(def.refname);
  HOGLAKE_ASSIGN_OR_RETURN(spec.partition_by,
                           Exprs(Items(def.partition_clause, def.n_partition_clause)));
  HOGLAKE_ASSIGN_OR_RETURN(spec.order_by, OrderItems(Items(def.order_clause, def.n_order_clause)));
  DecodeFrame(def.frame_options, spec);
  HOGLAKE_ASSIGN_OR_RETURN(spec.start_offset, OptionalExpr(def.start_offset));
  HOGLAKE_ASSIGN_OR_RETURN(spec.end_offset, OptionalExpr(def.end_offset));
  spec.location = def.location;
  return Status::Ok();
}

Result<ast::TypeName> Translator::Type(const PgQuery__TypeName* type) {
  if (type == nullptr) return Malformed("a cast without a type");
  if (type->setof) return NotSupported("SETOF");
  if (type->pct_type) return NotSupported("%TYPE");
  ast::TypeName out;
  HOGLAKE_ASSIGN_OR_RETURN(out.names, Names(Items(type->names, type->n_names)));
  for (const Node* node : Items(type->typmods, type->n_typmods)) {
    const bool integer = Is(node, PG_QUERY__NODE__NODE_A_CONST) && !node->a_const->isnull &&
                         node->a_const->val_case == PG_QUERY__A__CONST__VAL_IVAL;
    if (!integer) return NotSupported("a type modifier that is not an integer constant");
    out.modifiers.push_back(node->a_const->ival->ival);
  }
  out.array_dimensions = static_cast<int>(type->n_array_bounds);
  out.location = type->location;
  return out;
}

// ---- running libpg_query ---------------------------------------------------------

bool ReadVarint(const uint8_t* data, size_t end, size_t& pos, uint64_t& value) {
  value = 0;
  for (int shift = 0; shift < 64 && pos < end; shift += 7) {
    const uint8_t byte = data[pos++];
    value |= static_cast<uint64_t>(byte & 0x7f) << shift;
    if ((byte & 0x80) == 0) return true;
  }
  return false;
}

// Whether the packed ParseResult nests messages more than `limit` deep. Walks
// the wire format with a stack of its own, asking the descriptors which
// length-delimited fields are messages, so that the recursive unpacking only
// ever sees trees it can take.
Result<bool> NestsDeeperThan(const uint8_t* data, size_t size, size_t limit) {
  struct Frame {
    const ProtobufCMessageDescriptor* descriptor;
    size_t end;
  };
  std::vector<Frame> frames = {{&pg_query__parse_result__descriptor, size}};
  size_t pos = 0;
  while (true) {
    while (!frames.empty() && pos == frames.back().end) frames.pop_back();
    if (frames.empty()) return false;
    const size_t end = frames.back().end;
    uint64_t tag = 0;
    uint64_t value = 0;
    if (!ReadVarint(data, end, pos, tag)) return Malformed("a truncated protobuf tag");
    switch (tag & 7) {
      case 0:  // varint
        if (!ReadVarint(data, end, pos, value)) return Malformed("a truncated protobuf varint");
        break;
      case 1:  // 64-bit
      case 5:  // 32-bit
        value = (tag & 7) == 1 ? 8 : 4;
        if (end - pos < value) return Malformed("a truncated protobuf fixed field");
        pos += value;
        break;
      case 2: {  // length-delimited: a message, a string or packed scalars
        if (!ReadVarint(data, end, pos, value) || end - pos < value) {
          return Malformed("a truncated protobuf field");
        }
        const ProtobufCFieldDescriptor* field = protobuf_c_message_descriptor_get_field(
            frames.back().descriptor, static_cast<unsigned>(tag >> 3));
        if (field != nullptr && field->type == PROTOBUF_C_TYPE_MESSAGE) {
          if (frames.size() >= limit) return true;
          frames.push_back(
              {static_cast<const ProtobufCMessageDescriptor*>(field->descriptor), pos + value});
        } else {
          pos += value;
        }
        break;
      }
      default:
        return Malformed("a protobuf wire type libpg_query does not write");
    }
  }
}

// "syntax error at or near \"FORM\" at position 10": libpg_query's message
// with its 1-based cursor position, as PostgreSQL reports it.
Error SyntaxError(const PgQueryError& error) {
  std::string message = Text(error.message);
  if (error.cursorpos > 0) message += StrCat(" at position ", error.cursorpos);
  return SqlError(SqlErrorKind::kSyntaxError, message);
}

// Whether JSON text nests objects and arrays more than `limit` deep.
bool JsonNestsDeeperThan(std::string_view json, size_t limit) {
  size_t depth = 0;
  bool in_string = false;
  for (size_t i = 0; i < json.size(); ++i) {
    const char c = json[i];
    if (in_string) {
      if (c == '\\') ++i;
      if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      if (++depth > limit) return true;
    } else if ((c == '}' || c == ']') && depth > 0) {
      --depth;
    }
  }
  return false;
}

// The JSON form nests at least as deep as the protobuf messages (lists add
// a level there), so passing this check bounds the packing's cost.
Status CheckDepthThroughJson(const std::string& sql) {
  const PgQueryParseResult parse = pg_query_parse(sql.c_str());
  Status status = Status::Ok();
  if (parse.error != nullptr) {
    status = SyntaxError(*parse.error);
  } else if (parse.parse_tree != nullptr &&
             JsonNestsDeeperThan(parse.parse_tree, kMaxMessageDepth)) {
    status = TooDeep();
  }
  pg_query_free_parse_result(parse);
  return status;
}

struct ProtobufParse {
  explicit ProtobufParse(const std::string& sql) : result(pg_query_parse_protobuf(sql.c_str())) {}
  ~ProtobufParse() { pg_query_free_protobuf_parse_result(result); }
  ProtobufParse(const ProtobufParse&) = delete;
  ProtobufParse& operator=(const ProtobufParse&) = delete;
  PgQueryProtobufParseResult result;
};

struct UnpackedFree {
  void operator()(PgQuery__ParseResult* tree) const {
    pg_query__parse_result__free_unpacked(tree, nullptr);
  }
};

Result<std::vector<ast::Statement>> ParseOnThisThread(const std::string& sql) {
  if (sql.size() >= kJsonCheckMinBytes) HOGLAKE_RETURN_IF_ERROR(CheckDepthThroughJson(sql));
  const ProtobufParse parse(sql);
  if (parse.result.error != nullptr) return SyntaxError(*parse.result.error);
  const auto* data = reinterpret_cast<const uint8_t*>(parse.result.parse_tree.data);
  const size_t size = parse.result.parse_tree.len;
  HOGLAKE_ASSIGN_OR_RETURN(const bool too_deep, NestsDeeperThan(data, size, kMaxMessageDepth));
  if (too_deep) return TooDeep();
  const std::unique_ptr<PgQuery__ParseResult, UnpackedFree> tree(
      pg_query__parse_result__unpack(nullptr, size, data));
  if (tree == nullptr) return Malformed("a parse result protobuf-c cannot unpack");
  std::vector<ast::Statement> statements;
  statements.reserve(tree->n_stmts);
  Translator translator;
  for (size_t i = 0; i < tree->n_stmts; ++i) {
    if (tree->stmts[i] == nullptr) return Malformed("a missing statement");
    HOGLAKE_ASSIGN_OR_RETURN(ast::Statement statement, translator.Statement(*tree->stmts[i]));
    statements.push_back(std::move(statement));
  }
  return statements;
}

struct ParseJob {
  std::string sql;
  std::optional<Result<std::vector<ast::Statement>>> result;
};

void* RunParseJob(void* arg) {
  auto* job = static_cast<ParseJob*>(arg);
  try {
    job->result.emplace(ParseOnThisThread(job->sql));
  } catch (const std::bad_alloc&) {
    job->result.emplace(SqlError(SqlErrorKind::kOutOfMemory, "out of memory while parsing"));
  }
  return nullptr;
}

// Runs the parse on a thread whose stack suits the text's length (see the
// file comment), whatever the caller's own stack.
Result<std::vector<ast::Statement>> ParseOnOwnStack(std::string_view sql) {
  if (sql.size() > (std::numeric_limits<size_t>::max() - kParserStackBase) / kParserStackPerByte) {
    return SqlError(SqlErrorKind::kOutOfMemory, "SQL text of ", sql.size(), " bytes is too long");
  }
  ParseJob job{std::string(sql), std::nullopt};
  pthread_attr_t attr;
  int rc = pthread_attr_init(&attr);
  if (rc == 0)
    rc = pthread_attr_setstacksize(&attr, kParserStackBase + kParserStackPerByte * sql.size());
  pthread_t thread;
  if (rc == 0) rc = pthread_create(&thread, &attr, RunParseJob, &job);
  pthread_attr_destroy(&attr);
  if (rc != 0) {
    return SqlError(SqlErrorKind::kOutOfMemory, "cannot start the parser for ", sql.size(),
                    " bytes of SQL: ", std::strerror(rc));
  }
  pthread_join(thread, nullptr);
  if (!job.result)
    return SqlError(SqlErrorKind::kInternalError, "the parser thread gave no result");
  return std::move(*job.result);
}

}  // namespace

Result<std::vector<ast::Statement>> ParseSql(std::string_view sql) {
  if (const size_t zero = sql.find('\0'); zero != std::string_view::npos) {
    return SqlError(SqlErrorKind::kSyntaxError, "zero byte in SQL text at position ", zero + 1);
  }
  return ParseOnOwnStack(sql);
}

}  // namespace hoglake::sql
