// append_bench: the SDK writer path (Table::Append) against the raw Parquet
// writer on the same data in the same run.
//
//   append_bench [--quick] [--rows N] [--batch-rows N] [--hoglake PATH] [--url URL]
//
// Generates the 6-column events table in memory (not timed), then:
//   raw     ParquetWriter writes each batch to its own local file;
//   append  Table::Append commits each batch to a file:// catalog (one file
//           and one commit per batch: validate, write, upload, stats, commit).
// Prints one JSON line per measurement ({"scenario","metric","value","unit"
// [,"ratio"]}); the append line's ratio is append rows/s ÷ raw rows/s. After
// the load it checks that the table holds exactly the appended rows in one
// file per batch, every file present with its recorded size, and exits
// non-zero otherwise. Without --url it starts `hoglake serve` (embedded
// PostgreSQL) on a temporary directory.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <thread>
#include <vector>

#include "client/client.h"
#include "columnar/builder.h"
#include "parquet/writer.h"

#include "bench_report.h"
#include "bench_server.h"

namespace {

using namespace hoglake;
using Clock = std::chrono::steady_clock;

// append_bench's lines: scenario "writer_path", value %.1f, ratio %.3f.
constexpr EmitPrecision kWriterPath{1, 3};

columnar::RecordBatch EventsBatch(int64_t first, int64_t rows) {
  using namespace columnar;
  static const SchemaPtr schema =
      std::make_shared<Schema>(Schema{{{"id", Int64(), true, {}},
                                       {"team_id", Int64(), true, {}},
                                       {"ts", Timestamp(TimeUnit::kMicro), true, {}},
                                       {"event", Utf8(), true, {}},
                                       {"distinct_id", Utf8(), true, {}},
                                       {"value", Float64(), true, {}}},
                                      {}});
  Int64Builder id, team;
  TimestampBuilder ts(Timestamp(TimeUnit::kMicro));
  StringBuilder event, distinct;
  Float64Builder value;
  char text[32];
  for (int64_t i = first; i < first + rows; ++i) {
    id.Append(i);
    team.Append((i * 31) % 1000);
    ts.Append(1700000000000000 + i * 1000);
    int n = std::snprintf(text, sizeof(text), "event_%lld", static_cast<long long>((i * 13) % 50));
    event.Append(std::string_view(text, static_cast<size_t>(n)));
    n = std::snprintf(text, sizeof(text), "user_%lld",
                      static_cast<long long>((i * 2654435761LL) % 1000003));
    distinct.Append(std::string_view(text, static_cast<size_t>(n)));
    value.Append(static_cast<double>((i * 37) % 100000) / 100.0);
  }
  std::vector<ArrayPtr> columns;
  for (ArrayBuilder* b :
       std::initializer_list<ArrayBuilder*>{&id, &team, &ts, &event, &distinct, &value}) {
    columns.push_back(*b->Finish());
  }
  return *MakeRecordBatch(schema, std::move(columns));
}

}  // namespace

