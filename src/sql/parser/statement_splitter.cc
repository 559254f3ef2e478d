#include "sql/parser/statement_splitter.h"

namespace hoglake::sql {
namespace {

bool IsSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

// A character of an unquoted identifier or keyword (PostgreSQL allows '$'
// after the first character, and any non-ASCII byte).
bool IsIdentifierChar(char c) {
  const auto u = static_cast<unsigned char>(c);
  return (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || (u >= '0' && u <= '9') || u == '_' ||
         u == '$' || u >= 0x80;
}

std::string Trimmed(std::string_view text) {
  size_t begin = 0;
  size_t end = text.size();
  while (begin < end && IsSpace(text[begin])) ++begin;
  while (end > begin && IsSpace(text[end - 1])) --end;
  return std::string(text.substr(begin, end - begin));
}

}  // namespace

std::vector<std::string> StatementSplitter::Feed(std::string_view text) {
  std::vector<std::string> statements;
  buffer_.append(text);
  size_t i = scanned_;
  // Each case either consumes characters or, when it needs one more
  // character than has been fed to decide, stops until the next Feed.
  while (i < buffer_.size()) {
    const size_t n = buffer_.size();
    const char c = buffer_[i];
    const bool has_next = i + 1 < n;
    const char next = has_next ? buffer_[i + 1] : '\0';
    switch (state_) {
      case State::kCode:
        if (c == ';') {
          if (has_code_) statements.push_back(Trimmed(std::string_view(buffer_).substr(0, i)));
          buffer_.erase(0, i + 1);
          i = 0;
          has_code_ = false;
          continue;
        }
        if (c == '-' || c == '/') {
          if (!has_next) goto wait;
          if (c == '-' && next == '-') {
            state_ = State::kLineComment;
            i += 2;
            continue;
          }
          if (c == '/' && next == '*') {
            state_ = State::kBlockComment;
            comment_depth_ = 1;
            i += 2;
            continue;
          }
        } else if (c == '\'') {
          const bool escape = i > 0 && (buffer_[i - 1] == 'E' || buffer_[i - 1] == 'e') &&
                              (i < 2 || !IsIdentifierChar(buffer_[i - 2]));
          state_ = escape ? State::kEscapeQuote : State::kSingleQuote;
        } else if (c == '"') {
          state_ = State::kDoubleQuote;
        } else if (c == '$' && (i == 0 || !IsIdentifierChar(buffer_[i - 1]))) {
          size_t j = i + 1;
          while (j < n && buffer_[j] != '$' && IsIdentifierChar(buffer_[j])) ++j;
          if (j >= n) goto wait;
          const bool digit_first = j > i + 1 && buffer_[i + 1] >= '0' && buffer_[i + 1] <= '9';
          if (buffer_[j] == '$' && !digit_first) {
            dollar_tag_ = buffer_.substr(i, j - i + 1);
            state_ = State::kDollarQuote;
            has_code_ = true;
            i = j + 1;
            continue;
          }
        }
        if (!IsSpace(c)) has_code_ = true;
        ++i;
        continue;
      case State::kSingleQuote:
      case State::kEscapeQuote:
      case State::kDoubleQuote: {
        const char quote = state_ == State::kDoubleQuote ? '"' : '\'';
        if (state_ == State::kEscapeQuote && c == '\\') {
          if (!has_next) goto wait;
          i += 2;
          continue;
        }
        if (c == quote) {
          if (!has_next) goto wait;
          if (next == quote) {
            i += 2;
            continue;
          }
          state_ = State::kCode;
        }
        ++i;
        continue;
      }
      case State::kDollarQuote: {
        const size_t end = buffer_.find(dollar_tag_, i);
        if (end == std::string::npos) {
          // The closing tag may straddle the next Feed.
          const size_t keep = dollar_tag_.size() - 1;
          if (n > i + keep) i = n - keep;
          goto wait;
        }
        i = end + dollar_tag_.size();
        state_ = State::kCode;
        continue;
      }
      case State::kLineComment:
        if (c == '\n') state_ = State::kCode;
        ++i;
        continue;
      case State::kBlockComment:
        if ((c == '/' && (!has_next || next == '*')) || (c == '*' && (!has_next || next == '/'))) {
          if (!has_next) goto wait;
          comment_depth_ += c == '/' ? 1 : -1;
          if (comment_depth_ == 0) state_ = State::kCode;
          i += 2;
          continue;
        }
        ++i;
        continue;
    }
  }
wait:
  scanned_ = i;
  return statements;
}

bool StatementSplitter::Pending() const {
  return has_code_ || state_ != State::kCode || scanned_ < buffer_.size();
}

std::optional<std::string> StatementSplitter::Finish() {
  // An unscanned tail in code is the start of a token ('-', '/', '$…').
  const bool code = has_code_ || (state_ == State::kCode && scanned_ < buffer_.size());
  std::optional<std::string> rest;
  if (code) rest = Trimmed(buffer_);
  Clear();
  return rest;
}

void StatementSplitter::Clear() {
  buffer_.clear();
  scanned_ = 0;
  state_ = State::kCode;
  dollar_tag_.clear();
  comment_depth_ = 0;
  has_code_ = false;
}

}  // namespace hoglake::sql
