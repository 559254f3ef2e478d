#include "sql/types/value_text.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstring>

#include "columnar/json_rows.h"
#include "common/time_text.h"

namespace hoglake::sql {
namespace {

constexpr int64_t kMicrosPerSecond = 1000000;
constexpr int64_t kMicrosPerDay = 86400 * kMicrosPerSecond;

std::string_view Trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

void AppendTwo(int v, std::string* out) {
  out->push_back(static_cast<char>('0' + v / 10));
  out->push_back(static_cast<char>('0' + v % 10));
}

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}

int64_t FloorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

}  // namespace

namespace {

// 10^0 … 10^38.
struct PowersOfTen {
  __int128 p[39];
  constexpr PowersOfTen() : p() {
    __int128 v = 1;
    for (int i = 0; i < 39; ++i) {
      p[i] = v;
      if (i < 38) v *= 10;
    }
  }
};
constexpr PowersOfTen kPowersOfTen;

}  // namespace

__int128 PowerOfTen(int n) {
  if (n >= 0 && n < 39) return kPowersOfTen.p[n];
  __int128 v = 1;
  for (int i = 0; i < n; ++i) v *= 10;
  return v;
}

int DecimalDigits(__int128 v) {
  // |v| as unsigned, so the most negative value needs no negation overflow.
  const unsigned __int128 u =
      v < 0 ? static_cast<unsigned __int128>(0) - static_cast<unsigned __int128>(v)
            : static_cast<unsigned __int128>(v);
  int digits = 1;
  while (digits < 39 && u >= static_cast<unsigned __int128>(kPowersOfTen.p[digits])) ++digits;
  return digits;
}

// a / b with both unscaled at their scales, result at `scale`, rounded half
// away from zero.
bool DivideDecimal(__int128 a, int sa, __int128 b, int sb, int scale, __int128* out) {
  // a·10^-sa / (b·10^-sb) · 10^scale = a · 10^(scale − sa + sb) / b
  int shift = scale - sa + sb;
  bool negative = (a < 0) != (b < 0);
  unsigned __int128 ua = a < 0 ? -static_cast<unsigned __int128>(a) : a;
  unsigned __int128 ub = b < 0 ? -static_cast<unsigned __int128>(b) : b;
  if (shift < 0) {
    ub *= static_cast<unsigned __int128>(PowerOfTen(-shift));
    shift = 0;
  }
  // Long division digit by digit keeps the intermediate within 128 bits.
  unsigned __int128 q = ua / ub;
  unsigned __int128 r = ua % ub;
  for (int i = 0; i < shift; ++i) {
    if (q > static_cast<unsigned __int128>(PowerOfTen(38))) return false;
    r *= 10;
    q = q * 10 + r / ub;
    r %= ub;
  }
  if (r * 2 >= ub) ++q;
  if (q >= static_cast<unsigned __int128>(PowerOfTen(38))) return false;
  *out = negative ? -static_cast<__int128>(q) : static_cast<__int128>(q);
  return true;
}


void AppendPgDate(int32_t days, std::string* out) {
  CivilDate c = CivilFromDays(days);
  int64_t year = c.year;
  bool bc = year <= 0;
  if (bc) year = 1 - year;
  std::string y = std::to_string(year);
  if (y.size() < 4) y.insert(0, 4 - y.size(), '0');
  *out += y;
  out->push_back('-');
  AppendTwo(c.month, out);
  out->push_back('-');
  AppendTwo(c.day, out);
  if (bc) *out += " BC";
}

void AppendPgTime(int64_t micros, std::string* out) {
  int64_t seconds = micros / kMicrosPerSecond;
  int64_t fraction = micros % kMicrosPerSecond;
  AppendTwo(static_cast<int>(seconds / 3600), out);
  out->push_back(':');
  AppendTwo(static_cast<int>(seconds / 60 % 60), out);
  out->push_back(':');
  AppendTwo(static_cast<int>(seconds % 60), out);
  if (fraction != 0) {
    char buf[32];
    std::snprintf(buf, sizeof(buf), ".%06lld", static_cast<long long>(fraction));
    std::string f = buf;
    while (f.back() == '0') f.pop_back();
    *out += f;
  }
}

void AppendPgTimestamp(int64_t micros, bool with_zone, std::string* out) {
  int64_t days = FloorDiv(micros, kMicrosPerDay);
  int64_t time = micros - days * kMicrosPerDay;
  CivilDate c = CivilFromDays(days);
  bool bc = c.year <= 0;
  std::string date;
  AppendPgDate(static_cast<int32_t>(days), &date);
  if (bc) date.resize(date.size() - 3);
  *out += date;
  out->push_back(' ');
  AppendPgTime(time, out);
  if (with_zone) *out += "+00";
  if (bc) *out += " BC";
}

