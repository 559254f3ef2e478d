// Number templates (templates.h): parsing and to_char of exact values and
// doubles, PostgreSQL 15's rules. The value is first rounded to the
// template's decimals and written as digits ("148.50", sign apart); then
// the template is walked: a digit position before the value's first digit
// is a blank (or a 0 from the first 0 pattern on), the sign goes before
// the first digit written (or where S, MI, SG or PR put it), a value with
// more integer digits than the template is all '#'. FM drops the padding
// blanks and trailing fraction zeros (not those a 0 pattern asks for).
// EEEE gives d.ddde±XX with the template's decimals and nothing else.
// PL writes '+' (or a blank), TH/th the ordinal suffix of a non-negative
// whole value, V shifts the value left by the 9s after it, RN writes the
// value 1..3999 as a Roman numeral right-aligned in 15 characters (else
// fifteen '#').
#include <climits>
#include <cmath>
#include <cstdio>

#include "sql/function/formatting/templates.h"
#include "sql/sql_error.h"

namespace hoglake::sql::formatting {
namespace {

using NK = NumberNode::Kind;

struct NumberPattern {
  std::string_view name;
  NK kind;
  bool supported;
};

constexpr NumberPattern kNumberPatterns[] = {
    {",", NK::kComma, true},         {".", NK::kDecimal, true},       {"0", NK::kDigit0, true},
    {"9", NK::kDigit9, true},        {"B", NK::kLiteral, false},      {"C", NK::kLiteral, false},
    {"D", NK::kDecimal, true},       {"EEEE", NK::kExponent, true},   {"FM", NK::kFillMode, true},
    {"G", NK::kComma, true},         {"L", NK::kLiteral, false},      {"MI", NK::kMinus, true},
    {"PL", NK::kPlus, true},         {"PR", NK::kBrackets, true},     {"RN", NK::kRoman, true},
    {"SG", NK::kSignAnywhere, true}, {"SP", NK::kLiteral, false},     {"S", NK::kSign, true},
    {"TH", NK::kOrdinal, true},      {"V", NK::kMultiply, true},      {"b", NK::kLiteral, false},
    {"c", NK::kLiteral, false},      {"d", NK::kDecimal, true},       {"eeee", NK::kExponent, true},
    {"fm", NK::kFillMode, true},     {"g", NK::kComma, true},         {"l", NK::kLiteral, false},
    {"mi", NK::kMinus, true},        {"pl", NK::kPlus, true},         {"pr", NK::kBrackets, true},
    {"rn", NK::kRoman, true},        {"sg", NK::kSignAnywhere, true}, {"sp", NK::kLiteral, false},
    {"s", NK::kSign, true},          {"th", NK::kOrdinal, true},      {"v", NK::kMultiply, true},
};

Error Misuse(std::string_view message) { return SqlError(SqlErrorKind::kSyntaxError, message); }

// Folds one pattern into the template's description, as PostgreSQL checks
// and records it.
Status Describe(NumberTemplate* t, NK kind) {
  if (t->eeee && kind != NK::kExponent) return Misuse("\"EEEE\" must be the last pattern used");
  switch (kind) {
    case NK::kDigit9:
      if (t->brackets) return Misuse("\"9\" must be ahead of \"PR\"");
      if (t->multi_flag) {
        ++t->multi;
        break;
      }
      ++(t->has_decimal ? t->post : t->pre);
      break;
    case NK::kDigit0:
      if (t->brackets) return Misuse("\"0\" must be ahead of \"PR\"");
      if (!t->has_zero && !t->has_decimal) {
        t->has_zero = true;
        t->zero_start = t->pre;  // 0-based position of the first 0
      }
      ++(t->has_decimal ? t->post : t->pre);
      t->zero_end = t->pre + t->post;
      break;
    case NK::kDecimal:
      if (t->has_decimal) return Misuse("multiple decimal points");
      if (t->multi_flag) return Misuse("cannot use \"V\" and decimal point together");
      t->has_decimal = true;
      break;
    case NK::kMultiply:
      if (t->has_decimal) return Misuse("cannot use \"V\" and decimal point together");
      t->multi_flag = true;
      break;
    case NK::kRoman:
      t->roman = true;
      break;
    case NK::kPlus:
      if (t->lsign) return Misuse("cannot use \"S\" and \"PL\" together");
      t->plus = true;
      break;
    case NK::kFillMode:
      t->fill_mode = true;
      break;
    case NK::kSign:
      if (t->lsign) return Misuse("cannot use \"S\" twice");
      if (t->plus || t->minus || t->brackets) {
        return Misuse("cannot use \"S\" and \"PL\"/\"MI\"/\"SG\"/\"PR\" together");
      }
      t->lsign = true;
      t->lsign_pre = !t->has_decimal;
      t->pre_lsign_num = t->pre;
      break;
    case NK::kMinus:
      if (t->lsign) return Misuse("cannot use \"S\" and \"MI\" together");
      t->minus = true;
      break;
    case NK::kSignAnywhere:
      if (t->lsign) return Misuse("cannot use \"S\" and \"SG\" together");
      t->minus = t->plus = true;
      break;
    case NK::kBrackets:
      if (t->lsign || t->plus || t->minus) {
        return Misuse("cannot use \"PR\" and \"S\"/\"PL\"/\"MI\"/\"SG\" together");
      }
      t->brackets = true;
      break;
    case NK::kExponent:
      if (t->eeee) return Misuse("cannot use \"EEEE\" twice");
      if (t->fill_mode || t->lsign || t->brackets || t->minus || t->plus || t->roman ||
          t->multi_flag) {
        return Misuse("\"EEEE\" is incompatible with other formats");
      }
      t->eeee = true;
      break;
    default:
      break;
  }
  return Status::Ok();
}

}  // namespace

Result<NumberTemplate> ParseNumberTemplate(std::string_view text) {
  NumberTemplate t;
  size_t i = 0;
  auto literal = [&](size_t len) {
    NumberNode n;
    n.text = std::string(text.substr(i, len));
    t.nodes.push_back(std::move(n));
    i += len;
  };
  while (i < text.size()) {
    std::string_view rest = text.substr(i);
    const NumberPattern* match = nullptr;
    for (const NumberPattern& p : kNumberPatterns) {
      if (rest.substr(0, p.name.size()) == p.name) {
        match = &p;
        break;
      }
    }
    if (match != nullptr) {
      if (!match->supported) {
        return SqlError(SqlErrorKind::kFeatureNotSupported, "number formatting pattern \"",
                        match->name, "\" is not supported");
      }
      HOGLAKE_RETURN_IF_ERROR(Describe(&t, match->kind));
      NumberNode n;
      n.kind = match->kind;
      n.text = std::string(match->name);
      t.nodes.push_back(std::move(n));
      i += match->name.size();
      continue;
    }
    if (rest[0] == '"') {
      ++i;
      while (i < text.size() && text[i] != '"') {
        if (text[i] == '\\' && i + 1 < text.size()) ++i;
        literal(1);
      }
      if (i < text.size()) ++i;
      continue;
    }
    if (rest[0] == '\\' && rest.size() > 1 && rest[1] == '"') ++i;
    literal(1);
  }
  if (t.roman) {
    for (const NumberNode& n : t.nodes) {
      if (n.kind != NK::kLiteral && n.kind != NK::kFillMode && n.kind != NK::kRoman &&
          n.kind != NK::kOrdinal) {
        return SqlError(SqlErrorKind::kFeatureNotSupported,
                        "number formatting pattern \"RN\" is only supported with \"FM\"");
      }
    }
  }
  return t;
}

namespace {

// Walks the template over `number` (digits with an optional '.', no
// sign), given the sign and the blanks owed before the first digit.
class Writer {
 public:
  Writer(const NumberTemplate& t, std::string number, char sign, int pre_spaces)
      : t_(t), number_(std::move(number)), sign_(sign), pre_spaces_(pre_spaces) {
    brackets_ = t.brackets;
    if (t.plus || t.minus) {
      sign_wrote_ = !(t.plus && !t.minus);
    } else {
      if (sign_ != '-' && t.fill_mode) brackets_ = false;
      sign_wrote_ = sign_ == '+' && t.fill_mode && !t.lsign;
    }
    num_count_ = t.post + t.pre - 1;
    if (t.fill_mode && t.has_decimal) {
      const size_t point = number_.find('.');
      if (point != std::string::npos) {
        last_relevant_ = static_cast<int>(point);
        for (size_t i = point + 1; i < number_.size(); ++i) {
          if (number_[i] != '0') last_relevant_ = static_cast<int>(i);
        }
        if (t.zero_end > pre_spaces_) {
          const int last_zero =
              std::min(static_cast<int>(number_.size()) - 1, t.zero_end - pre_spaces_);
          if (last_relevant_ < last_zero) last_relevant_ = last_zero;
        }
      }
    }
    if (!sign_wrote_ && pre_spaces_ == 0) ++num_count_;
  }

