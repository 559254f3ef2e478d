// Calendar arithmetic (proleptic Gregorian, no leap seconds) and the ISO-8601
// text forms hoglake prints for dates, times and timestamps:
//   date        "2026-09-05"        years beyond 9999 as "+12026", BCE as "-0044"
//   time        "13:37:42.123456"   fraction digits given by the caller
//   timestamp   "2026-09-05T12:00:00.123456" plus "Z" when UTC-adjusted
#pragma once

#include <cstdint>
#include <string>

namespace hoglake {

struct CivilDate {
  int64_t year;
  int month;  // 1..12
  int day;    // 1..31
};

CivilDate CivilFromDays(int64_t days_since_epoch);
int64_t DaysFromCivil(int64_t year, int month, int day);

void AppendDate(int64_t days_since_epoch, std::string* out);
// `ticks` since midnight, `ticks_per_second` ∈ {1, 1e3, 1e6, 1e9}; prints
// log10(ticks_per_second) fraction digits (none for seconds).
void AppendTimeOfDay(int64_t ticks, int64_t ticks_per_second, std::string* out);
// `ticks` since the epoch; `utc` appends "Z".
void AppendTimestamp(int64_t ticks, int64_t ticks_per_second, bool utc, std::string* out);

}  // namespace hoglake