void AppendPgInterval(int32_t months, int32_t days, int64_t micros, std::string* out) {
  // PostgreSQL's EncodeInterval (IntervalStyle postgres): plural unless
  // exactly 1 ("-1 days"); a positive field right after a negative one
  // carries a '+' ("-1 days +02:00:00").
  size_t start = out->size();
  bool after_negative = false;
  auto part = [&](int64_t n, const char* unit) {
    if (n == 0) return;
    if (out->size() > start) out->push_back(' ');
    if (after_negative && n > 0) out->push_back('+');
    *out += std::to_string(n);
    *out += ' ';
    *out += unit;
    if (n != 1) out->push_back('s');
    after_negative = n < 0;
  };
  part(months / 12, "year");
  part(months % 12, "mon");
  part(days, "day");
  if (micros != 0 || out->size() == start) {
    if (out->size() > start) out->push_back(' ');
    if (micros < 0) {
      out->push_back('-');
      micros = -micros;
    } else if (after_negative) {
      out->push_back('+');
    }
    int64_t hours = micros / (3600 * kMicrosPerSecond);
    std::string h = std::to_string(hours);
    if (h.size() < 2) h.insert(0, "0");
    *out += h;
    out->push_back(':');
    AppendPgTime(micros % (3600 * kMicrosPerSecond), out);
    // AppendPgTime printed "00:MM:SS"; drop its hour part.
    size_t colon = out->rfind(':');
    size_t first = out->rfind(':', colon - 1);
    out->erase(first - 2, 3);
  }
}

namespace {

// PostgreSQL's shortest-exact float output (float8out/float4out with
// extra_float_digits > 0): the fewest digits that read back as `v`, in
// fixed notation while the decimal exponent is in [-4, fixed_limit) (15 for
// double, 6 for real), else as d.ddde±XX.
template <typename F>
void AppendShortestFloat(F v, int fixed_limit, std::string* out) {
  if (std::isnan(v)) {
    *out += "NaN";
    return;
  }
  if (std::isinf(v)) {
    *out += v > 0 ? "Infinity" : "-Infinity";
    return;
  }
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof(buf), v, std::chars_format::scientific);
  std::string_view sci(buf, r.ptr - buf);  // "-1.2345e+06"
  const size_t e = sci.find('e');
  int exponent = 0;
  std::from_chars(sci.data() + e + 1 + (sci[e + 1] == '+'), sci.data() + sci.size(), exponent);
  if (exponent < -4 || exponent >= fixed_limit) {
    out->append(sci);
    return;
  }
  if (sci[0] == '-') out->push_back('-');
  std::string digits;
  for (char c : sci.substr(0, e)) {
    if (c >= '0' && c <= '9') digits.push_back(c);
  }
  if (exponent < 0) {
    *out += "0.";
    out->append(-exponent - 1, '0');
    *out += digits;
  } else if (static_cast<size_t>(exponent) + 1 >= digits.size()) {
    *out += digits;
    out->append(exponent + 1 - digits.size(), '0');
  } else {
    out->append(digits, 0, exponent + 1);
    out->push_back('.');
    out->append(digits, exponent + 1);
  }
}

}  // namespace

void AppendPgDouble(double v, std::string* out) { AppendShortestFloat(v, 15, out); }

void AppendPgReal(float v, std::string* out) { AppendShortestFloat(v, 6, out); }

void AppendPgBytea(std::string_view bytes, std::string* out) {
  static constexpr char kHex[] = "0123456789abcdef";
  *out += "\\x";
  for (unsigned char c : bytes) {
    out->push_back(kHex[c >> 4]);
    out->push_back(kHex[c & 15]);
  }
}

