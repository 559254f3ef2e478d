// PostgreSQL 15's formatting templates (functions-formatting), for to_char,
// to_date and to_timestamp. A template is parsed once into nodes and then
// applied to many values.
//
// Datetime templates: the patterns YYYY YYY YY Y Y,YYY IYYY IYY IY I CC MM
// Month MONTH month Mon MON mon RM rm DD DDD IDDD D ID DAY Day day DY Dy dy
// W WW IW Q J HH HH12 HH24 MI SS SSSS SSSSS MS US FF1..FF6 AM PM A.M. P.M.
// (and lower case) AD BC A.D. B.C. (and lower case) TZ tz TZH TZM OF, the
// prefixes FM (no padding), TM (translated names: English, unpadded), FX
// (fixed input format), the suffixes TH/th (ordinals) and SP (ignored, as
// PostgreSQL does); "quoted text" with \" inside, and \" outside quotes.
// Anything else is copied (to_char) or skipped (parsing). The session
// zone is UTC: TZ prints "UTC" for timestamptz and nothing for timestamp.
//
// Number templates (to_char of integer, bigint, real, double precision
// and numeric): 9 0 . D , G FM S MI PL SG PR EEEE V RN TH (D and G are "."
// and "," — the C locale). L, B, C, SP, and RN together with digit or sign
// patterns, are refused (0A000) rather than guessed.
//
// Errors: as PostgreSQL — bad input text 22007, out-of-range fields 22008,
// a time zone displacement out of range 22009, a pattern misuse 42601,
// an interval given a calendar-only pattern 22007.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace hoglake::sql::formatting {

// ---- datetime ----------------------------------------------------------------

enum class DatetimeKey : uint8_t;  // datetime_template.cc

struct DatetimeNode {
  enum class Kind : uint8_t { kLiteral, kSpace, kSeparator, kField };
  Kind kind = Kind::kLiteral;
  std::string text;  // a literal's characters; a field's pattern name
  DatetimeKey key{};
  bool fill_mode = false;  // FM
  bool translate = false;  // TM
  int ordinal = 0;         // TH: 1 upper case, 2 lower case
  bool digits = false;     // the field reads digits (parsing)
  int date_mode = 0;       // 1 Gregorian, 2 ISO week (parsing)
};

using DatetimeTemplate = std::vector<DatetimeNode>;
DatetimeTemplate ParseDatetimeTemplate(std::string_view text);

// What to_char reads: a timestamp's calendar fields (proleptic year, 0 =
// 1 BC) or an interval's fields as they are (months split into years and
// months, no carrying between days and time).
struct DatetimeFields {
  int64_t year = 0, month = 0, day = 0;
  int64_t hour = 0, minute = 0, second = 0, micros = 0;
  int64_t weekday = 0;  // 0 = Sunday (timestamps)
  int64_t yday = 0;     // day of the year, 1-based
  bool with_zone = false;
  bool is_interval = false;
};

// The fields of a timestamp (microseconds since 1970-01-01) and of an
// interval.
DatetimeFields TimestampFields(int64_t micros, bool with_zone);
DatetimeFields IntervalFields(int32_t months, int32_t days, int64_t micros);

Status FormatDatetime(const DatetimeTemplate& format, const DatetimeFields& fields,
                      std::string* out);

// to_date / to_timestamp: `text` read with `format`. ToDate gives days since
// 1970-01-01; ToTimestamp microseconds since 1970-01-01 UTC (a zone in the
// text — TZH/TZM — is applied; otherwise UTC, the session's zone).
Result<int32_t> ParseDate(const DatetimeTemplate& format, std::string_view text);
Result<int64_t> ParseTimestamp(const DatetimeTemplate& format, std::string_view text);

// ---- numbers -----------------------------------------------------------------

struct NumberNode {
  enum class Kind : uint8_t {
    kLiteral,
    kDigit9,
    kDigit0,
    kDecimal,
    kComma,
    kFillMode,
    kSign,
    kMinus,
    kPlus,
    kSignAnywhere,
    kBrackets,
    kExponent,
    kMultiply,
    kRoman,
    kOrdinal
  };
  Kind kind = Kind::kLiteral;
  std::string text;  // a literal's characters; a pattern's name
};

struct NumberTemplate {
  std::vector<NumberNode> nodes;
  int pre = 0;         // digit positions before the decimal point
  int post = 0;        // after it
  int zero_start = 0;  // 1-based position of the first 0 before the point (0: none)
  int zero_end = 0;    // position of the last 0
  bool has_zero = false, has_decimal = false, fill_mode = false, brackets = false;
  bool minus = false, plus = false, eeee = false;
  bool roman = false;       // RN: the value as a Roman numeral, nothing else
  int multi = 0;            // V: the 9s after it shift the value left this many digits
  bool multi_flag = false;  // V seen
  bool lsign = false;       // S
  bool lsign_pre = true;    // S before the digits (else after)
  int pre_lsign_num = 0;    // digits before S
};

// Fails for misused patterns (42601) and unsupported ones (0A000).
Result<NumberTemplate> ParseNumberTemplate(std::string_view text);

// to_char of an exact value: `unscaled` / 10^scale (numeric, integers at
// scale 0), rounded half away from zero to the template's decimals. RN
// takes the value rounded to an integer (beyond integer: 22003); V beyond
// what 128 bits hold is 0A000.
Result<std::string> FormatDecimal(const NumberTemplate& format, __int128 unscaled, int scale);
// to_char of a double precision (`significant` = 15) or a real (6, the
// value then being a float): at most that many significant digits, as
// PostgreSQL; NaN and infinities as '#' with EEEE, else as PostgreSQL
// prints them ("NaN" in the digit positions, an infinity overflows to '#').
Result<std::string> FormatDouble(const NumberTemplate& format, double value, int significant);

}  // namespace hoglake::sql::formatting
