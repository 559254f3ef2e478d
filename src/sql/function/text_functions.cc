// More text functions, PostgreSQL's (C locale, UTF-8; lengths and positions
// in characters): starts_with, lpad/rpad, split_part (negative fields count
// from the end, field 0 is 22023), reverse, repeat, ascii, chr (0, past
// U+10FFFF and surrogates are 54000, negative 22023), initcap (words are runs
// of ASCII letters and digits), md5 (lower-case hex), translate, levenshtein
// (fuzzystrmatch's: unit costs or the three given; arguments of at most 255
// characters, else 22023), and string_to_array (text[]).
#include <algorithm>
#include <string>

#include "common/encoding.h"
#include "common/md5.h"
#include "sql/function/builtins.h"
#include "sql/function/row_function.h"
#include "sql/sql_error.h"

namespace hoglake::sql {

std::vector<std::string_view> Utf8Chars(std::string_view s) {
  std::vector<std::string_view> chars;
  for (size_t i = 0; i < s.size();) {
    size_t end = i + 1;
    while (end < s.size() && (static_cast<unsigned char>(s[end]) & 0xC0) == 0x80) ++end;
    chars.push_back(s.substr(i, end - i));
    i = end;
  }
  return chars;
}

uint32_t DecodeUtf8(std::string_view c) {
  const auto b = [&](size_t i) { return static_cast<uint32_t>(static_cast<unsigned char>(c[i])); };
  if (c.empty()) return 0;
  if (b(0) < 0x80 || c.size() == 1) return b(0);
  if (c.size() == 2) return ((b(0) & 0x1F) << 6) | (b(1) & 0x3F);
  if (c.size() == 3) return ((b(0) & 0x0F) << 12) | ((b(1) & 0x3F) << 6) | (b(2) & 0x3F);
  return ((b(0) & 0x07) << 18) | ((b(1) & 0x3F) << 12) | ((b(2) & 0x3F) << 6) | (b(3) & 0x3F);
}

std::string SplitField(std::string_view s, std::string_view delimiter, int64_t index, bool* found) {
  // The fields, as string_to_array makes them (an empty string has none;
  // an empty delimiter makes the whole string one field).
  std::vector<std::string_view> fields;
  if (!s.empty()) {
    if (delimiter.empty()) {
      fields.push_back(s);
    } else {
      size_t at = 0;
      while (true) {
        size_t next = s.find(delimiter, at);
        if (next == std::string_view::npos) break;
        fields.push_back(s.substr(at, next - at));
        at = next + delimiter.size();
      }
      fields.push_back(s.substr(at));
    }
  }
  const int64_t n = static_cast<int64_t>(fields.size());
  if (index < 0) index = n + index + 1;
  *found = index >= 1 && index <= n;
  return *found ? std::string(fields[index - 1]) : std::string();
}

namespace {

Value Bool(bool b) { return Value::Boolean(b); }

Result<Value> StartsWithRow(const std::vector<Value>& a, const BoundExpr&) {
  return Bool(std::string_view(a[0].s).starts_with(a[1].s));
}

Result<Value> Pad(const std::vector<Value>& a, bool left) {
  const int64_t len = a[1].i;
  if (len <= 0) return TextValue("");
  std::vector<std::string_view> chars = Utf8Chars(a[0].s);
  const std::string fill_text = a.size() > 2 ? a[2].s : " ";
  std::vector<std::string_view> fill = Utf8Chars(fill_text);
  if (static_cast<int64_t>(chars.size()) >= len || fill.empty()) {
    std::string out;
    for (int64_t i = 0; i < std::min<int64_t>(len, chars.size()); ++i) out += chars[i];
    return TextValue(out);
  }
  if (len > (int64_t{1} << 28)) {
    return SqlError(SqlErrorKind::kProgramLimitExceeded, "requested length too large");
  }
  std::string padding;
  for (int64_t i = 0; i < len - static_cast<int64_t>(chars.size()); ++i) {
    padding += fill[i % fill.size()];
  }
  return TextValue(left ? padding + a[0].s : a[0].s + padding);
}

Result<Value> LpadRow(const std::vector<Value>& a, const BoundExpr&) { return Pad(a, true); }
Result<Value> RpadRow(const std::vector<Value>& a, const BoundExpr&) { return Pad(a, false); }

Result<Value> SplitPartRow(const std::vector<Value>& a, const BoundExpr&) {
  if (a[2].i == 0) {
    return SqlError(SqlErrorKind::kInvalidParameterValue, "field position must not be zero");
  }
  bool found;
  // split_part differs from the array at an empty string (one empty field).
  if (a[0].s.empty()) return TextValue("");
  std::string field = SplitField(a[0].s, a[1].s, a[2].i, &found);
  return TextValue(field);
}

// (string, delimiter[, null string]): NULL for a NULL string; a NULL
// delimiter splits into characters; fields equal to the null string are
// NULL.
Result<Value> StringToArrayRow(const std::vector<Value>& a, const BoundExpr& call) {
  if (a[0].is_null) return NullOf(call);
  std::vector<std::string> fields;
  if (a[1].is_null) {
    for (std::string_view c : Utf8Chars(a[0].s)) fields.emplace_back(c);
  } else {
    bool found = true;
    for (int64_t i = 1; found; ++i) {
      std::string field = SplitField(a[0].s, a[1].s, i, &found);
      if (found) fields.push_back(std::move(field));
    }
  }
  Value out{call.type};
  out.is_null = false;
  const bool has_null_string = a.size() > 2 && !a[2].is_null;
  for (std::string& f : fields) {
    out.elements.push_back(has_null_string && f == a[2].s ? Value::Null(SqlType::Of(SqlTypeId::kText))
                                                          : TextValue(std::move(f)));
  }
  return out;
}

Result<Value> ReverseRow(const std::vector<Value>& a, const BoundExpr&) {
  std::vector<std::string_view> chars = Utf8Chars(a[0].s);
  std::string out;
  for (auto it = chars.rbegin(); it != chars.rend(); ++it) out += *it;
  return TextValue(out);
}

Result<Value> RepeatRow(const std::vector<Value>& a, const BoundExpr&) {
  if (a[1].i <= 0 || a[0].s.empty()) return TextValue("");
  if (static_cast<double>(a[1].i) * static_cast<double>(a[0].s.size()) > (1 << 30)) {
    return SqlError(SqlErrorKind::kProgramLimitExceeded, "requested length too large");
  }
  std::string out;
  out.reserve(a[0].s.size() * a[1].i);
  for (int64_t i = 0; i < a[1].i; ++i) out += a[0].s;
  return TextValue(out);
}

Result<Value> AsciiRow(const std::vector<Value>& a, const BoundExpr&) {
  std::vector<std::string_view> chars = Utf8Chars(a[0].s);
  return Value::Integer(SqlTypeId::kInteger, chars.empty() ? 0 : DecodeUtf8(chars[0]));
}

Result<Value> ChrRow(const std::vector<Value>& a, const BoundExpr&) {
  const int64_t cp = a[0].i;
  if (cp < 0) {
    return SqlError(SqlErrorKind::kInvalidParameterValue, "character number must be positive");
  }
  if (cp == 0) return SqlError(SqlErrorKind::kProgramLimitExceeded, "null character not permitted");
  if (cp > 0x10FFFF) {
    return SqlError(SqlErrorKind::kProgramLimitExceeded,
                    "requested character too large for encoding: ", cp);
  }
  if (cp >= 0xD800 && cp <= 0xDFFF) {
    return SqlError(SqlErrorKind::kProgramLimitExceeded,
                    "requested character not valid for encoding: ", cp);
  }
  std::string out;
  AppendUtf8(static_cast<uint32_t>(cp), &out);
  return TextValue(out);
}

Result<Value> InitcapRow(const std::vector<Value>& a, const BoundExpr&) {
  std::string out = a[0].s;
  bool in_word = false;
  for (char& c : out) {
    const bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    if (in_word) {
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c + 32);
    } else if (c >= 'a' && c <= 'z') {
      c = static_cast<char>(c - 32);
    }
    in_word = alnum;
  }
  return TextValue(out);
}

Result<Value> Md5Row(const std::vector<Value>& a, const BoundExpr&) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string digest = Md5(a[0].s), out;
  for (unsigned char c : digest) {
    out.push_back(kHex[c >> 4]);
    out.push_back(kHex[c & 15]);
  }
  return TextValue(out);
}

