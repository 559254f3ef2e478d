#include "common/clock.h"

#include <chrono>

#include "common/time_text.h"

namespace hoglake {

int64_t NowMicros() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::string FormatInstant(int64_t micros) {
  std::string out;
  AppendTimestamp(micros, 1000000, /*utc=*/true, &out);
  return out;
}

namespace {

bool ReadDigits(std::string_view text, size_t& pos, int count, int64_t* value) {
  if (pos + count > text.size()) return false;
  int64_t v = 0;
  for (int i = 0; i < count; ++i) {
    char c = text[pos + i];
    if (c < '0' || c > '9') return false;
    v = v * 10 + (c - '0');
  }
  pos += count;
  *value = v;
  return true;
}

bool Expect(std::string_view text, size_t& pos, char c) {
  if (pos >= text.size() || text[pos] != c) return false;
  ++pos;
  return true;
}

}  // namespace

Result<int64_t> ParseInstant(std::string_view text) {
  auto bad = [&] {
    return BadRequest("'", text,
                      "' is not an ISO-8601 instant with an offset (e.g. 2026-09-05T12:00:00Z)");
  };
  size_t pos = 0;
  int64_t year, month, day, hour, minute, second = 0;
  if (!ReadDigits(text, pos, 4, &year) || !Expect(text, pos, '-') ||
      !ReadDigits(text, pos, 2, &month) || !Expect(text, pos, '-') ||
      !ReadDigits(text, pos, 2, &day) || !(Expect(text, pos, 'T') || Expect(text, pos, 't')) ||
      !ReadDigits(text, pos, 2, &hour) || !Expect(text, pos, ':') ||
      !ReadDigits(text, pos, 2, &minute)) {
    return bad();
  }
  if (pos < text.size() && text[pos] == ':') {
    ++pos;
    if (!ReadDigits(text, pos, 2, &second)) return bad();
  }
  int64_t micros = 0;
  if (pos < text.size() && text[pos] == '.') {
    ++pos;
    int digits = 0;
    while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
      if (digits < 6) micros = micros * 10 + (text[pos] - '0');
      ++digits;
      ++pos;
    }
    if (digits == 0 || digits > 9) return bad();
    for (int d = digits; d < 6; ++d) micros *= 10;
  }
  int64_t offset_seconds = 0;
  if (pos < text.size() && (text[pos] == 'Z' || text[pos] == 'z')) {
    ++pos;
  } else if (pos < text.size() && (text[pos] == '+' || text[pos] == '-')) {
    const int sign = text[pos] == '-' ? -1 : 1;
    ++pos;
    int64_t oh, om = 0;
    if (!ReadDigits(text, pos, 2, &oh)) return bad();
    if (pos < text.size() && text[pos] == ':') ++pos;
    if (pos < text.size() && !ReadDigits(text, pos, 2, &om)) return bad();
    if (oh > 18 || om > 59) return bad();
    offset_seconds = sign * (oh * 3600 + om * 60);
  } else {
    return bad();
  }
  if (pos != text.size()) return bad();
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) {
    return bad();
  }
  const CivilDate check =
      CivilFromDays(DaysFromCivil(year, static_cast<int>(month), static_cast<int>(day)));
  if (check.month != month || check.day != day) return bad();
  const int64_t days = DaysFromCivil(year, static_cast<int>(month), static_cast<int>(day));
  const int64_t seconds = days * 86400 + hour * 3600 + minute * 60 + second - offset_seconds;
  return seconds * 1000000 + micros;
}

}  // namespace hoglake
