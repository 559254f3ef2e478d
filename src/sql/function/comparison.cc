// Comparison operators (= <> < <= > >=), IS [NOT] DISTINCT FROM, LIKE and
// ||. Operands arrive cast to one type (numerics may differ in scale).
#include <cstring>

#include "columnar/builder.h"
#include "sql/execution/vector_ops.h"
#include "sql/function/compare_values.h"
#include "sql/function/scalar_function.h"
#include "sql/sql_error.h"

namespace hoglake::sql {
namespace {

using columnar::ArrayData;
using columnar::ArrayPtr;

enum class CmpOp { kEq, kNe, kLt, kLe, kGt, kGe };

bool Test(CmpOp op, int c) {
  switch (op) {
    case CmpOp::kEq:
      return c == 0;
    case CmpOp::kNe:
      return c != 0;
    case CmpOp::kLt:
      return c < 0;
    case CmpOp::kLe:
      return c <= 0;
    case CmpOp::kGt:
      return c > 0;
    case CmpOp::kGe:
      return c >= 0;
  }
  return false;
}

template <typename T>
void TypedCompare(const ArrayData& a, const ArrayData& b, CmpOp op, int64_t rows,
                  BoolOutput* out) {
  const T* x = a.values<T>();
  const T* y = b.values<T>();
  for (int64_t i = 0; i < rows; ++i) {
    int c = x[i] < y[i] ? -1 : (x[i] > y[i] ? 1 : 0);
    out->Set(i, Test(op, c));
  }
}

Result<ArrayPtr> Compare(const std::vector<ArrayPtr>& args, const BoundExpr& call, int64_t rows,
                         CmpOp op) {
  const ArrayData& a = *args[0];
  const ArrayData& b = *args[1];
  const SqlType& ta = call.args[0]->type;
  const SqlType& tb = call.args[1]->type;
  BoolOutput out(rows);
  switch (ta.id) {
    case SqlTypeId::kSmallint:
      TypedCompare<int16_t>(a, b, op, rows, &out);
      break;
    case SqlTypeId::kInteger:
    case SqlTypeId::kDate:
      TypedCompare<int32_t>(a, b, op, rows, &out);
      break;
    case SqlTypeId::kBigint:
    case SqlTypeId::kTimestamp:
    case SqlTypeId::kTimestampTz:
    case SqlTypeId::kTime:
      TypedCompare<int64_t>(a, b, op, rows, &out);
      break;
    default:
      if (ta.is_nested()) {
        return SqlError(SqlErrorKind::kFeatureNotSupported, "comparing values of type ",
                        PgTypeName(ta), " is not supported");
      }
      for (int64_t i = 0; i < rows; ++i) {
        if (a.IsNull(i) || b.IsNull(i)) continue;
        out.Set(i, Test(op, CompareValues(a, i, ta, b, i, tb)));
      }
  }
  for (int64_t i = 0; i < rows && (a.null_count > 0 || b.null_count > 0); ++i) {
    if (a.IsNull(i) || b.IsNull(i)) out.SetNull(i);
  }
  return out.Finish();
}

#define HOGLAKE_CMP_KERNEL(Name, Op)                                                     \
  Result<ArrayPtr> Name(const std::vector<ArrayPtr>& args, const BoundExpr& call,        \
                        int64_t rows) {                                                  \
    return Compare(args, call, rows, Op);                                                \
  }
HOGLAKE_CMP_KERNEL(EqualKernel, CmpOp::kEq)
HOGLAKE_CMP_KERNEL(NotEqualKernel, CmpOp::kNe)
HOGLAKE_CMP_KERNEL(LessKernel, CmpOp::kLt)
HOGLAKE_CMP_KERNEL(LessEqualKernel, CmpOp::kLe)
HOGLAKE_CMP_KERNEL(GreaterKernel, CmpOp::kGt)
HOGLAKE_CMP_KERNEL(GreaterEqualKernel, CmpOp::kGe)
#undef HOGLAKE_CMP_KERNEL

Result<ArrayPtr> Distinct(const std::vector<ArrayPtr>& args, const BoundExpr& call, int64_t rows,
                          bool want_distinct) {
  const ArrayData& a = *args[0];
  const ArrayData& b = *args[1];
  const SqlType& ta = call.args[0]->type;
  const SqlType& tb = call.args[1]->type;
  BoolOutput out(rows);
  for (int64_t i = 0; i < rows; ++i) {
    bool an = a.IsNull(i), bn = b.IsNull(i);
    bool distinct = (an || bn) ? an != bn : CompareValues(a, i, ta, b, i, tb) != 0;
    out.Set(i, distinct == want_distinct);
  }
  return out.Finish();
}

Result<ArrayPtr> IsDistinctKernel(const std::vector<ArrayPtr>& args, const BoundExpr& call,
                                  int64_t rows) {
  return Distinct(args, call, rows, true);
}
Result<ArrayPtr> IsNotDistinctKernel(const std::vector<ArrayPtr>& args, const BoundExpr& call,
                                     int64_t rows) {
  return Distinct(args, call, rows, false);
}

// LIKE: % any run, _ one character (UTF-8 aware), `escape` quotes the next
// character. `fold` lowers ASCII letters on both sides (ILIKE).
bool LikeMatch(std::string_view s, std::string_view p, char escape, bool fold) {
  auto lower = [fold](unsigned char c) {
    return fold && c >= 'A' && c <= 'Z' ? static_cast<unsigned char>(c + 32) : c;
  };
  auto char_len = [](unsigned char c) {
    return c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 1;
  };
  size_t si = 0, pi = 0, star_p = std::string_view::npos, star_s = 0;
  while (si < s.size()) {
    if (pi < p.size() && p[pi] == '%') {
      star_p = ++pi;
      star_s = si;
      continue;
    }
    if (pi < p.size() && p[pi] == '_') {
      si += char_len(static_cast<unsigned char>(s[si]));
      ++pi;
      continue;
    }
    if (pi < p.size()) {
      size_t pc = pi;
      if (p[pc] == escape && escape != '\0' && pc + 1 < p.size()) ++pc;
      // One whole character of the pattern against one of the string.
      size_t len = char_len(static_cast<unsigned char>(p[pc]));
      bool same = si + len <= s.size() && pc + len <= p.size();
      for (size_t k = 0; same && k < len; ++k) {
        same = lower(static_cast<unsigned char>(p[pc + k])) ==
               lower(static_cast<unsigned char>(s[si + k]));
      }
      if (same) {
        si += len;
        pi = pc + len;
        continue;
      }
    }
    if (star_p != std::string_view::npos) {
      star_s += char_len(static_cast<unsigned char>(s[star_s]));
      si = star_s;
      pi = star_p;
      continue;
    }
    return false;
  }
  while (pi < p.size() && p[pi] == '%') ++pi;
  return pi == p.size();
}

Result<ArrayPtr> LikeKernel(const std::vector<ArrayPtr>& args, const BoundExpr& call,
                            int64_t rows) {
  // args: value, pattern, escape (text, may be empty = none), case_insensitive flag in name
  const ArrayData& value = *args[0];
  const ArrayData& pattern = *args[1];
  const ArrayData& escape = *args[2];
  bool fold = call.name == "~~*";
  BoolOutput out(rows);
  for (int64_t i = 0; i < rows; ++i) {
    if (value.IsNull(i) || pattern.IsNull(i) || escape.IsNull(i)) {
      out.SetNull(i);
      continue;
    }
    std::string_view e = escape.GetView(i);
    if (e.size() > 1) {
      return SqlError(SqlErrorKind::kInvalidEscapeSequence,
                      "invalid escape string: escape string must be empty or one character");
    }
    std::string_view p = pattern.GetView(i);
    if (!e.empty() && !p.empty() && p.back() == e[0]) {
      size_t run = 0;
      while (run < p.size() && p[p.size() - 1 - run] == e[0]) ++run;
      if (run % 2 == 1) {
        return SqlError(SqlErrorKind::kInvalidEscapeSequence,
                        "LIKE pattern must not end with escape character");
      }
    }
    out.Set(i, LikeMatch(value.GetView(i), p, e.empty() ? '\0' : e[0], fold));
  }
  return out.Finish();
}

Result<ArrayPtr> ConcatKernel(const std::vector<ArrayPtr>& args, const BoundExpr&, int64_t rows) {
  const ArrayData& a = *args[0];
  const ArrayData& b = *args[1];
  columnar::BinaryBuilder out(columnar::Utf8());
  std::string buf;
  for (int64_t i = 0; i < rows; ++i) {
    if (a.IsNull(i) || b.IsNull(i)) {
      out.AppendNull();
      continue;
    }
    buf.assign(a.GetView(i));
    buf.append(b.GetView(i));
    out.Append(buf);
  }
  return out.Finish();
}

}  // namespace

const ScalarFunction kEqual{"=", EqualKernel};
const ScalarFunction kNotEqual{"<>", NotEqualKernel};
const ScalarFunction kLess{"<", LessKernel};
const ScalarFunction kLessEqual{"<=", LessEqualKernel};
const ScalarFunction kGreater{">", GreaterKernel};
const ScalarFunction kGreaterEqual{">=", GreaterEqualKernel};
const ScalarFunction kIsDistinctFrom{"IS DISTINCT FROM", IsDistinctKernel};
const ScalarFunction kIsNotDistinctFrom{"IS NOT DISTINCT FROM", IsNotDistinctKernel};
const ScalarFunction kLike{"~~", LikeKernel};
const ScalarFunction kConcat{"||", ConcatKernel};

}  // namespace hoglake::sql
