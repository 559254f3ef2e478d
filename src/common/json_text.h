// Small pieces of JSON text output shared by every writer of JSON in hoglake
// (row rendering, bound decoding, HTTP responses).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace hoglake {

// Appends `text` as a JSON string literal, quotes included. Control
// characters use the short escapes (\n, \t, \b, \f, \r) or \u00XX, as
// ECMAScript's JSON.stringify does; bytes that are not valid UTF-8 become
// U+FFFD so the output is always valid JSON.
void AppendJsonString(std::string_view text, std::string* out);

// The shape of JSON text: the deepest nesting of arrays and objects (0 for
// a scalar) and how many arrays and objects it has, counted by a linear scan
// that honours strings and escapes and stops as soon as `depth_limit` is
// exceeded (depth is then depth_limit + 1). Malformed text gives some
// count; parse it to find out what is wrong. Lets a parser with recursive
// descent refuse a document before it could exhaust the stack.
struct JsonShape {
  int depth = 0;
  int64_t containers = 0;
  // An upper bound on the values and object members the text holds: its
  // separators (',' and ':') and containers, plus one.
  int64_t values = 0;
};
JsonShape MeasureJson(std::string_view text, int depth_limit);

// Where byte `offset` of JSON text lies, as a member path in the style of
// request-field errors ("appends[0].files[1].path"; "" at the top level),
// found by a linear scan of the text before it (strings and escapes
// honoured; nothing is allocated per byte). `in_member_name` is set when the
// offset lies inside an object's member name rather than a value. For
// naming the field a parse error (bytes that are not UTF-8, say) is in.
struct JsonLocation {
  std::string path;
  bool in_member_name = false;
};
JsonLocation JsonPathAt(std::string_view text, size_t offset);

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
