// The regular-expression functions over regex.h: the operators ~, ~*, !~,
// !~* (call.name says which), regexp_like, regexp_replace (first match, or
// every one with 'g'; after an empty match the search moves one character
// on), regexp_count, regexp_substr, regexp_match (text[]: the first
// match's captures, or the whole match when the pattern has none; NULL
// without a match) and regexp_split_to_array (text[]). Compiled
// patterns are cached per thread. NULL arguments give NULL.
#include <optional>
#include <unordered_map>

#include "sql/function/builtins.h"
#include "sql/function/regex.h"
#include "sql/sql_error.h"

namespace hoglake::sql {
namespace {

Result<std::shared_ptr<const Regex>> Compiled(const std::string& pattern, bool icase) {
  thread_local std::unordered_map<std::string, std::shared_ptr<const Regex>> cache;
  std::string key = (icase ? "i:" : "c:") + pattern;
  auto it = cache.find(key);
  if (it != cache.end()) return it->second;
  HOGLAKE_ASSIGN_OR_RETURN(std::shared_ptr<const Regex> re, Regex::Compile(pattern, icase));
  if (cache.size() > 256) cache.clear();
  cache.emplace(std::move(key), re);
  return re;
}

// The pattern of args[1] with the flags of args[flags_at] (when present).
Result<std::shared_ptr<const Regex>> PatternOf(const std::vector<Value>& a, size_t flags_at,
                                               std::string_view function, bool allow_global,
                                               bool* global) {
  bool icase = false;
  *global = false;
  if (a.size() > flags_at) {
    HOGLAKE_RETURN_IF_ERROR(ParseRegexFlags(a[flags_at].s, &icase, global));
    if (*global && !allow_global) {
      return SqlError(SqlErrorKind::kInvalidParameterValue, function,
                      "() does not support the \"global\" option");
    }
  }
  return Compiled(a[1].s, icase);
}

Result<Value> MatchOperatorRow(const std::vector<Value>& a, const BoundExpr& call) {
  const bool icase = call.name == "~*" || call.name == "!~*";
  const bool negate = call.name[0] == '!';
  HOGLAKE_ASSIGN_OR_RETURN(auto re, Compiled(a[1].s, icase));
  return Value::Boolean(re->Matches(a[0].s) != negate);
}

Result<Value> RegexpLikeRow(const std::vector<Value>& a, const BoundExpr&) {
  bool global;
  HOGLAKE_ASSIGN_OR_RETURN(auto re, PatternOf(a, 2, "regexp_like", false, &global));
  return Value::Boolean(re->Matches(a[0].s));
}

Result<Value> RegexpReplaceRow(const std::vector<Value>& a, const BoundExpr&) {
  bool global;
  HOGLAKE_ASSIGN_OR_RETURN(auto re, PatternOf(a, 3, "regexp_replace", true, &global));
  const std::string& text = a[0].s;
  std::string out;
  int64_t copied = 0, search = 0;
  Regex::Match m;
  while (search <= static_cast<int64_t>(text.size()) && re->Find(text, search, true, &m)) {
    out.append(text, copied, m.begin - copied);
    AppendRegexReplacement(text, m, a[2].s, &out);
    copied = m.end;
    if (!global) break;
    search = m.end;
    if (m.begin == m.end) {
      // One character on (a whole UTF-8 sequence).
      ++search;
      while (search < static_cast<int64_t>(text.size()) &&
             (static_cast<unsigned char>(text[search]) & 0xC0) == 0x80) {
        ++search;
      }
    }
  }
  out.append(text, copied, std::string::npos);
  return TextValue(out);
}

// Every match from the start ('g' semantics), as setup_regexp_matches finds
// them; `ignore_degenerate` drops empty matches at the ends and right after
// a previous match (regexp_split_*).
std::vector<Regex::Match> AllMatches(const Regex& re, const std::string& text, bool with_captures,
                                     bool ignore_degenerate) {
  std::vector<Regex::Match> out;
  int64_t search = 0, prev_end = 0;
  const auto len = static_cast<int64_t>(text.size());
  Regex::Match m;
  while (search <= len && re.Find(text, search, with_captures, &m)) {
    if (!ignore_degenerate || (m.begin < len && m.end > prev_end)) {
      out.push_back(m);
      prev_end = m.end;
    }
    search = m.end;
    if (m.begin == m.end) {
      ++search;
      while (search < len && (static_cast<unsigned char>(text[search]) & 0xC0) == 0x80) ++search;
    }
  }
  return out;
}

Result<Value> RegexpCountRow(const std::vector<Value>& a, const BoundExpr&) {
  bool global;
  HOGLAKE_ASSIGN_OR_RETURN(auto re, PatternOf(a, 2, "regexp_count", false, &global));
  return Value::Integer(SqlTypeId::kInteger,
                        static_cast<int64_t>(AllMatches(*re, a[0].s, false, false).size()));
}

Result<Value> RegexpSubstrRow(const std::vector<Value>& a, const BoundExpr& call) {
  bool global;
  HOGLAKE_ASSIGN_OR_RETURN(auto re, PatternOf(a, 2, "regexp_substr", false, &global));
  Regex::Match m;
  if (!re->Find(a[0].s, 0, false, &m)) return NullOf(call);
  return TextValue(a[0].s.substr(m.begin, m.end - m.begin));
}

// The text[] a row function returns, from its pieces (nullopt: NULL).
Value TextArray(const BoundExpr& call, const std::vector<std::optional<std::string>>& pieces) {
  Value out{call.type};
  out.is_null = false;
  for (const std::optional<std::string>& p : pieces) {
    out.elements.push_back(p ? TextValue(*p) : Value::Null(SqlType::Of(SqlTypeId::kText)));
  }
  return out;
}

// (string, pattern[, flags]): the first match's captures (the whole match
// when the pattern has none); NULL without a match.
Result<Value> RegexpMatchRow(const std::vector<Value>& a, const BoundExpr& call) {
  bool global;
  HOGLAKE_ASSIGN_OR_RETURN(auto re, PatternOf(a, 2, "regexp_match", false, &global));
  Regex::Match m;
  if (!re->Find(a[0].s, 0, true, &m)) return NullOf(call);
  std::vector<std::optional<std::string>> pieces;
  if (re->captures() == 0) {
    pieces.push_back(a[0].s.substr(m.begin, m.end - m.begin));
  } else {
    for (int i = 0; i < re->captures(); ++i) {
      const auto [b, e] = m.captures[i];
      if (b < 0) {
        pieces.push_back(std::nullopt);
      } else {
        pieces.push_back(a[0].s.substr(b, e - b));
      }
    }
  }
  return TextArray(call, pieces);
}

// (string, pattern[, flags]): the text between matches.
Result<Value> RegexpSplitToArrayRow(const std::vector<Value>& a, const BoundExpr& call) {
  bool global;
  HOGLAKE_ASSIGN_OR_RETURN(auto re, PatternOf(a, 2, "regexp_split_to_array", false, &global));
  const std::vector<Regex::Match> matches = AllMatches(*re, a[0].s, false, true);
  std::vector<std::optional<std::string>> pieces;
  int64_t begin = 0;
  for (const Regex::Match& m : matches) {
    pieces.push_back(a[0].s.substr(begin, m.begin - begin));
    begin = m.end;
  }
  pieces.push_back(a[0].s.substr(begin));
  return TextArray(call, pieces);
}

}  // namespace

const RowFunction kRegexMatchOperator = MakeRowFunction("~", MatchOperatorRow);
const RowFunction kRegexpLike = MakeRowFunction("regexp_like", RegexpLikeRow);
const RowFunction kRegexpReplace = MakeRowFunction("regexp_replace", RegexpReplaceRow);
const RowFunction kRegexpCount = MakeRowFunction("regexp_count", RegexpCountRow);
const RowFunction kRegexpSubstr = MakeRowFunction("regexp_substr", RegexpSubstrRow);
const RowFunction kRegexpMatch = MakeRowFunction("regexp_match", RegexpMatchRow);
const RowFunction kRegexpSplitToArray =
    MakeRowFunction("regexp_split_to_array", RegexpSplitToArrayRow);

}  // namespace hoglake::sql
