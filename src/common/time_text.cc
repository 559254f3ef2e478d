#include "common/time_text.h"

#include <cstdio>

namespace hoglake {
namespace {

int64_t FloorDiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

void AppendPadded(int64_t value, int width, std::string* out) {
  char buf[32];
  int n = std::snprintf(buf, sizeof(buf), "%0*lld", width, static_cast<long long>(value));
  out->append(buf, static_cast<size_t>(n));
}

int FractionDigits(int64_t ticks_per_second) {
  int digits = 0;
  for (int64_t t = ticks_per_second; t > 1; t /= 10) ++digits;
  return digits;
}

}  // namespace

// Days ↔ civil date: the well-known era-based algorithm (400-year cycles of
// 146097 days, years starting in March).
CivilDate CivilFromDays(int64_t z) {
  z += 719468;
  const int64_t era = FloorDiv(z, 146097);
  const int64_t doe = z - era * 146097;
  const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const int64_t mp = (5 * doy + 2) / 153;
  const int day = static_cast<int>(doy - (153 * mp + 2) / 5 + 1);
  const int month = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
  return CivilDate{yoe + era * 400 + (month <= 2), month, day};
}

int64_t DaysFromCivil(int64_t year, int month, int day) {
  year -= month <= 2;
  const int64_t era = FloorDiv(year, 400);
  const int64_t yoe = year - era * 400;
  const int64_t mp = month > 2 ? month - 3 : month + 9;
  const int64_t doy = (153 * mp + 2) / 5 + day - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

void AppendDate(int64_t days, std::string* out) {
  const CivilDate d = CivilFromDays(days);
  if (d.year > 9999) {
    out->push_back('+');
    AppendPadded(d.year, 5, out);
  } else if (d.year < 0) {
    out->push_back('-');
    AppendPadded(-d.year, 4, out);
  } else {
    AppendPadded(d.year, 4, out);
  }
  out->push_back('-');
  AppendPadded(d.month, 2, out);
  out->push_back('-');
  AppendPadded(d.day, 2, out);
}

void AppendTimeOfDay(int64_t ticks, int64_t ticks_per_second, std::string* out) {
  const int64_t seconds = FloorDiv(ticks, ticks_per_second);
  const int64_t fraction = ticks - seconds * ticks_per_second;
  AppendPadded(seconds / 3600, 2, out);
  out->push_back(':');
  AppendPadded(seconds / 60 % 60, 2, out);
  out->push_back(':');
  AppendPadded(seconds % 60, 2, out);
  const int digits = FractionDigits(ticks_per_second);
  if (digits > 0) {
    out->push_back('.');
    AppendPadded(fraction, digits, out);
  }
}

void AppendTimestamp(int64_t ticks, int64_t ticks_per_second, bool utc, std::string* out) {
  const int64_t ticks_per_day = ticks_per_second * 86400;
  const int64_t days = FloorDiv(ticks, ticks_per_day);
  AppendDate(days, out);
  out->push_back('T');
  AppendTimeOfDay(ticks - days * ticks_per_day, ticks_per_second, out);
  if (utc) out->push_back('Z');
}

}  // namespace hoglake
