// Splits SQL text into statements at its top-level semicolons, fed a piece
// at a time (a prompt's lines as they are typed, a script as it is read).
// A ';' inside a string ('…', with '' for a quote; E'…' also with backslash
// escapes), a quoted identifier ("…"), a dollar-quoted string ($tag$…$tag$),
// a -- comment or a /* */ comment (nested, as PostgreSQL's) does not end a
// statement; `$1` and `a$b` are not dollar quotes.
//
//   StatementSplitter splitter;
//   for (std::string line; std::getline(in, line);)
//     for (const std::string& statement : splitter.Feed(line + "\n")) Run(statement);
//   if (auto last = splitter.Finish()) Run(*last);   // no ';' at the end
//
// Statements come back without their ';' and trimmed of surrounding
// whitespace; one of only whitespace and comments (";;", "-- note;") is
// dropped.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hoglake::sql {

class StatementSplitter {
 public:
  // Adds `text`; returns the statements it completed, in order.
  std::vector<std::string> Feed(std::string_view text);
  // True when the text fed since the last complete statement holds part of
  // a statement: anything but whitespace and comments, or an open quote or
  // comment (a prompt shows its continuation prompt then).
  bool Pending() const;
  // The unterminated rest, if it holds anything but whitespace and
  // comments; clears it (the splitter starts afresh).
  std::optional<std::string> Finish();
  // Drops the unterminated rest (a prompt's Ctrl-C).
  void Clear();

 private:
  enum class State {
    kCode,
    kSingleQuote,
    kEscapeQuote,
    kDoubleQuote,
    kDollarQuote,
    kLineComment,
    kBlockComment
  };

  std::string buffer_;  // text since the last complete statement
  size_t scanned_ = 0;  // buffer_[0, scanned_) is classified
  State state_ = State::kCode;
  std::string dollar_tag_;  // "$tag$" while in kDollarQuote
  int comment_depth_ = 0;   // nesting while in kBlockComment
  bool has_code_ = false;   // the statement so far has more than comments
};

}  // namespace hoglake::sql
