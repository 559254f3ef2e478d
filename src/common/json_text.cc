#include "common/json_text.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <vector>

namespace hoglake {
namespace {

// Length of the valid UTF-8 sequence starting at s[i], or 0 if invalid.
size_t Utf8SequenceLength(std::string_view s, size_t i) {
  const auto byte = [&](size_t k) { return static_cast<uint8_t>(s[k]); };
  const uint8_t b0 = byte(i);
  size_t len;
  uint32_t min;
  if (b0 < 0x80) return 1;
  if ((b0 & 0xE0) == 0xC0) {
    len = 2;
    min = 0x80;
  } else if ((b0 & 0xF0) == 0xE0) {
    len = 3;
    min = 0x800;
  } else if ((b0 & 0xF8) == 0xF0) {
    len = 4;
    min = 0x10000;
  } else {
    return 0;
  }
  if (i + len > s.size()) return 0;
  uint32_t cp = b0 & (0x7F >> len);
  for (size_t k = 1; k < len; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (byte(i + k) & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return len;
}

// Formats shortest digits `digits` with decimal exponent `n` (value =
// 0.digits × 10^n) per ECMAScript Number::toString.
void AppendEcmaNumber(bool negative, std::string_view digits, int n, std::string* out) {
  if (negative) out->push_back('-');
  const int k = static_cast<int>(digits.size());
  if (k <= n && n <= 21) {
    out->append(digits);
    out->append(static_cast<size_t>(n - k), '0');
  } else if (0 < n && n <= 21) {
    out->append(digits.substr(0, static_cast<size_t>(n)));
    out->push_back('.');
    out->append(digits.substr(static_cast<size_t>(n)));
  } else if (-6 < n && n <= 0) {
    out->append("0.");
    out->append(static_cast<size_t>(-n), '0');
    out->append(digits);
  } else {
    out->push_back(digits[0]);
    if (k > 1) {
      out->push_back('.');
      out->append(digits.substr(1));
    }
    out->push_back('e');
    out->push_back(n - 1 >= 0 ? '+' : '-');
    out->append(std::to_string(std::abs(n - 1)));
  }
}

template <typename F>
inline constexpr double kPlainFastPathLimit = 9007199254740992.0;  // 2^53
template <>
inline constexpr double kPlainFastPathLimit<float> = 16777216.0;  // 2^24

template <typename F>
void AppendJsonNumber(F value, std::string* out) {
  if (std::isnan(value)) {
    out->append("\"NaN\"");
    return;
  }
  if (std::isinf(value)) {
    out->append(value > 0 ? "\"Infinity\"" : "\"-Infinity\"");
    return;
  }
  if (value == 0) {
    out->append(std::signbit(value) ? "-0.0" : "0");
    return;
  }
  char buf[64];
  // Common magnitudes: ECMAScript prints 1e-6 <= |v| < 1e21 in plain
  // notation with the shortest round-trip digits, which is what to_chars's
  // shortest fixed form is; below 2^53 (2^24 for float) that form never
  // needs padding digits. One call instead of the general path below (a
  // plan's bounds are mostly such numbers).
  const F magnitude = std::abs(value);
  if (magnitude >= F(1e-6) && magnitude < F(kPlainFastPathLimit<F>)) {
    auto [end, ec] = std::to_chars(buf, buf + sizeof(buf), value, std::chars_format::fixed);
    (void)ec;
    out->append(buf, static_cast<size_t>(end - buf));
    return;
  }
  auto [end, ec] =
      std::to_chars(buf, buf + sizeof(buf), std::abs(value), std::chars_format::scientific);
  (void)ec;  // 64 bytes always suffice for a float or double
  // buf = "d[.ddd]e±XX"
  std::string_view text(buf, static_cast<size_t>(end - buf));
  const size_t e_pos = text.find('e');
  std::string digits;
  for (char c : text.substr(0, e_pos)) {
    if (c != '.') digits.push_back(c);
  }
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  int exponent = 0;
  std::string_view exp_text = text.substr(e_pos + 1);
  if (!exp_text.empty() && exp_text[0] == '+') exp_text.remove_prefix(1);
  std::from_chars(exp_text.data(), exp_text.data() + exp_text.size(), exponent);
  AppendEcmaNumber(std::signbit(value), digits, exponent + 1, out);
}

}  // namespace

JsonShape MeasureJson(std::string_view text, int depth_limit) {
  JsonShape shape;
  shape.values = 1;
  int depth = 0;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;  // the escaped character, whatever it is
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    switch (c) {
      case '"':
        in_string = true;
        break;
      case ',':
      case ':':
        ++shape.values;
        break;
      case '[':
      case '{':
        ++shape.containers;
        ++shape.values;
        if (++depth > shape.depth) {
          shape.depth = depth;
          if (shape.depth > depth_limit) return shape;
        }
        break;
      case ']':
      case '}':
        if (depth > 0) --depth;
        break;
      default:
        break;
    }
  }
  return shape;
}

bool IsValidUtf8(std::string_view text) {
  for (size_t i = 0; i < text.size();) {
    const size_t len = Utf8SequenceLength(text, i);
    if (len == 0) return false;
    i += len;
  }
  return true;
}

void AppendJsonString(std::string_view text, std::string* out) {
  static constexpr char kHex[] = "0123456789abcdef";
  out->push_back('"');
  size_t i = 0;
  while (i < text.size()) {
    // A run of printable ASCII that needs no escaping is appended at once.
    size_t run = i;
    while (run < text.size()) {
      const auto r = static_cast<uint8_t>(text[run]);
      if (r < 0x20 || r >= 0x80 || r == '"' || r == '\\') break;
      ++run;
    }
    if (run > i) {
      out->append(text.data() + i, run - i);
      i = run;
      continue;
    }
    const auto c = static_cast<uint8_t>(text[i]);
    if (c >= 0x80) {
      size_t len = Utf8SequenceLength(text, i);
      if (len == 0) {
        out->append("\xEF\xBF\xBD");  // U+FFFD
        ++i;
      } else {
        out->append(text.substr(i, len));
        i += len;
      }
      continue;
    }
    switch (c) {
      case '"':
        out->append("\\\"");
        break;
      case '\\':
        out->append("\\\\");
        break;
      case '\b':
        out->append("\\b");
        break;
      case '\f':
        out->append("\\f");
        break;
      case '\n':
        out->append("\\n");
        break;
      case '\r':
        out->append("\\r");
        break;
      case '\t':
        out->append("\\t");
        break;
      default:
        if (c < 0x20) {
          out->append("\\u00");
          out->push_back(kHex[c >> 4]);
          out->push_back(kHex[c & 15]);
        } else {
          out->push_back(static_cast<char>(c));
        }
    }
    ++i;
  }
  out->push_back('"');
}

void AppendJsonDouble(double value, std::string* out) { AppendJsonNumber(value, out); }
void AppendJsonFloat(float value, std::string* out) { AppendJsonNumber(value, out); }

JsonLocation JsonPathAt(std::string_view text, size_t offset) {
  struct Frame {
    bool object = false;
    bool expecting_name = false;  // objects: the next string is a member name
    std::string_view name;        // objects: the current member's name
    int64_t index = 0;            // arrays: the current element
  };
  std::vector<Frame> frames;
  auto render = [&frames](bool name_pending) {
    JsonLocation at;
    for (size_t k = 0; k < frames.size(); ++k) {
      const Frame& f = frames[k];
      const bool last = k + 1 == frames.size();
      if (f.object) {
        if (last && (f.expecting_name || name_pending)) {
          at.in_member_name = name_pending;
          break;
        }
        if (!at.path.empty()) at.path += '.';
        at.path.append(f.name);
      } else {
        at.path += '[' + std::to_string(f.index) + ']';
      }
    }
    return at;
  };
  const size_t end = std::min(offset, text.size());
  for (size_t i = 0; i <= end && i < text.size(); ++i) {
    const char c = text[i];
    if (i == end && c != '"') break;  // the byte at the offset itself
    if (c == '"') {
      size_t close = i + 1;
      while (close < text.size() && text[close] != '"') close += text[close] == '\\' ? 2 : 1;
      const bool is_name = !frames.empty() && frames.back().object && frames.back().expecting_name;
      if (close >= offset) return render(is_name);
      if (is_name) {
        frames.back().name = text.substr(i + 1, close - i - 1);
        frames.back().expecting_name = false;
      }
      i = close;
    } else if (c == '{') {
      Frame object;
      object.object = object.expecting_name = true;
      frames.push_back(object);
    } else if (c == '[') {
      frames.push_back(Frame());
    } else if (c == '}' || c == ']') {
      if (!frames.empty()) frames.pop_back();
    } else if (c == ',' && !frames.empty()) {
      if (frames.back().object) {
        frames.back().expecting_name = true;
      } else {
        ++frames.back().index;
      }
    }
  }
  return render(false);
}

}  // namespace hoglake
