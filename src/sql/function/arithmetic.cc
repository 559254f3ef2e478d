// Arithmetic operators: + - * / % and unary minus over integers (overflow
// is an error, never a wrap), floats (IEEE, as PostgreSQL's float8 — except
// that PostgreSQL also raises on overflow to infinity, which we follow) and
// numeric (exact 128-bit; precision past 38 digits is an error). Operands
// arrive cast to one type by BindOperator; for numeric, `call.type.scale`
// is the result's scale and the operands keep their own.
#include <cmath>
#include <cstdint>
#include <cstring>

#include "sql/execution/vector_ops.h"
#include "sql/function/scalar_function.h"
#include "sql/sql_error.h"
#include "sql/types/value_text.h"

namespace hoglake::sql {
namespace {

using columnar::ArrayData;
using columnar::ArrayPtr;

enum class ArithOp { kAdd, kSub, kMul, kDiv, kMod };

Error IntegerOverflow(SqlTypeId id) {
  return SqlError(SqlErrorKind::kNumericValueOutOfRange,
                  id == SqlTypeId::kSmallint  ? "smallint out of range"
                  : id == SqlTypeId::kInteger ? "integer out of range"
                                              : "bigint out of range");
}

Error DivisionByZero() { return SqlError(SqlErrorKind::kDivisionByZero, "division by zero"); }

template <typename T>
Result<ArrayPtr> IntegerArith(const ArrayData& a, const ArrayData& b, const SqlType& type,
                              ArithOp op, int64_t rows) {
  FixedOutput<T> out(CarrierType(type), rows);
  int64_t nulls;
  auto validity = AndValidity(a, &b, rows, &nulls);
  const T* x = a.values<T>();
  const T* y = b.values<T>();
  T* z = out.values();
  for (int64_t i = 0; i < rows; ++i) {
    if (validity && !columnar::GetBit(validity->data(), i)) continue;
    bool overflow = false;
    switch (op) {
      case ArithOp::kAdd:
        overflow = __builtin_add_overflow(x[i], y[i], &z[i]);
        break;
      case ArithOp::kSub:
        overflow = __builtin_sub_overflow(x[i], y[i], &z[i]);
        break;
      case ArithOp::kMul:
        overflow = __builtin_mul_overflow(x[i], y[i], &z[i]);
        break;
      case ArithOp::kDiv:
        if (y[i] == 0) return DivisionByZero();
        if (y[i] == -1) {
          overflow = __builtin_sub_overflow(T{0}, x[i], &z[i]);
        } else {
          z[i] = static_cast<T>(x[i] / y[i]);
        }
        break;
      case ArithOp::kMod:
        if (y[i] == 0) return DivisionByZero();
        z[i] = y[i] == -1 ? T{0} : static_cast<T>(x[i] % y[i]);
        break;
    }
    if (overflow) return IntegerOverflow(type.id);
  }
  out.AdoptValidity(validity, nulls);
  return out.Finish();
}

template <typename T>
Result<ArrayPtr> FloatArith(const ArrayData& a, const ArrayData& b, const SqlType& type,
                            ArithOp op, int64_t rows) {
  FixedOutput<T> out(CarrierType(type), rows);
  int64_t nulls;
  auto validity = AndValidity(a, &b, rows, &nulls);
  const T* x = a.values<T>();
  const T* y = b.values<T>();
  T* z = out.values();
  for (int64_t i = 0; i < rows; ++i) {
    if (validity && !columnar::GetBit(validity->data(), i)) continue;
    switch (op) {
      case ArithOp::kAdd:
        z[i] = x[i] + y[i];
        break;
      case ArithOp::kSub:
        z[i] = x[i] - y[i];
        break;
      case ArithOp::kMul:
        z[i] = x[i] * y[i];
        break;
      case ArithOp::kDiv:
        if (y[i] == 0) return DivisionByZero();
        z[i] = x[i] / y[i];
        break;
      case ArithOp::kMod:
        return SqlError(SqlErrorKind::kUndefinedFunction,
                        "operator does not exist: double precision % double precision");
    }
    if (std::isinf(z[i]) && !std::isinf(x[i]) && !std::isinf(y[i])) {
      return SqlError(SqlErrorKind::kNumericValueOutOfRange, "value out of range: overflow");
    }
    // As float8mul/float8div: a product or quotient of non-zero finite
    // values that rounds to zero is an error too.
    if (z[i] == 0 && x[i] != 0 &&
        ((op == ArithOp::kMul && y[i] != 0) || (op == ArithOp::kDiv && !std::isinf(y[i])))) {
      return SqlError(SqlErrorKind::kNumericValueOutOfRange, "value out of range: underflow");
    }
  }
  out.AdoptValidity(validity, nulls);
  return out.Finish();
}

const __int128 kDecimalLimit = PowerOfTen(38);

Error NumericOverflow() {
  return SqlError(SqlErrorKind::kNumericValueOutOfRange,
                  "numeric value exceeds 38 digits of precision");
}

Result<ArrayPtr> DecimalArith(const ArrayData& a, const SqlType& ta, const ArrayData& b,
                              const SqlType& tb, const SqlType& type, ArithOp op, int64_t rows) {
  FixedOutput<__int128> out(CarrierType(type), rows);
  int64_t nulls;
  auto validity = AndValidity(a, &b, rows, &nulls);
  __int128* z = out.values();
  const int sa = ta.scale, sb = tb.scale, sr = type.scale;
  const __int128 fa = PowerOfTen(std::max(0, sr - sa));
  const __int128 fb = PowerOfTen(std::max(0, sr - sb));
  auto fits64 = [](__int128 v) { return v >= INT64_MIN && v <= INT64_MAX; };
  for (int64_t i = 0; i < rows; ++i) {
    if (validity && !columnar::GetBit(validity->data(), i)) continue;
    __int128 x = LoadDecimal(a, i), y = LoadDecimal(b, i), r = 0;
    // Common cases without the overflow checks they cannot fail: operands
    // below 10^38 at one scale add within 2·10^38 < 2^127 (only the
    // 38-digit bound can fail), and a product of two 64-bit values is below
    // 2^126 < 10^38.
    if ((op == ArithOp::kAdd || op == ArithOp::kSub) && fa == 1 && fb == 1) {
      r = op == ArithOp::kAdd ? x + y : x - y;
      if (r >= kDecimalLimit || r <= -kDecimalLimit) return NumericOverflow();
      z[i] = r;
      continue;
    }
    if (op == ArithOp::kMul && fits64(x) && fits64(y)) {
      z[i] = x * y;
      continue;
    }
    switch (op) {
      case ArithOp::kAdd:
      case ArithOp::kSub: {
        __int128 xs, ys;
        if (__builtin_mul_overflow(x, fa, &xs) || __builtin_mul_overflow(y, fb, &ys)) {
          return NumericOverflow();
        }
        if (op == ArithOp::kAdd ? __builtin_add_overflow(xs, ys, &r)
                                : __builtin_sub_overflow(xs, ys, &r)) {
          return NumericOverflow();
        }
        break;
      }
      case ArithOp::kMul:
        if (__builtin_mul_overflow(x, y, &r)) return NumericOverflow();
        break;
      case ArithOp::kDiv:
        if (y == 0) return DivisionByZero();
        if (!DivideDecimal(x, sa, y, sb, sr, &r)) return NumericOverflow();
        break;
      case ArithOp::kMod: {
        if (y == 0) return DivisionByZero();
        __int128 xs, ys;
        if (__builtin_mul_overflow(x, fa, &xs) || __builtin_mul_overflow(y, fb, &ys)) {
          return NumericOverflow();
        }
        r = xs % ys;
        break;
      }
    }
    if (r >= kDecimalLimit || r <= -kDecimalLimit) return NumericOverflow();
    z[i] = r;
  }
  out.AdoptValidity(validity, nulls);
  return out.Finish();
}

Result<ArrayPtr> Arith(const std::vector<ArrayPtr>& args, const BoundExpr& call, int64_t rows,
                       ArithOp op) {
  const ArrayData& a = *args[0];
  const ArrayData& b = *args[1];
  const SqlType& type = call.type;
  switch (type.id) {
    case SqlTypeId::kSmallint:
      return IntegerArith<int16_t>(a, b, type, op, rows);
    case SqlTypeId::kInteger:
      return IntegerArith<int32_t>(a, b, type, op, rows);
    case SqlTypeId::kBigint:
      return IntegerArith<int64_t>(a, b, type, op, rows);
    case SqlTypeId::kReal:
      return FloatArith<float>(a, b, type, op, rows);
    case SqlTypeId::kDouble:
      return FloatArith<double>(a, b, type, op, rows);
    case SqlTypeId::kNumeric:
      return DecimalArith(a, call.args[0]->type, b, call.args[1]->type, type, op, rows);
    default:
      return Internal("arithmetic on ", PgTypeName(type));
  }
}

Result<ArrayPtr> AddKernel(const std::vector<ArrayPtr>& args, const BoundExpr& call,
                           int64_t rows) {
  return Arith(args, call, rows, ArithOp::kAdd);
}
Result<ArrayPtr> SubtractKernel(const std::vector<ArrayPtr>& args, const BoundExpr& call,
                                int64_t rows) {
  return Arith(args, call, rows, ArithOp::kSub);
}
Result<ArrayPtr> MultiplyKernel(const std::vector<ArrayPtr>& args, const BoundExpr& call,
                                int64_t rows) {
  return Arith(args, call, rows, ArithOp::kMul);
}
Result<ArrayPtr> DivideKernel(const std::vector<ArrayPtr>& args, const BoundExpr& call,
                              int64_t rows) {
  return Arith(args, call, rows, ArithOp::kDiv);
}
Result<ArrayPtr> ModuloKernel(const std::vector<ArrayPtr>& args, const BoundExpr& call,
                              int64_t rows) {
  return Arith(args, call, rows, ArithOp::kMod);
}

Result<ArrayPtr> NegateKernel(const std::vector<ArrayPtr>& args, const BoundExpr& call,
                              int64_t rows) {
  // 0 − x with the subtraction's overflow rules.
  HOGLAKE_ASSIGN_OR_RETURN(ArrayPtr zero, BroadcastValue(call.type.id == SqlTypeId::kNumeric
                                                             ? Value::Numeric(call.type.precision,
                                                                              call.type.scale, 0)
                                                         : call.type.is_float()
                                                             ? Value::Double(call.type.id, 0)
                                                             : Value::Integer(call.type.id, 0),
                                                         rows));
  if (call.type.is_float()) {
    // −0 and NaN as IEEE negation gives them.
    const ArrayData& a = *args[0];
    if (call.type.id == SqlTypeId::kDouble) {
      FixedOutput<double> out(CarrierType(call.type), rows);
      for (int64_t i = 0; i < rows; ++i) {
        out.values()[i] = -a.values<double>()[i];
        if (a.IsNull(i)) out.SetNull(i);
      }
      return out.Finish();
    }
    FixedOutput<float> out(CarrierType(call.type), rows);
    for (int64_t i = 0; i < rows; ++i) {
      out.values()[i] = -a.values<float>()[i];
      if (a.IsNull(i)) out.SetNull(i);
    }
    return out.Finish();
  }
  BoundExpr sub = call;
  sub.args = {MakeConstant(Value::Integer(call.type.id, 0)), call.args[0]};
  if (call.type.id == SqlTypeId::kNumeric) {
    sub.args[0] = MakeConstant(Value::Numeric(call.type.precision, call.type.scale, 0));
  }
  return Arith({zero, args[0]}, sub, rows, ArithOp::kSub);
}

}  // namespace

const ScalarFunction kAdd{"+", AddKernel};
const ScalarFunction kSubtract{"-", SubtractKernel};
const ScalarFunction kMultiply{"*", MultiplyKernel};
const ScalarFunction kDivide{"/", DivideKernel};
const ScalarFunction kModulo{"%", ModuloKernel};
const ScalarFunction kNegate{"-", NegateKernel};

}  // namespace hoglake::sql
