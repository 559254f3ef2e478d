// SQL text → syntax trees, by PostgreSQL 15's own grammar (libpg_query).
//
// ParseSql accepts one or more statements separated by semicolons and returns
// one ast::Statement per statement, queries translated in full. A statement
// that is not a query (DDL, DML, COPY, SET, …) comes back as kOther with its
// command tag, for the caller to refuse by name. A grammar error fails with
// kSyntaxError and PostgreSQL's message plus the position ("syntax error at
// or near \"FORM\" at position 10"); a construct the grammar accepts but the
// tree cannot express (e.g. XML functions) fails with kFeatureNotSupported
// naming it. Positions in messages are 1-based, as PostgreSQL reports them,
// counted in bytes as libpg_query counts them (the same as characters for
// ASCII text); the tree's `location`s are 0-based byte offsets (ast.h).
// Empty text, or text of only comments and semicolons, gives no statements.
//
// Trees nested more than 1000 levels deep (counting expressions, queries and
// FROM items, so a chain of 1000 `+` is too deep) are refused with
// kFeatureNotSupported ("expression nesting too deep"), so that no later
// recursive pass can run out of stack. The parse runs on a short-lived thread
// of its own with a stack sized for the text, so the caller's stack size does
// not matter.
#pragma once

#include <string_view>
#include <vector>

#include "common/status.h"
#include "sql/parser/ast.h"

namespace hoglake::sql {

Result<std::vector<ast::Statement>> ParseSql(std::string_view sql);

}  // namespace hoglake::sql