  std::string Run() {
    for (const NumberNode& n : t_.nodes) {
      switch (n.kind) {
        case NK::kDigit9:
        case NK::kDigit0:
        case NK::kDecimal:
          NumberPart(n.kind);
          break;
        case NK::kComma:
          if (!num_in_) {
            if (!t_.fill_mode) out_ += ' ';
          } else {
            out_ += ',';
          }
          break;
        case NK::kMinus:
          if (sign_ == '-') {
            out_ += '-';
          } else if (!t_.fill_mode) {
            out_ += ' ';
          }
          break;
        case NK::kPlus:
          if (sign_ == '+') {
            out_ += '+';
          } else if (!t_.fill_mode) {
            out_ += ' ';
          }
          break;
        case NK::kSignAnywhere:
          out_ += sign_;
          break;
        case NK::kOrdinal:
          AppendOrdinal(n.text == "TH");
          break;
        case NK::kLiteral:
          out_ += n.text;
          break;
        default:
          break;
      }
    }
    return out_;
  }

 private:
  char At(size_t i) const { return i < number_.size() ? number_[i] : '\0'; }

  // TH/th: the suffix of a non-negative whole number that fit the template.
  void AppendOrdinal(bool upper) {
    if (number_.empty() || number_[0] == '#' || sign_ == '-' || t_.has_decimal) return;
    const char last = number_.back();
    const bool teen = number_.size() > 1 && number_[number_.size() - 2] == '1';
    std::string_view suffix = teen || last < '1' || last > '3' ? "th"
                              : last == '1'                    ? "st"
                              : last == '2'                    ? "nd"
                                                               : "rd";
    for (char c : suffix) out_ += upper ? static_cast<char>(c - 32) : c;
  }
  bool RelevantIsPoint() const { return last_relevant_ >= 0 && At(last_relevant_) == '.'; }
  // "0.1" under "9.9": the lone leading zero is a blank.
  bool PredecimalSpace() const { return !t_.has_zero && at_ == 0 && At(0) == '0' && t_.post != 0; }

