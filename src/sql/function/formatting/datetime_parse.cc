// to_date and to_timestamp: reading text with a datetime template
// (templates.h) as PostgreSQL 15 does outside its strict (JSON path) mode.
// Spaces before fields are skipped unless FX; a template separator or
// space matches one separator or space in the text, or nothing; other
// template characters skip one text character; a numeric field reads
// exactly its pattern's width when a digit field follows directly, else
// as many digits as there are (with FM, or before a separator). Fields
// set once (a second, different value is 22007); the text may end before
// the template. Then the parts are assembled: CC with YY, Julian days, ISO
// or Gregorian weeks, day of year, the 12-hour clock, and checked (a
// field out of range is 22008, a date beyond PostgreSQL's range 22008).
#include <algorithm>
#include <cctype>
#include <climits>
#include <cstdlib>

#include "sql/function/formatting/datetime_keys.h"
#include "sql/sql_error.h"

namespace hoglake::sql::formatting {
namespace {

using K = DatetimeKey;

// The template's fields as read from the text; 0 = not given.
struct Parts {
  int mode = 0;  // 1 Gregorian, 2 ISO week
  int hh = 0, pm = 0, mi = 0, ss = 0, ssss = 0, d = 0, dd = 0, ddd = 0, mm = 0, ms = 0;
  int year = 0, bc = 0, ww = 0, w = 0, cc = 0, j = 0, us = 0, yysz = 0, ff = 0;
  bool clock12 = false;
  int tzsign = 0, tzh = 0, tzm = 0;
};

Error BadValue(std::string_view value, const DatetimeNode& n, std::string_view detail) {
  return SqlError(SqlErrorKind::kInvalidDatetimeFormat, "invalid value \"", value, "\" for \"",
                  n.text, "\"", detail.empty() ? "" : ": ", detail);
}

Status SetOnce(int* dest, int value, const DatetimeNode& n) {
  if (*dest != 0 && *dest != value) {
    return SqlError(SqlErrorKind::kInvalidDatetimeFormat, "conflicting values for \"", n.text,
                    "\" field in formatting string");
  }
  *dest = value;
  return Status::Ok();
}

class Reader {
 public:
  Reader(const DatetimeTemplate& format, std::string_view text) : format_(format), text_(text) {}

  Result<Parts> Read() {
    bool fx = false;
    int extra_skip = 0;
    for (size_t at = 0; at < format_.size() && pos_ < text_.size(); ++at) {
      const DatetimeNode& n = format_[at];
      const bool field = n.kind == DatetimeNode::Kind::kField;
      if (!fx && (!field || n.key != K::kFX) && (field || at == 0)) {
        while (pos_ < text_.size() && IsSpace(text_[pos_])) {
          ++pos_;
          ++extra_skip;
        }
      }
      if (n.kind == DatetimeNode::Kind::kSpace || n.kind == DatetimeNode::Kind::kSeparator) {
        if (!fx) {
          --extra_skip;
          if (pos_ < text_.size() && (IsSpace(text_[pos_]) || IsSeparatorChar(text_[pos_]))) {
            ++pos_;
            ++extra_skip;
          }
        } else {
          pos_ += CharLength();
        }
        continue;
      }
      if (!field) {
        if (!fx && extra_skip > 0) {
          --extra_skip;
        } else {
          pos_ += CharLength();
        }
        continue;
      }
      if (n.date_mode != 0) {
        if (parts_.mode == 0) {
          parts_.mode = n.date_mode;
        } else if (parts_.mode != n.date_mode) {
          return SqlError(SqlErrorKind::kInvalidDatetimeFormat,
                          "invalid combination of date conventions");
        }
      }
      HOGLAKE_RETURN_IF_ERROR(ReadField(at, extra_skip, &fx));
      if (!fx) {
        extra_skip = 0;
        while (pos_ < text_.size() && IsSpace(text_[pos_])) {
          ++pos_;
          ++extra_skip;
        }
      }
    }
    return parts_;
  }