Result<Value> TranslateRow(const std::vector<Value>& a, const BoundExpr&) {
  std::vector<std::string_view> from = Utf8Chars(a[1].s), to = Utf8Chars(a[2].s);
  std::string out;
  for (std::string_view c : Utf8Chars(a[0].s)) {
    auto it = std::find(from.begin(), from.end(), c);
    if (it == from.end()) {
      out += c;
    } else if (static_cast<size_t>(it - from.begin()) < to.size()) {
      out += to[it - from.begin()];
    }
  }
  return TextValue(out);
}

Result<Value> LevenshteinRow(const std::vector<Value>& a, const BoundExpr&) {
  std::vector<std::string_view> s = Utf8Chars(a[0].s), t = Utf8Chars(a[1].s);
  int64_t ins = 1, del = 1, sub = 1;
  if (a.size() == 5) {
    ins = a[2].i;
    del = a[3].i;
    sub = a[4].i;
  }
  if (s.empty()) return Value::Integer(SqlTypeId::kInteger, static_cast<int64_t>(t.size()) * ins);
  if (t.empty()) return Value::Integer(SqlTypeId::kInteger, static_cast<int64_t>(s.size()) * del);
  if (s.size() > 255 || t.size() > 255) {
    return SqlError(SqlErrorKind::kInvalidParameterValue,
                    "levenshtein argument exceeds maximum length of 255 characters");
  }
  std::vector<int64_t> prev(t.size() + 1), cur(t.size() + 1);
  for (size_t j = 0; j <= t.size(); ++j) prev[j] = static_cast<int64_t>(j) * ins;
  for (size_t i = 1; i <= s.size(); ++i) {
    cur[0] = static_cast<int64_t>(i) * del;
    for (size_t j = 1; j <= t.size(); ++j) {
      cur[j] = std::min(
          {prev[j] + del, cur[j - 1] + ins, prev[j - 1] + (s[i - 1] == t[j - 1] ? 0 : sub)});
    }
    std::swap(prev, cur);
  }
  return Value::Integer(SqlTypeId::kInteger, prev[t.size()]);
}

}  // namespace

const RowFunction kStartsWith = MakeRowFunction("starts_with", StartsWithRow);
const RowFunction kLpad = MakeRowFunction("lpad", LpadRow);
const RowFunction kRpad = MakeRowFunction("rpad", RpadRow);
const RowFunction kSplitPart = MakeRowFunction("split_part", SplitPartRow);
const RowFunction kStringToArray = MakeRowFunction("string_to_array", StringToArrayRow, false);
const RowFunction kReverse = MakeRowFunction("reverse", ReverseRow);
const RowFunction kRepeat = MakeRowFunction("repeat", RepeatRow);
const RowFunction kAscii = MakeRowFunction("ascii", AsciiRow);
const RowFunction kChr = MakeRowFunction("chr", ChrRow);
const RowFunction kInitcap = MakeRowFunction("initcap", InitcapRow);
const RowFunction kMd5 = MakeRowFunction("md5", Md5Row);
const RowFunction kTranslate = MakeRowFunction("translate", TranslateRow);
const RowFunction kLevenshtein = MakeRowFunction("levenshtein", LevenshteinRow);

}  // namespace hoglake::sql
