#include "common/env.h"

#include <cstdlib>

namespace hoglake {

int64_t IntervalFromEnv(const char* name, int64_t fallback) {
  const char* value = std::getenv(name);
  if (value == nullptr || *value == '\0') return fallback;
  char* end = nullptr;
  const long long parsed = std::strtoll(value, &end, 10);
  return (end != nullptr && *end == '\0' && parsed > 0) ? parsed : 0;
}

}  // namespace hoglake
