// The datetime template patterns (templates.h) and the calendar arithmetic
// to_char and the parsers share: Julian day numbers and ISO weeks computed
// from possibly unnormalized fields, as PostgreSQL computes them (so an
// interval's fields give PostgreSQL's answers too). Internal to formatting/.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "sql/function/formatting/templates.h"

namespace hoglake::sql::formatting {

enum class DatetimeKey : uint8_t {
  kADDots,
  kAMDots,
  kAD,
  kAM,
  kBCDots,
  kBC,
  kCC,
  kDAY,
  kDDD,
  kDD,
  kDY,
  kDay,
  kDy,
  kD,
  kFF1,
  kFF2,
  kFF3,
  kFF4,
  kFF5,
  kFF6,
  kFX,
  kHH24,
  kHH12,
  kHH,
  kIDDD,
  kID,
  kIW,
  kIYYY,
  kIYY,
  kIY,
  kI,
  kJ,
  kMI,
  kMM,
  kMONTH,
  kMON,
  kMS,
  kMonth,
  kMon,
  kOF,
  kPMDots,
  kPM,
  kQ,
  kRM,
  kSSSS,
  kSS,
  kTZH,
  kTZM,
  kTZ,
  kUS,
  kWW,
  kW,
  kYCommaYYY,
  kYYYY,
  kYYY,
  kYY,
  kY,
  kadDots,
  kamDots,
  kad,
  kam,
  kbcDots,
  kbc,
  kday,
  kdy,
  kmonth,
  kmon,
  kpmDots,
  kpm,
  krm,
  ktz,
};

// Julian day number of year/month/day (proleptic year, 0 = 1 BC); the
// day and month are not checked (day 30 of February runs into March).
int64_t JulianDay(int64_t year, int64_t month, int64_t day);
struct Ymd {
  int64_t year, month, day;
};
Ymd FromJulianDay(int64_t julian);
// 0 = Sunday.
int64_t WeekdayOfJulian(int64_t julian);
// The Julian day of Monday of ISO week `week` of ISO year `year`.
int64_t IsoWeekStart(int64_t year, int64_t week);
int64_t IsoWeek(int64_t year, int64_t month, int64_t day);
int64_t IsoYear(int64_t year, int64_t month, int64_t day);
bool IsLeapYear(int64_t year);

// A separator in a template or an input: printable ASCII, not a letter or
// digit (PostgreSQL's rule).
bool IsSeparatorChar(char c);
// The bytes of the UTF-8 character at s[i] (cut at the end of s).
size_t Utf8Length(std::string_view s, size_t i);

inline constexpr std::string_view kMonthNames[] = {"January",   "February", "March",    "April",
                                                   "May",       "June",     "July",     "August",
                                                   "September", "October",  "November", "December"};
inline constexpr std::string_view kMonthAbbrevs[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                                     "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
inline constexpr std::string_view kDayNames[] = {"Sunday",   "Monday", "Tuesday", "Wednesday",
                                                 "Thursday", "Friday", "Saturday"};
inline constexpr std::string_view kDayAbbrevs[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
// Roman month numerals, January first.
inline constexpr std::string_view kRomanMonths[] = {"I",   "II",   "III", "IV", "V",  "VI",
                                                    "VII", "VIII", "IX",  "X",  "XI", "XII"};

}  // namespace hoglake::sql::formatting
