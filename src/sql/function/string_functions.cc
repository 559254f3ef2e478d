// Text functions: lower, upper, length (characters), octet_length,
// substring (1-based, PostgreSQL's rules for start < 1 and negative
// lengths), strpos, btrim/ltrim/rtrim, replace, left, right. Lengths and
// positions count UTF-8 characters; case mapping is ASCII (the C locale).
#include <string>

#include "columnar/builder.h"
#include "sql/execution/vector_ops.h"
#include "sql/function/function_kernels.h"
#include "sql/sql_error.h"

namespace hoglake::sql {
namespace {

using columnar::ArrayData;
using columnar::ArrayPtr;

bool IsContinuation(unsigned char c) { return (c & 0xC0) == 0x80; }

int64_t CharCount(std::string_view s) {
  int64_t n = 0;
  for (unsigned char c : s) n += !IsContinuation(c);
  return n;
}

// Byte offset of character `index` (0-based), clamped to the end.
size_t ByteOffsetOfChar(std::string_view s, int64_t index) {
  size_t i = 0;
  int64_t seen = 0;
  while (i < s.size()) {
    if (!IsContinuation(static_cast<unsigned char>(s[i]))) {
      if (seen == index) return i;
      ++seen;
    }
    ++i;
  }
  return s.size();
}

// Applies `fn(row views..., std::string* out) -> Result<bool>` (false: null)
// row by row to text arguments; any null argument gives null.
template <typename Fn>
Result<ArrayPtr> MapText(const std::vector<ArrayPtr>& args, int64_t rows, Fn fn) {
  columnar::BinaryBuilder out(columnar::Utf8());
  std::string buf;
  for (int64_t i = 0; i < rows; ++i) {
    bool any_null = false;
    for (const ArrayPtr& a : args) any_null |= a->IsNull(i);
    if (any_null) {
      out.AppendNull();
      continue;
    }
    buf.clear();
    HOGLAKE_ASSIGN_OR_RETURN(bool valid, fn(i, &buf));
    if (valid) {
      out.Append(buf);
    } else {
      out.AppendNull();
    }
  }
  return out.Finish();
}

int64_t IntArg(const ArrayData& a, const SqlType& type, int64_t i) {
  switch (type.id) {
    case SqlTypeId::kSmallint:
      return a.values<int16_t>()[i];
    case SqlTypeId::kInteger:
      return a.values<int32_t>()[i];
    default:
      return a.values<int64_t>()[i];
  }
}

Result<ArrayPtr> LowerKernel(const std::vector<ArrayPtr>& args, const BoundExpr&, int64_t rows) {
  return MapText(args, rows, [&](int64_t i, std::string* out) -> Result<bool> {
    for (char c : args[0]->GetView(i)) out->push_back(c >= 'A' && c <= 'Z' ? c + 32 : c);
    return true;
  });
}

Result<ArrayPtr> UpperKernel(const std::vector<ArrayPtr>& args, const BoundExpr&, int64_t rows) {
  return MapText(args, rows, [&](int64_t i, std::string* out) -> Result<bool> {
    for (char c : args[0]->GetView(i)) out->push_back(c >= 'a' && c <= 'z' ? c - 32 : c);
    return true;
  });
}

template <typename Fn>
Result<ArrayPtr> MapToInt(const std::vector<ArrayPtr>& args, int64_t rows, Fn fn) {
  FixedOutput<int32_t> out(columnar::Int32(), rows);
  for (int64_t i = 0; i < rows; ++i) {
    bool any_null = false;
    for (const ArrayPtr& a : args) any_null |= a->IsNull(i);
    if (any_null) {
      out.SetNull(i);
      continue;
    }
    out.values()[i] = static_cast<int32_t>(fn(i));
  }
  return out.Finish();
}

Result<ArrayPtr> LengthKernel(const std::vector<ArrayPtr>& args, const BoundExpr&, int64_t rows) {
  return MapToInt(args, rows, [&](int64_t i) { return CharCount(args[0]->GetView(i)); });
}

Result<ArrayPtr> OctetLengthKernel(const std::vector<ArrayPtr>& args, const BoundExpr&,
                                   int64_t rows) {
  return MapToInt(args, rows,
                  [&](int64_t i) { return static_cast<int64_t>(args[0]->GetView(i).size()); });
}

Result<ArrayPtr> StrposKernel(const std::vector<ArrayPtr>& args, const BoundExpr&, int64_t rows) {
  return MapToInt(args, rows, [&](int64_t i) -> int64_t {
    std::string_view s = args[0]->GetView(i);
    size_t at = s.find(args[1]->GetView(i));
    if (at == std::string_view::npos) return 0;
    return CharCount(s.substr(0, at)) + 1;
  });
}

Result<ArrayPtr> SubstringKernel(const std::vector<ArrayPtr>& args, const BoundExpr& call,
                                 int64_t rows) {
  return MapText(args, rows, [&](int64_t i, std::string* out) -> Result<bool> {
    std::string_view s = args[0]->GetView(i);
    int64_t start = IntArg(*args[1], call.args[1]->type, i);
    int64_t total = CharCount(s);
    int64_t end = total + 1;  // exclusive, 1-based
    if (args.size() == 3) {
      int64_t length = IntArg(*args[2], call.args[2]->type, i);
      if (length < 0) {
        return SqlError(SqlErrorKind::kSubstringError, "negative substring length not allowed");
      }
      end = start + length;
    }
    int64_t from = std::max<int64_t>(start, 1);
    int64_t to = std::min<int64_t>(end, total + 1);
    if (to <= from) return true;
    size_t b = ByteOffsetOfChar(s, from - 1);
    size_t e = ByteOffsetOfChar(s, to - 1);
    out->assign(s.substr(b, e - b));
    return true;
  });
}

// The characters (UTF-8 sequences) of `set`.
std::vector<std::string_view> Characters(std::string_view set) {
  std::vector<std::string_view> chars;
  for (size_t i = 0; i < set.size();) {
    size_t end = i + 1;
    while (end < set.size() && IsContinuation(static_cast<unsigned char>(set[end]))) ++end;
    chars.push_back(set.substr(i, end - i));
    i = end;
  }
  return chars;
}

Result<ArrayPtr> Trim(const std::vector<ArrayPtr>& args, int64_t rows, bool left, bool right) {
  return MapText(args, rows, [&](int64_t i, std::string* out) -> Result<bool> {
    std::string_view s = args[0]->GetView(i);
    // Whole characters of the set come off each end (not bytes: 'é' is two).
    std::vector<std::string_view> set =
        Characters(args.size() > 1 ? args[1]->GetView(i) : std::string_view(" "));
    auto strip = [&](bool front) {
      for (std::string_view c : set) {
        if (front ? s.starts_with(c) : s.ends_with(c)) {
          front ? s.remove_prefix(c.size()) : s.remove_suffix(c.size());
          return true;
        }
      }
      return false;
    };
    while (left && !s.empty() && strip(true)) {
    }
    while (right && !s.empty() && strip(false)) {
    }
    out->assign(s);
    return true;
  });
}

Result<ArrayPtr> BtrimKernel(const std::vector<ArrayPtr>& args, const BoundExpr&, int64_t rows) {
  return Trim(args, rows, true, true);
}
Result<ArrayPtr> LtrimKernel(const std::vector<ArrayPtr>& args, const BoundExpr&, int64_t rows) {
  return Trim(args, rows, true, false);
}
Result<ArrayPtr> RtrimKernel(const std::vector<ArrayPtr>& args, const BoundExpr&, int64_t rows) {
  return Trim(args, rows, false, true);
}

Result<ArrayPtr> ReplaceKernel(const std::vector<ArrayPtr>& args, const BoundExpr&,
                               int64_t rows) {
  return MapText(args, rows, [&](int64_t i, std::string* out) -> Result<bool> {
    std::string_view s = args[0]->GetView(i);
    std::string_view from = args[1]->GetView(i);
    std::string_view to = args[2]->GetView(i);
    if (from.empty()) {
      out->assign(s);
      return true;
    }
    size_t at = 0;
    while (true) {
      size_t next = s.find(from, at);
      if (next == std::string_view::npos) break;
      out->append(s.substr(at, next - at));
      out->append(to);
      at = next + from.size();
    }
    out->append(s.substr(at));
    return true;
  });
}

Result<ArrayPtr> LeftRight(const std::vector<ArrayPtr>& args, const BoundExpr& call,
                           int64_t rows, bool left) {
  return MapText(args, rows, [&](int64_t i, std::string* out) -> Result<bool> {
    std::string_view s = args[0]->GetView(i);
    int64_t n = IntArg(*args[1], call.args[1]->type, i);
    int64_t total = CharCount(s);
    int64_t keep = n >= 0 ? std::min(n, total) : std::max<int64_t>(0, total + n);
    if (left) {
      out->assign(s.substr(0, ByteOffsetOfChar(s, keep)));
    } else {
      out->assign(s.substr(ByteOffsetOfChar(s, total - keep)));
    }
    return true;
  });
}

Result<ArrayPtr> LeftKernel(const std::vector<ArrayPtr>& args, const BoundExpr& call,
                            int64_t rows) {
  return LeftRight(args, call, rows, true);
}
Result<ArrayPtr> RightKernel(const std::vector<ArrayPtr>& args, const BoundExpr& call,
                             int64_t rows) {
  return LeftRight(args, call, rows, false);
}

}  // namespace

const ScalarFunction kLower{"lower", LowerKernel};
const ScalarFunction kUpper{"upper", UpperKernel};
const ScalarFunction kLength{"length", LengthKernel};
const ScalarFunction kOctetLength{"octet_length", OctetLengthKernel};
const ScalarFunction kStrpos{"strpos", StrposKernel};
const ScalarFunction kSubstring{"substring", SubstringKernel};
const ScalarFunction kBtrim{"btrim", BtrimKernel};
const ScalarFunction kLtrim{"ltrim", LtrimKernel};
const ScalarFunction kRtrim{"rtrim", RtrimKernel};
const ScalarFunction kReplace{"replace", ReplaceKernel};
const ScalarFunction kLeft{"left", LeftKernel};
const ScalarFunction kRight{"right", RightKernel};

}  // namespace hoglake::sql
