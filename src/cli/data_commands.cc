// Data through the SDK:
//   append CAT.NS.T FILE… [--format csv|jsonl|parquet] [--batch-rows N]
//          [--author A] [--message M] [--deferred-stats] [--unguarded]
//          [--row-group-rows N] [--json]
//     CSV (header line) and JSON lines are converted to the table's types
//     (columnar/text/text_import.h: errors name the file, line and column);
//     Parquet files are read and fitted to the table like any batch. All
//     files become ONE commit (one file per partition tuple); nothing is
//     registered if any value is refused. On a terminal, stderr shows a
//     progress bar (share of input bytes read), rows and rows/s.
//   files CAT.NS.T [--snapshot N | --at TS] [--limit N] [--offset N]
//         [--sort KEY] [--order asc|desc] [--json]
//   scan CAT.NS.T [--snapshot N | --at TS] [--json]
//   changes CAT.NS.T --from N [--to M] [--json]
#include <unistd.h>
#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>

#include "cli/client_support.h"
#include "client/writer_schema.h"
#include "columnar/text/text_import.h"
#include "common/json_writer.h"
#include "parquet/reader.h"

namespace hoglake::cli {
namespace {

enum class InputFormat { kCsv, kJsonLines, kParquet };

Result<InputFormat> FormatOf(const std::string& path, const std::string& forced) {
  std::string name = forced;
  if (name.empty()) {
    const size_t dot = path.rfind('.');
    name = dot == std::string::npos ? "" : path.substr(dot + 1);
  }
  if (name == "csv") return InputFormat::kCsv;
  if (name == "jsonl" || name == "ndjson" || name == "json") return InputFormat::kJsonLines;
  if (name == "parquet") return InputFormat::kParquet;
  return InvalidArgument("cannot tell the format of '", path,
                         "': use --format csv, jsonl or parquet");
}

// Batches from a list of files, one file after the other.
class FileBatches {
 public:
  FileBatches(std::vector<std::string> paths, std::string format, columnar::SchemaPtr target,
              int64_t batch_rows)
      : paths_(std::move(paths)),
        format_(std::move(format)),
        target_(std::move(target)),
        batch_rows_(batch_rows) {
    for (const std::string& path : paths_) {
      std::error_code ec;
      const auto size = std::filesystem::file_size(path, ec);
      sizes_.push_back(ec ? 0 : static_cast<int64_t>(size));
      total_bytes_ += sizes_.back();
    }
  }

  Result<std::optional<columnar::RecordBatch>> Next() {
    while (true) {
      if (!text_ && !parquet_) {
        if (next_file_ == paths_.size()) return std::optional<columnar::RecordBatch>();
        HOGLAKE_RETURN_IF_ERROR(OpenNext());
      }
      auto batch = text_ ? text_->Next() : parquet_->Next();
      if (!batch.ok()) {
        Error error = batch.error();
        error.message = paths_[next_file_ - 1] + ": " + error.message;
        return error;
      }
      if (*batch) {
        rows_ += (*batch)->num_rows;
        if (parquet_) ++row_groups_read_;
        return batch;
      }
      done_bytes_ += sizes_[next_file_ - 1];
      text_.reset();
      parquet_.reset();
      stream_.reset();
    }
  }
  int64_t rows() const { return rows_; }
  int64_t total_bytes() const { return total_bytes_; }
  // Input bytes consumed so far (text: the stream position; Parquet: the
  // share of row groups read), for the progress bar.
  int64_t bytes_read() const {
    int64_t current = 0;
    if (text_ && stream_) {
      const auto pos = stream_->tellg();
      current = pos < 0 ? sizes_[next_file_ - 1] : static_cast<int64_t>(pos);
    } else if (parquet_ && parquet_->num_row_groups() > 0) {
      current = sizes_[next_file_ - 1] * row_groups_read_ / parquet_->num_row_groups();
    }
    return done_bytes_ + current;
  }

