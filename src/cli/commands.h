// Subcommand registration for the `hoglake` executable. Each Register*
// function adds one command group to the app; its callbacks set
// `context.exit_code` (0 ok, 1 failure) and write errors to stderr.
#pragma once

namespace CLI {
class App;
}

namespace hoglake::cli {

struct CommandContext {
  int exit_code = 0;
};

// `hoglake serve`: the control plane.
void RegisterServeCommand(CLI::App& app, CommandContext& context);
// `hoglake arrow …`: inspect and produce Arrow IPC streams.
void RegisterArrowCommands(CLI::App& app, CommandContext& context);
// `hoglake parquet …`: inspect Parquet footers and print rows.
void RegisterParquetCommands(CLI::App& app, CommandContext& context);

}  // namespace hoglake::cli