 private:
  static bool IsSpace(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }
  size_t CharLength() const { return Utf8Length(text_, pos_); }

  // Whether the field at `at` may read a variable number of digits: FM, a
  // TH suffix, or no digit field right after it.
  bool VariableWidth(size_t at) const {
    const DatetimeNode& n = format_[at];
    if (n.fill_mode || n.ordinal != 0) return true;
    if (at + 1 >= format_.size()) return true;
    const DatetimeNode& next = format_[at + 1];
    if (next.kind == DatetimeNode::Kind::kField) return !next.digits;
    return !(next.text.size() == 1 && std::isdigit(static_cast<unsigned char>(next.text[0])));
  }

  // Reads an integer for the field at `at` (`width` characters unless it
  // may vary); returns the characters consumed.
  Result<int> ReadInt(size_t at, size_t width, int* dest) {
    const DatetimeNode& n = format_[at];
    const size_t init = pos_;
    while (pos_ < text_.size() && IsSpace(text_[pos_])) ++pos_;
    std::string_view window = text_.substr(pos_, width);
    long long value = 0;
    bool overflow = false;
    if (VariableWidth(at)) {
      size_t i = init;
      while (i < text_.size() && IsSpace(text_[i])) ++i;
      size_t digits_from = i;
      bool negative = false;
      if (i < text_.size() && (text_[i] == '+' || text_[i] == '-')) {
        negative = text_[i] == '-';
        ++i;
      }
      const size_t first_digit = i;
      while (i < text_.size() && std::isdigit(static_cast<unsigned char>(text_[i]))) {
        if (value > (LLONG_MAX - 9) / 10) {
          overflow = true;
        } else {
          value = value * 10 + (text_[i] - '0');
        }
        ++i;
      }
      if (i == first_digit) {
        pos_ = init;  // nothing read
      } else {
        pos_ = i;
        if (negative) value = -value;
      }
      (void)digits_from;
    } else {
      if (window.size() < width) {
        return SqlError(SqlErrorKind::kInvalidDatetimeFormat, "source string too short for \"",
                        n.text, "\" formatting field");
      }
      size_t i = 0;
      while (i < window.size() && IsSpace(window[i])) ++i;
      bool negative = false;
      if (i < window.size() && (window[i] == '+' || window[i] == '-')) {
        negative = window[i] == '-';
        ++i;
      }
      const size_t first_digit = i;
      while (i < window.size() && std::isdigit(static_cast<unsigned char>(window[i]))) {
        value = value * 10 + (window[i] - '0');
        ++i;
      }
      const size_t used = i == first_digit ? 0 : i;
      if (used > 0 && used < width) {
        return SqlError(SqlErrorKind::kInvalidDatetimeFormat, "invalid value \"", window,
                        "\" for \"", n.text, "\"");
      }
      if (negative) value = -value;
      pos_ += used;
    }
    if (pos_ == init) {
      return BadValue(window, n, "Value must be an integer.");
    }
    if (overflow || value < INT_MIN || value > INT_MAX) {
      return SqlError(SqlErrorKind::kDatetimeFieldOverflow, "value for \"", n.text,
                      "\" in source string is out of range");
    }
    if (dest != nullptr) HOGLAKE_RETURN_IF_ERROR(SetOnce(dest, static_cast<int>(value), n));
    return static_cast<int>(pos_ - init);
  }

  Result<int> ReadInt(size_t at, int* dest) { return ReadInt(at, format_[at].text.size(), dest); }

