#include "common/log.h"

#include <atomic>
#include <cstdio>

#include "common/clock.h"

namespace hoglake {
namespace {
std::atomic<int> g_level{static_cast<int>(LogLevel::kInfo)};
const char* LevelName(LogLevel level) {
  switch (level) {
    case LogLevel::kDebug:
      return "DEBUG";
    case LogLevel::kInfo:
      return "INFO ";
    case LogLevel::kWarn:
      return "WARN ";
    case LogLevel::kError:
      return "ERROR";
  }
  return "?";
}
}  // namespace

void SetLogLevel(LogLevel level) { g_level = static_cast<int>(level); }
bool LogEnabled(LogLevel level) { return static_cast<int>(level) >= g_level.load(); }

void LogLine(LogLevel level, std::string_view message) {
  std::string line = FormatInstant(NowMicros());
  line += ' ';
  line += LevelName(level);
  line += ' ';
  line += message;
  line += '\n';
  // One write per line keeps lines whole across threads.
  std::fwrite(line.data(), 1, line.size(), stderr);
}

}  // namespace hoglake
