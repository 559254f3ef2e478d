// SQL text → syntax trees, by PostgreSQL 15's own grammar (libpg_query).
//
// ParseSql accepts one or more statements separated by semicolons and returns
// one ast::Statement per statement, queries translated in full. A statement
// that is not a query (DDL, DML, COPY, SET, …) comes back as kOther with its
// command tag, for the caller to refuse by name. A grammar error fails with
// kSyntaxError and PostgreSQL's message plus the position ("syntax error at
// or near \"FORM\" at position 10"); a construct the grammar accepts but the
// tree cannot express (e.g. XML functions) fails with kFeatureNotSupported
// naming it. Positions are 1-based character positions as PostgreSQL reports
// them.
#pragma once

#include <string_view>
#include <vector>

#include "common/status.h"
#include "sql/parser/ast.h"

namespace hoglake::sql {

Result<std::vector<ast::Statement>> ParseSql(std::string_view sql);

}  // namespace hoglake::sql
