// Subcommand registration for the `hoglake` executable. Each Register*
// function adds one command group to the app; its callbacks set
// `context.exit_code` (0 ok, 1 failure) and write errors to stderr.
#pragma once

#include <string>

namespace CLI {
class App;
}

namespace hoglake::cli {

struct CommandContext {
  int exit_code = 0;
  std::string url;  // --url: the server client commands talk to
};

// `hoglake serve`: the control plane.
void RegisterServeCommand(CLI::App& app, CommandContext& context);
// `hoglake arrow …`: inspect and produce Arrow IPC streams.
void RegisterArrowCommands(CLI::App& app, CommandContext& context);
// `hoglake parquet …`: inspect Parquet footers and print rows.
void RegisterParquetCommands(CLI::App& app, CommandContext& context);
// catalog, namespace, table, view, snapshots, offset, expire, cleanup,
// retention: the catalog through the SDK.
void RegisterCatalogCommands(CLI::App& app, CommandContext& context);
// append, files, scan, changes: data through the SDK.
void RegisterDataCommands(CLI::App& app, CommandContext& context);
// `hoglake sql`: SQL over the lake, run in this process or on a server
// (a query, a script or an interactive prompt).
void RegisterSqlCommand(CLI::App& app, CommandContext& context);
// `hoglake query-runs …`, `hoglake results …`: the server's query API.
void RegisterQueryCommands(CLI::App& app, CommandContext& context);

}  // namespace hoglake::cli