bool ParsePgBytea(std::string_view text, std::string* out, bool* bad_hex) {
  out->clear();
  *bad_hex = false;
  auto hex = [](char c) {
    return c >= '0' && c <= '9'   ? c - '0'
           : c >= 'a' && c <= 'f' ? c - 'a' + 10
           : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                  : -1;
  };
  if (text.starts_with("\\x")) {
    for (size_t i = 2; i < text.size();) {
      if (std::isspace(static_cast<unsigned char>(text[i]))) {
        ++i;
        continue;
      }
      if (i + 1 >= text.size() || hex(text[i]) < 0 || hex(text[i + 1]) < 0) {
        *bad_hex = true;
        return false;
      }
      out->push_back(static_cast<char>(hex(text[i]) * 16 + hex(text[i + 1])));
      i += 2;
    }
    return true;
  }
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\\') {
      out->push_back(text[i]);
    } else if (i + 1 < text.size() && text[i + 1] == '\\') {
      out->push_back('\\');
      ++i;
    } else if (i + 3 < text.size() && text[i + 1] >= '0' && text[i + 1] <= '3' &&
               text[i + 2] >= '0' && text[i + 2] <= '7' && text[i + 3] >= '0' &&
               text[i + 3] <= '7') {
      out->push_back(static_cast<char>((text[i + 1] - '0') * 64 + (text[i + 2] - '0') * 8 +
                                       (text[i + 3] - '0')));
      i += 3;
    } else {
      return false;
    }
  }
  return true;
}

bool ParsePgBool(std::string_view text, bool* out) {
  text = Trim(text);
  // As boolin: any prefix of true/false/yes/no, "on"/"of(f)" (one letter
  // would be ambiguous), 1 and 0; in any case.
  struct Word {
    std::string_view word;
    size_t min_prefix;
    bool value;
  };
  static constexpr Word kWords[] = {{"true", 1, true}, {"false", 1, false}, {"yes", 1, true},
                                    {"no", 1, false},  {"on", 2, true},     {"off", 2, false},
                                    {"1", 1, true},    {"0", 1, false}};
  for (const Word& w : kWords) {
    if (text.size() >= w.min_prefix && text.size() <= w.word.size() &&
        EqualsIgnoreCase(text, w.word.substr(0, text.size()))) {
      *out = w.value;
      return true;
    }
  }
  return false;
}

bool ParsePgInteger(std::string_view text, int64_t min, int64_t max, int64_t* out,
                    bool* overflow) {
  *overflow = false;
  text = Trim(text);
  bool negative = false;
  if (!text.empty() && (text[0] == '+' || text[0] == '-')) {
    negative = text[0] == '-';
    text.remove_prefix(1);
  }
  if (text.empty()) return false;
  __int128 v = 0;
  for (char c : text) {
    if (c == '_') continue;
    if (c < '0' || c > '9') return false;
    v = v * 10 + (c - '0');
    if (v > (__int128{1} << 64)) {
      *overflow = true;
      return false;
    }
  }
  if (negative) v = -v;
  if (v < min || v > max) {
    *overflow = true;
    return false;
  }
  *out = static_cast<int64_t>(v);
  return true;
}

bool ParsePgDouble(std::string_view text, double* out, bool* out_of_range) {
  if (out_of_range != nullptr) *out_of_range = false;
  text = Trim(text);
  if (EqualsIgnoreCase(text, "nan")) return *out = std::nan(""), true;
  if (EqualsIgnoreCase(text, "infinity") || EqualsIgnoreCase(text, "+infinity") ||
      EqualsIgnoreCase(text, "inf")) {
    return *out = INFINITY, true;
  }
  if (EqualsIgnoreCase(text, "-infinity") || EqualsIgnoreCase(text, "-inf")) {
    return *out = -INFINITY, true;
  }
  if (!text.empty() && text[0] == '+') text.remove_prefix(1);
  auto r = std::from_chars(text.data(), text.data() + text.size(), *out);
  if (r.ec == std::errc::result_out_of_range && r.ptr == text.data() + text.size() &&
      out_of_range != nullptr) {
    *out_of_range = true;
  }
  return r.ec == std::errc() && r.ptr == text.data() + text.size() && !text.empty();
}

int NumericTextScale(std::string_view text) {
  text = Trim(text);
  size_t e = text.find_first_of("eE");
  std::string_view mantissa = text.substr(0, e);
  int64_t exponent = 0;
  if (e != std::string_view::npos) {
    std::from_chars(text.data() + e + 1 + (text[e + 1] == '+'), text.data() + text.size(),
                    exponent);
  }
  size_t dot = mantissa.find('.');
  int64_t fraction = dot == std::string_view::npos ? 0 : mantissa.size() - dot - 1;
  int64_t scale = fraction - exponent;
  return static_cast<int>(std::max<int64_t>(0, std::min<int64_t>(scale, 38)));
}

