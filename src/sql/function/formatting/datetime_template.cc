// Datetime templates: the pattern table, the template parser and to_char
// of timestamps and intervals (templates.h), plus the calendar arithmetic
// of datetime_keys.h.
#include <algorithm>
#include <cctype>
#include <cstdlib>

#include "common/time_text.h"
#include "sql/function/formatting/datetime_keys.h"
#include "sql/sql_error.h"

namespace hoglake::sql::formatting {

int64_t JulianDay(int64_t year, int64_t month, int64_t day) {
  // Counted from March so that the leap day ends a year.
  const int64_t y = month > 2 ? year + 4800 : year + 4799;
  const int64_t m = month > 2 ? month + 1 : month + 13;
  const int64_t century = y / 100;
  return y * 365 - 32167 + y / 4 - century + century / 4 + 7834 * m / 256 + day;
}

Ymd FromJulianDay(int64_t julian) {
  const CivilDate c = CivilFromDays(julian - 2440588);
  return {c.year, c.month, c.day};
}

int64_t WeekdayOfJulian(int64_t julian) { return ((julian + 1) % 7 + 7) % 7; }

bool IsLeapYear(int64_t y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

namespace {

// Julian day of the Monday starting ISO week 1 of `year`: the week holding
// January 4th.
int64_t IsoYearStart(int64_t year) {
  const int64_t jan4 = JulianDay(year, 1, 4);
  return jan4 - WeekdayOfJulian(jan4 - 1);
}

}  // namespace

int64_t IsoWeekStart(int64_t year, int64_t week) { return IsoYearStart(year) + (week - 1) * 7; }

int64_t IsoYear(int64_t year, int64_t month, int64_t day) {
  const int64_t julian = JulianDay(year, month, day);
  if (julian < IsoYearStart(year)) return year - 1;
  if (julian >= IsoYearStart(year + 1)) return year + 1;
  return year;
}

int64_t IsoWeek(int64_t year, int64_t month, int64_t day) {
  const int64_t julian = JulianDay(year, month, day);
  return (julian - IsoYearStart(IsoYear(year, month, day))) / 7 + 1;
}

namespace {

using K = DatetimeKey;

struct Pattern {
  std::string_view name;
  K key;
  bool digits;
  int date_mode;  // 1 Gregorian, 2 ISO week
};

// Longer patterns before their prefixes; matched case-sensitively.
constexpr Pattern kPatterns[] = {
    {"A.D.", K::kADDots, false, 0}, {"A.M.", K::kAMDots, false, 0},
    {"AD", K::kAD, false, 0},       {"AM", K::kAM, false, 0},
    {"B.C.", K::kBCDots, false, 0}, {"BC", K::kBC, false, 0},
    {"CC", K::kCC, true, 0},        {"DAY", K::kDAY, false, 0},
    {"DDD", K::kDDD, true, 1},      {"DD", K::kDD, true, 1},
    {"DY", K::kDY, false, 0},       {"Day", K::kDay, false, 0},
    {"Dy", K::kDy, false, 0},       {"D", K::kD, true, 1},
    {"FF1", K::kFF1, false, 0},     {"FF2", K::kFF2, false, 0},
    {"FF3", K::kFF3, false, 0},     {"FF4", K::kFF4, false, 0},
    {"FF5", K::kFF5, false, 0},     {"FF6", K::kFF6, false, 0},
    {"FX", K::kFX, false, 0},       {"HH24", K::kHH24, true, 0},
    {"HH12", K::kHH12, true, 0},    {"HH", K::kHH, true, 0},
    {"IDDD", K::kIDDD, true, 2},    {"ID", K::kID, true, 2},
    {"IW", K::kIW, true, 2},        {"IYYY", K::kIYYY, true, 2},
    {"IYY", K::kIYY, true, 2},      {"IY", K::kIY, true, 2},
    {"I", K::kI, true, 2},          {"J", K::kJ, true, 0},
    {"MI", K::kMI, true, 0},        {"MM", K::kMM, true, 1},
    {"MONTH", K::kMONTH, false, 1}, {"MON", K::kMON, false, 1},
    {"MS", K::kMS, true, 0},        {"Month", K::kMonth, false, 1},
    {"Mon", K::kMon, false, 1},     {"OF", K::kOF, false, 0},
    {"P.M.", K::kPMDots, false, 0}, {"PM", K::kPM, false, 0},
    {"Q", K::kQ, true, 0},          {"RM", K::kRM, false, 1},
    {"SSSSS", K::kSSSS, true, 0},   {"SSSS", K::kSSSS, true, 0},
    {"SS", K::kSS, true, 0},        {"TZH", K::kTZH, false, 0},
    {"TZM", K::kTZM, true, 0},      {"TZ", K::kTZ, false, 0},
    {"US", K::kUS, true, 0},        {"WW", K::kWW, true, 1},
    {"W", K::kW, true, 1},          {"Y,YYY", K::kYCommaYYY, true, 1},
    {"YYYY", K::kYYYY, true, 1},    {"YYY", K::kYYY, true, 1},
    {"YY", K::kYY, true, 1},        {"Y", K::kY, true, 1},
    {"a.d.", K::kadDots, false, 0}, {"a.m.", K::kamDots, false, 0},
    {"ad", K::kad, false, 0},       {"am", K::kam, false, 0},
    {"b.c.", K::kbcDots, false, 0}, {"bc", K::kbc, false, 0},
    {"cc", K::kCC, true, 0},        {"day", K::kday, false, 0},
    {"ddd", K::kDDD, true, 1},      {"dd", K::kDD, true, 1},
    {"dy", K::kdy, false, 0},       {"d", K::kD, true, 1},
    {"ff1", K::kFF1, false, 0},     {"ff2", K::kFF2, false, 0},
    {"ff3", K::kFF3, false, 0},     {"ff4", K::kFF4, false, 0},
    {"ff5", K::kFF5, false, 0},     {"ff6", K::kFF6, false, 0},
    {"fx", K::kFX, false, 0},       {"hh24", K::kHH24, true, 0},
    {"hh12", K::kHH12, true, 0},    {"hh", K::kHH, true, 0},
    {"iddd", K::kIDDD, true, 2},    {"id", K::kID, true, 2},
    {"iw", K::kIW, true, 2},        {"iyyy", K::kIYYY, true, 2},
    {"iyy", K::kIYY, true, 2},      {"iy", K::kIY, true, 2},
    {"i", K::kI, true, 2},          {"j", K::kJ, true, 0},
    {"mi", K::kMI, true, 0},        {"mm", K::kMM, true, 1},
    {"month", K::kmonth, false, 1}, {"mon", K::kmon, false, 1},
    {"ms", K::kMS, true, 0},        {"of", K::kOF, false, 0},
    {"p.m.", K::kpmDots, false, 0}, {"pm", K::kpm, false, 0},
    {"q", K::kQ, true, 0},          {"rm", K::krm, false, 1},
    {"sssss", K::kSSSS, true, 0},   {"ssss", K::kSSSS, true, 0},
    {"ss", K::kSS, true, 0},        {"tz", K::ktz, false, 0},
    {"us", K::kUS, true, 0},        {"ww", K::kWW, true, 1},
    {"w", K::kW, true, 1},          {"y,yyy", K::kYCommaYYY, true, 1},
    {"yyyy", K::kYYYY, true, 1},    {"yyy", K::kYYY, true, 1},
    {"yy", K::kYY, true, 1},        {"y", K::kY, true, 1},
};

const Pattern* MatchPattern(std::string_view s) {
  for (const Pattern& p : kPatterns) {
    if (s.substr(0, p.name.size()) == p.name) return &p;
  }
  return nullptr;
}

}  // namespace

bool IsSeparatorChar(char c) {
  return c > 0x20 && c < 0x7F && !(c >= 'A' && c <= 'Z') && !(c >= 'a' && c <= 'z') &&
         !(c >= '0' && c <= '9');
}

size_t Utf8Length(std::string_view s, size_t i) {
  const unsigned char c = static_cast<unsigned char>(s[i]);
  size_t n = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
  return std::min(n, s.size() - i);
}

DatetimeTemplate ParseDatetimeTemplate(std::string_view text) {
  DatetimeTemplate nodes;
  size_t i = 0;
  auto literal = [&](DatetimeNode::Kind kind, size_t len) {
    DatetimeNode n;
    n.kind = kind;
    n.text = std::string(text.substr(i, len));
    nodes.push_back(std::move(n));
    i += len;
  };
  while (i < text.size()) {
    std::string_view rest = text.substr(i);
    bool fill_mode = false, translate = false;
    if (rest.substr(0, 2) == "FM" || rest.substr(0, 2) == "fm") {
      fill_mode = true;
    } else if (rest.substr(0, 2) == "TM" || rest.substr(0, 2) == "tm") {
      translate = true;
    }
    if (fill_mode || translate) {
      i += 2;
      rest = text.substr(i);
    }
    if (rest.empty()) break;
    if (const Pattern* p = MatchPattern(rest)) {
      DatetimeNode n;
      n.kind = DatetimeNode::Kind::kField;
      n.text = std::string(p->name);
      n.key = p->key;
      n.digits = p->digits;
      n.date_mode = p->date_mode;
      n.fill_mode = fill_mode;
      n.translate = translate;
      i += p->name.size();
      rest = text.substr(i);
      if (rest.substr(0, 2) == "TH") {
        n.ordinal = 1;
        i += 2;
      } else if (rest.substr(0, 2) == "th") {
        n.ordinal = 2;
        i += 2;
      } else if (rest.substr(0, 2) == "SP") {
        i += 2;  // spell mode: accepted and ignored, as PostgreSQL does
      }
      nodes.push_back(std::move(n));
      continue;
    }
    if (rest[0] == '"') {
      ++i;
      while (i < text.size()) {
        if (text[i] == '"') {
          ++i;
          break;
        }
        if (text[i] == '\\' && i + 1 < text.size()) ++i;
        literal(DatetimeNode::Kind::kLiteral, Utf8Length(text, i));
      }
      continue;
    }
    if (rest[0] == '\\' && rest.size() > 1 && rest[1] == '"') ++i;
    const char c = text[i];
    literal(IsSeparatorChar(c)                            ? DatetimeNode::Kind::kSeparator
            : std::isspace(static_cast<unsigned char>(c)) ? DatetimeNode::Kind::kSpace
                                                          : DatetimeNode::Kind::kLiteral,
            Utf8Length(text, i));
  }
  return nodes;
}

DatetimeFields TimestampFields(int64_t micros, bool with_zone) {
  constexpr int64_t kMicrosPerDay = 86400LL * 1000000;
  int64_t day = micros / kMicrosPerDay;
  int64_t time = micros % kMicrosPerDay;
  if (time < 0) {
    time += kMicrosPerDay;
    --day;
  }
  const CivilDate c = CivilFromDays(day);
  DatetimeFields f;
  f.year = c.year;
  f.month = c.month;
  f.day = c.day;
  f.hour = time / 3600000000LL;
  f.minute = time / 60000000 % 60;
  f.second = time / 1000000 % 60;
  f.micros = time % 1000000;
  const int64_t julian = day + 2440588;
  f.weekday = WeekdayOfJulian(julian);
  f.yday = julian - JulianDay(c.year, 1, 1) + 1;
  f.with_zone = with_zone;
  return f;
}

DatetimeFields IntervalFields(int32_t months, int32_t days, int64_t micros) {
  DatetimeFields f;
  f.is_interval = true;
  f.year = months / 12;
  f.month = months % 12;
  f.day = days;
  f.hour = micros / 3600000000LL;
  f.minute = micros / 60000000 % 60;
  f.second = micros / 1000000 % 60;
  f.micros = micros % 1000000;
  f.yday = (f.year * 12 + f.month) * 30 + f.day;
  return f;
}

namespace {

void AppendPadded(int64_t v, int width, std::string* out) {
  std::string digits = std::to_string(v < 0 ? -v : v);
  if (v < 0) {
    out->push_back('-');
    --width;
  }
  for (int i = static_cast<int>(digits.size()); i < width; ++i) out->push_back('0');
  *out += digits;
}

// The ordinal suffix of the number just written at out[from..].
Status AppendOrdinal(std::string* out, size_t from, int ordinal) {
  std::string_view num = std::string_view(*out).substr(from);
  if (num.empty() || !std::isdigit(static_cast<unsigned char>(num.back()))) {
    return SqlError(SqlErrorKind::kInvalidTextRepresentation, "\"", num, "\" is not a number");
  }
  char last = num.back();
  if (num.size() > 1 && num[num.size() - 2] == '1') last = '0';
  std::string_view suffix = last == '1' ? "st" : last == '2' ? "nd" : last == '3' ? "rd" : "th";
  for (char c : suffix) out->push_back(ordinal == 1 ? static_cast<char>(c - 32) : c);
  return Status::Ok();
}

std::string Cased(std::string_view s, int mode) {  // 0 as is, 1 upper, 2 lower
  std::string r(s);
  for (char& c : r) {
    if (mode == 1 && c >= 'a' && c <= 'z') c = static_cast<char>(c - 32);
    if (mode == 2 && c >= 'A' && c <= 'Z') c = static_cast<char>(c + 32);
  }
  return r;
}

void AppendName(std::string_view name, int mode, bool pad, std::string* out) {
  *out += Cased(name, mode);
  for (size_t i = name.size(); pad && i < 9; ++i) out->push_back(' ');
}

int64_t DisplayYear(int64_t year, bool interval) {
  return interval ? year : year <= 0 ? 1 - year : year;
}

}  // namespace

Status FormatDatetime(const DatetimeTemplate& format, const DatetimeFields& f, std::string* out) {
  for (const DatetimeNode& n : format) {
    if (n.kind != DatetimeNode::Kind::kField) {
      *out += n.text;
      continue;
    }
    const size_t start = out->size();
    const bool fm = n.fill_mode;
    const bool calendar_only =
        n.key == K::kTZ || n.key == K::ktz || n.key == K::kTZH || n.key == K::kTZM ||
        n.key == K::kOF || n.key == K::kADDots || n.key == K::kBCDots || n.key == K::kAD ||
        n.key == K::kBC || n.key == K::kadDots || n.key == K::kbcDots || n.key == K::kad ||
        n.key == K::kbc || n.key == K::kMONTH || n.key == K::kMonth || n.key == K::kmonth ||
        n.key == K::kMON || n.key == K::kMon || n.key == K::kmon || n.key == K::kDAY ||
        n.key == K::kDay || n.key == K::kday || n.key == K::kDY || n.key == K::kDy ||
        n.key == K::kdy || n.key == K::kD || n.key == K::kID;
    if (f.is_interval && calendar_only) {
      return SqlError(SqlErrorKind::kInvalidDatetimeFormat,
                      "invalid format specification for an interval value");
    }
    auto number = [&](int64_t v, int width) { AppendPadded(v, fm ? 0 : width, out); };
    const int64_t year = DisplayYear(f.year, f.is_interval);
    auto iso_year = [&] { return DisplayYear(IsoYear(f.year, f.month, f.day), f.is_interval); };
    const bool pm = f.hour % 24 >= 12;
    bool ordinal_allowed = true;
    switch (n.key) {
      case K::kAMDots:
      case K::kPMDots:
        *out += pm ? "P.M." : "A.M.";
        ordinal_allowed = false;
        break;
      case K::kAM:
      case K::kPM:
        *out += pm ? "PM" : "AM";
        ordinal_allowed = false;
        break;
      case K::kamDots:
      case K::kpmDots:
        *out += pm ? "p.m." : "a.m.";
        ordinal_allowed = false;
        break;
      case K::kam:
      case K::kpm:
        *out += pm ? "pm" : "am";
        ordinal_allowed = false;
        break;
      case K::kHH:
      case K::kHH12:
        number(f.hour % 12 == 0 ? 12 : f.hour % 12, f.hour >= 0 ? 2 : 3);
        break;
      case K::kHH24:
        number(f.hour, f.hour >= 0 ? 2 : 3);
        break;
      case K::kMI:
        number(f.minute, f.minute >= 0 ? 2 : 3);
        break;
      case K::kSS:
        number(f.second, f.second >= 0 ? 2 : 3);
        break;
      case K::kFF1:
        AppendPadded(f.micros / 100000, 1, out);
        break;
      case K::kFF2:
        AppendPadded(f.micros / 10000, 2, out);
        break;
      case K::kFF3:
      case K::kMS:
        AppendPadded(f.micros / 1000, 3, out);
        break;
      case K::kFF4:
        AppendPadded(f.micros / 100, 4, out);
        break;
      case K::kFF5:
        AppendPadded(f.micros / 10, 5, out);
        break;
      case K::kFF6:
      case K::kUS:
        AppendPadded(f.micros, 6, out);
        break;
      case K::kSSSS:
        AppendPadded(f.hour * 3600 + f.minute * 60 + f.second, 0, out);
        break;
      case K::ktz:
        if (f.with_zone) *out += "utc";
        ordinal_allowed = false;
        break;
      case K::kTZ:
        if (f.with_zone) *out += "UTC";
        ordinal_allowed = false;
        break;
      case K::kTZH:
        *out += "+00";
        ordinal_allowed = false;
        break;
      case K::kTZM:
        *out += "00";
        ordinal_allowed = false;
        break;
      case K::kOF:
        *out += fm ? "+0" : "+00";
        ordinal_allowed = false;
        break;
      case K::kADDots:
      case K::kBCDots:
        *out += f.year <= 0 ? "B.C." : "A.D.";
        ordinal_allowed = false;
        break;
      case K::kAD:
      case K::kBC:
        *out += f.year <= 0 ? "BC" : "AD";
        ordinal_allowed = false;
        break;
      case K::kadDots:
      case K::kbcDots:
        *out += f.year <= 0 ? "b.c." : "a.d.";
        ordinal_allowed = false;
        break;
      case K::kad:
      case K::kbc:
        *out += f.year <= 0 ? "bc" : "ad";
        ordinal_allowed = false;
        break;
      case K::kMONTH:
      case K::kMonth:
      case K::kmonth:
        ordinal_allowed = false;
        if (f.month == 0) break;
        AppendName(kMonthNames[f.month - 1],
                   n.key == K::kMONTH   ? 1
                   : n.key == K::kmonth ? 2
                                        : 0,
                   !fm && !n.translate, out);
        break;
      case K::kMON:
      case K::kMon:
      case K::kmon:
        ordinal_allowed = false;
        if (f.month == 0) break;
        AppendName(kMonthAbbrevs[f.month - 1],
                   n.key == K::kMON   ? 1
                   : n.key == K::kmon ? 2
                                      : 0,
                   false, out);
        break;
      case K::kMM:
        number(f.month, f.month >= 0 ? 2 : 3);
        break;
      case K::kDAY:
      case K::kDay:
      case K::kday:
        ordinal_allowed = false;
        AppendName(kDayNames[f.weekday],
                   n.key == K::kDAY   ? 1
                   : n.key == K::kday ? 2
                                      : 0,
                   !fm && !n.translate, out);
        break;
      case K::kDY:
      case K::kDy:
      case K::kdy:
        ordinal_allowed = false;
        AppendName(kDayAbbrevs[f.weekday],
                   n.key == K::kDY   ? 1
                   : n.key == K::kdy ? 2
                                     : 0,
                   false, out);
        break;
      case K::kDDD:
        number(f.yday, 3);
        break;
      case K::kIDDD:
        number(JulianDay(f.year, f.month, f.day) -
                   IsoWeekStart(IsoYear(f.year, f.month, f.day), 1) + 1,
               3);
        break;
      case K::kDD:
        number(f.day, 2);
        break;
      case K::kD:
        AppendPadded(f.weekday + 1, 0, out);
        break;
      case K::kID:
        AppendPadded(f.weekday == 0 ? 7 : f.weekday, 0, out);
        break;
      case K::kWW:
        number((f.yday - 1) / 7 + 1, 2);
        break;
      case K::kIW:
        number(IsoWeek(f.year, f.month, f.day), 2);
        break;
      case K::kQ:
        if (f.month == 0) {
          ordinal_allowed = false;
          break;
        }
        AppendPadded((f.month - 1) / 3 + 1, 0, out);
        break;
      case K::kCC: {
        const int64_t c = f.is_interval ? f.year / 100
                          : f.year > 0  ? (f.year - 1) / 100 + 1
                                        : f.year / 100 - 1;
        if (c <= 99 && c >= -99) {
          number(c, c >= 0 ? 2 : 3);
        } else {
          AppendPadded(c, 0, out);
        }
        break;
      }
      case K::kYCommaYYY: {
        const int64_t thousands = year / 1000;
        AppendPadded(thousands, 0, out);
        out->push_back(',');
        AppendPadded(year - thousands * 1000, 3, out);
        break;
      }
      case K::kYYYY:
        number(year, year >= 0 ? 4 : 5);
        break;
      case K::kIYYY: {
        const int64_t y = iso_year();
        number(y, year >= 0 ? 4 : 5);
        break;
      }
      case K::kYYY:
        number(year % 1000, year >= 0 ? 3 : 4);
        break;
      case K::kIYY:
        number(iso_year() % 1000, year >= 0 ? 3 : 4);
        break;
      case K::kYY:
        number(year % 100, year >= 0 ? 2 : 3);
        break;
      case K::kIY:
        number(iso_year() % 100, year >= 0 ? 2 : 3);
        break;
      case K::kY:
        AppendPadded(year % 10, 1, out);
        break;
      case K::kI:
        AppendPadded(iso_year() % 10, 1, out);
        break;
      case K::kRM:
      case K::krm: {
        ordinal_allowed = false;
        if (f.month == 0 && f.year == 0) break;
        // An interval's negative months count back from December.
        const int64_t index = f.month == 0  ? (f.year >= 0 ? 11 : 0)
                              : f.month < 0 ? 12 + f.month
                                            : f.month - 1;
        AppendName(kRomanMonths[index], n.key == K::kRM ? 1 : 2, false, out);
        if (!fm) {
          for (size_t i = kRomanMonths[index].size(); i < 4; ++i) out->push_back(' ');
        }
        break;
      }
      case K::kW:
        AppendPadded((f.day - 1) / 7 + 1, 0, out);
        break;
      case K::kJ:
        AppendPadded(JulianDay(f.year, f.month, f.day), 0, out);
        break;
      case K::kFX:
        ordinal_allowed = false;
        break;
    }
    if (n.ordinal != 0 && ordinal_allowed) {
      HOGLAKE_RETURN_IF_ERROR(AppendOrdinal(out, start, n.ordinal));
    }
  }
  return Status::Ok();
}

}  // namespace hoglake::sql::formatting
