// Numeric functions: abs, round (half away from zero for numeric, half to
// even for floats as rint), floor, ceil, sqrt. Each keeps its argument's
// type (round(numeric, n) gives scale n).
#include <cmath>
#include <cstring>

#include "sql/execution/vector_ops.h"
#include "sql/function/function_kernels.h"
#include "sql/sql_error.h"
#include "sql/types/value_text.h"

namespace hoglake::sql {
namespace {

using columnar::ArrayData;
using columnar::ArrayPtr;

enum class MathOp { kAbs, kRound, kFloor, kCeil, kSqrt };

// v at scale `from` rounded/floored/ceiled to scale `to` (≤ from).
__int128 DecimalToScale(__int128 v, int from, int to, MathOp op) {
  if (to >= from) return v * PowerOfTen(to - from);
  __int128 d = PowerOfTen(from - to);
  __int128 q = v / d, r = v % d;
  switch (op) {
    case MathOp::kFloor:
      if (r < 0) --q;
      break;
    case MathOp::kCeil:
      if (r > 0) ++q;
      break;
    default:
      if ((r < 0 ? -r : r) * 2 >= d) q += v < 0 ? -1 : 1;
  }
  return q;
}

template <typename T>
Result<ArrayPtr> IntegerMath(const ArrayData& a, const SqlType& type, MathOp op, int64_t rows) {
  FixedOutput<T> out(CarrierType(type), rows);
  for (int64_t i = 0; i < rows; ++i) {
    if (a.IsNull(i)) {
      out.SetNull(i);
      continue;
    }
    T v = a.values<T>()[i];
    if (op == MathOp::kAbs && v < 0) {
      if (__builtin_sub_overflow(T{0}, v, &v)) {
        return SqlError(SqlErrorKind::kNumericValueOutOfRange, PgTypeName(type),
                        " out of range");
      }
    }
    out.values()[i] = v;
  }
  return out.Finish();
}

template <typename T>
Result<ArrayPtr> FloatMath(const ArrayData& a, const SqlType& type, MathOp op, int64_t rows) {
  FixedOutput<T> out(CarrierType(type), rows);
  for (int64_t i = 0; i < rows; ++i) {
    if (a.IsNull(i)) {
      out.SetNull(i);
      continue;
    }
    T v = a.values<T>()[i];
    switch (op) {
      case MathOp::kAbs:
        v = std::fabs(v);
        break;
      case MathOp::kRound:
        v = std::nearbyint(v);
        break;
      case MathOp::kFloor:
        v = std::floor(v);
        break;
      case MathOp::kCeil:
        v = std::ceil(v);
        break;
      case MathOp::kSqrt:
        if (v < 0) {
          return SqlError(SqlErrorKind::kInvalidPowerArgument,
                          "cannot take square root of a negative number");
        }
        v = std::sqrt(v);
        break;
    }
    out.values()[i] = v;
  }
  return out.Finish();
}

Result<ArrayPtr> Math(const std::vector<ArrayPtr>& args, const BoundExpr& call, int64_t rows,
                      MathOp op) {
  const ArrayData& a = *args[0];
  const SqlType& in = call.args[0]->type;
  switch (in.id) {
    case SqlTypeId::kSmallint:
      return IntegerMath<int16_t>(a, call.type, op, rows);
    case SqlTypeId::kInteger:
      return IntegerMath<int32_t>(a, call.type, op, rows);
    case SqlTypeId::kBigint:
      return IntegerMath<int64_t>(a, call.type, op, rows);
    case SqlTypeId::kReal:
      return FloatMath<float>(a, call.type, op, rows);
    case SqlTypeId::kDouble:
      return FloatMath<double>(a, call.type, op, rows);
    case SqlTypeId::kNumeric: {
      FixedOutput<__int128> out(CarrierType(call.type), rows);
      for (int64_t i = 0; i < rows; ++i) {
        if (a.IsNull(i) || (args.size() > 1 && args[1]->IsNull(i))) {
          out.SetNull(i);
          continue;
        }
        __int128 v = LoadDecimal(a, i);
        if (op == MathOp::kAbs) {
          out.values()[i] = v < 0 ? -v : v;
          continue;
        }
        if (op == MathOp::kSqrt) {
          return SqlError(SqlErrorKind::kFeatureNotSupported, "sqrt(numeric) is not supported");
        }
        // round(x, n): the call's scale is max(n, 0) (n is a constant);
        // floor/ceil/round(x): 0.
        int target = call.type.scale;
        if (args.size() > 1) {
          int64_t n = args[1]->values<int32_t>()[i];
          if (n < 0) {
            // One rounding, to 10^-n (rounding to units first would take
            // 4.9 to 5 and then to 10).
            const int places = static_cast<int>(std::min<int64_t>(-n, 38 - in.scale));
            out.values()[i] = DecimalToScale(v, in.scale, -places, op) * PowerOfTen(places);
            continue;
          }
          int kept = static_cast<int>(std::min<int64_t>(n, in.scale));
          out.values()[i] = DecimalToScale(v, in.scale, kept, op) * PowerOfTen(target - kept);
          continue;
        }
        out.values()[i] = DecimalToScale(v, in.scale, target, op);
      }
      return out.Finish();
    }
    default:
      return Internal("math on ", PgTypeName(in));
  }
}

#define HOGLAKE_MATH_KERNEL(Name, Op)                                                     \
  Result<ArrayPtr> Name(const std::vector<ArrayPtr>& args, const BoundExpr& call,         \
                        int64_t rows) {                                                   \
    return Math(args, call, rows, Op);                                                    \
  }
HOGLAKE_MATH_KERNEL(AbsKernel, MathOp::kAbs)
HOGLAKE_MATH_KERNEL(RoundKernel, MathOp::kRound)
HOGLAKE_MATH_KERNEL(FloorKernel, MathOp::kFloor)
HOGLAKE_MATH_KERNEL(CeilKernel, MathOp::kCeil)
HOGLAKE_MATH_KERNEL(SqrtKernel, MathOp::kSqrt)
#undef HOGLAKE_MATH_KERNEL

}  // namespace

const ScalarFunction kAbs{"abs", AbsKernel};
const ScalarFunction kRound{"round", RoundKernel};
const ScalarFunction kFloor{"floor", FloorKernel};
const ScalarFunction kCeil{"ceil", CeilKernel};
const ScalarFunction kSqrt{"sqrt", SqrtKernel};

}  // namespace hoglake::sql
