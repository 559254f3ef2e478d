// `hoglake arrow`: Arrow IPC stream tools.
#include <CLI/CLI.hpp>

#include "cli/commands.h"

namespace hoglake::cli {

void RegisterArrowCommands(CLI::App& app, CommandContext& context) {
  auto* arrow = app.add_subcommand("arrow", "Read and write Arrow IPC streams");
  arrow->require_subcommand(1);
  (void)context;
}

}  // namespace hoglake::cli
