// Date, time and timestamp text (declared in values.h).
#include <cstdint>

#include "columnar/text/values.h"
#include "common/status.h"
#include "common/time_text.h"

namespace hoglake::columnar::text::textimport {
namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// Exactly `count` digits at text[pos...] into *value; advances pos.
bool ReadFixedDigits(std::string_view text, size_t& pos, int count, int64_t* value) {
  if (pos + static_cast<size_t>(count) > text.size()) return false;
  int64_t v = 0;
  for (int i = 0; i < count; ++i) {
    const char c = text[pos + static_cast<size_t>(i)];
    if (!IsDigit(c)) return false;
    v = v * 10 + (c - '0');
  }
  pos += static_cast<size_t>(count);
  *value = v;
  return true;
}

bool Consume(std::string_view text, size_t& pos, char c) {
  if (pos >= text.size() || text[pos] != c) return false;
  ++pos;
  return true;
}

int FractionDigitsOf(columnar::TimeUnit unit) {
  switch (unit) {
    case columnar::TimeUnit::kSecond:
      return 0;
    case columnar::TimeUnit::kMilli:
      return 3;
    case columnar::TimeUnit::kMicro:
      return 6;
    case columnar::TimeUnit::kNano:
      return 9;
  }
  return 0;
}

// YYYY-MM-DD at text[pos...] → days since the epoch.
bool ReadDate(std::string_view text, size_t& pos, int64_t* days, std::string* why) {
  int64_t sign = 1;
  bool signed_year = false;
  if (pos < text.size() && (text[pos] == '+' || text[pos] == '-')) {
    sign = text[pos] == '-' ? -1 : 1;
    signed_year = true;
    ++pos;
  }
  size_t year_digits = 0;
  while (pos + year_digits < text.size() && IsDigit(text[pos + year_digits])) ++year_digits;
  if (signed_year ? (year_digits < 4 || year_digits > 6) : year_digits != 4) {
    *why = "expected YYYY-MM-DD";
    return false;
  }
  int64_t year = 0, month = 0, day = 0;
  if (!ReadFixedDigits(text, pos, static_cast<int>(year_digits), &year) ||
      !Consume(text, pos, '-') || !ReadFixedDigits(text, pos, 2, &month) ||
      !Consume(text, pos, '-') || !ReadFixedDigits(text, pos, 2, &day)) {
    *why = "expected YYYY-MM-DD";
    return false;
  }
  year *= sign;
  if (month < 1 || month > 12 || day < 1 || day > 31) {
    *why = "no such date";
    return false;
  }
  static constexpr int kMonthDays[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
  if (day > kMonthDays[month - 1] + (month == 2 && leap ? 1 : 0)) {
    *why = "no such date";
    return false;
  }
  *days = DaysFromCivil(year, static_cast<int>(month), static_cast<int>(day));
  return true;
}

// HH:MM:SS[.fraction] at text[pos...] → seconds of the day and the fraction
// in ticks of `unit`.
bool ReadTimeOfDay(std::string_view text, size_t& pos, columnar::TimeUnit unit,
                   std::string_view type_name, int64_t* seconds, int64_t* fraction_ticks,
                   std::string* why) {
  int64_t hour = 0, minute = 0, second = 0;
  if (!ReadFixedDigits(text, pos, 2, &hour) || !Consume(text, pos, ':') ||
      !ReadFixedDigits(text, pos, 2, &minute) || !Consume(text, pos, ':') ||
      !ReadFixedDigits(text, pos, 2, &second)) {
    *why = "expected HH:MM:SS";
    return false;
  }
  if (hour > 23 || minute > 59 || second > 59) {
    *why = "no such time of day";
    return false;
  }
  const int max_digits = FractionDigitsOf(unit);
  int64_t fraction = 0;
  if (pos < text.size() && text[pos] == '.') {
    ++pos;
    int digits = 0;
    while (pos < text.size() && IsDigit(text[pos])) {
      if (digits < max_digits) fraction = fraction * 10 + (text[pos] - '0');
      ++digits;
      ++pos;
    }
    if (digits == 0) {
      *why = "expected digits after '.'";
      return false;
    }
    if (digits > max_digits) {
      *why = max_digits == 0
                 ? StrCat(type_name, " holds whole seconds; found ", digits, " fraction digits")
                 : StrCat(type_name, " holds at most ", max_digits, " fraction digits; found ",
                          digits);
      return false;
    }
    for (int d = digits; d < max_digits; ++d) fraction *= 10;
  }
  *seconds = hour * 3600 + minute * 60 + second;
  *fraction_ticks = fraction;
  return true;
}

}  // namespace

std::string_view TimestampLabel(columnar::TimeUnit unit, bool with_zone) {
  if (with_zone) return "timestamptz";
  switch (unit) {
    case columnar::TimeUnit::kSecond:
      return "timestamp_s";
    case columnar::TimeUnit::kMilli:
      return "timestamp_ms";
    case columnar::TimeUnit::kMicro:
      return "timestamp";
    case columnar::TimeUnit::kNano:
      return "timestamp_ns";
  }
  return "timestamp";
}

bool ParseDate(std::string_view text, int32_t* out, std::string* why) {
  text = TrimBlanks(text);
  size_t pos = 0;
  int64_t days = 0;
  if (!ReadDate(text, pos, &days, why)) return false;
  if (pos != text.size()) {
    *why = "expected YYYY-MM-DD";
    return false;
  }
  *out = static_cast<int32_t>(days);  // |years| ≤ 999999 fits easily
  return true;
}

bool ParseTime(std::string_view text, columnar::TimeUnit unit, int64_t* out, std::string* why) {
  text = TrimBlanks(text);
  size_t pos = 0;
  int64_t seconds = 0, fraction = 0;
  if (!ReadTimeOfDay(text, pos, unit, "time", &seconds, &fraction, why)) return false;
  if (pos != text.size()) {
    *why = "expected HH:MM:SS[.fraction]";
    return false;
  }
  *out = seconds * columnar::TicksPerSecond(unit) + fraction;
  return true;
}

bool ParseTimestamp(std::string_view text, columnar::TimeUnit unit, bool with_zone, int64_t* out,
                    std::string* why) {
  text = TrimBlanks(text);
  size_t pos = 0;
  int64_t days = 0;
  if (!ReadDate(text, pos, &days, why)) {
    *why = "expected YYYY-MM-DD[T| ]HH:MM:SS[.fraction][Z|+HH:MM]";
    return false;
  }
  if (pos >= text.size() || (text[pos] != 'T' && text[pos] != 't' && text[pos] != ' ')) {
    *why = "expected YYYY-MM-DD[T| ]HH:MM:SS[.fraction][Z|+HH:MM]";
    return false;
  }
  ++pos;
  int64_t seconds = 0, fraction = 0;
  if (!ReadTimeOfDay(text, pos, unit, TimestampLabel(unit, with_zone), &seconds, &fraction, why)) {
    return false;
  }
  const size_t offset_begin = pos;
  bool has_offset = false;
  int64_t offset_seconds = 0;
  if (pos < text.size() && (text[pos] == 'Z' || text[pos] == 'z')) {
    has_offset = true;
    ++pos;
  } else if (pos < text.size() && (text[pos] == '+' || text[pos] == '-')) {
    has_offset = true;
    const int64_t sign = text[pos] == '-' ? -1 : 1;
    ++pos;
    int64_t hours = 0, minutes = 0;
    if (!ReadFixedDigits(text, pos, 2, &hours)) {
      *why = "expected an offset Z or +HH:MM";
      return false;
    }
    if (pos < text.size()) {
      const bool colon = Consume(text, pos, ':');
      if (!ReadFixedDigits(text, pos, 2, &minutes) && colon) {
        *why = "expected an offset Z or +HH:MM";
        return false;
      }
    }
    if (hours > 18 || minutes > 59) {
      *why = "offset out of range";
      return false;
    }
    offset_seconds = sign * (hours * 3600 + minutes * 60);
  }
  if (pos != text.size()) {
    *why = "unexpected text after the time";
    return false;
  }
  if (has_offset && !with_zone) {
    *why = StrCat("a timestamp without time zone takes no offset (found '",
                  text.substr(offset_begin), "')");
    return false;
  }
  const int64_t epoch_seconds = days * 86400 + seconds - offset_seconds;
  int64_t ticks = 0;
  if (__builtin_mul_overflow(epoch_seconds, columnar::TicksPerSecond(unit), &ticks) ||
      __builtin_add_overflow(ticks, fraction, &ticks)) {
    *why = StrCat("out of range for ", TimestampLabel(unit, with_zone));
    return false;
  }
  *out = ticks;
  return true;
}

}  // namespace hoglake::columnar::text::textimport
