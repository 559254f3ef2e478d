// What every SDK-backed CLI command shares: the server URL, --json, name
// parsing, error reporting and human tables.
//
// Names: tables and views are `catalog.namespace.name`, namespaces
// `catalog.namespace`. Exit codes: 0 ok, 1 the operation failed (the
// server's error code and message on stderr), 2 usage (CLI11 and name
// syntax).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cli/commands.h"
#include "client/client.h"
#include "common/status.h"

namespace hoglake::cli {

// The server the client commands talk to: --url, else $HOGLAKE_URL, else
// http://127.0.0.1:8080.
std::string ServerUrl(const CommandContext& context);
client::HoglakeClient MakeClient(const CommandContext& context);
// The SDK's options for the CLI: HOGLAKE_API_TOKEN as the bearer token.
client::ClientOptions MakeClientOptions();

struct QualifiedName {
  std::string catalog;
  std::string namespace_name;
  std::string name;  // empty for a namespace
};
// Splits "c.ns.t" (parts = 3) or "c.ns" (parts = 2); kInvalidArgument otherwise.
Result<QualifiedName> ParseQualifiedName(std::string_view text, int parts);

// Runs `body`; an error goes to stderr as "hoglake: <code>: <message>" and
// sets exit code 1 (2 for kInvalidArgument: a usage mistake).
void RunCommand(CommandContext& context, const std::function<Status()>& body);

// A column-aligned text table on stdout.
void PrintTable(const std::vector<std::string>& headers,
                const std::vector<std::vector<std::string>>& rows);
// A JSON array of the given compact JSON objects, one per line.
void PrintJsonArray(const std::vector<std::string>& objects);

std::string Or(const std::optional<int64_t>& value, std::string_view absent = "-");
std::string Or(const std::optional<std::string>& value, std::string_view absent = "-");
// ('101', null) style partition tuple text.
std::string TupleText(const std::optional<std::vector<std::optional<std::string>>>& values);
// "1.2 MiB"
std::string HumanBytes(int64_t bytes);

// Resolves a table by qualified name (one GET).
Result<client::Table> OpenTable(client::HoglakeClient& client, const QualifiedName& name);

}  // namespace hoglake::cli
