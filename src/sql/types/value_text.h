// PostgreSQL's text forms of our scalar types, both ways: output as psql
// shows it (dates "2024-01-05", timestamps "2024-01-05 10:00:00" and
// "…+00" for timestamptz, intervals "1 year 2 mons 3 days 04:05:06",
// floats shortest round-trip with "NaN"/"Infinity", booleans "t"/"f") and
// input as PostgreSQL's *_in functions accept the common forms.
//
// Parsers return false with a short reason in *why; the caller builds the
// 22P02/22007/22003 error naming the type and the text.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace hoglake::sql {

void AppendPgDate(int32_t days, std::string* out);
void AppendPgTime(int64_t micros, std::string* out);
void AppendPgTimestamp(int64_t micros, bool with_zone, std::string* out);
void AppendPgInterval(int32_t months, int32_t days, int64_t micros, std::string* out);
void AppendPgDouble(double v, std::string* out);
void AppendPgReal(float v, std::string* out);
// bytea's hex output: \x then two lower-case hex digits a byte.
void AppendPgBytea(std::string_view bytes, std::string* out);

bool ParsePgBool(std::string_view text, bool* out);
bool ParsePgInteger(std::string_view text, int64_t min, int64_t max, int64_t* out, bool* overflow);
// `out_of_range` (optional) tells a number too large, or too small to be
// told from zero, from text that is not a number.
bool ParsePgDouble(std::string_view text, double* out, bool* out_of_range = nullptr);
// Plain decimal or exponent notation → unscaled at `scale`, rounded half
// away from zero; false when more than 38 digits would be needed.
bool ParsePgNumeric(std::string_view text, int scale, __int128* out, bool* overflow);
// The scale a numeric literal's text has ("1.50" → 2, "1e3" → 0).
int NumericTextScale(std::string_view text);
// bytea input: hex (\x0aff, blanks allowed between bytes) or escape
// format (bytes as written, \\ for a backslash, \ooo for an octal byte).
// *bad_hex tells bad hex digits (22023 in PostgreSQL) from bad escapes (22P02).
bool ParsePgBytea(std::string_view text, std::string* out, bool* bad_hex);
// `field_overflow` (optional): the text has the shape of a date but a field
// is out of range (2023-02-29, 25:00), which PostgreSQL reports as 22008.
bool ParsePgDate(std::string_view text, int32_t* out, bool* field_overflow = nullptr);
bool ParsePgTime(std::string_view text, int64_t* out);
// `with_zone`: an offset converts to UTC; a value without one is UTC.
bool ParsePgTimestamp(std::string_view text, bool with_zone, int64_t* out,
                      bool* field_overflow = nullptr);
// "1 day", "2 hours 30 minutes", "1 year 2 mons", "-3 days", "04:05:06",
// "P1D"-style is not accepted.
bool ParsePgInterval(std::string_view text, int32_t* months, int32_t* days, int64_t* micros);

// 10^n for n in 0..38.
__int128 PowerOfTen(int n);
// a / b, each unscaled at its scale (sa, sb), as an unscaled value at
// `scale`, rounded half away from zero; false when the quotient needs more
// than 38 digits. b must not be 0.
bool DivideDecimal(__int128 a, int sa, __int128 b, int sb, int scale, __int128* out);
// Number of decimal digits of |v| (0 → 1).
int DecimalDigits(__int128 v);

}  // namespace hoglake::sql
