// bench_report.h: how a benchmark program reports. Header-only; shared by the
// bench programs (bench_server.h starts the server they run against).
//
// The contract every bench keeps:
//   - Results go to stdout as one JSON object per line, one line per
//     measurement, flushed as it is printed:
//       {"scenario":"S","metric":"M","value":V,"unit":"U"}
//       {"scenario":"S","metric":"M","value":V,"unit":"U","ratio":R}
//     V and R are printed with %.4f (append_bench keeps %.1f and %.3f, see
//     EmitPrecision). Strings are printed as given, unescaped, so scenario,
//     metric and unit names must not need JSON escaping. Docs and scripts
//     parse these lines; their shape does not change.
//   - Progress and diagnostics go to stderr, never stdout.
//   - A bench fails by exiting non-zero. Die(message) prints
//     "<program>: <message>" on stderr and exits with status 1; <program> is
//     the executable's base name (glibc's program_invocation_short_name), so
//     no set-up call is needed. A failed check after the load is reported on
//     stderr and turns the exit status non-zero without Die.
//
// parquet_bench is the exception: it prints one raw JSON object per command
// for bench/parquet_vs_duckdb.mjs and uses only Seconds from here.
#pragma once

#include <errno.h>  // program_invocation_short_name (_GNU_SOURCE, set by g++)

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

// Prints "<program>: <message>" on stderr and exits with status 1.
[[noreturn]] inline void Die(const std::string& message) {
  std::cerr << program_invocation_short_name << ": " << message << "\n";
  std::exit(1);
}

// The Accept-Encoding a Python client sends (requests over urllib3 with
// brotli installed, so pyhoglake): every bench's HTTP client sends it, so the
// benches see the server as pyhoglake does (the server answers identity).
inline constexpr const char* kClientAcceptEncoding = "gzip, deflate, br";

// Seconds elapsed on the steady clock since `since`.
inline double Seconds(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

// The value at fraction p (0..1) of the samples, nearest rank; 0 when empty.
inline double Percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<size_t>(p * static_cast<double>(v.size())))];
}

// Decimal places of a line's value and ratio: %.4f for every bench but
// append_bench, whose lines have always used %.1f and %.3f.
struct EmitPrecision {
  int value = 4;
  int ratio = 4;
};

// Prints one measurement line (the format above) on stdout and flushes it.
inline void Emit(const std::string& scenario, const std::string& metric, double value,
                 const std::string& unit, std::optional<double> ratio = std::nullopt,
                 EmitPrecision precision = {}) {
  std::printf("{\"scenario\":\"%s\",\"metric\":\"%s\",\"value\":%.*f,\"unit\":\"%s\"",
              scenario.c_str(), metric.c_str(), precision.value, value, unit.c_str());
  if (ratio) std::printf(",\"ratio\":%.*f", precision.ratio, *ratio);
  std::printf("}\n");
  std::fflush(stdout);
}
