#include "columnar/text/values.h"

#include <charconv>
#include <cstring>
#include <limits>
#include <system_error>

#include "common/json_text.h"

namespace hoglake::columnar::text::textimport {
namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

char Lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (Lower(a[i]) != b[i]) return false;
  }
  return true;
}

enum class Magnitude { kOk, kNotNumber, kOverflow };

// Unsigned decimal digits (at least one, nothing else) into *out.
Magnitude ParseDigits(std::string_view digits, uint64_t* out) {
  if (digits.empty()) return Magnitude::kNotNumber;
  uint64_t value = 0;
  bool overflow = false;
  for (char c : digits) {
    if (!IsDigit(c)) return Magnitude::kNotNumber;
    if (!overflow && (__builtin_mul_overflow(value, 10u, &value) ||
                      __builtin_add_overflow(value, static_cast<uint64_t>(c - '0'), &value))) {
      overflow = true;
    }
  }
  if (overflow) return Magnitude::kOverflow;
  *out = value;
  return Magnitude::kOk;
}

std::string RangeText(int64_t min, int64_t max) { return StrCat("out of range ", min, "..", max); }

}  // namespace

std::string_view TrimBlanks(std::string_view text) {
  size_t begin = 0, end = text.size();
  while (begin < end && (text[begin] == ' ' || text[begin] == '\t')) ++begin;
  while (end > begin && (text[end - 1] == ' ' || text[end - 1] == '\t')) --end;
  return text.substr(begin, end - begin);
}

bool ParseBool(std::string_view text, bool* out, std::string* why) {
  text = TrimBlanks(text);
  if (text.size() <= 5) {
    for (std::string_view t : {"true", "t", "1", "yes"}) {
      if (EqualsIgnoreCase(text, t)) {
        *out = true;
        return true;
      }
    }
    for (std::string_view f : {"false", "f", "0", "no"}) {
      if (EqualsIgnoreCase(text, f)) {
        *out = false;
        return true;
      }
    }
  }
  *why = "expected true/false, t/f, 1/0 or yes/no";
  return false;
}

bool ParseInteger(std::string_view text, int64_t min, int64_t max, int64_t* out, std::string* why) {
  text = TrimBlanks(text);
  bool negative = false;
  if (!text.empty() && (text[0] == '+' || text[0] == '-')) {
    negative = text[0] == '-';
    text.remove_prefix(1);
  }
  uint64_t magnitude = 0;
  switch (ParseDigits(text, &magnitude)) {
    case Magnitude::kNotNumber:
      *why = "not an integer";
      return false;
    case Magnitude::kOverflow:
      *why = RangeText(min, max);
      return false;
    case Magnitude::kOk:
      break;
  }
  int64_t value;
  if (negative) {
    if (magnitude > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()) + 1) {
      *why = RangeText(min, max);
      return false;
    }
    value = static_cast<int64_t>(0 - magnitude);
  } else {
    if (magnitude > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
      *why = RangeText(min, max);
      return false;
    }
    value = static_cast<int64_t>(magnitude);
  }
  if (value < min || value > max) {
    *why = RangeText(min, max);
    return false;
  }
  *out = value;
  return true;
}

bool ParseUInt64(std::string_view text, uint64_t* out, std::string* why) {
  text = TrimBlanks(text);
  bool negative = false;
  if (!text.empty() && (text[0] == '+' || text[0] == '-')) {
    negative = text[0] == '-';
    text.remove_prefix(1);
  }
  uint64_t magnitude = 0;
  const Magnitude m = ParseDigits(text, &magnitude);
  if (m == Magnitude::kNotNumber) {
    *why = "not an integer";
    return false;
  }
  if (m == Magnitude::kOverflow || (negative && magnitude != 0)) {
    *why = "out of range 0..18446744073709551615";
    return false;
  }
  *out = magnitude;
  return true;
}

namespace {

template <typename F>
bool ParseFloating(std::string_view text, F* out, std::string* why) {
  text = TrimBlanks(text);
  if (!text.empty() && text[0] == '+') {
    text.remove_prefix(1);
    if (!text.empty() && (text[0] == '+' || text[0] == '-')) text = "x";
  }
  // from_chars accepts "nan(chars)"; only the plain spellings are meant.
  if (text.empty() || text.find('(') != std::string_view::npos) {
    *why = "not a number";
    return false;
  }
  F value{};
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value, std::chars_format::general);
  if (ec == std::errc::result_out_of_range) {
    *why = "out of range";
    return false;
  }
  if (ec != std::errc() || ptr != end) {
    *why = "not a number";
    return false;
  }
  *out = value;
  return true;
}

}  // namespace

bool ParseFloat64(std::string_view text, double* out, std::string* why) {
  return ParseFloating(text, out, why);
}

bool ParseFloat32(std::string_view text, float* out, std::string* why) {
  return ParseFloating(text, out, why);
}