bool ParsePgNumeric(std::string_view text, int scale, __int128* out, bool* overflow) {
  *overflow = false;
  text = Trim(text);
  bool negative = false;
  if (!text.empty() && (text[0] == '+' || text[0] == '-')) {
    negative = text[0] == '-';
    text.remove_prefix(1);
  }
  size_t e = text.find_first_of("eE");
  std::string_view mantissa = text.substr(0, e);
  int64_t exponent = 0;
  if (e != std::string_view::npos) {
    std::string_view exp_text = text.substr(e + 1);
    if (!exp_text.empty() && exp_text[0] == '+') exp_text.remove_prefix(1);
    auto r = std::from_chars(exp_text.data(), exp_text.data() + exp_text.size(), exponent);
    if (r.ec != std::errc() || r.ptr != exp_text.data() + exp_text.size()) return false;
    if (exponent > 1000 || exponent < -1000) return *overflow = true, false;
  }
  // digits of the mantissa with the point position
  std::string digits;
  int64_t point = -1;
  for (char c : mantissa) {
    if (c == '.') {
      if (point >= 0) return false;
      point = static_cast<int64_t>(digits.size());
    } else if (c >= '0' && c <= '9') {
      digits.push_back(c);
    } else if (c != '_') {
      return false;
    }
  }
  if (digits.empty()) return false;
  if (point < 0) point = static_cast<int64_t>(digits.size());
  // value = digits × 10^(exponent − (len − point)); we want it × 10^scale.
  int64_t shift = exponent - (static_cast<int64_t>(digits.size()) - point) + scale;
  size_t first = digits.find_first_not_of('0');
  if (first == std::string::npos) return *out = 0, true;
  digits = digits.substr(first);
  if (shift >= 0) {
    if (static_cast<int64_t>(digits.size()) + shift > 38) return *overflow = true, false;
    __int128 v = 0;
    for (char c : digits) v = v * 10 + (c - '0');
    v *= PowerOfTen(static_cast<int>(shift));
    *out = negative ? -v : v;
    return true;
  }
  int64_t keep = static_cast<int64_t>(digits.size()) + shift;  // digits kept
  if (keep > 38) return *overflow = true, false;
  __int128 v = 0;
  for (int64_t i = 0; i < keep; ++i) v = v * 10 + (digits[i] - '0');
  if (keep >= 0 && keep < static_cast<int64_t>(digits.size()) && digits[keep] >= '5') ++v;
  *out = negative ? -v : v;
  return true;
}

namespace {

bool ParseDigits(std::string_view& s, int min_len, int max_len, int64_t* out) {
  int64_t v = 0;
  int n = 0;
  while (n < static_cast<int>(s.size()) && n < max_len && s[n] >= '0' && s[n] <= '9') {
    v = v * 10 + (s[n] - '0');
    ++n;
  }
  if (n < min_len) return false;
  s.remove_prefix(n);
  *out = v;
  return true;
}

bool DaysInMonthOk(int64_t year, int64_t month, int64_t day) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (month < 1 || month > 12 || day < 1) return false;
  bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  int limit = kDays[month - 1] + (month == 2 && leap ? 1 : 0);
  return day <= limit;
}

// `overflow` (optional) is set when the text has the right shape but a field
// is out of range (February 30th, hour 25): PostgreSQL's 22008 rather than
// 22007.
bool ParseDatePart(std::string_view& s, int64_t* days, bool* overflow = nullptr) {
  int64_t y, m, d;
  if (!ParseDigits(s, 1, 7, &y) || s.empty() || s[0] != '-') return false;
  s.remove_prefix(1);
  if (!ParseDigits(s, 1, 2, &m) || s.empty() || s[0] != '-') return false;
  s.remove_prefix(1);
  if (!ParseDigits(s, 1, 2, &d)) return false;
  if (!DaysInMonthOk(y, m, d)) {
    if (overflow != nullptr) *overflow = true;
    return false;
  }
  if (y > 5874897) return false;  // PostgreSQL's date range ends in 5874897 AD
  *days = DaysFromCivil(y, static_cast<int>(m), static_cast<int>(d));
  return true;
}

