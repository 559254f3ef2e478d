#include "sql/binder/scope.h"

#include "sql/sql_error.h"

namespace hoglake::sql {
namespace {

std::string Position(int location) {
  return location >= 0 ? StrCat(" at position ", location + 1) : std::string();
}

// Matches in one scope level; -1 none, -2 ambiguous.
int Find(const Scope& scope, const std::string& relation, const std::string& name,
         std::vector<const ScopeColumn*>* hits) {
  hits->clear();
  for (const ScopeColumn& c : scope.columns) {
    if (c.name != name) continue;
    if (!relation.empty() && c.relation != relation) continue;
    if (relation.empty() && c.hidden) continue;
    bool duplicate = false;
    for (const ScopeColumn* h : *hits) duplicate |= h->index == c.index;
    if (!duplicate) hits->push_back(&c);
  }
  return static_cast<int>(hits->size());
}

}  // namespace

bool Scope::HasRelation(const std::string& name) const {
  for (const ScopeColumn& c : columns) {
    if (c.relation == name) return true;
  }
  return false;
}

Result<ScopeColumn> Scope::Resolve(const std::vector<std::string>& parts, int location,
                                   bool* found_in_outer) const {
  *found_in_outer = false;
  if (parts.empty() || parts.size() > 4) {
    return SqlError(SqlErrorKind::kSyntaxError, "improper column reference", Position(location));
  }
  const std::string& name = parts.back();
  std::string relation = parts.size() >= 2 ? parts[parts.size() - 2] : std::string();
  std::string shown = relation.empty() ? name : relation + "." + name;
  std::vector<const ScopeColumn*> hits;
  for (const Scope* s = this; s != nullptr; s = s->outer) {
    int n = Find(*s, relation, name, &hits);
    if (n > 1) {
      return SqlError(SqlErrorKind::kAmbiguousColumn, "column reference \"", shown,
                      "\" is ambiguous", Position(location));
    }
    if (n == 1) {
      if (s != this && s != outer) {
        return SqlError(SqlErrorKind::kFeatureNotSupported,
                        "references to columns two query levels up are not supported");
      }
      *found_in_outer = s != this;
      return *hits[0];
    }
    if (!relation.empty() && s->HasRelation(relation)) break;
  }
  if (!relation.empty()) {
    bool known = false;
    for (const Scope* s = this; s != nullptr; s = s->outer) known |= s->HasRelation(relation);
    if (!known) {
      return SqlError(SqlErrorKind::kUndefinedTable, "missing FROM-clause entry for table \"",
                      relation, "\"", Position(location));
    }
  }
  return SqlError(SqlErrorKind::kUndefinedColumn, "column \"", shown, "\" does not exist",
                  Position(location));
}

}  // namespace hoglake::sql
