// `hoglake arrow`: Arrow IPC stream tools.
//   arrow cat FILE            rows as JSON lines (see columnar/json_rows.h)
//   arrow schema FILE [--json]  the schema, with field ids and extension names
//   arrow demo OUT            writes a small stream holding every column type
// FILE "-" reads standard input; OUT "-" writes standard output.
#include <CLI/CLI.hpp>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <optional>

#include "cli/commands.h"
#include "cli/demo_batch.h"
#include "columnar/ipc/ipc_reader.h"
#include "columnar/ipc/ipc_writer.h"
#include "columnar/json_rows.h"
#include "columnar/schema_json.h"

namespace hoglake::cli {
namespace {

Status WriteOutput(const std::string& path, std::string_view bytes) {
  if (path == "-") {
    std::cout.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    std::cout.flush();
    return std::cout ? Status::Ok() : Status(IoError("cannot write standard output"));
  }
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out) return IoError("cannot write '", path, "'");
  return Status::Ok();
}

// Runs `body`; prints its error and sets the exit code on failure.
void Run(CommandContext& context, const std::function<Status()>& body) {
  Status status = body();
  if (!status.ok()) {
    std::cerr << "hoglake: " << status.ToString() << "\n";
    context.exit_code = 1;
  }
}

// Opens `path` ("-" = standard input) for streaming reads.
Result<std::unique_ptr<std::FILE, int (*)(std::FILE*)>> OpenInput(const std::string& path) {
  using Handle = std::unique_ptr<std::FILE, int (*)(std::FILE*)>;
  if (path == "-") return Handle(stdin, [](std::FILE*) { return 0; });
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) return IoError("cannot open '", path, "': ", std::strerror(errno));
  return Handle(file, &std::fclose);
}

// Streams the rows out batch by batch: memory stays at one batch.
Status Cat(const std::string& path) {
  HOGLAKE_ASSIGN_OR_RETURN(auto file, OpenInput(path));
  columnar::IpcStreamReader reader(file.get());
  std::string out;
  while (true) {
    HOGLAKE_ASSIGN_OR_RETURN(std::optional<columnar::RecordBatch> batch, reader.Next());
    if (!batch) break;
    out.clear();
    columnar::AppendJsonLines(*batch, &out);
    std::fwrite(out.data(), 1, out.size(), stdout);
  }
  return std::fflush(stdout) == 0 ? Status::Ok() : Status(IoError("cannot write standard output"));
}

Status PrintSchema(const std::string& path, bool json) {
  HOGLAKE_ASSIGN_OR_RETURN(auto file, OpenInput(path));
  columnar::IpcStreamReader reader(file.get());
  HOGLAKE_ASSIGN_OR_RETURN(columnar::SchemaPtr schema, reader.ReadSchema());
  if (json) {
    std::string out;
    columnar::AppendSchemaJson(*schema, &out);
    std::cout << out << "\n";
    return Status::Ok();
  }
  int64_t batches = 0;
  int64_t rows = 0;
  while (true) {
    HOGLAKE_ASSIGN_OR_RETURN(std::optional<columnar::RecordBatch> batch, reader.Next());
    if (!batch) break;
    ++batches;
    rows += batch->num_rows;
  }
  std::cout << schema->ToString();
  for (const auto& [key, value] : schema->metadata) {
    std::cout << "-- schema metadata: " << key << " = " << value << "\n";
  }
  std::cout << "-- " << batches << " record batches, " << rows << " rows\n";
  return Status::Ok();
}

Status Demo(const std::string& path) {
  HOGLAKE_ASSIGN_OR_RETURN(columnar::RecordBatch batch, MakeDemoBatch());
  HOGLAKE_ASSIGN_OR_RETURN(std::string bytes, columnar::WriteIpcStream(*batch.schema, {batch}));
  return WriteOutput(path, bytes);
}

}  // namespace

void RegisterArrowCommands(CLI::App& app, CommandContext& context) {
  auto* arrow = app.add_subcommand("arrow", "Read and write Arrow IPC streams");
  arrow->require_subcommand(1);

  auto* cat = arrow->add_subcommand("cat", "Print the rows of an Arrow IPC stream as JSON lines");
  static std::string cat_path;
  cat->add_option("FILE", cat_path, "Arrow IPC stream file, or - for standard input")->required();
  cat->callback([&context] { Run(context, [] { return Cat(cat_path); }); });

  auto* schema = arrow->add_subcommand("schema", "Print the schema of an Arrow IPC stream");
  static std::string schema_path;
  static bool schema_json = false;
  schema->add_option("FILE", schema_path, "Arrow IPC stream file, or - for standard input")
      ->required();
  schema->add_flag("--json", schema_json, "Machine-readable JSON output");
  schema->callback(
      [&context] { Run(context, [] { return PrintSchema(schema_path, schema_json); }); });

  auto* demo = arrow->add_subcommand("demo", "Write a small Arrow IPC stream of every column type");
  static std::string demo_path;
  demo->add_option("OUT", demo_path, "Output file, or - for standard output")->required();
  demo->callback([&context] { Run(context, [] { return Demo(demo_path); }); });
}

}  // namespace hoglake::cli
