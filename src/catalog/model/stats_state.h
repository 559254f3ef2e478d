// The closed vocabulary of a data file's statistics state (contract §2.9):
// provided at commit, pending (deferred to the hydrator), or failed (the
// hydrator could not read them). The SQL CHECK on hog_data_file.stats_state
// must list exactly these (vocabulary_test checks it); outside the SQL and
// the wire the state is this enum, never a string.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

namespace hoglake::catalog {

enum class StatsState { kProvided, kPending, kFailed };

std::string_view StatsStateName(StatsState state);
std::optional<StatsState> ParseStatsState(std::string_view name);
const std::vector<StatsState>& AllStatsStates();

}  // namespace hoglake::catalog