  // Case-insensitive prefix match of one of `words`: its index.
  template <size_t N>
  Result<int> ReadWord(size_t at, const std::string_view (&words)[N]) {
    std::string_view rest = text_.substr(pos_);
    for (size_t w = 0; w < N; ++w) {
      const std::string_view word = words[w];
      if (rest.size() < word.size()) continue;
      bool same = true;
      for (size_t i = 0; i < word.size() && same; ++i) {
        same = std::tolower(static_cast<unsigned char>(rest[i])) ==
               std::tolower(static_cast<unsigned char>(word[i]));
      }
      if (same) {
        pos_ += word.size();
        return static_cast<int>(w);
      }
    }
    size_t end = 0;
    while (end < rest.size() && !IsSpace(rest[end])) ++end;
    return BadValue(rest.substr(0, end), format_[at],
                    "The given value did not match any of the allowed values for this field.");
  }

  void SkipOrdinal(const DatetimeNode& n) {
    if (n.ordinal != 0) pos_ = std::min(text_.size(), pos_ + 2);
  }

  static int AdjustPartialYear(int year) {
    if (year < 70) return year + 2000;
    if (year < 100) return year + 1900;
    if (year < 520) return year + 2000;
    if (year < 1000) return year + 1000;
    return year;
  }

  Status ReadField(size_t at, int extra_skip, bool* fx) {
    const DatetimeNode& n = format_[at];
    static constexpr std::string_view kAmPm[] = {"am", "pm"};
    static constexpr std::string_view kAmPmDots[] = {"a.m.", "p.m."};
    static constexpr std::string_view kAdBc[] = {"ad", "bc"};
    static constexpr std::string_view kAdBcDots[] = {"a.d.", "b.c."};
    static constexpr std::string_view kRomanDown[] = {"xii", "xi", "x",  "ix",  "viii", "vii",
                                                      "vi",  "v",  "iv", "iii", "ii",   "i"};
    switch (n.key) {
      case K::kFX:
        *fx = true;
        return Status::Ok();
      case K::kAMDots:
      case K::kPMDots:
      case K::kamDots:
      case K::kpmDots:
      case K::kAM:
      case K::kPM:
      case K::kam:
      case K::kpm: {
        const bool dots = n.key == K::kAMDots || n.key == K::kPMDots || n.key == K::kamDots ||
                          n.key == K::kpmDots;
        HOGLAKE_ASSIGN_OR_RETURN(int v, dots ? ReadWord(at, kAmPmDots) : ReadWord(at, kAmPm));
        HOGLAKE_RETURN_IF_ERROR(SetOnce(&parts_.pm, v, n));
        parts_.clock12 = true;
        return Status::Ok();
      }
      case K::kADDots:
      case K::kBCDots:
      case K::kadDots:
      case K::kbcDots:
      case K::kAD:
      case K::kBC:
      case K::kad:
      case K::kbc: {
        const bool dots = n.key == K::kADDots || n.key == K::kBCDots || n.key == K::kadDots ||
                          n.key == K::kbcDots;
        HOGLAKE_ASSIGN_OR_RETURN(int v, dots ? ReadWord(at, kAdBcDots) : ReadWord(at, kAdBc));
        return SetOnce(&parts_.bc, v, n);
      }
      case K::kHH:
      case K::kHH12:
        HOGLAKE_RETURN_IF_ERROR(ReadInt(at, 2, &parts_.hh).status());
        parts_.clock12 = true;
        break;
      case K::kHH24:
        HOGLAKE_RETURN_IF_ERROR(ReadInt(at, 2, &parts_.hh).status());
        break;
      case K::kMI:
        HOGLAKE_RETURN_IF_ERROR(ReadInt(at, &parts_.mi).status());
        break;
      case K::kSS:
        HOGLAKE_RETURN_IF_ERROR(ReadInt(at, &parts_.ss).status());
        break;
      case K::kMS: {
        HOGLAKE_ASSIGN_OR_RETURN(int len, ReadInt(at, 3, &parts_.ms));
        parts_.ms *= len == 1 ? 100 : len == 2 ? 10 : 1;
        break;
      }
      case K::kFF1:
      case K::kFF2:
      case K::kFF3:
      case K::kFF4:
      case K::kFF5:
      case K::kFF6:
      case K::kUS: {
        if (n.key != K::kUS) parts_.ff = static_cast<int>(n.key) - static_cast<int>(K::kFF1) + 1;
        HOGLAKE_ASSIGN_OR_RETURN(
            int len, ReadInt(at, n.key == K::kUS ? 6 : static_cast<size_t>(parts_.ff), &parts_.us));
        static constexpr int kScale[] = {1, 100000, 10000, 1000, 100, 10};
        if (len >= 1 && len <= 5) parts_.us *= kScale[len];
        break;
      }
      case K::kSSSS:
        HOGLAKE_RETURN_IF_ERROR(ReadInt(at, &parts_.ssss).status());
        break;
      case K::ktz:
      case K::kTZ:
      case K::kOF:
        return SqlError(SqlErrorKind::kFeatureNotSupported, "formatting field \"", n.text,
                        "\" is only supported in to_char");
      case K::kTZH:
        if (pos_ < text_.size() &&
            (text_[pos_] == '+' || text_[pos_] == '-' || text_[pos_] == ' ')) {
          parts_.tzsign = text_[pos_] == '-' ? -1 : 1;
          ++pos_;
        } else {
          parts_.tzsign = extra_skip > 0 && pos_ > 0 && text_[pos_ - 1] == '-' ? -1 : 1;
        }
        HOGLAKE_RETURN_IF_ERROR(ReadInt(at, 2, &parts_.tzh).status());
        return Status::Ok();
      case K::kTZM:
        if (parts_.tzsign == 0) parts_.tzsign = 1;
        HOGLAKE_RETURN_IF_ERROR(ReadInt(at, 2, &parts_.tzm).status());
        return Status::Ok();
      case K::kMONTH:
      case K::kMonth:
      case K::kmonth: {
        HOGLAKE_ASSIGN_OR_RETURN(int v, ReadWord(at, kMonthNames));
        return SetOnce(&parts_.mm, v + 1, n);
      }
      case K::kMON:
      case K::kMon:
      case K::kmon: {
        HOGLAKE_ASSIGN_OR_RETURN(int v, ReadWord(at, kMonthAbbrevs));
        return SetOnce(&parts_.mm, v + 1, n);
      }
      case K::kMM:
        HOGLAKE_RETURN_IF_ERROR(ReadInt(at, &parts_.mm).status());
        break;
      case K::kDAY:
      case K::kDay:
      case K::kday: {
        HOGLAKE_ASSIGN_OR_RETURN(int v, ReadWord(at, kDayNames));
        HOGLAKE_RETURN_IF_ERROR(SetOnce(&parts_.d, v, n));
        ++parts_.d;
        return Status::Ok();
      }
      case K::kDY:
      case K::kDy:
      case K::kdy: {
        HOGLAKE_ASSIGN_OR_RETURN(int v, ReadWord(at, kDayAbbrevs));
        HOGLAKE_RETURN_IF_ERROR(SetOnce(&parts_.d, v, n));
        ++parts_.d;
        return Status::Ok();
      }
      case K::kDDD:
        HOGLAKE_RETURN_IF_ERROR(ReadInt(at, &parts_.ddd).status());
        break;
      case K::kIDDD:
        HOGLAKE_RETURN_IF_ERROR(ReadInt(at, 3, &parts_.ddd).status());
        break;
      case K::kDD:
        HOGLAKE_RETURN_IF_ERROR(ReadInt(at, &parts_.dd).status());
        break;
      case K::kD:
        HOGLAKE_RETURN_IF_ERROR(ReadInt(at, &parts_.d).status());
        break;
      case K::kID:
        HOGLAKE_RETURN_IF_ERROR(ReadInt(at, 1, &parts_.d).status());
        if (++parts_.d > 7) parts_.d = 1;  // Sunday = 1, as Gregorian D
        break;
      case K::kWW:
      case K::kIW:
        HOGLAKE_RETURN_IF_ERROR(ReadInt(at, &parts_.ww).status());
        break;
      case K::kQ:
        // Read and ignored: a quarter does not pick a date.
        HOGLAKE_RETURN_IF_ERROR(ReadInt(at, nullptr).status());
        break;
      case K::kCC:
        HOGLAKE_RETURN_IF_ERROR(ReadInt(at, &parts_.cc).status());
        break;
      case K::kYCommaYYY: {
        int64_t thousands = 0, rest = 0;
        std::string_view s = text_.substr(pos_);
        size_t i = 0;
        auto read = [&](size_t max_digits, int64_t* v) {
          while (i < s.size() && IsSpace(s[i])) ++i;
          bool negative = false;
          if (i < s.size() && (s[i] == '+' || s[i] == '-')) negative = s[i++] == '-';
          const size_t from = i;
          while (i < s.size() && i - from < max_digits &&
                 std::isdigit(static_cast<unsigned char>(s[i]))) {
            *v = *v * 10 + (s[i++] - '0');
          }
          if (negative) *v = -*v;
          return i > from;
        };
        bool ok = read(18, &thousands) && i < s.size() && s[i] == ',';
        if (ok) {
          ++i;
          ok = read(3, &rest);
        }
        if (!ok) {
          return SqlError(SqlErrorKind::kInvalidDatetimeFormat,
                          "invalid input string for \"Y,YYY\"");
        }
        const int64_t year = thousands * 1000 + rest;
        if (year < INT_MIN || year > INT_MAX) {
          return SqlError(SqlErrorKind::kDatetimeFieldOverflow,
                          "value for \"Y,YYY\" in source string is out of range");
        }
        HOGLAKE_RETURN_IF_ERROR(SetOnce(&parts_.year, static_cast<int>(year), n));
        parts_.yysz = 4;
        pos_ += i;
        break;
      }
      case K::kYYYY:
      case K::kIYYY:
        HOGLAKE_RETURN_IF_ERROR(ReadInt(at, &parts_.year).status());
        parts_.yysz = 4;
        break;
      case K::kYYY:
      case K::kIYY:
      case K::kYY:
      case K::kIY:
      case K::kY:
      case K::kI: {
        HOGLAKE_ASSIGN_OR_RETURN(int len, ReadInt(at, &parts_.year));
        if (len < 4) parts_.year = AdjustPartialYear(parts_.year);
        parts_.yysz = static_cast<int>(n.text.size());
        break;
      }
      case K::kRM:
      case K::krm: {
        HOGLAKE_ASSIGN_OR_RETURN(int v, ReadWord(at, kRomanDown));
        return SetOnce(&parts_.mm, 12 - v, n);
      }
      case K::kW:
        HOGLAKE_RETURN_IF_ERROR(ReadInt(at, &parts_.w).status());
        break;
      case K::kJ:
        HOGLAKE_RETURN_IF_ERROR(ReadInt(at, &parts_.j).status());
        break;
    }
    SkipOrdinal(n);
    return Status::Ok();
  }

