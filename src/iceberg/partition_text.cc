#include "iceberg/partition_text.h"

#include <charconv>
#include <cmath>
#include <cstdlib>

#include "columnar/json_rows.h"
#include "common/time_text.h"

namespace hoglake::iceberg {
namespace {

constexpr int64_t kMicrosPerSecond = 1'000'000;
constexpr int64_t kMicrosPerDay = 86'400'000'000;

int64_t FloorDiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

bool InPythonDateRange(int64_t days) {
  static const int64_t kMin = DaysFromCivil(1, 1, 1);
  static const int64_t kMax = DaysFromCivil(9999, 12, 31);
  return days >= kMin && days <= kMax;
}

// "HH:MM:SS" or "HH:MM:SS.ffffff" for micros within one day.
void AppendClock(int64_t micros, std::string* out) {
  if (micros % kMicrosPerSecond == 0) {
    AppendTimeOfDay(micros / kMicrosPerSecond, 1, out);
  } else {
    AppendTimeOfDay(micros, kMicrosPerSecond, out);
  }
}

}  // namespace

void AppendPythonFloatRepr(double value, std::string* out) {
  if (std::isnan(value)) {
    out->append("nan");
    return;
  }
  if (std::isinf(value)) {
    out->append(value > 0 ? "inf" : "-inf");
    return;
  }
  if (std::signbit(value)) out->push_back('-');
  if (value == 0) {
    out->append("0.0");
    return;
  }
  // Shortest round-trip digits: "d[.ddd]e±XX".
  char buf[64];
  const auto [end, ec] =
      std::to_chars(buf, buf + sizeof(buf), std::fabs(value), std::chars_format::scientific);
  (void)ec;  // 64 bytes always suffice for a double
  const std::string_view text(buf, static_cast<size_t>(end - buf));
  const size_t e_pos = text.find('e');
  std::string digits;
  for (char c : text.substr(0, e_pos)) {
    if (c != '.') digits.push_back(c);
  }
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  const int exponent = std::atoi(std::string(text.substr(e_pos + 1)).c_str());
  const int decpt = exponent + 1;  // value = 0.digits × 10^decpt
  const int ndigits = static_cast<int>(digits.size());
  if (decpt <= -4 || decpt > 16) {
    out->push_back(digits[0]);
    if (ndigits > 1) {
      out->push_back('.');
      out->append(digits, 1);
    }
    out->push_back('e');
    out->push_back(exponent < 0 ? '-' : '+');
    const int magnitude = std::abs(exponent);
    if (magnitude < 10) out->push_back('0');
    out->append(std::to_string(magnitude));
  } else if (decpt <= 0) {
    out->append("0.");
    out->append(static_cast<size_t>(-decpt), '0');
    out->append(digits);
  } else if (decpt >= ndigits) {
    out->append(digits);
    out->append(static_cast<size_t>(decpt - ndigits), '0');
    out->append(".0");
  } else {
    out->append(digits, 0, static_cast<size_t>(decpt));
    out->push_back('.');
    out->append(digits, static_cast<size_t>(decpt));
  }
}

void AppendPythonDecimalStr(__int128 unscaled, int32_t scale, std::string* out) {
  // Python's rule: with exponent -scale ≤ 0, plain notation while the
  // adjusted exponent (digits - scale - 1) is ≥ -6, scientific below.
  const bool negative = unscaled < 0;
  std::string magnitude = columnar::FormatDecimal(unscaled, 0);
  if (negative) magnitude.erase(0, 1);
  const int64_t adjusted = static_cast<int64_t>(magnitude.size()) - scale - 1;
  if (adjusted >= -6) {
    out->append(columnar::FormatDecimal(unscaled, scale));
    return;
  }
  if (negative) out->push_back('-');
  out->push_back(magnitude[0]);
  if (magnitude.size() > 1) {
    out->push_back('.');
    out->append(magnitude, 1);
  }
  out->append("E-");
  out->append(std::to_string(-adjusted));
}

Status AppendPythonDate(int64_t days, std::string* out) {
  if (!InPythonDateRange(days)) {
    return InvalidArgument("date ", days, " days from the epoch is outside years 1..9999");
  }
  AppendDate(days, out);
  return Status::Ok();
}

Status AppendPythonTime(int64_t micros, std::string* out) {
  if (micros < 0 || micros >= kMicrosPerDay) {
    return InvalidArgument("time of day ", micros, " micros is outside one day");
  }
  AppendClock(micros, out);
  return Status::Ok();
}

Status AppendPythonDatetime(int64_t micros, bool utc_offset, std::string* out) {
  const int64_t days = FloorDiv(micros, kMicrosPerDay);
  if (!InPythonDateRange(days)) {
    return InvalidArgument("timestamp ", micros, " micros from the epoch is outside years 1..9999");
  }
  AppendDate(days, out);
  out->push_back('T');
  AppendClock(micros - days * kMicrosPerDay, out);
  if (utc_offset) out->append("+00:00");
  return Status::Ok();
}

}  // namespace hoglake::iceberg
