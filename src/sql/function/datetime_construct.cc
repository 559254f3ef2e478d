// Dates, times and intervals built from numbers, and interval fields, as
// PostgreSQL's: make_date (negative years are BC; a field out of range is
// 22008), make_time, make_timestamp (seconds rounded to microseconds;
// 24:00:00 allowed), make_interval (years, months, weeks, days, hours, mins,
// secs; 32-bit month/day arithmetic as PostgreSQL 15 does it), date_bin
// (strides with months are 0A000, strides ≤ 0 22008; bins round toward
// −infinity), to_timestamp(double precision) (NaN 22008; infinities are
// 0A000 — the engine has no infinite timestamps), and EXTRACT/date_part of
// an interval (interval2itm's fields; epoch with 365.25-day years and 30-day
// months; week, dow and the like 0A000).
#include <cmath>
#include <cstring>

#include "common/time_text.h"
#include "sql/function/builtins.h"
#include "sql/function/function_kernels.h"
#include "sql/function/row_function.h"
#include "sql/sql_error.h"
#include "sql/types/value_text.h"

namespace hoglake::sql {

constexpr int64_t kUsPerSecond = 1000000;
constexpr int64_t kUsPerDay = 86400 * kUsPerSecond;

std::string IntervalBytes(int32_t months, int32_t days, int64_t micros) {
  std::string bytes(16, '\0');
  std::memcpy(bytes.data(), &months, 4);
  std::memcpy(bytes.data() + 4, &days, 4);
  std::memcpy(bytes.data() + 8, &micros, 8);
  return bytes;
}

void ReadInterval(std::string_view bytes, int32_t* months, int32_t* days, int64_t* micros) {
  std::memcpy(months, bytes.data(), 4);
  std::memcpy(days, bytes.data() + 4, 4);
  std::memcpy(micros, bytes.data() + 8, 8);
}

namespace {

bool IsLeap(int64_t y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

int MonthDays(int64_t year, int month) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return kDays[month - 1] + (month == 2 && IsLeap(year) ? 1 : 0);
}

// Days since 1970-01-01 of PostgreSQL year/month/day (negative years BC),
// or an error naming the fields as make_date does.
Result<int64_t> DateFromFields(int64_t year, int64_t month, int64_t day) {
  auto bad = [&] {
    return SqlError(SqlErrorKind::kDatetimeFieldOverflow, "date field value out of range: ", year,
                    "-", month < 10 && month >= 0 ? "0" : "", month, "-",
                    day < 10 && day >= 0 ? "0" : "", day);
  };
  if (year == 0 || month < 1 || month > 12 || day < 1) return bad();
  const int64_t proleptic = year < 0 ? year + 1 : year;
  if (day > MonthDays(proleptic, static_cast<int>(month))) return bad();
  // PostgreSQL's Julian range: 4714-11-24 BC .. 5874897-12-31.
  if (proleptic < -4713 || proleptic > 5874897 ||
      (proleptic == -4713 && (month < 11 || (month == 11 && day < 24)))) {
    return SqlError(SqlErrorKind::kDatetimeFieldOverflow, "date out of range: ", year, "-", month,
                    "-", day);
  }
  return DaysFromCivil(proleptic, static_cast<int>(month), static_cast<int>(day));
}

// PostgreSQL's float_time_overflows, then the time in microseconds.
Result<int64_t> TimeFromFields(int64_t hour, int64_t min, double sec) {
  auto bad = [&] {
    std::string s;
    AppendPgDouble(sec, &s);
    return SqlError(SqlErrorKind::kDatetimeFieldOverflow, "time field value out of range: ", hour,
                    ":", min < 10 && min >= 0 ? "0" : "", min, ":", s);
  };
  if (hour < 0 || hour > 24 || min < 0 || min >= 60 || std::isnan(sec)) return bad();
  const double us = std::rint(sec * kUsPerSecond);
  if (us < 0 || us > 60.0 * kUsPerSecond) return bad();
  const int64_t total = (hour * 60 + min) * 60 * kUsPerSecond + static_cast<int64_t>(us);
  if (total > kUsPerDay) return bad();
  return total;
}

Result<Value> MakeDateRow(const std::vector<Value>& a, const BoundExpr&) {
  HOGLAKE_ASSIGN_OR_RETURN(int64_t days, DateFromFields(a[0].i, a[1].i, a[2].i));
  return Value::Integer(SqlTypeId::kDate, days);
}

Result<Value> MakeTimeRow(const std::vector<Value>& a, const BoundExpr&) {
  HOGLAKE_ASSIGN_OR_RETURN(int64_t t, TimeFromFields(a[0].i, a[1].i, a[2].d));
  return Value::Integer(SqlTypeId::kTime, t);
}

// PostgreSQL's timestamp range: 4714-11-24 BC .. 294276-12-31 (exclusive end).
constexpr int64_t kMinTimestampDay = -2440588;             // Julian day 0
constexpr int64_t kEndTimestampDay = 109203528 - 2440588;  // 294277-01-01

Result<Value> MakeTimestampRow(const std::vector<Value>& a, const BoundExpr& call) {
  HOGLAKE_ASSIGN_OR_RETURN(int64_t days, DateFromFields(a[0].i, a[1].i, a[2].i));
  HOGLAKE_ASSIGN_OR_RETURN(int64_t t, TimeFromFields(a[3].i, a[4].i, a[5].d));
  const __int128 r = static_cast<__int128>(days) * kUsPerDay + t;
  if (days < kMinTimestampDay || r >= static_cast<__int128>(kEndTimestampDay) * kUsPerDay ||
      r > INT64_MAX) {
    return SqlError(SqlErrorKind::kDatetimeFieldOverflow, "timestamp out of range");
  }
  return Value::Integer(call.type.id, static_cast<int64_t>(r));
}

Result<Value> MakeIntervalRow(const std::vector<Value>& a, const BoundExpr&) {
  const double secs = a[6].d;
  if (std::isinf(secs) || std::isnan(secs)) {
    return SqlError(SqlErrorKind::kDatetimeFieldOverflow, "interval out of range");
  }
  // 32-bit wrap-around, as PostgreSQL 15's unchecked int arithmetic.
  const auto wrap32 = [](int64_t v) { return static_cast<int32_t>(static_cast<uint32_t>(v)); };
  const int32_t months = wrap32(static_cast<int64_t>(wrap32(a[0].i * 12)) + a[1].i);
  const int32_t days = wrap32(static_cast<int64_t>(wrap32(a[2].i * 7)) + a[3].i);
  const double us = std::rint(secs * kUsPerSecond);
  if (!(us >= -9223372036854775808.0 && us < 9223372036854775808.0)) {
    return SqlError(SqlErrorKind::kDatetimeFieldOverflow, "interval out of range");
  }
  const uint64_t time = static_cast<uint64_t>(a[4].i) * 3600 * kUsPerSecond +
                        static_cast<uint64_t>(a[5].i) * 60 * kUsPerSecond +
                        static_cast<uint64_t>(static_cast<int64_t>(us));
  Value v =
      Value::Text(IntervalBytes(months, days, static_cast<int64_t>(time)), SqlTypeId::kInterval);
  return v;
}

Result<Value> DateBinRow(const std::vector<Value>& a, const BoundExpr& call) {
  int32_t months, days;
  int64_t micros;
  ReadInterval(a[0].s, &months, &days, &micros);
  if (months != 0) {
    return SqlError(SqlErrorKind::kFeatureNotSupported,
                    "timestamps cannot be binned into intervals containing months or years");
  }
  int64_t stride;
  if (__builtin_mul_overflow(static_cast<int64_t>(days), kUsPerDay, &stride) ||
      __builtin_add_overflow(stride, micros, &stride)) {
    return SqlError(SqlErrorKind::kDatetimeFieldOverflow, "interval out of range");
  }
  if (stride <= 0) {
    return SqlError(SqlErrorKind::kDatetimeFieldOverflow, "stride must be greater than zero");
  }
  int64_t diff;
  if (__builtin_sub_overflow(a[1].i, a[2].i, &diff)) {
    return SqlError(SqlErrorKind::kDatetimeFieldOverflow, "interval out of range");
  }
  const int64_t modulo = diff % stride;
  int64_t r = a[2].i + (diff - modulo);
  if (modulo < 0) r -= stride;
  return Value::Integer(call.type.id, r);
}

Result<Value> ToTimestampEpochRow(const std::vector<Value>& a, const BoundExpr&) {
  const double seconds = a[0].d;
  if (std::isnan(seconds)) {
    return SqlError(SqlErrorKind::kDatetimeFieldOverflow, "timestamp cannot be NaN");
  }
  if (std::isinf(seconds)) {
    return SqlError(SqlErrorKind::kFeatureNotSupported, "infinite timestamps are not supported");
  }
  if (seconds < 86400.0 * kMinTimestampDay || seconds >= 86400.0 * kEndTimestampDay) {
    std::string s;
    AppendPgDouble(seconds, &s);
    return SqlError(SqlErrorKind::kDatetimeFieldOverflow, "timestamp out of range: \"", s, "\"");
  }
  // As PostgreSQL: to its epoch (2000-01-01) first, then rounded.
  constexpr int64_t kPgEpochSeconds = 946684800;
  const double pg = std::rint((seconds - static_cast<double>(kPgEpochSeconds)) * kUsPerSecond);
  return Value::Integer(SqlTypeId::kTimestampTz,
                        static_cast<int64_t>(pg) + kPgEpochSeconds * kUsPerSecond);
}

// EXTRACT/date_part(field, interval): numeric (call.type numeric at its
// scale) or double precision.
Result<Value> IntervalPartRow(const std::vector<Value>& a, const BoundExpr& call) {
  const std::string& field = a[0].s;
  int32_t month, day;
  int64_t time;
  ReadInterval(a[1].s, &month, &day, &time);
  const bool as_double = call.type.id == SqlTypeId::kDouble;
  const int64_t year = month / 12, mon = month % 12;
  const int64_t hour = time / (3600 * kUsPerSecond);
  const int64_t min = time / (60 * kUsPerSecond) % 60;
  const int64_t sec_us = time % (60 * kUsPerSecond);  // seconds and microseconds
  // value = unscaled / 10^scale
  __int128 unscaled;
  int scale = 0;
  if (field == "microseconds") {
    unscaled = sec_us;
  } else if (field == "milliseconds") {
    unscaled = sec_us;
    scale = 3;
  } else if (field == "second") {
    unscaled = sec_us;
    scale = 6;
  } else if (field == "minute") {
    unscaled = min;
  } else if (field == "hour") {
    unscaled = hour;
  } else if (field == "day") {
    unscaled = day;
  } else if (field == "month") {
    unscaled = mon;
  } else if (field == "quarter") {
    unscaled = mon / 3 + 1;
  } else if (field == "year") {
    unscaled = year;
  } else if (field == "decade") {
    unscaled = year / 10;
  } else if (field == "century") {
    unscaled = year / 100;
  } else if (field == "millennium") {
    unscaled = year / 1000;
  } else if (field == "epoch") {
    const int64_t secs =
        int64_t{31557600} * (month / 12) + int64_t{2592000} * (month % 12) + int64_t{86400} * day;
    if (as_double) {
      return Value::Double(SqlTypeId::kDouble, static_cast<double>(time) / 1000000.0 +
                                                   31557600.0 * static_cast<double>(month / 12) +
                                                   2592000.0 * static_cast<double>(month % 12) +
                                                   86400.0 * static_cast<double>(day));
    }
    unscaled = static_cast<__int128>(secs) * kUsPerSecond + time;
    scale = 6;
  } else if (IsDatetimeUnit(field)) {
    return SqlError(SqlErrorKind::kFeatureNotSupported, "unit \"", field,
                    "\" not supported for type interval");
  } else {
    return SqlError(SqlErrorKind::kInvalidParameterValue, "unit \"", field,
                    "\" not recognized for type interval");
  }
  if (as_double) {
    if (field == "milliseconds") {
      return Value::Double(SqlTypeId::kDouble,
                           static_cast<double>(sec_us / kUsPerSecond) * 1000.0 +
                               static_cast<double>(sec_us % kUsPerSecond) / 1000.0);
    }
    if (field == "second") {
      return Value::Double(SqlTypeId::kDouble,
                           static_cast<double>(sec_us / kUsPerSecond) +
                               static_cast<double>(sec_us % kUsPerSecond) / 1e6);
    }
    return Value::Double(SqlTypeId::kDouble, static_cast<double>(unscaled));
  }
  return Value::Numeric(-1, call.type.scale, unscaled * PowerOfTen(call.type.scale - scale));
}

}  // namespace

const RowFunction kMakeDate = MakeRowFunction("make_date", MakeDateRow);
const RowFunction kMakeTime = MakeRowFunction("make_time", MakeTimeRow);
const RowFunction kMakeTimestamp = MakeRowFunction("make_timestamp", MakeTimestampRow);
const RowFunction kMakeInterval = MakeRowFunction("make_interval", MakeIntervalRow);
const RowFunction kDateBin = MakeRowFunction("date_bin", DateBinRow);
const RowFunction kToTimestampEpoch = MakeRowFunction("to_timestamp", ToTimestampEpochRow);
const RowFunction kIntervalPart = MakeRowFunction("extract", IntervalPartRow);

}  // namespace hoglake::sql
