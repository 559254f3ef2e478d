#include "sql/function/cast.h"

#include <cfloat>
#include <charconv>
#include <cmath>
#include <cstring>

#include "columnar/builder.h"
#include "columnar/json_rows.h"
#include "sql/execution/vector_ops.h"
#include "sql/function/nested_input.h"
#include "sql/sql_error.h"
#include "sql/types/value_text.h"

namespace hoglake::sql {
namespace {

// Rank within the numeric category (PostgreSQL's implicit widening order).
int NumericRank(SqlTypeId id) {
  switch (id) {
    case SqlTypeId::kSmallint:
      return 1;
    case SqlTypeId::kInteger:
      return 2;
    case SqlTypeId::kBigint:
      return 3;
    case SqlTypeId::kNumeric:
      return 4;
    case SqlTypeId::kReal:
      return 5;
    case SqlTypeId::kDouble:
      return 6;
    default:
      return 0;
  }
}

int DatetimeRank(SqlTypeId id) {
  switch (id) {
    case SqlTypeId::kDate:
      return 1;
    case SqlTypeId::kTimestamp:
      return 2;
    case SqlTypeId::kTimestampTz:
      return 3;
    default:
      return 0;
  }
}

int64_t IntegerMin(SqlTypeId id) {
  return id == SqlTypeId::kSmallint ? INT16_MIN : id == SqlTypeId::kInteger ? INT32_MIN : INT64_MIN;
}
int64_t IntegerMax(SqlTypeId id) {
  return id == SqlTypeId::kSmallint ? INT16_MAX : id == SqlTypeId::kInteger ? INT32_MAX : INT64_MAX;
}

Error OutOfRange(const SqlType& to) {
  if (to.is_integer()) {
    return SqlError(SqlErrorKind::kNumericValueOutOfRange, PgTypeName(to) == "smallint"
                                                               ? "smallint out of range"
                                                           : PgTypeName(to) == "integer"
                                                               ? "integer out of range"
                                                               : "bigint out of range");
  }
  return SqlError(SqlErrorKind::kNumericValueOutOfRange, "value out of range for type ",
                  PgTypeName(to));
}

Error BadInput(const SqlType& to, std::string_view text) {
  SqlErrorKind kind = to.is_temporal() ? SqlErrorKind::kInvalidDatetimeFormat
                                       : SqlErrorKind::kInvalidTextRepresentation;
  return SqlError(kind, "invalid input syntax for type ", PgTypeName(to), ": \"", text, "\"");
}

Error FieldOverflow(std::string_view text) {
  return SqlError(SqlErrorKind::kDatetimeFieldOverflow, "date/time field value out of range: \"",
                  text, "\"");
}

// Rounds unscaled `v` at scale `from` to scale `to` (half away from zero).
// A result past 128 bits comes back as ±10^38, which no numeric holds, so
// the caller's precision check reports the overflow.
__int128 Rescale(__int128 v, int from, int to) {
  if (to >= from) {
    __int128 out;
    if (to - from > 38 || __builtin_mul_overflow(v, PowerOfTen(to - from), &out)) {
      return v < 0 ? -PowerOfTen(38) : PowerOfTen(38);
    }
    return out;
  }
  if (from - to > 38) return 0;
  __int128 divisor = PowerOfTen(from - to);
  __int128 q = v / divisor;
  __int128 r = v % divisor;
  if (r < 0) r = -r;
  if (r * 2 >= divisor) q += v < 0 ? -1 : 1;
  return q;
}

Result<Value> NumericWithin(__int128 unscaled, const SqlType& to) {
  int precision = to.precision < 0 ? kMaxNumericPrecision : to.precision;
  if (unscaled != 0 && DecimalDigits(unscaled) > precision) {
    if (to.precision < 0) {
      return SqlError(SqlErrorKind::kNumericValueOutOfRange,
                      "numeric value exceeds 38 digits of precision");
    }
    return SqlError(SqlErrorKind::kNumericValueOutOfRange,
                    "numeric field overflow: a field with precision ", to.precision, ", scale ",
                    to.scale, " must round to an absolute value less than 10^",
                    to.precision - to.scale);
  }
  Value out{to};
  out.is_null = false;
  out.n = unscaled;
  return out;
}

// Correctly rounded, as PostgreSQL's numeric → float (which goes through
// the decimal text): v / 10^scale in doubles rounds twice past 2^53.
template <typename F>
F NumericToFloat(__int128 v, int scale) {
  const std::string text = columnar::FormatDecimal(v, scale);
  F f = 0;
  std::from_chars(text.data(), text.data() + text.size(), f);
  return f;
}

// `digits`: the significant digits a float keeps on its way to numeric, as
// PostgreSQL's float8_numeric (DBL_DIG) and float4_numeric (FLT_DIG).
Result<Value> FromDouble(double d, const SqlType& to, int digits = DBL_DIG) {
  if (to.is_integer()) {
    if (std::isnan(d) || std::isinf(d)) return OutOfRange(to);
    double r = std::nearbyint(d);  // half to even, as rint() in PostgreSQL
    if (r < static_cast<double>(IntegerMin(to.id)) ||
        r >= -static_cast<double>(IntegerMin(to.id))) {
      return OutOfRange(to);
    }
    return Value::Integer(to.id, static_cast<int64_t>(r));
  }
  if (to.id == SqlTypeId::kNumeric) {
    if (std::isnan(d) || std::isinf(d)) {
      return SqlError(SqlErrorKind::kFeatureNotSupported,
                      "NaN and infinity cannot be converted to numeric here");
    }
    char buf[64];
    std::snprintf(buf, sizeof(buf), "%.*g", digits, d);
    // An unconstrained numeric takes the scale the digits need.
    SqlType type = to;
    if (to.precision < 0) type.scale = NumericTextScale(buf);
    __int128 unscaled;
    bool overflow;
    if (!ParsePgNumeric(buf, type.scale, &unscaled, &overflow)) return OutOfRange(to);
    return NumericWithin(unscaled, type);
  }
  if (to.id == SqlTypeId::kReal) {
    // As PostgreSQL's float8 → float4: round first, then refuse a finite
    // value that became infinite or a non-zero one that became zero.
    const float f = static_cast<float>(d);
    if ((std::isinf(f) && !std::isinf(d)) || (f == 0 && d != 0)) return OutOfRange(to);
    return Value::Double(SqlTypeId::kReal, f);
  }
  return Value::Double(SqlTypeId::kDouble, d);
}

Result<Value> FromText(const std::string& text, const SqlType& to) {
  switch (to.id) {
    case SqlTypeId::kArray:
      return ParseNestedText(text, to);
    case SqlTypeId::kText:
    case SqlTypeId::kUnknown:
    case SqlTypeId::kJson:
      return Value::Text(text, to.id == SqlTypeId::kUnknown ? SqlTypeId::kText : to.id);
    case SqlTypeId::kBytea: {
      std::string bytes;
      bool bad_hex;
      if (!ParsePgBytea(text, &bytes, &bad_hex)) {
        if (bad_hex) {
          return SqlError(SqlErrorKind::kInvalidParameterValue, "invalid hexadecimal data: \"",
                          text, "\"");
        }
        return BadInput(to, text);
      }
      return Value::Text(std::move(bytes), SqlTypeId::kBytea);
    }
    case SqlTypeId::kBoolean: {
      bool b;
      if (!ParsePgBool(text, &b)) return BadInput(to, text);
      return Value::Boolean(b);
    }
    case SqlTypeId::kSmallint:
    case SqlTypeId::kInteger:
    case SqlTypeId::kBigint: {
      int64_t v;
      bool overflow;
      if (!ParsePgInteger(text, IntegerMin(to.id), IntegerMax(to.id), &v, &overflow)) {
        if (overflow) {
          return SqlError(SqlErrorKind::kNumericValueOutOfRange, "value \"", text,
                          "\" is out of range for type ", PgTypeName(to));
        }
        return BadInput(to, text);
      }
      return Value::Integer(to.id, v);
    }
    case SqlTypeId::kReal:
    case SqlTypeId::kDouble: {
      double d;
      bool out_of_range;
      if (!ParsePgDouble(text, &d, &out_of_range)) {
        if (out_of_range) {
          return SqlError(SqlErrorKind::kNumericValueOutOfRange, "\"", text,
                          "\" is out of range for type ", PgTypeName(to));
        }
        return BadInput(to, text);
      }
      return FromDouble(d, to);
    }
    case SqlTypeId::kNumeric: {
      int scale = to.precision < 0 ? NumericTextScale(text) : to.scale;
      __int128 unscaled;
      bool overflow;
      if (!ParsePgNumeric(text, scale, &unscaled, &overflow)) {
        if (overflow) return OutOfRange(to);
        return BadInput(to, text);
      }
      SqlType type = to;
      type.scale = scale;
      return NumericWithin(unscaled, type);
    }
    case SqlTypeId::kDate: {
      int32_t days;
      bool overflow;
      if (!ParsePgDate(text, &days, &overflow)) {
        return overflow ? FieldOverflow(text) : BadInput(to, text);
      }
      return Value::Integer(SqlTypeId::kDate, days);
    }
    case SqlTypeId::kTime: {
      int64_t micros;
      if (!ParsePgTime(text, &micros)) return BadInput(to, text);
      return Value::Integer(SqlTypeId::kTime, micros);
    }
    case SqlTypeId::kTimestamp:
    case SqlTypeId::kTimestampTz: {
      int64_t micros;
      bool overflow;
      if (!ParsePgTimestamp(text, to.id == SqlTypeId::kTimestampTz, &micros, &overflow)) {
        return overflow ? FieldOverflow(text) : BadInput(to, text);
      }
      return Value::Integer(to.id, micros);
    }
    case SqlTypeId::kInterval: {
      int32_t months, days;
      int64_t micros;
      if (!ParsePgInterval(text, &months, &days, &micros)) return BadInput(to, text);
      std::string bytes(16, '\0');
      std::memcpy(bytes.data(), &months, 4);
      std::memcpy(bytes.data() + 4, &days, 4);
      std::memcpy(bytes.data() + 8, &micros, 8);
      return Value::Text(std::move(bytes), SqlTypeId::kInterval);
    }
    default:
      return SqlError(SqlErrorKind::kFeatureNotSupported, "cannot cast text to ",
                      PgTypeName(to));
  }
}

// The array type a cast from `from` to the array type `to` produces: an
// unconstrained numeric[] keeps the elements' scale (floats: the digits
// their type keeps), as a scalar cast to numeric does.
SqlType ArrayCastTarget(const SqlType& from, const SqlType& to) {
  if (from.id != SqlTypeId::kArray || to.id != SqlTypeId::kArray ||
      to.element().id != SqlTypeId::kNumeric || to.element().precision >= 0) {
    return to;
  }
  SqlType target = to;
  const SqlType& element = from.element();
  target.members[0].second.scale = element.id == SqlTypeId::kNumeric ? element.scale
                                   : element.id == SqlTypeId::kReal  ? FLT_DIG
                                   : element.is_float()              ? DBL_DIG
                                                                     : 0;
  return target;
}

Error NoCast(const SqlType& from, const SqlType& to) {
  return SqlError(SqlErrorKind::kCannotCoerce, "cannot cast type ", PgTypeName(from), " to ",
                  PgTypeName(to));
}

bool CastExists(const SqlType& from, const SqlType& to) {
  if (from == to || from.id == SqlTypeId::kUnknown) return true;
  // Every type has a text form; text is read back as an array (array_in),
  // never as a composite or map (PostgreSQL names those types to do so).
  if (to.id == SqlTypeId::kText) return true;
  if (from.id == SqlTypeId::kText) return !to.is_nested() || to.id == SqlTypeId::kArray;
  // Array coercion: element by element.
  if (from.id == SqlTypeId::kArray && to.id == SqlTypeId::kArray) {
    return CastExists(from.element(), to.element());
  }
  if (NumericRank(from.id) > 0 && NumericRank(to.id) > 0) return true;
  if (DatetimeRank(from.id) > 0 && DatetimeRank(to.id) > 0) return true;
  if (from.id == SqlTypeId::kTimestamp && to.id == SqlTypeId::kTime) return true;
  if (from.id == SqlTypeId::kTimestampTz && to.id == SqlTypeId::kTime) return true;
  if (from.id == SqlTypeId::kBoolean && to.id == SqlTypeId::kInteger) return true;
  if (from.id == SqlTypeId::kInteger && to.id == SqlTypeId::kBoolean) return true;
  if (from.id == SqlTypeId::kJson && to.id == SqlTypeId::kText) return true;
  return false;
}

}  // namespace

bool CanCastImplicitly(const SqlType& from, const SqlType& to) {
  if (from == to || from.id == SqlTypeId::kUnknown) return true;
  int fn = NumericRank(from.id), tn = NumericRank(to.id);
  if (fn > 0 && tn > 0) return fn < tn || (fn == 4 && tn == 4);
  int fd = DatetimeRank(from.id), td = DatetimeRank(to.id);
  if (fd > 0 && td > 0) return fd < td;
  if (from.id == SqlTypeId::kArray && to.id == SqlTypeId::kArray) {
    return CanCastImplicitly(from.element(), to.element());
  }
  return false;
}

Result<SqlType> CommonType(const std::vector<SqlType>& types, std::string_view context) {
  std::optional<SqlType> result;
  for (const SqlType& t : types) {
    if (t.id == SqlTypeId::kUnknown) continue;
    if (!result) {
      result = t;
      continue;
    }
    if (*result == t) continue;
    int rn = NumericRank(result->id), tn = NumericRank(t.id);
    if (rn > 0 && tn > 0) {
      if (rn == 4 && tn == 4) {
        result = SqlType::Numeric(-1, std::max(result->scale, t.scale));
      } else if (tn > rn) {
        SqlType widened = t;
        if (t.id == SqlTypeId::kNumeric) widened = SqlType::Numeric(-1, t.scale);
        result = widened;
      } else if (rn == 4) {
        result = SqlType::Numeric(-1, result->scale);
      }
      continue;
    }
    int rd = DatetimeRank(result->id), td = DatetimeRank(t.id);
    if (rd > 0 && td > 0) {
      if (td > rd) result = t;
      continue;
    }
    return SqlError(SqlErrorKind::kDatatypeMismatch, context, " types ", PgTypeName(*result),
                    " and ", PgTypeName(t), " cannot be matched");
  }
  return result ? *result : SqlType::Of(SqlTypeId::kText);
}

Result<Value> CastValue(const Value& value, const SqlType& to) {
  const SqlType& from = value.type;
  if (from == to) return value;
  if (!CastExists(from, to)) return NoCast(from, to);
  if (value.is_null) return Value::Null(to);
  if (from.id == SqlTypeId::kUnknown || from.id == SqlTypeId::kText) return FromText(value.s, to);
  if (to.id == SqlTypeId::kText) {
    // boolean's cast is booltext; its output function (ValueToString) says t/f.
    if (from.id == SqlTypeId::kBoolean) return Value::Text(value.b ? "true" : "false");
    return Value::Text(ValueToString(value));
  }
  if (from.id == SqlTypeId::kArray && to.id == SqlTypeId::kArray) {
    // An unconstrained numeric element is carried at the array type's one
    // scale: cast exactly to it.
    const SqlType target = ArrayCastTarget(from, to);
    Value out{target};
    out.is_null = false;
    SqlType element = target.element();
    if (element.id == SqlTypeId::kNumeric && element.precision < 0) {
      element.precision = kMaxNumericPrecision;
    }
    for (const Value& e : value.elements) {
      HOGLAKE_ASSIGN_OR_RETURN(Value cast, CastValue(e, element));
      cast.type = target.element();
      out.elements.push_back(std::move(cast));
    }
    return out;
  }
  if (from.id == SqlTypeId::kBoolean) return Value::Integer(to.id, value.b ? 1 : 0);
  if (to.id == SqlTypeId::kBoolean) return Value::Boolean(value.i != 0);
  if (from.is_integer()) {
    if (to.is_integer()) {
      if (value.i < IntegerMin(to.id) || value.i > IntegerMax(to.id)) return OutOfRange(to);
      return Value::Integer(to.id, value.i);
    }
    if (to.id == SqlTypeId::kNumeric) {
      int scale = to.precision < 0 ? 0 : to.scale;
      SqlType type = to;
      type.scale = scale;
      return NumericWithin(static_cast<__int128>(value.i) * PowerOfTen(scale), type);
    }
    return FromDouble(static_cast<double>(value.i), to);
  }
  if (from.id == SqlTypeId::kNumeric) {
    if (to.id == SqlTypeId::kNumeric) {
      int scale = to.precision < 0 ? from.scale : to.scale;
      SqlType type = to;
      type.scale = scale;
      return NumericWithin(Rescale(value.n, from.scale, scale), type);
    }
    if (to.is_integer()) {
      __int128 r = Rescale(value.n, from.scale, 0);
      if (r < IntegerMin(to.id) || r > IntegerMax(to.id)) return OutOfRange(to);
      return Value::Integer(to.id, static_cast<int64_t>(r));
    }
    if (to.id == SqlTypeId::kReal) {
      return Value::Double(SqlTypeId::kReal, NumericToFloat<float>(value.n, from.scale));
    }
    return FromDouble(NumericToFloat<double>(value.n, from.scale), to);
  }
  if (from.is_float()) {
    return FromDouble(value.d, to, from.id == SqlTypeId::kReal ? FLT_DIG : DBL_DIG);
  }
  // date/time
  constexpr int64_t kMicrosPerDay = int64_t{86400} * 1000000;
  if (from.id == SqlTypeId::kDate) {
    int64_t micros;  // timestamp(tz) at midnight UTC
    if (__builtin_mul_overflow(value.i, kMicrosPerDay, &micros)) {
      return SqlError(SqlErrorKind::kDatetimeFieldOverflow, "date out of range for timestamp");
    }
    return Value::Integer(to.id, micros);
  }
  if (from.id == SqlTypeId::kTimestamp || from.id == SqlTypeId::kTimestampTz) {
    int64_t days = value.i / kMicrosPerDay;
    int64_t rest = value.i % kMicrosPerDay;
    if (rest < 0) {
      --days;
      rest += kMicrosPerDay;
    }
    if (to.id == SqlTypeId::kDate) return Value::Integer(to.id, days);
    if (to.id == SqlTypeId::kTime) return Value::Integer(to.id, rest);
    return Value::Integer(to.id, value.i);
  }
  return NoCast(from, to);
}

Result<BoundExprPtr> BindCast(BoundExprPtr arg, const SqlType& to, bool explicit_cast) {
  if (arg->type == to) return arg;
  if (!CastExists(arg->type, to)) return NoCast(arg->type, to);
  if (!explicit_cast && !CanCastImplicitly(arg->type, to)) return NoCast(arg->type, to);
  if (arg->kind == BoundKind::kConstant) {
    HOGLAKE_ASSIGN_OR_RETURN(Value v, CastValue(arg->value, to));
    // An unconstrained numeric (or numeric[]) keeps the scale the value has.
    const bool own_scale =
        (to.id == SqlTypeId::kNumeric && to.precision < 0) ||
        (to.id == SqlTypeId::kArray && to.element().id == SqlTypeId::kNumeric &&
         to.element().precision < 0);
    if (!own_scale) v.type = to;
    return MakeConstant(std::move(v));
  }
  SqlType target = ArrayCastTarget(arg->type, to);
  if (to.id == SqlTypeId::kNumeric && to.precision < 0 && arg->type.id == SqlTypeId::kNumeric) {
    target.scale = arg->type.scale;
  }
  if (to.id == SqlTypeId::kNumeric && to.precision < 0 && arg->type.is_float()) {
    // PostgreSQL gives each value the scale its digits need; one carrier
    // needs one scale: as many fraction digits as the float type keeps.
    target.scale = arg->type.id == SqlTypeId::kReal ? FLT_DIG : DBL_DIG;
  }
  return MakeCast(std::move(arg), target);
}

Result<columnar::ArrayPtr> CastArray(const columnar::ArrayPtr& array, const SqlType& from,
                                     const SqlType& to) {
  const int64_t rows = array->length;
  // Fast paths: integer widening and integer/float → double.
  if (from.is_integer() && (to.is_integer() || to.id == SqlTypeId::kDouble) &&
      NumericRank(from.id) <= NumericRank(to.id)) {
    auto widen = [&](auto tag) -> columnar::ArrayPtr {
      using Out = decltype(tag);
      FixedOutput<Out> out(CarrierType(to), rows);
      Out* dst = out.values();
      switch (from.id) {
        case SqlTypeId::kSmallint: {
          const int16_t* src = array->values<int16_t>();
          for (int64_t i = 0; i < rows; ++i) dst[i] = static_cast<Out>(src[i]);
          break;
        }
        case SqlTypeId::kInteger: {
          const int32_t* src = array->values<int32_t>();
          for (int64_t i = 0; i < rows; ++i) dst[i] = static_cast<Out>(src[i]);
          break;
        }
        default: {
          const int64_t* src = array->values<int64_t>();
          for (int64_t i = 0; i < rows; ++i) dst[i] = static_cast<Out>(src[i]);
          break;
        }
      }
      for (int64_t i = 0; i < rows && array->null_count > 0; ++i) {
        if (array->IsNull(i)) out.SetNull(i);
      }
      return out.Finish();
    };
    switch (to.id) {
      case SqlTypeId::kSmallint:
        return widen(int16_t{});
      case SqlTypeId::kInteger:
        return widen(int32_t{});
      case SqlTypeId::kBigint:
        return widen(int64_t{});
      default:
        return widen(double{});
    }
  }
  if (from.id == SqlTypeId::kNumeric && to.id == SqlTypeId::kNumeric && to.scale == from.scale &&
      (to.precision < 0 || (from.precision > 0 && to.precision >= from.precision))) {
    // The same values at the same scale, in a type at least as wide: the
    // array as it is, labelled with the new type.
    auto out = std::make_shared<columnar::ArrayData>(*array);
    out->type = CarrierType(to);
    return columnar::ArrayPtr(out);
  }
  if (from.id == SqlTypeId::kDate &&
      (to.id == SqlTypeId::kTimestamp || to.id == SqlTypeId::kTimestampTz)) {
    // Midnight UTC of each day.
    constexpr int64_t kMicrosPerDay = int64_t{86400} * 1000000;
    FixedOutput<int64_t> out(CarrierType(to), rows);
    int64_t* dst = out.values();
    const int32_t* src = array->values<int32_t>();
    for (int64_t i = 0; i < rows; ++i) {
      if (array->IsNull(i)) {
        out.SetNull(i);
        continue;
      }
      if (__builtin_mul_overflow(static_cast<int64_t>(src[i]), kMicrosPerDay, &dst[i])) {
        return SqlError(SqlErrorKind::kDatetimeFieldOverflow, "date out of range for timestamp");
      }
    }
    return out.Finish();
  }
  if (from.id == SqlTypeId::kNumeric && to.id == SqlTypeId::kNumeric &&
      (to.precision < 0 || to.precision >= from.precision + std::max(0, to.scale - from.scale)) &&
      to.scale >= from.scale) {
    FixedOutput<__int128> out(CarrierType(to), rows);
    __int128* dst = out.values();
    const uint8_t* src = array->buffers[1]->data() + array->offset * 16;
    __int128 factor = PowerOfTen(to.scale - from.scale);
    const int precision = to.precision < 0 ? kMaxNumericPrecision : to.precision;
    for (int64_t i = 0; i < rows; ++i) {
      if (array->IsNull(i)) {
        out.SetNull(i);
        continue;
      }
      __int128 v;
      std::memcpy(&v, src + i * 16, 16);
      if (__builtin_mul_overflow(v, factor, &dst[i]) ||
          (dst[i] != 0 && DecimalDigits(dst[i]) > precision)) {
        return OutOfRange(to);
      }
    }
    return out.Finish();
  }
  if (from == to) return array;
  if (!CastExists(from, to)) return NoCast(from, to);
  std::unique_ptr<columnar::ArrayBuilder> builder = columnar::MakeBuilder(CarrierType(to));
  for (int64_t i = 0; i < rows; ++i) {
    Value v = ValueAt(*array, i, from);
    HOGLAKE_ASSIGN_OR_RETURN(Value cast, CastValue(v, to));
    if (to.id == SqlTypeId::kNumeric && !cast.is_null && cast.type.scale != to.scale) {
      HOGLAKE_ASSIGN_OR_RETURN(cast, NumericWithin(Rescale(cast.n, cast.type.scale, to.scale), to));
    }
    cast.type.id = to.id;
    HOGLAKE_RETURN_IF_ERROR(AppendValue(builder.get(), cast));
  }
  return builder->Finish();
}

}  // namespace hoglake::sql