bool ParseTimePart(std::string_view& s, int64_t* micros, bool* overflow = nullptr) {
  int64_t h, mi, sec = 0, frac = 0;
  if (!ParseDigits(s, 1, 2, &h) || s.empty() || s[0] != ':') return false;
  s.remove_prefix(1);
  if (!ParseDigits(s, 2, 2, &mi)) return false;
  if (!s.empty() && s[0] == ':') {
    s.remove_prefix(1);
    if (!ParseDigits(s, 2, 2, &sec)) return false;
    if (!s.empty() && s[0] == '.') {
      s.remove_prefix(1);
      int n = 0;
      while (!s.empty() && s[0] >= '0' && s[0] <= '9') {
        if (n < 6) {
          frac = frac * 10 + (s[0] - '0');
        } else if (n == 6 && s[0] >= '5') {
          ++frac;  // round at microseconds
        }
        ++n;
        s.remove_prefix(1);
      }
      for (int i = n; i < 6; ++i) frac *= 10;
    }
  }
  if (h > 24 || mi > 59 || sec > 60) {
    if (overflow != nullptr) *overflow = true;
    return false;
  }
  *micros = ((h * 60 + mi) * 60 + sec) * kMicrosPerSecond + frac;
  return true;
}

}  // namespace

bool ParsePgDate(std::string_view text, int32_t* out, bool* field_overflow) {
  if (field_overflow != nullptr) *field_overflow = false;
  text = Trim(text);
  const std::string_view whole = text;
  int64_t days;
  if (!ParseDatePart(text, &days, field_overflow)) return false;
  // A time of day (and zone) after the date must be valid and is dropped,
  // as date_in does: '2024-01-05 10:00' is 2024-01-05.
  int64_t micros;
  if (!Trim(text).empty() && !ParsePgTimestamp(whole, false, &micros, field_overflow)) {
    return false;
  }
  *out = static_cast<int32_t>(days);
  return true;
}

bool ParsePgTime(std::string_view text, int64_t* out) {
  text = Trim(text);
  if (!ParseTimePart(text, out)) return false;
  return Trim(text).empty() && *out <= kMicrosPerDay;
}

bool ParsePgTimestamp(std::string_view text, bool with_zone, int64_t* out, bool* field_overflow) {
  if (field_overflow != nullptr) *field_overflow = false;
  text = Trim(text);
  int64_t days;
  if (!ParseDatePart(text, &days, field_overflow)) return false;
  int64_t micros = 0;
  if (!text.empty() && (text[0] == ' ' || text[0] == 'T' || text[0] == 't')) {
    text.remove_prefix(1);
    text = Trim(text);
    if (!ParseTimePart(text, &micros, field_overflow)) return false;
  }
  text = Trim(text);
  int64_t offset_seconds = 0;
  if (!text.empty()) {
    if (text == "Z" || text == "z" || EqualsIgnoreCase(text, "utc")) {
      text = {};
    } else if (text[0] == '+' || text[0] == '-') {
      int sign = text[0] == '-' ? -1 : 1;
      text.remove_prefix(1);
      int64_t oh, om = 0;
      if (!ParseDigits(text, 1, 2, &oh)) return false;
      if (!text.empty() && text[0] == ':') text.remove_prefix(1);
      if (!text.empty() && !ParseDigits(text, 2, 2, &om)) return false;
      offset_seconds = sign * (oh * 3600 + om * 60);
    } else {
      return false;
    }
    if (!text.empty()) return false;
    // A naive timestamp ignores a written zone, as PostgreSQL does.
    if (!with_zone) offset_seconds = 0;
  }
  int64_t day_micros;
  if (__builtin_mul_overflow(days, kMicrosPerDay, &day_micros) ||
      __builtin_add_overflow(day_micros, micros - offset_seconds * kMicrosPerSecond, out)) {
    return false;  // past the timestamp range (294276 AD)
  }
  return true;
}

