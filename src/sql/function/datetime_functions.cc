// Date and time arithmetic and fields: date ± integer days, date − date,
// timestamp ± interval (months by the calendar, clamping the day as
// PostgreSQL does, then days, then microseconds), EXTRACT/date_part and
// date_trunc. Time zone: UTC (the only session zone for now).
#include <cstring>

#include "columnar/builder.h"
#include "sql/execution/vector_ops.h"
#include "sql/function/function_kernels.h"
#include "sql/sql_error.h"
#include "sql/types/value_text.h"

#include "common/time_text.h"

namespace hoglake::sql {
namespace {

using columnar::ArrayData;
using columnar::ArrayPtr;

constexpr int64_t kMicrosPerSecond = 1000000;
constexpr int64_t kMicrosPerDay = 86400 * kMicrosPerSecond;
// PostgreSQL's date range: 4713 BC to 5874897 AD.
constexpr int64_t kMinDate = -2451545 + 1;   // roughly 4713 BC
constexpr int64_t kMaxDate = 2147483647 - 2451545;

int64_t FloorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

}  // namespace

std::string CanonicalDatetimeUnit(std::string_view unit) {
  // PostgreSQL's unit names and abbreviations (datetime.c's deltatktbl and
  // datetktbl), matched on their first 10 characters (TOKMAXLEN), as it does.
  static constexpr std::pair<std::string_view, std::string_view> kAliases[] = {
      {"microsecon", "microseconds"},
      {"us", "microseconds"},
      {"usec", "microseconds"},
      {"usecond", "microseconds"},
      {"useconds", "microseconds"},
      {"usecs", "microseconds"},
      {"millisecon", "milliseconds"},
      {"ms", "milliseconds"},
      {"msec", "milliseconds"},
      {"msecond", "milliseconds"},
      {"mseconds", "milliseconds"},
      {"msecs", "milliseconds"},
      {"s", "second"},
      {"sec", "second"},
      {"seconds", "second"},
      {"secs", "second"},
      {"m", "minute"},
      {"min", "minute"},
      {"mins", "minute"},
      {"minutes", "minute"},
      {"h", "hour"},
      {"hours", "hour"},
      {"hr", "hour"},
      {"hrs", "hour"},
      {"d", "day"},
      {"days", "day"},
      {"w", "week"},
      {"weeks", "week"},
      {"mon", "month"},
      {"mons", "month"},
      {"months", "month"},
      {"qtr", "quarter"},
      {"y", "year"},
      {"years", "year"},
      {"yr", "year"},
      {"yrs", "year"},
      {"dec", "decade"},
      {"decades", "decade"},
      {"decs", "decade"},
      {"c", "century"},
      {"cent", "century"},
      {"centuries", "century"},
      {"mil", "millennium"},
      {"millennia", "millennium"},
      {"mils", "millennium"},
      {"timezone_h", "timezone_hour"},
      {"timezone_m", "timezone_minute"},
      {"j", "julian"},
  };
  std::string lowered(unit.substr(0, 10));
  for (char& ch : lowered) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  for (const auto& [alias, canonical] : kAliases) {
    if (lowered == alias) return std::string(canonical);
  }
  return lowered;
}

bool IsDatetimeUnit(std::string_view canonical) {
  static constexpr std::string_view kUnits[] = {
      "microseconds",  "milliseconds",   "second",     "minute",  "hour",
      "day",           "week",           "month",      "quarter", "year",
      "decade",        "century",        "millennium", "dow",     "isodow",
      "doy",           "epoch",          "isoyear",    "julian",  "timezone",
      "timezone_hour", "timezone_minute"};
  for (std::string_view u : kUnits) {
    if (u == canonical) return true;
  }
  return false;
}

namespace {

int DaysInMonth(int64_t year, int month) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  return kDays[month - 1] + (month == 2 && leap ? 1 : 0);
}

Result<ArrayPtr> DatePlusDaysKernel(const std::vector<ArrayPtr>& args, const BoundExpr& call,
                                    int64_t rows) {
  // (date, integer) → date; call.name "-" subtracts.
  bool subtract = call.name == "-";
  FixedOutput<int32_t> out(columnar::Date32(), rows);
  const ArrayData& d = *args[0];
  const ArrayData& n = *args[1];
  for (int64_t i = 0; i < rows; ++i) {
    if (d.IsNull(i) || n.IsNull(i)) {
      out.SetNull(i);
      continue;
    }
    int64_t days = n.values<int32_t>()[i];
    int64_t r = d.values<int32_t>()[i] + (subtract ? -days : days);
    if (r < kMinDate || r > kMaxDate) {
      return SqlError(SqlErrorKind::kDatetimeFieldOverflow, "date out of range");
    }
    out.values()[i] = static_cast<int32_t>(r);
  }
  return out.Finish();
}

Result<ArrayPtr> DateMinusDateKernel(const std::vector<ArrayPtr>& args, const BoundExpr&,
                                     int64_t rows) {
  FixedOutput<int32_t> out(columnar::Int32(), rows);
  for (int64_t i = 0; i < rows; ++i) {
    if (args[0]->IsNull(i) || args[1]->IsNull(i)) {
      out.SetNull(i);
      continue;
    }
    out.values()[i] = args[0]->values<int32_t>()[i] - args[1]->values<int32_t>()[i];
  }
  return out.Finish();
}

// timestamp − timestamp, as PostgreSQL's timestamp_mi: no months, whole 24
// hours as days (truncated toward zero, so days and time share a sign), the
// rest as time.
Result<ArrayPtr> TimestampMinusTimestampKernel(const std::vector<ArrayPtr>& args, const BoundExpr&,
                                               int64_t rows) {
  columnar::FixedSizeBinaryBuilder out(columnar::FixedSizeBinary(16));
  for (int64_t i = 0; i < rows; ++i) {
    if (args[0]->IsNull(i) || args[1]->IsNull(i)) {
      out.AppendNull();
      continue;
    }
    int64_t diff;
    if (__builtin_sub_overflow(args[0]->values<int64_t>()[i], args[1]->values<int64_t>()[i],
                               &diff)) {
      return SqlError(SqlErrorKind::kDatetimeFieldOverflow, "interval out of range");
    }
    const int32_t months = 0;
    const int32_t days = static_cast<int32_t>(diff / kMicrosPerDay);
    const int64_t micros = diff % kMicrosPerDay;
    char bytes[16];
    std::memcpy(bytes, &months, 4);
    std::memcpy(bytes + 4, &days, 4);
    std::memcpy(bytes + 8, &micros, 8);
    HOGLAKE_RETURN_IF_ERROR(out.Append(std::string_view(bytes, 16)));
  }
  return out.Finish();
}

Result<int64_t> AddInterval(int64_t micros, int32_t months, int32_t days, int64_t us) {
  if (months != 0) {
    int64_t day = FloorDiv(micros, kMicrosPerDay);
    int64_t time = micros - day * kMicrosPerDay;
    CivilDate c = CivilFromDays(day);
    int64_t total = c.year * 12 + (c.month - 1) + months;
    int64_t year = FloorDiv(total, 12);
    int month = static_cast<int>(total - year * 12) + 1;
    int dom = std::min(c.day, DaysInMonth(year, month));
    micros = DaysFromCivil(year, month, dom) * kMicrosPerDay + time;
  }
  int64_t r;
  if (__builtin_add_overflow(micros, static_cast<int64_t>(days) * kMicrosPerDay, &r) ||
      __builtin_add_overflow(r, us, &r)) {
    return SqlError(SqlErrorKind::kDatetimeFieldOverflow, "timestamp out of range");
  }
  return r;
}

Result<ArrayPtr> TimestampPlusIntervalKernel(const std::vector<ArrayPtr>& args,
                                             const BoundExpr& call, int64_t rows) {
  bool subtract = call.name == "-";
  FixedOutput<int64_t> out(CarrierType(call.type), rows);
  const ArrayData& t = *args[0];
  const ArrayData& iv = *args[1];
  for (int64_t i = 0; i < rows; ++i) {
    if (t.IsNull(i) || iv.IsNull(i)) {
      out.SetNull(i);
      continue;
    }
    std::string_view bytes = iv.GetView(i);
    int32_t months, days;
    int64_t us;
    std::memcpy(&months, bytes.data(), 4);
    std::memcpy(&days, bytes.data() + 4, 4);
    std::memcpy(&us, bytes.data() + 8, 8);
    if (subtract) {
      months = -months;
      days = -days;
      us = -us;
    }
    HOGLAKE_ASSIGN_OR_RETURN(out.values()[i],
                             AddInterval(t.values<int64_t>()[i], months, days, us));
  }
  return out.Finish();
}

// Field of a timestamp in microseconds, scaled by 10^6 for second/epoch
// (the numeric result's scale is 6 for those) — `scale` tells the caller.
// `field` is a canonical unit (CanonicalDatetimeUnit); `with_zone`: the
// value is a timestamptz.
Result<__int128> FieldOf(std::string_view field, int64_t micros, bool is_date, bool with_zone,
                         int* scale) {
  *scale = 0;
  int64_t day = FloorDiv(micros, kMicrosPerDay);
  int64_t time = micros - day * kMicrosPerDay;
  CivilDate c = CivilFromDays(day);
  if (field == "year") return c.year > 0 ? c.year : c.year - 1;
  if (field == "millennium") return c.year > 0 ? (c.year + 999) / 1000 : -((999 - c.year) / 1000);
  if (field == "week" || field == "isoyear") {
    // ISO 8601: the week (Monday first) belongs to the year of its Thursday.
    const int64_t isodow = ((day % 7) + 7 + 3) % 7 + 1;
    const int64_t thursday = day + (4 - isodow);
    const CivilDate t = CivilFromDays(thursday);
    if (field == "isoyear") return t.year > 0 ? t.year : t.year - 1;
    return (thursday - DaysFromCivil(t.year, 1, 1)) / 7 + 1;
  }
  if (field == "julian" && is_date) return day + 2440588;  // days since 4714-11-24 BC
  if (field == "month") return c.month;
  if (field == "day") return c.day;
  if (field == "quarter") return (c.month - 1) / 3 + 1;
  if (field == "decade") return FloorDiv(c.year, 10);
  if (field == "century") return c.year > 0 ? (c.year + 99) / 100 : -((99 - c.year) / 100);
  if (field == "dow") return ((day % 7) + 7 + 4) % 7;  // 1970-01-01 was a Thursday
  if (field == "isodow") {
    int64_t dow = ((day % 7) + 7 + 4) % 7;
    return dow == 0 ? 7 : dow;
  }
  if (field == "doy") return day - DaysFromCivil(c.year, 1, 1) + 1;
  if (field == "epoch") {
    if (is_date) return day * 86400;
    *scale = 6;
    return micros;
  }
  if (is_date && IsDatetimeUnit(field)) {
    return SqlError(SqlErrorKind::kFeatureNotSupported, "unit \"", field,
                    "\" not supported for type date");
  }
  if (field == "hour") return time / (3600 * kMicrosPerSecond);
  if (field == "minute") return time / (60 * kMicrosPerSecond) % 60;
  if (field == "second") {
    *scale = 6;
    return time % (60 * kMicrosPerSecond);
  }
  if (field == "milliseconds") {
    *scale = 3;
    return time % (60 * kMicrosPerSecond);
  }
  if (field == "microseconds") return time % (60 * kMicrosPerSecond);
  // The session's zone is UTC: a timestamptz's offset fields are 0.
  if (with_zone &&
      (field == "timezone" || field == "timezone_hour" || field == "timezone_minute")) {
    return 0;
  }
  if (IsDatetimeUnit(field)) {
    return SqlError(SqlErrorKind::kFeatureNotSupported, "unit \"", field,
                    "\" not supported for type ",
                    with_zone ? "timestamp with time zone" : "timestamp without time zone");
  }
  return SqlError(SqlErrorKind::kInvalidParameterValue, "unit \"", field, "\" not recognized");
}

Result<ArrayPtr> ExtractFieldKernel(const std::vector<ArrayPtr>& args, const BoundExpr& call,
                                    int64_t rows) {
  // args: field (text constant), value (date or timestamp). Result: numeric
  // (EXTRACT) at call.type.scale, or double precision (date_part).
  const ArrayData& v = *args[1];
  bool is_date = call.args[1]->type.id == SqlTypeId::kDate;
  bool as_double = call.type.id == SqlTypeId::kDouble;
  FixedOutput<__int128> num(CarrierType(call.type), as_double ? 0 : rows);
  FixedOutput<double> dbl(columnar::Float64(), as_double ? rows : 0);
  for (int64_t i = 0; i < rows; ++i) {
    if (v.IsNull(i) || args[0]->IsNull(i)) {
      as_double ? dbl.SetNull(i) : num.SetNull(i);
      continue;
    }
    std::string_view field = args[0]->GetView(i);
    int64_t micros = is_date ? v.values<int32_t>()[i] * kMicrosPerDay : v.values<int64_t>()[i];
    int scale;
    HOGLAKE_ASSIGN_OR_RETURN(
        __int128 raw,
        FieldOf(field, micros, is_date, call.args[1]->type.id == SqlTypeId::kTimestampTz, &scale));
    if (as_double) {
      dbl.values()[i] = static_cast<double>(raw) / static_cast<double>(PowerOfTen(scale));
    } else {
      num.values()[i] = raw * PowerOfTen(call.type.scale - scale);
    }
  }
  return as_double ? dbl.Finish() : num.Finish();
}

Result<ArrayPtr> DateTruncKernel(const std::vector<ArrayPtr>& args, const BoundExpr& call,
                                 int64_t rows) {
  FixedOutput<int64_t> out(CarrierType(call.type), rows);
  const ArrayData& v = *args[1];
  for (int64_t i = 0; i < rows; ++i) {
    if (v.IsNull(i) || args[0]->IsNull(i)) {
      out.SetNull(i);
      continue;
    }
    const std::string field = CanonicalDatetimeUnit(args[0]->GetView(i));
    int64_t micros = v.values<int64_t>()[i];
    int64_t day = FloorDiv(micros, kMicrosPerDay);
    int64_t time = micros - day * kMicrosPerDay;
    CivilDate c = CivilFromDays(day);
    int64_t r;
    // PostgreSQL's years (no year 0) for the decade, century and millennium
    // starts: 2001-01-01 begins the 21st century and the 3rd millennium.
    const int64_t year = c.year > 0 ? c.year : c.year - 1;
    auto year_start = [](int64_t pg_year) {
      return DaysFromCivil(pg_year > 0 ? pg_year : pg_year + 1, 1, 1) * kMicrosPerDay;
    };
    if (field == "millennium") {
      r = year_start(year > 0 ? (year + 999) / 1000 * 1000 - 999
                              : -((999 - (year - 1)) / 1000) * 1000 + 1);
    } else if (field == "century") {
      r = year_start(year > 0 ? (year + 99) / 100 * 100 - 99
                              : -((99 - (year - 1)) / 100) * 100 + 1);
    } else if (field == "decade") {
      r = year_start(year > 0 ? year / 10 * 10 : -((8 - (year - 1)) / 10) * 10);
    } else if (field == "year") {
      r = DaysFromCivil(c.year, 1, 1) * kMicrosPerDay;
    } else if (field == "quarter") {
      r = DaysFromCivil(c.year, (c.month - 1) / 3 * 3 + 1, 1) * kMicrosPerDay;
    } else if (field == "month") {
      r = DaysFromCivil(c.year, c.month, 1) * kMicrosPerDay;
    } else if (field == "week") {
      int64_t isodow = ((day % 7) + 7 + 3) % 7;  // Monday = 0
      r = (day - isodow) * kMicrosPerDay;
    } else if (field == "day") {
      r = day * kMicrosPerDay;
    } else if (field == "hour") {
      r = day * kMicrosPerDay + time / (3600 * kMicrosPerSecond) * 3600 * kMicrosPerSecond;
    } else if (field == "minute") {
      r = day * kMicrosPerDay + time / (60 * kMicrosPerSecond) * 60 * kMicrosPerSecond;
    } else if (field == "second") {
      r = day * kMicrosPerDay + time / kMicrosPerSecond * kMicrosPerSecond;
    } else if (field == "milliseconds") {
      r = day * kMicrosPerDay + time / 1000 * 1000;
    } else if (field == "microseconds") {
      r = micros;
    } else if (field == "timezone" || field == "timezone_hour" || field == "timezone_minute") {
      // Interval units PostgreSQL knows but cannot truncate to; dow, epoch
      // and the like are not units of date_trunc at all.
      return SqlError(SqlErrorKind::kFeatureNotSupported, "unit \"", field,
                      "\" not supported for date_trunc");
    } else {
      return SqlError(SqlErrorKind::kInvalidParameterValue, "unit \"", field,
                      "\" not recognized for date_trunc");
    }
    out.values()[i] = r;
  }
  return out.Finish();
}

}  // namespace

const ScalarFunction kDatePlusDays{"date+days", DatePlusDaysKernel};
const ScalarFunction kDateMinusDate{"date-date", DateMinusDateKernel};
const ScalarFunction kTimestampMinusTimestamp{"timestamp-timestamp", TimestampMinusTimestampKernel};
const ScalarFunction kTimestampPlusInterval{"timestamp+interval", TimestampPlusIntervalKernel};
const ScalarFunction kExtractField{"extract", ExtractFieldKernel};
const ScalarFunction kDateTrunc{"date_trunc", DateTruncKernel};

}  // namespace hoglake::sql
