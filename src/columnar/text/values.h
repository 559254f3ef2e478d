// Scalar value text → typed values, as text_import.h spells them (CSV cells
// and JSON strings/numbers). Internal to text import; the temporal
// parsers live in temporal.cc.
//
// Every parser trims ASCII spaces and tabs around the text, returns true and
// sets *out on success, and on failure returns false with a short reason in
// *why ("out of range -128..127", "more than 2 fraction digits"); the caller
// adds the line, the column and the value. Parsers never throw and never read
// outside `text`.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "columnar/type.h"

namespace hoglake::columnar::text::textimport {

// ASCII spaces and tabs removed from both ends.
std::string_view TrimBlanks(std::string_view text);

// true/false, t/f, 1/0, yes/no in any case.
bool ParseBool(std::string_view text, bool* out, std::string* why);
// Decimal digits with an optional sign, within [min, max].
bool ParseInteger(std::string_view text, int64_t min, int64_t max, int64_t* out, std::string* why);
// Decimal digits with an optional '+', within 0..2^64-1.
bool ParseUInt64(std::string_view text, uint64_t* out, std::string* why);
// Decimal or exponent notation, NaN, Infinity, -Infinity (any case); values
// beyond the type's range are refused.
bool ParseFloat64(std::string_view text, double* out, std::string* why);
bool ParseFloat32(std::string_view text, float* out, std::string* why);
// Plain decimal text ([sign] digits [. digits]) with at most `scale` fraction
// digits and at most precision − scale integer digits (leading zeros aside);
// *out is the unscaled value at `scale`.
bool ParseDecimal(std::string_view text, int32_t precision, int32_t scale, __int128* out,
                  std::string* why);
// YYYY-MM-DD (a year beyond 9999 or before 0 with an explicit sign, as
// AppendDate prints it) → days since 1970-01-01.
bool ParseDate(std::string_view text, int32_t* out, std::string* why);
// HH:MM:SS[.fraction] → ticks of `unit` since midnight; more fraction digits
// than the unit holds are refused.
bool ParseTime(std::string_view text, columnar::TimeUnit unit, int64_t* out, std::string* why);
// YYYY-MM-DD[T| ]HH:MM:SS[.fraction][Z|±HH:MM|±HHMM|±HH] → ticks of `unit`
// since the epoch. `with_zone` false (naive): the wall clock as written, any
// offset (Z included) refused. `with_zone` true: an offset is converted to UTC,
// a value without one is taken as UTC. Fraction digits beyond the unit and
// results outside int64 are refused.
bool ParseTimestamp(std::string_view text, columnar::TimeUnit unit, bool with_zone, int64_t* out,
                    std::string* why);

// "timestamp_s", "timestamp_ms", "timestamp", "timestamp_ns"; "timestamptz"
// with a zone.
std::string_view TimestampLabel(columnar::TimeUnit unit, bool with_zone);

// The catalog spelling of a field's type for messages: "long", "timestamptz",
// "decimal(10, 2)", "json", "uuid", "list<long>", ...
std::string TypeLabel(const columnar::Field& field);

// `text` for an error message: at most 64 bytes (then "..."), control bytes
// and bytes that are not UTF-8 replaced by '?'.
std::string Excerpt(std::string_view text);

// "cannot read '<excerpt>' as <label>: <why>"
std::string CannotRead(std::string_view text, std::string_view label, std::string_view why);

// True when `text` is well-formed UTF-8 (an ASCII fast path in front of
// IsValidUtf8).
bool IsUtf8(std::string_view text);

}  // namespace hoglake::columnar::text::textimport
