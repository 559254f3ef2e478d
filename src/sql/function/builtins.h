// The row-at-a-time built-in functions (row_function.h) by family, and the
// helpers their files share, for builtin_binding.cc. Internal to
// src/sql/function.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sql/function/row_function.h"

namespace hoglake::sql {

// text_functions.cc
extern const RowFunction kStartsWith, kLpad, kRpad, kSplitPart, kStringToArray, kReverse,
    kRepeat, kAscii, kChr, kInitcap, kMd5, kTranslate, kLevenshtein;
// The UTF-8 characters of `s`; the code point of one character (a code
// point's UTF-8: AppendUtf8, common/encoding.h).
std::vector<std::string_view> Utf8Chars(std::string_view s);
uint32_t DecodeUtf8(std::string_view character);
// Field `index` (1-based; negative from the end) of `s` split at
// `delimiter` as string_to_array splits; *found false past the ends.
std::string SplitField(std::string_view s, std::string_view delimiter, int64_t index, bool* found);

// math_extra_functions.cc
extern const RowFunction kSin, kCos, kTan, kCot, kAsin, kAcos, kAtan, kAtan2, kDegrees, kRadians,
    kCbrt, kPi, kExp, kLn, kLog10, kPower, kSign, kRandom, kGcd, kLcm, kNumericLn, kNumericLog10,
    kNumericLogBase;

// datetime_construct.cc
extern const RowFunction kMakeDate, kMakeTime, kMakeTimestamp, kMakeInterval, kDateBin,
    kToTimestampEpoch, kIntervalPart;
// An interval's 16 carrier bytes (sql_type.h) and back.
std::string IntervalBytes(int32_t months, int32_t days, int64_t micros);
void ReadInterval(std::string_view bytes, int32_t* months, int32_t* days, int64_t* micros);

// formatting/formatting_functions.cc: to_char of datetimes, intervals and
// numbers; to_date and to_timestamp(text, text).
extern const ScalarFunction kToChar, kToDate, kToTimestampText;

// regex_functions.cc
extern const RowFunction kRegexMatchOperator, kRegexpLike, kRegexpReplace, kRegexpCount,
    kRegexpSubstr, kRegexpMatch, kRegexpSplitToArray;

// The bound call of a built-in not in binding.cc's tables; nullopt when
// `name` is none of them. Errors: 42883 when no overload fits, and the
// function's own binding errors.
Result<std::optional<BoundExprPtr>> BindBuiltinFunction(std::string_view name,
                                                        std::vector<BoundExprPtr> args);
bool IsBuiltinFunctionName(std::string_view name);

}  // namespace hoglake::sql