bool ParseDecimal(std::string_view text, int32_t precision, int32_t scale, __int128* out,
                  std::string* why) {
  text = TrimBlanks(text);
  size_t pos = 0;
  bool negative = false;
  if (pos < text.size() && (text[pos] == '+' || text[pos] == '-')) {
    negative = text[pos] == '-';
    ++pos;
  }
  const int32_t max_integer_digits = precision - scale;
  unsigned __int128 value = 0;
  int32_t integer_digits = 0;
  int32_t fraction_digits = 0;
  bool any_digit = false;
  for (; pos < text.size() && IsDigit(text[pos]); ++pos) {
    any_digit = true;
    if (value == 0 && text[pos] == '0') continue;  // leading zero
    if (++integer_digits > max_integer_digits) {
      *why = StrCat("more than ", max_integer_digits, " integer digits (precision ", precision,
                    ", scale ", scale, ")");
      return false;
    }
    value = value * 10 + static_cast<unsigned>(text[pos] - '0');
  }
  if (pos < text.size() && text[pos] == '.') {
    ++pos;
    for (; pos < text.size() && IsDigit(text[pos]); ++pos) {
      any_digit = true;
      if (++fraction_digits > scale) {
        *why = StrCat("more than ", scale, " fraction digits (scale ", scale, ")");
        return false;
      }
      value = value * 10 + static_cast<unsigned>(text[pos] - '0');
    }
  }
  if (!any_digit || pos != text.size()) {
    *why = "not a plain decimal number";
    return false;
  }
  for (int32_t d = fraction_digits; d < scale; ++d) value *= 10;
  // At most 38 digits: below 2^127, so the signed value is exact.
  *out = negative ? -static_cast<__int128>(value) : static_cast<__int128>(value);
  return true;
}

std::string TypeLabel(const columnar::Field& field) {
  using columnar::TypeId;
  const columnar::DataType& type = *field.type;
  switch (type.id) {
    case TypeId::kBool:
      return "boolean";
    case TypeId::kInt8:
      return "int8";
    case TypeId::kInt16:
      return "int16";
    case TypeId::kInt32:
      return "int";
    case TypeId::kInt64:
      return "long";
    case TypeId::kUInt8:
      return "uint8";
    case TypeId::kUInt16:
      return "uint16";
    case TypeId::kUInt32:
      return "uint32";
    case TypeId::kUInt64:
      return "uint64";
    case TypeId::kFloat32:
      return "float";
    case TypeId::kFloat64:
      return "double";
    case TypeId::kDecimal128:
      return StrCat("decimal(", type.precision, ", ", type.scale, ")");
    case TypeId::kDate32:
      return "date";
    case TypeId::kTime64:
      return "time";
    case TypeId::kTimestamp:
      return std::string(TimestampLabel(type.unit, !type.timezone.empty()));
    case TypeId::kUtf8:
      return field.extension_name() == columnar::kJsonExtension ? "json" : "string";
    case TypeId::kBinary:
      return "binary";
    case TypeId::kFixedSizeBinary:
      return type.byte_width == 16 ? "uuid" : StrCat("fixed(", type.byte_width, ")");
    case TypeId::kIntervalMonthDayNano:
      return "interval";
    case TypeId::kList:
      return "list<" + TypeLabel(type.list_element()) + ">";
    case TypeId::kStruct: {
      std::string out = "struct<";
      for (size_t i = 0; i < type.children.size(); ++i) {
        if (i) out += ", ";
        out += type.children[i].name + ": " + TypeLabel(type.children[i]);
      }
      return out + ">";
    }
    case TypeId::kMap:
      return "map<" + TypeLabel(type.map_key()) + ", " + TypeLabel(type.map_value()) + ">";
  }
  return type.ToString();
}

std::string Excerpt(std::string_view text) {
  constexpr size_t kMaxBytes = 64;
  std::string out;
  size_t i = 0;
  while (i < text.size() && i < kMaxBytes) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if (byte < 0x80) {
      out.push_back(byte < 0x20 || byte == 0x7f ? '?' : static_cast<char>(byte));
      ++i;
      continue;
    }
    const size_t len = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    if (len > 1 && i + len <= text.size() && IsValidUtf8(text.substr(i, len))) {
      out.append(text.substr(i, len));
      i += len;
    } else {
      out.push_back('?');
      ++i;
    }
  }
  if (i < text.size()) out += "...";
  return out;
}

std::string CannotRead(std::string_view text, std::string_view label, std::string_view why) {
  return StrCat("cannot read '", Excerpt(text), "' as ", label, ": ", why);
}

bool IsUtf8(std::string_view text) {
  size_t i = 0;
  const size_t n = text.size();
  for (; i + 8 <= n; i += 8) {
    uint64_t block;
    std::memcpy(&block, text.data() + i, 8);
    if (block & 0x8080808080808080ull) break;
  }
  for (; i < n; ++i) {
    if (static_cast<unsigned char>(text[i]) >= 0x80) return IsValidUtf8(text.substr(i));
  }
  return true;
}

}  // namespace hoglake::columnar::text::textimport