  void NumberPart(NK kind) {
    num_in_ = false;
    if (!sign_wrote_ && (num_curr_ >= pre_spaces_ || (t_.has_zero && t_.zero_start == num_curr_)) &&
        (!PredecimalSpace() || RelevantIsPoint())) {
      if (t_.lsign) {
        if (t_.lsign_pre) {
          out_ += sign_ == '-' ? '-' : '+';
          sign_wrote_ = true;
        }
      } else if (brackets_) {
        out_ += sign_ == '+' ? ' ' : '<';
        sign_wrote_ = true;
      } else if (sign_ == '+') {
        if (!t_.fill_mode) out_ += ' ';
        sign_wrote_ = true;
      } else {
        out_ += '-';
        sign_wrote_ = true;
      }
    }
    if (num_curr_ < pre_spaces_ && (t_.zero_start > num_curr_ || !t_.has_zero)) {
      if (!t_.fill_mode) out_ += ' ';
    } else if (t_.has_zero && num_curr_ < pre_spaces_ && t_.zero_start <= num_curr_) {
      out_ += '0';
      num_in_ = true;
    } else {
      if (At(at_) == '.') {
        out_ += '.';
      } else if (last_relevant_ >= 0 && static_cast<int>(at_) > last_relevant_ &&
                 kind != NK::kDigit0) {
        // a trailing zero FM drops
      } else if (PredecimalSpace()) {
        if (!t_.fill_mode) {
          out_ += ' ';
        } else if (RelevantIsPoint()) {
          out_ += '0';
        }
      } else {
        out_ += At(at_);
        num_in_ = true;
      }
      if (at_ < number_.size()) ++at_;
    }
    int end = num_count_ + (pre_spaces_ != 0 ? 1 : 0) + (t_.has_decimal ? 1 : 0);
    if (last_relevant_ >= 0 && static_cast<int>(at_) == last_relevant_) end = num_curr_;
    if (num_curr_ + 1 == end) {
      if (sign_wrote_ && brackets_) {
        out_ += sign_ == '+' ? ' ' : '>';
      } else if (t_.lsign && !t_.lsign_pre) {
        out_ += sign_ == '-' ? '-' : '+';
      }
    }
    ++num_curr_;
  }

