// Reading settings from the environment (configuration is environment only).
#pragma once

#include <cstdint>

namespace hoglake {

// A loop cadence in milliseconds from variable `name`: `fallback` when unset
// or blank, 0 (off) when not a positive integer.
int64_t IntervalFromEnv(const char* name, int64_t fallback);

}  // namespace hoglake