 private:
  Status OpenNext() {
    const std::string& path = paths_[next_file_++];
    HOGLAKE_ASSIGN_OR_RETURN(InputFormat format, FormatOf(path, format_));
    if (format == InputFormat::kParquet) {
      auto reader = parquet::ParquetReader::OpenFile(path);
      if (!reader.ok()) return Validation(path, ": ", reader.error().message);
      parquet_ = std::move(reader).value();
      row_groups_read_ = 0;
      return Status::Ok();
    }
    auto stream = std::make_unique<std::ifstream>(path, std::ios::binary);
    if (!*stream) return InvalidArgument("cannot open ", path);
    columnar::text::TextImportOptions options;
    options.batch_rows = batch_rows_;
    auto reader = columnar::text::TextBatchReader::Open(
        stream.get(),
        format == InputFormat::kCsv ? columnar::text::TextFormat::kCsv
                                    : columnar::text::TextFormat::kJsonLines,
        target_, options);
    if (!reader.ok()) return Validation(path, ": ", reader.error().message);
    stream_ = std::move(stream);
    text_ = std::move(reader).value();
    return Status::Ok();
  }

  std::vector<std::string> paths_;
  std::string format_;
  columnar::SchemaPtr target_;
  int64_t batch_rows_;
  size_t next_file_ = 0;
  std::unique_ptr<std::ifstream> stream_;
  std::unique_ptr<columnar::text::TextBatchReader> text_;
  std::unique_ptr<parquet::ParquetReader> parquet_;
  int64_t rows_ = 0;
  std::vector<int64_t> sizes_;
  int64_t total_bytes_ = 0;
  int64_t done_bytes_ = 0;
  int64_t row_groups_read_ = 0;
};

// "\r[########............] 42%  1234567 rows  98000 rows/s" on stderr.
void DrawProgress(const FileBatches& batches, double seconds) {
  constexpr int kWidth = 30;
  const int64_t total = batches.total_bytes();
  const double fraction =
      total > 0 ? std::min(1.0, static_cast<double>(batches.bytes_read()) / total) : 0.0;
  const int filled = static_cast<int>(fraction * kWidth);
  std::string bar = "[" + std::string(static_cast<size_t>(filled), '#') +
                    std::string(static_cast<size_t>(kWidth - filled), '.') + "]";
  std::fprintf(stderr, "\r%s %3.0f%%  %lld rows  %.0f rows/s ", bar.c_str(), fraction * 100,
               static_cast<long long>(batches.rows()),
               seconds > 0 ? static_cast<double>(batches.rows()) / seconds : 0.0);
}

void PrintFiles(const std::vector<client::DataFile>& files, bool json) {
  if (json) {
    std::vector<std::string> objects;
    for (const auto& f : files) objects.push_back(f.json);
    PrintJsonArray(objects);
    return;
  }
  std::vector<std::vector<std::string>> rows;
  for (const auto& f : files) {
    rows.push_back({std::to_string(f.data_file_id), std::to_string(f.record_count),
                    HumanBytes(f.file_size_bytes), TupleText(f.partition_values),
                    std::to_string(f.begin_snapshot), f.stats_state, f.path});
  }
  PrintTable({"file_id", "rows", "size", "partition", "snapshot", "stats", "path"}, rows);
}

struct Flags {
  std::string table;
  std::vector<std::string> inputs;
  std::string format;
  int64_t batch_rows = 100000;
  int64_t row_group_rows = 0;
  std::optional<std::string> author, message;
  bool deferred = false, unguarded = false, json = false;
  std::optional<int64_t> snapshot, limit, offset;
  std::optional<std::string> at, sort, order;
  int64_t from = 0;
  std::optional<int64_t> to;
};

}  // namespace

void RegisterDataCommands(CLI::App& app, CommandContext& context) {
  static Flags f;

  auto* append = app.add_subcommand("append", "append CSV, JSON lines or Parquet files to a table");
  append->add_option("table", f.table, "catalog.namespace.table")->required();
  append->add_option("files", f.inputs, "input files")->required();
  append->add_option("--format", f.format, "csv, jsonl or parquet (default: by extension)");
  append->add_option("--batch-rows", f.batch_rows, "rows per batch read from text input");
  append->add_option("--row-group-rows", f.row_group_rows, "rows per Parquet row group written");
  append->add_option("--author", f.author, "recorded on the snapshot");
  append->add_option("--message", f.message, "recorded on the snapshot");
  append->add_flag("--deferred-stats", f.deferred, "let the server read the statistics later");
  append->add_flag("--unguarded", f.unguarded, "skip the table-incarnation guard");
  append->add_flag("--json", f.json, "machine output");
  append->callback([&context] {
    RunCommand(context, [&]() -> Status {
      if (f.batch_rows < 1) return InvalidArgument("--batch-rows must be at least 1");
      HOGLAKE_ASSIGN_OR_RETURN(QualifiedName q, ParseQualifiedName(f.table, 3));
      for (const std::string& path : f.inputs) {
        HOGLAKE_RETURN_IF_ERROR(FormatOf(path, f.format).status());
      }
      auto client = MakeClient(context);
      HOGLAKE_ASSIGN_OR_RETURN(client::Table table, OpenTable(client, q));
      HOGLAKE_ASSIGN_OR_RETURN(columnar::SchemaPtr target,
                               client::WriterSchema(table.info().columns));
      FileBatches batches(f.inputs, f.format, target, f.batch_rows);
      const bool progress = isatty(STDERR_FILENO) && !f.json;
      const auto start = std::chrono::steady_clock::now();
      client::AppendOptions options;
      options.author = f.author;
      options.message = f.message;
      options.deferred_stats = f.deferred;
      options.unguarded = f.unguarded;
      options.row_group_rows = f.row_group_rows;
      auto result = table.Append(
          [&]() -> Result<std::optional<columnar::RecordBatch>> {
            auto batch = batches.Next();
            if (progress && batch.ok()) {
              DrawProgress(
                  batches,
                  std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
            }
            return batch;
          },
          options);
      if (progress) std::fprintf(stderr, "\n");
      if (!result.ok()) return result.status();
      if (f.json) {
        JsonWriter w;
        w.BeginObject();
        w.Field("snapshot_id", result->snapshot_id);
        w.OptionalField("schema_version", result->schema_version);
        w.Key("files");
        w.BeginArray();
        for (const auto& file : result->files) {
          w.BeginObject();
          w.Field("path", std::string_view(file.path));
          w.Field("record_count", file.record_count);
          w.Field("file_size_bytes", file.file_size_bytes);
          w.OptionalField("partition_values", file.partition_values);
          w.EndObject();
        }
        w.EndArray();
        w.EndObject();
        std::cout << w.Take() << "\n";
        return Status::Ok();
      }
      int64_t rows = 0;
      std::vector<std::vector<std::string>> table_rows;
      for (const auto& file : result->files) {
        rows += file.record_count;
        table_rows.push_back({std::to_string(file.record_count), HumanBytes(file.file_size_bytes),
                              TupleText(file.partition_values), file.path});
      }
      std::cout << "appended " << rows << " row(s) to " << f.table << " in " << result->files.size()
                << " file(s): snapshot " << result->snapshot_id << "\n";
      PrintTable({"rows", "size", "partition", "path"}, table_rows);
      return Status::Ok();
    });
  });

  auto* files = app.add_subcommand("files", "list a table's live data files");
  files->add_option("table", f.table, "catalog.namespace.table")->required();
  files->add_option("--snapshot", f.snapshot, "as of this snapshot id");
  files->add_option("--at", f.at, "as of this instant (ISO-8601)");
  files->add_option("--limit", f.limit, "at most this many files");
  files->add_option("--offset", f.offset, "skip this many files");
  files->add_option("--sort", f.sort, "id, path, record_count, size, stats, begin_snapshot");
  files->add_option("--order", f.order, "asc or desc");
  files->add_flag("--json", f.json, "machine output");
  files->callback([&context] {
    RunCommand(context, [&]() -> Status {
      HOGLAKE_ASSIGN_OR_RETURN(QualifiedName q, ParseQualifiedName(f.table, 3));
      auto client = MakeClient(context);
      HOGLAKE_ASSIGN_OR_RETURN(client::Table table, OpenTable(client, q));
      client::Table::FilesQuery query{f.limit, f.offset, f.sort, f.order};
      HOGLAKE_ASSIGN_OR_RETURN(auto list, table.Files({f.snapshot, f.at}, query));
      PrintFiles(list, f.json);
      return Status::Ok();
    });
  });

  auto* scan = app.add_subcommand("scan", "plan a scan: live files with their deletion vectors");
  scan->add_option("table", f.table, "catalog.namespace.table")->required();
  scan->add_option("--snapshot", f.snapshot, "as of this snapshot id");
  scan->add_option("--at", f.at, "as of this instant (ISO-8601)");
  scan->add_flag("--json", f.json, "machine output");
  scan->callback([&context] {
    RunCommand(context, [&]() -> Status {
      HOGLAKE_ASSIGN_OR_RETURN(QualifiedName q, ParseQualifiedName(f.table, 3));
      auto client = MakeClient(context);
      HOGLAKE_ASSIGN_OR_RETURN(client::Table table, OpenTable(client, q));
      HOGLAKE_ASSIGN_OR_RETURN(auto plan, table.ScanPlan({f.snapshot, f.at}));
      if (f.json) {
        std::vector<std::string> objects;
        for (const auto& s : plan) objects.push_back(s.json);
        PrintJsonArray(objects);
        return Status::Ok();
      }
      std::vector<std::vector<std::string>> rows;
      int64_t total = 0;
      for (const auto& s : plan) {
        total += s.data_file.record_count;
        rows.push_back({std::to_string(s.data_file.record_count),
                        s.delete_file ? std::to_string(s.delete_file->delete_count) : "-",
                        TupleText(s.data_file.partition_values), s.data_file.path});
      }
      std::cout << plan.size() << " file(s), " << total << " row(s)\n";
      PrintTable({"rows", "deleted", "partition", "path"}, rows);
      return Status::Ok();
    });
  });

  auto* changes = app.add_subcommand("changes", "the files appended in (FROM, TO]");
  changes->add_option("table", f.table, "catalog.namespace.table")->required();
  changes->add_option("--from", f.from, "exclusive lower snapshot")->required();
  changes->add_option("--to", f.to, "inclusive upper snapshot (default head)");
  changes->add_flag("--json", f.json, "machine output");
  changes->callback([&context] {
    RunCommand(context, [&]() -> Status {
      HOGLAKE_ASSIGN_OR_RETURN(QualifiedName q, ParseQualifiedName(f.table, 3));
      auto client = MakeClient(context);
      HOGLAKE_ASSIGN_OR_RETURN(client::Table table, OpenTable(client, q));
      HOGLAKE_ASSIGN_OR_RETURN(auto plan, table.Changes(f.from, f.to));
      if (f.json) {
        std::cout << plan.json << "\n";
        return Status::Ok();
      }
      std::cout << "changes of " << f.table << " in (" << plan.from_snapshot << ", "
                << plan.to_snapshot << "]: " << plan.files.size() << " file(s), "
                << plan.delete_files.size() << " deletion vector(s)\n";
      std::vector<std::vector<std::string>> rows;
      for (const auto& file : plan.files) {
        rows.push_back({std::to_string(file.begin_snapshot), std::to_string(file.row_id_start),
                        std::to_string(file.record_count), TupleText(file.partition_values),
                        file.path});
      }
      PrintTable({"snapshot", "row_id_start", "rows", "partition", "path"}, rows);
      return Status::Ok();
    });
  });
}

}  // namespace hoglake::cli
