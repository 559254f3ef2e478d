// Settings from the environment, read in one place by one rule.
//
// hoglake is configured by flags and environment variables only. Every
// variable it reads is listed once in EnvironmentVariables() with its
// default and meaning; docs/operations.md shows the same list, and a test
// checks the two (and the source) against each other.
//
// EnvReader is the only reader. A variable that is unset or blank takes its
// default. A set one must be valid — an integer within the range the caller
// names, or a boolean (1/0, true/false, yes/no, on/off) — otherwise the
// reader records an error naming the variable and its value and returns the
// default; status() then reports every such error, and `hoglake serve` stops
// before it starts anything. Libraries never read the environment: they
// receive options structs filled from a reader (cli/serve_config.h).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace hoglake {

struct EnvVariable {
  std::string_view name;
  std::string_view default_value;  // as a person would read it ("60000", "(none)")
  std::string_view meaning;
};

// Every environment variable hoglake reads (the server, the CLI and the SDK),
// sorted by name.
std::span<const EnvVariable> EnvironmentVariables();

class EnvReader {
 public:
  // Looks a name up: nullopt when unset.
  using Lookup = std::function<std::optional<std::string>(std::string_view name)>;

  // Reads the process environment.
  EnvReader();
  explicit EnvReader(Lookup lookup);

  // A decimal integer in [min, max]; `fallback` when unset or blank.
  int64_t Integer(std::string_view name, int64_t fallback, int64_t min, int64_t max);
  // A boolean; `fallback` when unset or blank.
  bool Boolean(std::string_view name, bool fallback);
  // The text as given; `fallback` when unset or blank.
  std::string Text(std::string_view name, std::string fallback = {});

  // Records a problem found by the caller in a value it read (a list that
  // does not parse, say), attributed to variable `name`.
  void AddError(std::string_view name, std::string_view message);

  // Ok, or one InvalidArgument error naming every bad variable.
  Status status() const;

 private:
  // The value when set and not blank; a name missing from
  // EnvironmentVariables() is recorded as an error (a programming slip the
  // tests catch).
  std::optional<std::string> Get(std::string_view name);

  Lookup lookup_;
  std::vector<std::string> errors_;
};

}  // namespace hoglake
