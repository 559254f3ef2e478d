#include "catalog/model/stats_state.h"

namespace hoglake::catalog {

std::string_view StatsStateName(StatsState state) {
  switch (state) {
    case StatsState::kProvided:
      return "provided";
    case StatsState::kPending:
      return "pending";
    case StatsState::kFailed:
      return "failed";
  }
  return "?";
}

const std::vector<StatsState>& AllStatsStates() {
  static const std::vector<StatsState> kAll = {StatsState::kProvided, StatsState::kPending,
                                               StatsState::kFailed};
  return kAll;
}

std::optional<StatsState> ParseStatsState(std::string_view name) {
  for (StatsState state : AllStatsStates()) {
    if (StatsStateName(state) == name) return state;
  }
  return std::nullopt;
}

}  // namespace hoglake::catalog
