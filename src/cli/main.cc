// The `hoglake` executable: one binary for the server, the SDK's command line
// and operator tools. Each subcommand lives in its own file and registers
// itself through a Register*Commands function declared in commands.h.
// Exit codes: 0 success, 1 the command failed, 2 usage error.
#include <CLI/CLI.hpp>

#include <iostream>

#include "cli/commands.h"

int main(int argc, char** argv) {
  CLI::App app{
      "hoglake — a lakehouse catalog service, a SQL service over the same lake,\n"
      "and the tools that write to it.",
      "hoglake"};
  app.set_version_flag("--version", std::string("hoglake ") + HOGLAKE_VERSION);
  app.require_subcommand(1);
  app.fallthrough();  // --url may follow the subcommand

  hoglake::cli::CommandContext context;
  app.add_option("--url", context.url,
                 "the hoglake server for client commands (default $HOGLAKE_URL, else "
                 "http://127.0.0.1:8080)");
  hoglake::cli::RegisterServeCommand(app, context);
  hoglake::cli::RegisterArrowCommands(app, context);
  hoglake::cli::RegisterParquetCommands(app, context);
  hoglake::cli::RegisterCatalogCommands(app, context);
  hoglake::cli::RegisterDataCommands(app, context);
  hoglake::cli::RegisterSqlCommand(app, context);
  hoglake::cli::RegisterQueryCommands(app, context);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? 0 : 2;
  }
  return context.exit_code;
}
