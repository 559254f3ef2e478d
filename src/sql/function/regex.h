// PostgreSQL's regular expressions (ARE flavour, the default for ~,
// regexp_replace and the rest) for the patterns analytics writes, with
// PostgreSQL's match semantics rather than a backtracking engine's:
//
//  * the match is the leftmost one; from there the longest, unless the RE is
//    non-greedy (its first quantifier with a preference is lazy: *?, +?,
//    ??, {m,n}?), then the shortest; an RE with a top-level | is greedy;
//  * within the match, captures split it as PostgreSQL does: a
//    concatenation gives its earlier parts the longest (or, when lazy, the
//    shortest) span that still lets the rest match; an alternation takes the
//    first alternative that matches the span.
//
// Matching runs over sets of positions (an NFA simulation, no
// backtracking), so time is polynomial in the text length.
//
// Supported: literals; . (any character, newline included); [...] and
// [^...] with ranges, [:alpha:]-style classes and \d \s \w inside; \d \D \s
// \S \w \W; the escapes \n \t \r \f \v \a \e \b (backspace) \B (backslash)
// \xhh \uhhhh \Uhhhhhhhh and escaped punctuation; ^ $ \A \Z; ( ) (?: );
// * + ? {m} {m,} {m,n} and their lazy forms; |. Case-insensitive matching
// folds ASCII letters (the C locale's rule). Character classes are ASCII
// (C locale).
//
// Refused with 0A000 (never a wrong answer): back references (\1),
// lookahead/lookbehind, word boundaries (\m \M \y \Y), embedded options and
// directors ((?i), ***=), collating elements and equivalence classes in
// brackets, and captures inside a quantified group. Malformed patterns are
// 2201B as in PostgreSQL ("parentheses () not balanced", "quantifier
// operand invalid", …).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace hoglake::sql {

struct RegexNode;

class Regex {
 public:
  // Compiles `pattern`; `case_insensitive` for ~* and the 'i' flag.
  static Result<std::shared_ptr<const Regex>> Compile(std::string_view pattern,
                                                      bool case_insensitive);
  ~Regex();

  // A match's span and its captures, in bytes of the text; -1 for a
  // capture that took no part.
  struct Match {
    int64_t begin = -1, end = -1;
    std::vector<std::pair<int64_t, int64_t>> captures;
  };

  // Whether `text` contains a match.
  bool Matches(std::string_view text) const;
  // The first match at or after byte `from` (a character boundary), with
  // captures when `with_captures`; false when there is none.
  bool Find(std::string_view text, int64_t from, bool with_captures, Match* match) const;
  int captures() const { return captures_; }

 private:
  Regex() = default;
  std::vector<RegexNode> nodes_;
  int root_ = -1;
  int captures_ = 0;
  bool icase_ = false;
  friend class RegexParser;
  friend class RegexMatcher;
};

// regexp_replace's replacement text for one match: \1..\9 the captures,
// \& the whole match, \\ a backslash; any other backslash is kept.
void AppendRegexReplacement(std::string_view text, const Regex::Match& match,
                            std::string_view replacement, std::string* out);

// A flags argument (regexp_replace, regexp_match, …): 'i' / 'c' set
// *case_insensitive, 'g' sets *global; other flags PostgreSQL knows are
// 0A000, unknown ones 22023 "invalid regular expression option".
Status ParseRegexFlags(std::string_view flags, bool* case_insensitive, bool* global);

}  // namespace hoglake::sql
