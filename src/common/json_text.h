// Small pieces of JSON text output shared by every writer of JSON in hoglake
// (row rendering, bound decoding, HTTP responses).
#pragma once

#include <string>
#include <string_view>

namespace hoglake {

// Appends `text` as a JSON string literal, quotes included. Control
// characters use the short escapes (\n, \t, \b, \f, \r) or \u00XX, as
// ECMAScript's JSON.stringify does; bytes that are not valid UTF-8 become
// U+FFFD so the output is always valid JSON.
void AppendJsonString(std::string_view text, std::string* out);

// True when `text` is well-formed UTF-8 (no overlong forms, no surrogates,
// nothing above U+10FFFF).
bool IsValidUtf8(std::string_view text);

// Appends a double the way ECMAScript's Number.prototype.toString prints it
// (shortest round-trip digits; exponent form below 1e-6 and from 1e21), so
// JSON we write matches what a JavaScript client would print. -0.0 is written
// "-0.0" to keep its sign. NaN and infinities are written as the JSON strings
// "NaN", "Infinity", "-Infinity".
void AppendJsonDouble(double value, std::string* out);
// As AppendJsonDouble, with the shortest digits that round-trip a float.
void AppendJsonFloat(float value, std::string* out);

}  // namespace hoglake
