// Process logging: one line per event on standard error,
//   2026-09-05T12:00:00.123456Z INFO  message
// thread-safe, no allocation beyond the line itself. Levels below the
// threshold set with SetLogLevel (default info) are dropped.
#pragma once

#include <string_view>

#include "common/status.h"

namespace hoglake {

enum class LogLevel { kDebug, kInfo, kWarn, kError };

void SetLogLevel(LogLevel level);
bool LogEnabled(LogLevel level);
void LogLine(LogLevel level, std::string_view message);

template <typename... P>
void LogInfo(const P&... p) {
  if (LogEnabled(LogLevel::kInfo)) LogLine(LogLevel::kInfo, StrCat(p...));
}
template <typename... P>
void LogWarn(const P&... p) {
  if (LogEnabled(LogLevel::kWarn)) LogLine(LogLevel::kWarn, StrCat(p...));
}
template <typename... P>
void LogError(const P&... p) {
  if (LogEnabled(LogLevel::kError)) LogLine(LogLevel::kError, StrCat(p...));
}
template <typename... P>
void LogDebug(const P&... p) {
  if (LogEnabled(LogLevel::kDebug)) LogLine(LogLevel::kDebug, StrCat(p...));
}

}  // namespace hoglake
