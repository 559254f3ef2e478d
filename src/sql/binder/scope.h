// Name scopes: the columns a query block's expressions can see — the FROM
// clause's relations, each column with the relation (alias) it came from and
// its position in the FROM plan's output — and the enclosing block's scope
// for correlated references.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "common/status.h"
#include "sql/types/sql_type.h"

namespace hoglake::sql {

struct ScopeColumn {
  std::string relation;  // alias or table name; empty for unnamed
  std::string name;
  SqlType type;
  int index = 0;        // position in the plan output the scope describes
  bool hidden = false;  // merged away by USING/NATURAL (still reachable qualified)
};

struct Scope {
  std::vector<ScopeColumn> columns;
  const Scope* outer = nullptr;

  // Resolves a column reference's parts (name, relation.name,
  // schema.relation.name, catalog.schema.relation.name). Returns the column
  // or an SQL error: 42703 undefined, 42702 ambiguous. `*found_in_outer`
  // tells whether it came from an enclosing scope (depth 1 only).
  Result<ScopeColumn> Resolve(const std::vector<std::string>& parts, int location,
                              bool* found_in_outer) const;

  // Whether a relation named `name` is in this scope.
  bool HasRelation(const std::string& name) const;
};

}  // namespace hoglake::sql