bool ParsePgInterval(std::string_view text, int32_t* months, int32_t* days, int64_t* micros) {
  text = Trim(text);
  // PostgreSQL's verbose form: an optional leading '@' and a trailing "ago"
  // that negates the whole.
  if (!text.empty() && text[0] == '@') text.remove_prefix(1);
  bool ago = false;
  if (text.size() > 3 && EqualsIgnoreCase(text.substr(text.size() - 3), "ago") &&
      std::isspace(static_cast<unsigned char>(text[text.size() - 4]))) {
    ago = true;
    text = Trim(text.substr(0, text.size() - 3));
  }
  int64_t m = 0, d = 0, us = 0;
  bool any = false;
  // Each field may be given once ('1 day 1 day' is invalid, as in PostgreSQL).
  enum : unsigned {
    kYear = 1,
    kMonth = 2,
    kWeek = 4,
    kDay = 8,
    kHour = 16,
    kMinute = 32,
    kSecond = 64,
    kMillisecond = 128,
    kMicrosecond = 256
  };
  unsigned seen = 0;
  auto first_time = [&seen](unsigned fields) {
    if (seen & fields) return false;
    seen |= fields;
    return true;
  };
  while (!text.empty()) {
    text = Trim(text);
    if (text.empty()) break;
    bool negative = false;
    if (text[0] == '-' || text[0] == '+') {
      negative = text[0] == '-';
      text.remove_prefix(1);
    }
    // hh:mm[:ss]
    size_t colon = text.find(':');
    size_t space = text.find(' ');
    if (colon != std::string_view::npos && (space == std::string_view::npos || colon < space)) {
      std::string_view part = text.substr(0, space);
      int64_t t;
      if (!ParseTimePart(part, &t) || !part.empty()) return false;
      if (!first_time(kHour | kMinute | kSecond)) return false;
      us += negative ? -t : t;
      text.remove_prefix(std::min(space, text.size()));
      any = true;
      continue;
    }
    double number;
    size_t end = 0;
    while (end < text.size() && (std::isdigit(static_cast<unsigned char>(text[end])) ||
                                 text[end] == '.')) {
      ++end;
    }
    if (end == 0) return false;
    auto r = std::from_chars(text.data(), text.data() + end, number);
    if (r.ec != std::errc()) return false;
    if (negative) number = -number;
    text.remove_prefix(end);
    text = Trim(text);
    size_t unit_end = 0;
    while (unit_end < text.size() && std::isalpha(static_cast<unsigned char>(text[unit_end]))) {
      ++unit_end;
    }
    std::string unit(text.substr(0, unit_end));
    for (char& c : unit) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    text.remove_prefix(unit_end);
    if (unit.empty()) unit = "second";
    auto is = [&](std::initializer_list<std::string_view> names) {
      for (std::string_view n : names) {
        if (unit == n) return true;
      }
      return false;
    };
    // A fraction of a unit cascades down as PostgreSQL's DecodeInterval does:
    // years to whole months, months to 30-day days, weeks and days to days
    // and then microseconds (1.5 days is 1 day 12:00:00).
    const double whole = std::trunc(number);
    const double fraction = number - whole;
    auto fraction_of_day = [&](double days_fraction) {
      const int64_t extra = static_cast<int64_t>(days_fraction);
      d += extra;
      us += static_cast<int64_t>(std::llround((days_fraction - extra) * kMicrosPerDay));
    };
    if (is({"year", "years", "y", "yr", "yrs"})) {
      if (!first_time(kYear)) return false;
      m += static_cast<int64_t>(whole) * 12 + static_cast<int64_t>(std::nearbyint(fraction * 12));
    } else if (is({"month", "months", "mon", "mons"})) {
      if (!first_time(kMonth)) return false;
      m += static_cast<int64_t>(whole);
      fraction_of_day(fraction * 30);
    } else if (is({"week", "weeks", "w"})) {
      if (!first_time(kWeek)) return false;
      d += static_cast<int64_t>(whole) * 7;
      fraction_of_day(fraction * 7);
    } else if (is({"day", "days", "d"})) {
      if (!first_time(kDay)) return false;
      d += static_cast<int64_t>(whole);
      fraction_of_day(fraction);
    } else if (is({"hour", "hours", "h", "hr", "hrs"})) {
      if (!first_time(kHour)) return false;
      us += static_cast<int64_t>(std::llround(number * 3600 * kMicrosPerSecond));
    } else if (is({"minute", "minutes", "min", "mins", "m"})) {
      if (!first_time(kMinute)) return false;
      us += static_cast<int64_t>(std::llround(number * 60 * kMicrosPerSecond));
    } else if (is({"second", "seconds", "sec", "secs", "s"})) {
      if (!first_time(kSecond)) return false;
      us += static_cast<int64_t>(std::llround(number * kMicrosPerSecond));
    } else if (is({"millisecond", "milliseconds", "ms", "msec", "msecs"})) {
      if (!first_time(kMillisecond)) return false;
      us += static_cast<int64_t>(std::llround(number * 1000));
    } else if (is({"microsecond", "microseconds", "us", "usec", "usecs"})) {
      if (!first_time(kMicrosecond)) return false;
      us += static_cast<int64_t>(std::llround(number));
    } else {
      return false;
    }
    any = true;
  }
  if (!any) return false;
  if (ago) {
    m = -m;
    d = -d;
    us = -us;
  }
  if (m > INT32_MAX || m < INT32_MIN || d > INT32_MAX || d < INT32_MIN) return false;
  *months = static_cast<int32_t>(m);
  *days = static_cast<int32_t>(d);
  *micros = us;
  return true;
}

}  // namespace hoglake::sql