int main(int argc, char** argv) {
  int64_t rows = 10'000'000, batch_rows = 100'000;
  std::string hoglake_bin = "build/src/cli/hoglake", url;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) Die(arg + " needs a value");
      return argv[++i];
    };
    if (arg == "--quick") {
      rows = 1'000'000;
    } else if (arg == "--rows") {
      rows = std::stoll(value());
    } else if (arg == "--batch-rows") {
      batch_rows = std::stoll(value());
    } else if (arg == "--hoglake") {
      hoglake_bin = value();
    } else if (arg == "--url") {
      url = value();
    } else {
      Die("unknown argument " + arg);
    }
  }

  BenchServer server;
  std::string dir;
  if (url.empty()) {
    server = BenchServer::Start("append_bench", hoglake_bin);
    url = server.url;
    dir = server.dir;
  } else {
    char pattern[] = "/tmp/hoglake-append-bench-XXXXXX";
    if (!mkdtemp(pattern)) Die("mkdtemp failed");
    dir = pattern;
  }

  std::vector<columnar::RecordBatch> batches;
  for (int64_t first = 0; first < rows; first += batch_rows) {
    batches.push_back(EventsBatch(first, std::min(batch_rows, rows - first)));
  }

  // Reference: the raw writer, one local file per batch (after an untimed
  // warm-up pass over a few batches, so neither side pays first-touch costs).
  std::filesystem::create_directories(dir + "/raw");
  for (size_t i = 0; i < std::min<size_t>(5, batches.size()); ++i) {
    auto writer = parquet::ParquetWriter::OpenFile(dir + "/raw/warm.parquet", batches[i].schema);
    if (!writer.ok() || !(*writer)->WriteBatch(batches[i]).ok() || !(*writer)->Close().ok()) {
      Die("raw write failed");
    }
  }
  const auto raw_start = Clock::now();
  for (size_t i = 0; i < batches.size(); ++i) {
    auto writer = parquet::ParquetWriter::OpenFile(dir + "/raw/" + std::to_string(i) + ".parquet",
                                                   batches[i].schema);
    if (!writer.ok() || !(*writer)->WriteBatch(batches[i]).ok() || !(*writer)->Close().ok()) {
      Die("raw write failed");
    }
  }
  const double raw_rate = static_cast<double>(rows) / Seconds(raw_start);
  Emit("writer_path", "raw_parquet_rows_per_second", raw_rate, "rows/s", std::nullopt, kWriterPath);

  client::HoglakeClient client(url);
  const std::string catalog_name = "bench" + std::to_string(getpid());
  auto catalog = client.CreateCatalog(catalog_name, "file://" + dir + "/bench-lake/");
  if (!catalog.ok()) Die(catalog.status().ToString());
  auto ns = catalog->CreateNamespace("bench");
  if (!ns.ok()) Die(ns.status().ToString());
  auto columns = client::ColumnDefsFromSchema(*batches[0].schema);
  if (!columns.ok()) Die(columns.status().ToString());
  auto table = ns->CreateTable("events", *columns);
  if (!table.ok()) Die(table.status().ToString());

  const auto append_start = Clock::now();
  for (const auto& batch : batches) {
    auto appended = table->Append(batch);
    if (!appended.ok()) Die(appended.status().ToString());
  }
  const double append_rate = static_cast<double>(rows) / Seconds(append_start);
  // No ratio when it is not a number (--rows 0), as before.
  const double ratio = append_rate / raw_rate;
  Emit("writer_path", "append_rows_per_second", append_rate, "rows/s",
       ratio >= 0 ? std::optional<double>(ratio) : std::nullopt, kWriterPath);

  // Invariants: one file per batch, every row there, every object present.
  auto fresh = ns->GetTable("events");
  auto files = fresh.ok() ? fresh->Files() : decltype(fresh->Files())(fresh.error());
  if (!files.ok()) Die(files.status().ToString());
  int64_t total = 0, next_row_id = 0;
  for (const auto& file : *files) {
    total += file.record_count;
    if (file.row_id_start != next_row_id) Die("row ids do not tile the table");
    next_row_id += file.record_count;
    const std::string local = file.path.substr(std::string("file://").size());
    std::error_code ec;
    if (std::filesystem::file_size(local, ec) != static_cast<uintmax_t>(file.file_size_bytes) ||
        ec) {
      Die("object missing or of the wrong size: " + file.path);
    }
    if (file.stats_state != "provided") Die("file without stats: " + file.path);
  }
  if (files->size() != batches.size() || total != rows) {
    Die("the table holds " + std::to_string(total) + " rows in " + std::to_string(files->size()) +
        " files; expected " + std::to_string(rows) + " in " + std::to_string(batches.size()));
  }
  server.Stop();
  std::filesystem::remove_all(dir);
  return 0;
}