  const NumberTemplate& t_;
  std::string number_;
  char sign_;
  int pre_spaces_;
  bool brackets_ = false;
  bool sign_wrote_ = false;
  bool num_in_ = false;
  int num_count_ = 0;
  int num_curr_ = 0;
  int last_relevant_ = -1;
  size_t at_ = 0;
  std::string out_;
};

// The value as digits for the writer: the '#' run when it has more integer
// digits than the template holds (V's digits included), else the blanks
// owed before it.
std::string Finish(const NumberTemplate& t, std::string digits, char sign) {
  NumberTemplate shifted = t;
  shifted.pre += t.multi;
  // S after every integer digit goes after the number; V's digits count
  // as integer digits here, as PostgreSQL counts them.
  if (shifted.lsign && shifted.lsign_pre && shifted.pre == shifted.pre_lsign_num) {
    shifted.lsign_pre = false;
  }
  const size_t point = digits.find('.');
  const int int_len = static_cast<int>(point == std::string::npos ? digits.size() : point);
  int pre_spaces = 0;
  if (int_len < shifted.pre) {
    pre_spaces = shifted.pre - int_len;
  } else if (int_len > shifted.pre) {
    digits.assign(static_cast<size_t>(shifted.pre + shifted.post + 1), '#');
    digits[static_cast<size_t>(shifted.pre)] = '.';
  }
  std::string out = Writer(shifted, std::move(digits), sign, pre_spaces).Run();
  // "NaN" can be shorter than the digit positions: PostgreSQL's text ends
  // where the value's characters ran out.
  out.resize(std::min(out.size(), out.find('\0')));
  return out;
}

// RN: the literals of the template around the numeral of `value`.
std::string FormatRoman(const NumberTemplate& t, int64_t value) {
  static constexpr std::string_view kOnes[] = {"",  "I",  "II",  "III",  "IV",
                                               "V", "VI", "VII", "VIII", "IX"};
  static constexpr std::string_view kTens[] = {"",  "X",  "XX",  "XXX",  "XL",
                                               "L", "LX", "LXX", "LXXX", "XC"};
  static constexpr std::string_view kHundreds[] = {"",  "C",  "CC",  "CCC",  "CD",
                                                   "D", "DC", "DCC", "DCCC", "CM"};
  std::string numeral;
  if (value < 1 || value > 3999) {
    numeral.assign(15, '#');
  } else {
    numeral.append(static_cast<size_t>(value / 1000), 'M');
    numeral += kHundreds[value / 100 % 10];
    numeral += kTens[value / 10 % 10];
    numeral += kOnes[value % 10];
  }
  std::string out;
  for (const NumberNode& n : t.nodes) {
    if (n.kind == NK::kLiteral) {
      out += n.text;
    } else if (n.kind == NK::kRoman) {
      if (!t.fill_mode) out.append(15 - std::min<size_t>(15, numeral.size()), ' ');
      for (char c : numeral) {
        out += n.text == "rn" && c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c;
      }
    }
  }
  return out;
}

std::string Int128Text(unsigned __int128 v) {
  std::string s;
  do {
    s.push_back(static_cast<char>('0' + static_cast<int>(v % 10)));
    v /= 10;
  } while (v != 0);
  return std::string(s.rbegin(), s.rend());
}

// |unscaled| / 10^scale rounded half away from zero to `digits` decimals,
// as text with exactly `digits` fraction digits.
std::string RoundedText(unsigned __int128 magnitude, int scale, int digits) {
  std::string text;
  if (digits >= scale) {
    text = Int128Text(magnitude);
    text.append(static_cast<size_t>(digits - scale), '0');
  } else {
    unsigned __int128 div = 1;
    for (int i = digits; i < scale; ++i) div *= 10;
    const unsigned __int128 q = magnitude / div, r = magnitude % div;
    text = Int128Text(q + (r * 2 >= div ? 1 : 0));
  }
  if (digits <= 0) return text;
  // At least one digit before the point.
  const size_t width = static_cast<size_t>(digits) + 1;
  std::string padded(width > text.size() ? width - text.size() : 0, '0');
  padded += text;
  const size_t split = padded.size() - static_cast<size_t>(digits);
  return padded.substr(0, split) + "." + padded.substr(split);
}

}  // namespace

Result<std::string> FormatDecimal(const NumberTemplate& t, __int128 unscaled, int scale) {
  if (t.roman) {
    // Rounded half away from zero to an integer, which must fit one.
    __int128 whole = unscaled;
    if (scale > 0) {
      __int128 div = 1;
      for (int i = 0; i < scale; ++i) div *= 10;
      const __int128 q = unscaled / div, r = unscaled % div;
      whole = q + (r * 2 >= div ? 1 : r * 2 <= -div ? -1 : 0);
    }
    if (whole < INT_MIN || whole > INT_MAX) {
      return SqlError(SqlErrorKind::kNumericValueOutOfRange, "integer out of range");
    }
    return FormatRoman(t, static_cast<int64_t>(whole));
  }
  if (t.multi > 0) {
    // value * 10^multi: fewer decimals, or more digits.
    scale -= t.multi;
    for (; scale < 0; ++scale) {
      constexpr __int128 kLimit = (static_cast<__int128>(1) << 126) / 10;
      if (unscaled > kLimit || unscaled < -kLimit) {
        return SqlError(SqlErrorKind::kFeatureNotSupported,
                        "to_char with \"V\" of a value this large is not supported");
      }
      unscaled *= 10;
    }
  }
  const bool negative = unscaled < 0;
  const unsigned __int128 magnitude = negative ? static_cast<unsigned __int128>(-(unscaled + 1)) + 1
                                               : static_cast<unsigned __int128>(unscaled);
  if (t.eeee) {
    // d.ddd…e±XX: the exponent of the leading digit, the significand
    // rounded to the template's decimals (not renormalized: 9.999 → 10.00).
    int exponent = 0;
    if (magnitude != 0) {
      exponent = static_cast<int>(Int128Text(magnitude).size()) - 1 - scale;
    }
    // significand = magnitude / 10^(scale + exponent)
    const int sig_scale = scale + exponent;
    std::string sig;
    if (sig_scale >= 0) {
      sig = RoundedText(magnitude, sig_scale, t.post);
    } else {
      unsigned __int128 m = magnitude;
      for (int i = sig_scale; i < 0; ++i) m *= 10;
      sig = RoundedText(m, 0, t.post);
    }
    char exp_text[16];
    std::snprintf(exp_text, sizeof(exp_text), "e%+03d", exponent);
    return std::string(negative && magnitude != 0 ? "-" : " ") + sig + exp_text;
  }
  std::string digits = RoundedText(magnitude, scale, t.post);
  bool zero = true;
  for (char c : digits) zero &= c == '0' || c == '.';
  return Finish(t, std::move(digits), negative && !zero ? '-' : '+');
}

Result<std::string> FormatDouble(const NumberTemplate& t, double value, int significant) {
  const bool single = significant < 15;  // a real: PostgreSQL computes in float
  if (t.roman) {
    // rint, then C's conversion to int (out of range or NaN: INT_MIN).
    const double whole = std::rint(value);
    return FormatRoman(t, std::isnan(whole) || whole < INT_MIN || whole > INT_MAX
                              ? INT_MIN
                              : static_cast<int64_t>(whole));
  }
  if (std::isnan(value) || std::isinf(value)) {
    if (t.eeee) {
      std::string s(static_cast<size_t>(t.pre + t.post + 6), '#');
      s[0] = ' ';
      s[static_cast<size_t>(t.pre + 1)] = '.';
      return s;
    }
  }
  char buf[400];
  if (t.eeee) {
    std::snprintf(buf, sizeof(buf), "%+.*e", t.post, value);
    if (buf[0] == '+') buf[0] = ' ';
    return std::string(buf);
  }
  if (t.multi > 0) {
    const double multi = std::pow(10.0, t.multi);
    value = single ? static_cast<double>(static_cast<float>(value) * static_cast<float>(multi))
                   : value * multi;
  }
  // At most `significant` digits (DBL_DIG or FLT_DIG), as PostgreSQL.
  // PostgreSQL's printf writes NaN as "NaN" and infinities as "Infinity".
  const bool finite = std::isfinite(value);
  if (finite) std::snprintf(buf, sizeof(buf), "%.0f", std::fabs(value));
  const int int_len = finite              ? static_cast<int>(std::string_view(buf).size())
                      : std::isnan(value) ? 3
                                          : 8;
  int post = t.post;
  if (int_len >= significant) {
    post = 0;
  } else if (int_len + post > significant) {
    post = significant - int_len;
  }
  if (std::isnan(value)) {
    std::snprintf(buf, sizeof(buf), "NaN");
  } else if (!finite) {
    std::snprintf(buf, sizeof(buf), "%sInfinity", value < 0 ? "-" : "");
  } else {
    std::snprintf(buf, sizeof(buf), "%.*f", post, value);
  }
  std::string text = buf;
  char sign = '+';
  if (text[0] == '-') {
    sign = '-';
    text.erase(0, 1);
  }
  NumberTemplate adjusted = t;
  adjusted.post = post;
  return Finish(adjusted, std::move(text), sign);
}

}  // namespace hoglake::sql::formatting
