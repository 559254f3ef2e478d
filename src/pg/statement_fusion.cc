#include "pg/statement_fusion.h"

#include <map>
#include <utility>

namespace hoglake::pg {
namespace {

bool IsArrayLiteral(const PgParam& p) {
  return p && p->size() >= 2 && p->front() == '{' && p->back() == '}';
}

bool CanFuse(const PgStatement& s) {
  if (!s.fusable || s.params.empty() || !s.params[0]) return false;
  for (size_t i = 1; i < s.params.size(); ++i) {
    if (!IsArrayLiteral(s.params[i])) return false;
  }
  return true;
}

}  // namespace

void AppendArrayLiteral(const std::string& b, std::string* a) {
  if (b == "{}") return;
  if (*a == "{}") {
    *a = b;
    return;
  }
  a->back() = ',';  // the closing brace
  a->append(b, 1, std::string::npos);
}

FusedStatements FuseStatements(std::vector<std::vector<PgStatement>> per_member) {
  FusedStatements out;
  // (text, params[0]) → index in out.statements of the fused statement.
  std::map<std::pair<std::string_view, std::string>, size_t> fused_at;
  for (std::vector<PgStatement>& member : per_member) {
    for (PgStatement& s : member) {
      if (!CanFuse(s)) {
        out.statements.push_back(std::move(s));
        continue;
      }
      auto [it, inserted] = fused_at.try_emplace({s.sql, *s.params[0]}, out.statements.size());
      if (inserted) {
        out.statements.push_back(std::move(s));
        continue;
      }
      PgStatement& into = out.statements[it->second];
      if (into.params.size() != s.params.size()) {  // the same text: cannot happen
        out.statements.push_back(std::move(s));
        continue;
      }
      for (size_t i = 1; i < s.params.size(); ++i) {
        AppendArrayLiteral(*s.params[i], &*into.params[i]);
      }
      out.fused = true;
    }
  }
  return out;
}

}  // namespace hoglake::pg