  const DatetimeTemplate& format_;
  std::string_view text_;
  size_t pos_ = 0;
  Parts parts_;
};

struct Assembled {
  int64_t year = 0, month = 1, day = 1;
  int64_t hour = 0, minute = 0, second = 0, micros = 0;
  int fraction_digits = 0;  // FFn: round to n digits
  bool has_zone = false;
  int zone_seconds = 0;  // east of UTC
};

Error FieldOverflow(std::string_view text) {
  return SqlError(SqlErrorKind::kDatetimeFieldOverflow, "date/time field value out of range: \"",
                  text, "\"");
}

Result<Assembled> Assemble(const DatetimeTemplate& format, std::string_view text) {
  HOGLAKE_ASSIGN_OR_RETURN(Parts p, Reader(format, text).Read());
  Assembled a;
  bool has_year = false, has_month = false, has_day = false;
  if (p.ssss != 0) {
    a.hour = p.ssss / 3600;
    a.minute = p.ssss % 3600 / 60;
    a.second = p.ssss % 60;
  }
  if (p.ss != 0) a.second = p.ss;
  if (p.mi != 0) a.minute = p.mi;
  if (p.hh != 0) a.hour = p.hh;
  if (p.clock12) {
    if (a.hour < 1 || a.hour > 12) {
      return SqlError(SqlErrorKind::kInvalidDatetimeFormat, "hour \"", a.hour,
                      "\" is invalid for the 12-hour clock");
    }
    if (p.pm != 0 && a.hour < 12) a.hour += 12;
    if (p.pm == 0 && a.hour == 12) a.hour = 0;
  }
  int64_t cc = p.cc;  // 64 bits: no overflow in the century arithmetic
  if (p.year != 0) {
    if (cc != 0 && p.yysz <= 2) {
      if (p.bc != 0) cc = -cc;
      a.year = p.year % 100;
      if (a.year != 0) {
        a.year = cc >= 0 ? a.year + (cc - 1) * 100 : (cc + 1) * 100 - a.year + 1;
      } else {
        a.year = cc * 100 + (cc >= 0 ? 0 : 1);
      }
    } else {
      a.year = p.bc != 0 ? -static_cast<int64_t>(p.year) : p.year;
      if (a.year < 0) ++a.year;
    }
    has_year = true;
  } else if (cc != 0) {
    if (p.bc != 0) cc = -cc;
    a.year = cc >= 0 ? (cc - 1) * 100 + 1 : cc * 100 + 1;
    has_year = true;
  }
  if (p.j != 0) {
    const Ymd d = FromJulianDay(p.j);
    a.year = d.year;
    a.month = d.month;
    a.day = d.day;
    has_year = has_month = has_day = true;
  }
  int ddd = p.ddd;
  if (p.ww != 0) {
    if (p.mode == 2) {
      int64_t julian = IsoWeekStart(a.year, p.ww);
      if (p.d != 0) julian += p.d > 1 ? p.d - 2 : 6;
      const Ymd d = FromJulianDay(julian);
      a.year = d.year;
      a.month = d.month;
      a.day = d.day;
      has_year = has_month = has_day = true;
    } else {
      ddd = (p.ww - 1) * 7 + 1;
    }
  }
  int dd = p.dd;
  if (p.w != 0) dd = (p.w - 1) * 7 + 1;
  if (dd != 0) {
    a.day = dd;
    has_day = true;
  }
  if (p.mm != 0) {
    a.month = p.mm;
    has_month = true;
  }
  if (ddd != 0 && (a.month <= 1 || a.day <= 1)) {
    if (a.year == 0 && p.bc == 0) {
      return SqlError(SqlErrorKind::kInvalidDatetimeFormat,
                      "cannot calculate day of year without year information");
    }
    if (p.mode == 2) {
      const Ymd d = FromJulianDay(IsoWeekStart(a.year, 1) - 1 + ddd);
      a.year = d.year;
      a.month = d.month;
      a.day = d.day;
      has_year = has_month = has_day = true;
    } else {
      static constexpr int kCumulative[2][13] = {
          {0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334, 365},
          {0, 31, 60, 91, 121, 152, 182, 213, 244, 274, 305, 335, 366}};
      const int* sums = kCumulative[IsLeapYear(a.year) ? 1 : 0];
      int m = 1;
      while (m <= 12 && ddd > sums[m]) ++m;
      if (a.month <= 1) a.month = m;
      if (a.day <= 1) a.day = ddd - sums[m - 1];
      has_month = has_day = true;
    }
  }
  a.micros = static_cast<int64_t>(p.ms) * 1000 + p.us;
  a.fraction_digits = p.ff;
  if (has_month && (a.month < 1 || a.month > 12)) return FieldOverflow(text);
  if (has_day && (a.day < 1 || a.day > 31)) return FieldOverflow(text);
  if (has_year && has_month && has_day) {
    static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    const int64_t limit = kDays[a.month - 1] + (a.month == 2 && IsLeapYear(a.year) ? 1 : 0);
    if (a.day > limit) return FieldOverflow(text);
  }
  if (a.hour < 0 || a.hour >= 24 || a.minute < 0 || a.minute >= 60 || a.second < 0 ||
      a.second >= 60 || a.micros < 0 || a.micros >= 1000000) {
    return FieldOverflow(text);
  }
  if (p.tzsign != 0) {
    if (p.tzh < 0 || p.tzh > 15 || p.tzm < 0 || p.tzm >= 60) {
      return SqlError(SqlErrorKind::kInvalidTimeZoneDisplacement,
                      "time zone displacement out of range: \"", text, "\"");
    }
    a.has_zone = true;
    a.zone_seconds = p.tzsign * (p.tzh * 3600 + p.tzm * 60);
  }
  return a;
}

// PostgreSQL's Julian range for dates and timestamps.
bool ValidJulian(int64_t year, int64_t month) {
  return (year > -4713 || (year == -4713 && month >= 11)) &&
         (year < 5874898 || (year == 5874898 && month < 6));
}

constexpr int64_t kUnixEpochJulian = 2440588;
constexpr int64_t kPgEpochJulian = 2451545;

}  // namespace

Result<int32_t> ParseDate(const DatetimeTemplate& format, std::string_view text) {
  HOGLAKE_ASSIGN_OR_RETURN(Assembled a, Assemble(format, text));
  auto out_of_range = [&] {
    return SqlError(SqlErrorKind::kDatetimeFieldOverflow, "date out of range: \"", text, "\"");
  };
  if (!ValidJulian(a.year, a.month)) return out_of_range();
  const int64_t julian = JulianDay(a.year, a.month, a.day);
  if (julian < 0 || julian - kPgEpochJulian >= 2147483494 - kPgEpochJulian) {
    return out_of_range();
  }
  return static_cast<int32_t>(julian - kUnixEpochJulian);
}

Result<int64_t> ParseTimestamp(const DatetimeTemplate& format, std::string_view text) {
  HOGLAKE_ASSIGN_OR_RETURN(Assembled a, Assemble(format, text));
  auto out_of_range = [] {
    return SqlError(SqlErrorKind::kDatetimeFieldOverflow, "timestamp out of range");
  };
  if (!ValidJulian(a.year, a.month)) return out_of_range();
  // In PostgreSQL's epoch (2000-01-01), where its rounding is defined.
  const __int128 days = JulianDay(a.year, a.month, a.day) - kPgEpochJulian;
  __int128 t = days * 86400000000LL + ((a.hour * 60 + a.minute) * 60 + a.second) * 1000000LL +
               a.micros - static_cast<__int128>(a.zone_seconds) * 1000000;
  // Julian day 0 .. 294277-01-01, PostgreSQL's timestamp range.
  constexpr __int128 kMin = -static_cast<__int128>(kPgEpochJulian) * 86400000000LL;
  constexpr __int128 kEnd = static_cast<__int128>(109203528 - kPgEpochJulian) * 86400000000LL;
  if (t < kMin || t >= kEnd) return out_of_range();
  if (a.fraction_digits > 0 && a.fraction_digits < 6) {
    int64_t scale = 1;
    for (int i = a.fraction_digits; i < 6; ++i) scale *= 10;
    const int64_t half = scale / 2;
    t = t >= 0 ? (t + half) / scale * scale : -((-t + half) / scale * scale);
  }
  return static_cast<int64_t>(t + (kPgEpochJulian - kUnixEpochJulian) * 86400000000LL);
}

}  // namespace hoglake::sql::formatting
