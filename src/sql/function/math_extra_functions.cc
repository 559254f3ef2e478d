// More numeric functions, PostgreSQL's: trigonometry in radians (sin, cos,
// tan, cot, asin, acos, atan, atan2), degrees, radians, cbrt, pi, exp, ln,
// log10/log (base 10), power/pow, sign, random, gcd/lcm of integers, and
// ln/log10/log(b, x)/sign of numeric. Float errors as float.c raises them:
// 22003 "input is out of range" (trigonometry of an infinity, asin past ±1),
// 22003 overflow/underflow, 2201E logarithm of zero or a negative number,
// 2201F power's undefined cases. Numeric logarithms are computed in long
// double and carried at 16 fraction digits (PostgreSQL's 16 significant
// digits by value for results below 10 in magnitude).
#include <cmath>
#include <random>

#include "sql/function/builtins.h"
#include "sql/function/row_function.h"
#include "sql/sql_error.h"
#include "sql/types/value_text.h"

namespace hoglake::sql {
namespace {

Error OutOfRangeInput() {
  return SqlError(SqlErrorKind::kNumericValueOutOfRange, "input is out of range");
}
Error Overflow() {
  return SqlError(SqlErrorKind::kNumericValueOutOfRange, "value out of range: overflow");
}
Error Underflow() {
  return SqlError(SqlErrorKind::kNumericValueOutOfRange, "value out of range: underflow");
}

Value Dbl(double d) { return Value::Double(SqlTypeId::kDouble, d); }

Result<Value> SinRow(const std::vector<Value>& a, const BoundExpr&) {
  if (std::isinf(a[0].d)) return OutOfRangeInput();
  return Dbl(std::sin(a[0].d));
}
Result<Value> CosRow(const std::vector<Value>& a, const BoundExpr&) {
  if (std::isinf(a[0].d)) return OutOfRangeInput();
  return Dbl(std::cos(a[0].d));
}
Result<Value> TanRow(const std::vector<Value>& a, const BoundExpr&) {
  if (std::isinf(a[0].d)) return OutOfRangeInput();
  return Dbl(std::tan(a[0].d));
}
Result<Value> CotRow(const std::vector<Value>& a, const BoundExpr&) {
  if (std::isinf(a[0].d)) return OutOfRangeInput();
  return Dbl(1.0 / std::tan(a[0].d));
}
Result<Value> AsinRow(const std::vector<Value>& a, const BoundExpr&) {
  if (std::isnan(a[0].d)) return Dbl(a[0].d);
  if (a[0].d < -1 || a[0].d > 1) return OutOfRangeInput();
  return Dbl(std::asin(a[0].d));
}
Result<Value> AcosRow(const std::vector<Value>& a, const BoundExpr&) {
  if (std::isnan(a[0].d)) return Dbl(a[0].d);
  if (a[0].d < -1 || a[0].d > 1) return OutOfRangeInput();
  return Dbl(std::acos(a[0].d));
}
Result<Value> AtanRow(const std::vector<Value>& a, const BoundExpr&) {
  return Dbl(std::atan(a[0].d));
}
Result<Value> Atan2Row(const std::vector<Value>& a, const BoundExpr&) {
  return Dbl(std::atan2(a[0].d, a[1].d));
}
Result<Value> Checked(double r, double in) {
  if (std::isinf(r) && !std::isinf(in)) return Overflow();
  return Dbl(r);
}
Result<Value> DegreesRow(const std::vector<Value>& a, const BoundExpr&) {
  return Checked(a[0].d / (M_PI / 180.0), a[0].d);
}
Result<Value> RadiansRow(const std::vector<Value>& a, const BoundExpr&) {
  return Checked(a[0].d * (M_PI / 180.0), a[0].d);
}
Result<Value> CbrtRow(const std::vector<Value>& a, const BoundExpr&) {
  return Dbl(std::cbrt(a[0].d));
}
Result<Value> PiRow(const std::vector<Value>&, const BoundExpr&) { return Dbl(M_PI); }

Result<Value> ExpRow(const std::vector<Value>& a, const BoundExpr&) {
  const double x = a[0].d;
  if (std::isnan(x)) return Dbl(x);
  if (std::isinf(x)) return Dbl(x > 0 ? x : 0.0);
  const double r = std::exp(x);
  if (std::isinf(r)) return Overflow();
  if (r == 0) return Underflow();
  return Dbl(r);
}

Result<double> CheckedLogArgument(double x) {
  if (x == 0) {
    return SqlError(SqlErrorKind::kInvalidLogArgument, "cannot take logarithm of zero");
  }
  if (x < 0) {
    return SqlError(SqlErrorKind::kInvalidLogArgument,
                    "cannot take logarithm of a negative number");
  }
  return x;
}
Result<Value> LnRow(const std::vector<Value>& a, const BoundExpr&) {
  HOGLAKE_ASSIGN_OR_RETURN(double x, CheckedLogArgument(a[0].d));
  return Dbl(std::log(x));
}
Result<Value> Log10Row(const std::vector<Value>& a, const BoundExpr&) {
  HOGLAKE_ASSIGN_OR_RETURN(double x, CheckedLogArgument(a[0].d));
  return Dbl(std::log10(x));
}

Result<Value> PowerRow(const std::vector<Value>& a, const BoundExpr&) {
  const double x = a[0].d, y = a[1].d;
  if (x == 0 && y < 0) {
    return SqlError(SqlErrorKind::kInvalidPowerArgument,
                    "zero raised to a negative power is undefined");
  }
  if (x < 0 && std::floor(y) != y && !std::isinf(y) && !std::isnan(y)) {
    return SqlError(SqlErrorKind::kInvalidPowerArgument,
                    "a negative number raised to a non-integer power yields a complex result");
  }
  if (std::isnan(x)) return Dbl(y == 0 ? 1.0 : x);
  if (std::isnan(y)) return Dbl(x == 1 ? 1.0 : y);
  const double r = std::pow(x, y);
  if (std::isinf(r) && !std::isinf(x) && !std::isinf(y)) return Overflow();
  if (r == 0 && x != 0 && !std::isinf(x) && !std::isinf(y)) return Underflow();
  return Dbl(r);
}

Result<Value> SignRow(const std::vector<Value>& a, const BoundExpr& call) {
  if (call.type.id == SqlTypeId::kNumeric) {
    return Value::Numeric(-1, 0, a[0].n > 0 ? 1 : a[0].n < 0 ? -1 : 0);
  }
  const double x = a[0].d;
  return Dbl(x > 0 ? 1.0 : x < 0 ? -1.0 : 0.0);
}

Result<Value> RandomRow(const std::vector<Value>&, const BoundExpr&) {
  thread_local std::mt19937_64 engine{std::random_device{}()};
  return Dbl(std::uniform_real_distribution<double>(0.0, 1.0)(engine));
}

Result<Value> GcdLcm(const std::vector<Value>& a, const BoundExpr& call, bool lcm) {
  const bool big = call.type.id == SqlTypeId::kBigint;
  const __int128 lo = big ? INT64_MIN : INT32_MIN, hi = big ? INT64_MAX : INT32_MAX;
  __int128 x = a[0].i, y = a[1].i;
  auto out_of_range = [&] {
    return SqlError(SqlErrorKind::kNumericValueOutOfRange, big ? "bigint" : "integer",
                    " out of range");
  };
  __int128 ux = x < 0 ? -x : x, uy = y < 0 ? -y : y;
  __int128 g = ux, h = uy;
  while (h != 0) {
    const __int128 rest = g % h;
    g = h;
    h = rest;
  }
  __int128 r = g;
  if (lcm) r = (x == 0 || y == 0) ? 0 : ux / g * uy;
  if (r < lo || r > hi) return out_of_range();
  return Value::Integer(call.type.id, static_cast<int64_t>(r));
}
Result<Value> GcdRow(const std::vector<Value>& a, const BoundExpr& c) {
  return GcdLcm(a, c, false);
}
Result<Value> LcmRow(const std::vector<Value>& a, const BoundExpr& c) { return GcdLcm(a, c, true); }

// Numeric logarithms in long double, rounded to the result's scale.
long double ToLongDouble(const Value& v) {
  return static_cast<long double>(v.n) / static_cast<long double>(PowerOfTen(v.type.scale));
}
Result<long double> NumericLogArgument(const Value& v) {
  if (v.n == 0) return SqlError(SqlErrorKind::kInvalidLogArgument, "cannot take logarithm of zero");
  if (v.n < 0) {
    return SqlError(SqlErrorKind::kInvalidLogArgument,
                    "cannot take logarithm of a negative number");
  }
  return ToLongDouble(v);
}
Value FromLongDouble(long double x, const SqlType& type) {
  const long double scaled = std::roundl(x * static_cast<long double>(PowerOfTen(type.scale)));
  return Value::Numeric(-1, type.scale, static_cast<__int128>(scaled));
}
Result<Value> NumericLnRow(const std::vector<Value>& a, const BoundExpr& call) {
  HOGLAKE_ASSIGN_OR_RETURN(long double x, NumericLogArgument(a[0]));
  return FromLongDouble(std::log(x), call.type);
}
Result<Value> NumericLog10Row(const std::vector<Value>& a, const BoundExpr& call) {
  HOGLAKE_ASSIGN_OR_RETURN(long double x, NumericLogArgument(a[0]));
  return FromLongDouble(std::log10(x), call.type);
}
Result<Value> NumericLogBaseRow(const std::vector<Value>& a, const BoundExpr& call) {
  HOGLAKE_ASSIGN_OR_RETURN(long double b, NumericLogArgument(a[0]));
  HOGLAKE_ASSIGN_OR_RETURN(long double x, NumericLogArgument(a[1]));
  const long double lb = std::log(b);
  if (lb == 0) return SqlError(SqlErrorKind::kDivisionByZero, "division by zero");
  return FromLongDouble(std::log(x) / lb, call.type);
}

}  // namespace

const RowFunction kSin = MakeRowFunction("sin", SinRow);
const RowFunction kCos = MakeRowFunction("cos", CosRow);
const RowFunction kTan = MakeRowFunction("tan", TanRow);
const RowFunction kCot = MakeRowFunction("cot", CotRow);
const RowFunction kAsin = MakeRowFunction("asin", AsinRow);
const RowFunction kAcos = MakeRowFunction("acos", AcosRow);
const RowFunction kAtan = MakeRowFunction("atan", AtanRow);
const RowFunction kAtan2 = MakeRowFunction("atan2", Atan2Row);
const RowFunction kDegrees = MakeRowFunction("degrees", DegreesRow);
const RowFunction kRadians = MakeRowFunction("radians", RadiansRow);
const RowFunction kCbrt = MakeRowFunction("cbrt", CbrtRow);
const RowFunction kPi = MakeRowFunction("pi", PiRow);
const RowFunction kExp = MakeRowFunction("exp", ExpRow);
const RowFunction kLn = MakeRowFunction("ln", LnRow);
const RowFunction kLog10 = MakeRowFunction("log10", Log10Row);
const RowFunction kPower = MakeRowFunction("power", PowerRow);
const RowFunction kSign = MakeRowFunction("sign", SignRow);
const RowFunction kRandom = MakeRowFunction("random", RandomRow);
const RowFunction kGcd = MakeRowFunction("gcd", GcdRow);
const RowFunction kLcm = MakeRowFunction("lcm", LcmRow);
const RowFunction kNumericLn = MakeRowFunction("ln", NumericLnRow);
const RowFunction kNumericLog10 = MakeRowFunction("log10", NumericLog10Row);
const RowFunction kNumericLogBase = MakeRowFunction("log", NumericLogBaseRow);

}  // namespace hoglake::sql
