// Wall-clock instants as microseconds since the Unix epoch (UTC), and their
// ISO-8601 text: "2026-09-05T12:00:00.123456Z" (the contract's instant form).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "common/status.h"

namespace hoglake {

int64_t NowMicros();
// "YYYY-MM-DDTHH:MM:SS.ffffffZ", always six fraction digits.
std::string FormatInstant(int64_t micros);
// Parses an ISO-8601 instant that carries "Z" or a ±HH:MM offset, with 0–9
// fraction digits (extra precision beyond micros is truncated toward the
// past). A local time without offset is refused (BadRequest).
Result<int64_t> ParseInstant(std::string_view text);

}  // namespace hoglake
