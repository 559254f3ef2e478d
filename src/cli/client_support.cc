// Shared plumbing of the SDK-backed CLI commands (client_support.h).
#include "cli/client_support.h"

#include <cstdio>
#include <cstdlib>
#include <iostream>

#include "common/config.h"

namespace hoglake::cli {

std::string ServerUrl(const CommandContext& context) {
  if (!context.url.empty()) return context.url;
  EnvReader env;
  return env.Text("HOGLAKE_URL", "http://127.0.0.1:8080");
}

client::ClientOptions MakeClientOptions() {
  client::ClientOptions options;
  EnvReader env;
  options.bearer_token = env.Text("HOGLAKE_API_TOKEN");
  return options;
}

client::HoglakeClient MakeClient(const CommandContext& context) {
  return client::HoglakeClient(ServerUrl(context), {}, MakeClientOptions());
}

Result<QualifiedName> ParseQualifiedName(std::string_view text, int parts) {
  std::vector<std::string> pieces;
  size_t start = 0;
  while (true) {
    const size_t dot = text.find('.', start);
    pieces.emplace_back(
        text.substr(start, dot == std::string_view::npos ? text.npos : dot - start));
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  bool empty_piece = false;
  for (const auto& p : pieces) empty_piece = empty_piece || p.empty();
  if (static_cast<int>(pieces.size()) != parts || empty_piece) {
    return InvalidArgument("'", text, "' is not a ",
                           parts == 3 ? "catalog.namespace.name" : "catalog.namespace", " name");
  }
  QualifiedName name{pieces[0], pieces[1], parts == 3 ? pieces[2] : ""};
  return name;
}

void RunCommand(CommandContext& context, const std::function<Status()>& body) {
  Status status = body();
  if (status.ok()) return;
  std::cout.flush();
  // Server errors already begin with their code ("not_found: … (HTTP 404)").
  const Error& error = status.error();
  const std::string wire = std::string(InfoFor(error.code).wire_name) + ":";
  const std::string name = std::string(ErrorCodeName(error.code)) + ":";
  const bool coded = error.message.starts_with(wire) || error.message.starts_with(name);
  std::cerr << "hoglake: " << (coded ? error.message : status.ToString()) << "\n";
  context.exit_code = status.error().code == ErrorCode::kInvalidArgument ? 2 : 1;
}

void PrintTable(const std::vector<std::string>& headers,
                const std::vector<std::vector<std::string>>& rows) {
  std::vector<size_t> widths(headers.size());
  for (size_t i = 0; i < headers.size(); ++i) widths[i] = headers[i].size();
  for (const auto& row : rows) {
    for (size_t i = 0; i < row.size() && i < widths.size(); ++i) {
      widths[i] = std::max(widths[i], row[i].size());
    }
  }
  auto print_row = [&](const std::vector<std::string>& row) {
    std::string line;
    for (size_t i = 0; i < headers.size(); ++i) {
      const std::string& cell = i < row.size() ? row[i] : std::string();
      line += cell;
      if (i + 1 < headers.size()) line += std::string(widths[i] - cell.size() + 2, ' ');
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    std::cout << line << "\n";
  };
  print_row(headers);
  for (const auto& row : rows) print_row(row);
}

void PrintJsonArray(const std::vector<std::string>& objects) {
  std::cout << "[";
  for (size_t i = 0; i < objects.size(); ++i) {
    std::cout << (i ? ",\n " : "") << objects[i];
  }
  std::cout << "]\n";
}

std::string Or(const std::optional<int64_t>& value, std::string_view absent) {
  return value ? std::to_string(*value) : std::string(absent);
}
std::string Or(const std::optional<std::string>& value, std::string_view absent) {
  return value ? *value : std::string(absent);
}

std::string TupleText(const std::optional<std::vector<std::optional<std::string>>>& values) {
  if (!values) return "-";
  std::string out = "(";
  for (size_t i = 0; i < values->size(); ++i) {
    if (i) out += ", ";
    out += (*values)[i] ? "'" + *(*values)[i] + "'" : "null";
  }
  return out + ")";
}

std::string HumanBytes(int64_t bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double value = static_cast<double>(bytes);
  int unit = 0;
  while (value >= 1024 && unit < 4) {
    value /= 1024;
    ++unit;
  }
  char text[32];
  std::snprintf(text, sizeof text, unit == 0 ? "%.0f %s" : "%.1f %s", value, units[unit]);
  return text;
}

Result<client::Table> OpenTable(client::HoglakeClient& client, const QualifiedName& name) {
  HOGLAKE_ASSIGN_OR_RETURN(client::Catalog catalog, client.GetCatalog(name.catalog));
  return catalog.GetTable(name.namespace_name, name.name);
}

}  // namespace hoglake::cli
