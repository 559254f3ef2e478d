// parquet_bench: the hoglake side of bench/parquet_vs_duckdb.mjs (issue 3's
// performance goals). It generates the 6-column events table, writes it with
// our writer, and reads Parquet files decoding every column. Each command
// prints one JSON object of raw measurements on stdout; the driver turns them
// into per-scenario JSON lines and ratios against DuckDB.
//
//   parquet_bench write OUT --rows N [--row-group-rows R] [--batch-rows B]
//                 [--stream] [--codec zstd|snappy|none] [--threads T]
//       Materializes the table as batches of B rows (default 65536), then
//       times WriteBatch + Close only. With --stream each batch is generated
//       just before it is written (the timed region then includes
//       generation) so that max_rss reflects the writer, not the input.
//   parquet_bench read FILE [--threads T]
//       Times reading every row group with every column decoded.
// --threads is the reader's/writer's thread option (default 0: hardware
// concurrency, capped; 1: single-threaded).
//
// The table (row i = 0..N-1), identical to the driver's DuckDB SQL:
//   id          int64   i
//   team_id     int64   (i * 31) % 1000
//   ts          timestamp[us]  1700000000000000 + i * 1000
//   event       utf8    'event_' || (i * 13) % 50
//   distinct_id utf8    'user_' || (i * 2654435761) % 1000003
//   value       double  ((i * 37) % 100000) / 100.0
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "columnar/builder.h"
#include "parquet/reader.h"
#include "parquet/writer.h"

#include "bench_report.h"

using namespace hoglake;
using namespace hoglake::columnar;

namespace {

// Peak resident set of this process. getrusage's ru_maxrss would do, but
// Linux carries the parent's high-water mark across fork+exec (a node driver
// of 150 MB would dominate it), so VmHWM of the current image is read first.
int64_t MaxRssBytes() {
  if (std::FILE* f = std::fopen("/proc/self/status", "r")) {
    char line[256];
    long long kb = -1;
    while (std::fgets(line, sizeof(line), f)) {
      if (std::sscanf(line, "VmHWM: %lld kB", &kb) == 1) break;
    }
    std::fclose(f);
    if (kb >= 0) return kb * 1024;
  }
  struct rusage usage;
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<int64_t>(usage.ru_maxrss) * 1024;
}

SchemaPtr EventsSchema() {
  auto field = [](std::string name, DataTypePtr type, int32_t id) {
    return Field{std::move(name), std::move(type), true, {}}.WithFieldId(id);
  };
  return std::make_shared<Schema>(
      Schema{{field("id", Int64(), 1), field("team_id", Int64(), 2),
              field("ts", Timestamp(TimeUnit::kMicro), 3), field("event", Utf8(), 4),
              field("distinct_id", Utf8(), 5), field("value", Float64(), 6)},
             {}});
}

Result<RecordBatch> EventsBatch(const SchemaPtr& schema, int64_t first, int64_t rows) {
  Int64Builder id;
  Int64Builder team;
  TimestampBuilder ts(Timestamp(TimeUnit::kMicro));
  StringBuilder event;
  StringBuilder distinct;
  Float64Builder value;
  char text[32];
  for (int64_t i = first; i < first + rows; ++i) {
    id.Append(i);
    team.Append((i * 31) % 1000);
    ts.Append(1700000000000000 + i * 1000);
    int n = std::snprintf(text, sizeof(text), "event_%lld", static_cast<long long>((i * 13) % 50));
    event.Append(std::string_view(text, n));
    n = std::snprintf(text, sizeof(text), "user_%lld",
                      static_cast<long long>((i * 2654435761LL) % 1000003));
    distinct.Append(std::string_view(text, n));
    value.Append(static_cast<double>((i * 37) % 100000) / 100.0);
  }
  std::vector<ArrayPtr> columns;
  for (ArrayBuilder* b :
       std::initializer_list<ArrayBuilder*>{&id, &team, &ts, &event, &distinct, &value}) {
    HOGLAKE_ASSIGN_OR_RETURN(ArrayPtr array, b->Finish());
    columns.push_back(std::move(array));
  }
  return MakeRecordBatch(schema, std::move(columns));
}

int Fail(const std::string& what) {
  std::cerr << "parquet_bench: " << what << "\n";
  return 1;
}

int Write(const std::string& path, int64_t rows, int64_t row_group_rows, int64_t batch_rows,
          bool stream, const std::string& codec, int threads) {
  parquet::WriterOptions options;
  options.threads = threads;
  options.max_row_group_rows = row_group_rows;
  if (codec == "snappy") {
    options.codec = parquet::Codec::kSnappy;
  } else if (codec == "none") {
    options.codec = parquet::Codec::kUncompressed;
  } else if (codec != "zstd") {
    return Fail("unknown codec " + codec);
  }
  const SchemaPtr schema = EventsSchema();
  std::vector<RecordBatch> batches;
  double generate_seconds = 0;
  if (!stream) {
    const auto start = std::chrono::steady_clock::now();
    for (int64_t first = 0; first < rows; first += batch_rows) {
      auto batch = EventsBatch(schema, first, std::min(batch_rows, rows - first));
      if (!batch.ok()) return Fail(batch.error().ToString());
      batches.push_back(std::move(*batch));
    }
    generate_seconds = Seconds(start);
  }
  const int64_t rss_before = MaxRssBytes();
  const auto start = std::chrono::steady_clock::now();
  auto writer = parquet::ParquetWriter::OpenFile(path, schema, options);
  if (!writer.ok()) return Fail(writer.error().ToString());
  if (stream) {
    for (int64_t first = 0; first < rows; first += batch_rows) {
      auto batch = EventsBatch(schema, first, std::min(batch_rows, rows - first));
      if (!batch.ok()) return Fail(batch.error().ToString());
      Status st = (*writer)->WriteBatch(*batch);
      if (!st.ok()) return Fail(st.ToString());
    }
  } else {
    for (const RecordBatch& batch : batches) {
      Status st = (*writer)->WriteBatch(batch);
      if (!st.ok()) return Fail(st.ToString());
    }
  }
  auto summary = (*writer)->Close();
  if (!summary.ok()) return Fail(summary.error().ToString());
  const double seconds = Seconds(start);
  int64_t rg_bytes = 0;
  int64_t rg_compressed = 0;
  for (const auto& rg : summary->metadata.row_groups) {
    rg_bytes = std::max(rg_bytes, rg.total_byte_size);
    rg_compressed = std::max(rg_compressed, rg.total_compressed_size.value_or(0));
  }
  std::printf(
      "{\"rows\":%lld,\"seconds\":%.6f,\"generate_seconds\":%.6f,\"stream\":%s,\"file_bytes\":%lld,"
      "\"row_groups\":%zu,\"row_group_rows\":%lld,\"max_row_group_bytes\":%lld,"
      "\"max_row_group_compressed_bytes\":%lld,\"max_rss_bytes\":%lld,\"max_rss_before_write_"
      "bytes\":%lld}\n",
      static_cast<long long>(rows), seconds, generate_seconds, stream ? "true" : "false",
      static_cast<long long>(summary->file_size), summary->metadata.row_groups.size(),
      static_cast<long long>(row_group_rows), static_cast<long long>(rg_bytes),
      static_cast<long long>(rg_compressed), static_cast<long long>(MaxRssBytes()),
      static_cast<long long>(rss_before));
  return 0;
}

int Read(const std::string& path, int threads) {
  const auto start = std::chrono::steady_clock::now();
  parquet::ReaderOptions options;
  options.threads = threads;
  auto reader = parquet::ParquetReader::OpenFile(path, options);
  if (!reader.ok()) return Fail(reader.error().ToString());
  int64_t rows = 0;
  int64_t bytes = 0;
  while (true) {
    auto batch = (*reader)->Next();
    if (!batch.ok()) return Fail(batch.error().ToString());
    if (!batch->has_value()) break;
    rows += (*batch)->num_rows;
    for (const ArrayPtr& column : (*batch)->columns) {
      for (const auto& buffer : column->buffers) bytes += buffer ? buffer->size() : 0;
    }
  }
  const double seconds = Seconds(start);
  std::printf("{\"rows\":%lld,\"seconds\":%.6f,\"decoded_bytes\":%lld,\"max_rss_bytes\":%lld}\n",
              static_cast<long long>(rows), seconds, static_cast<long long>(bytes),
              static_cast<long long>(MaxRssBytes()));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  auto usage = [] {
    std::cerr << "usage: parquet_bench write OUT --rows N [--row-group-rows R] [--batch-rows B] "
                 "[--stream] [--codec zstd|snappy|none] [--threads T]\n"
                 "       parquet_bench read FILE [--threads T]\n";
    return 2;
  };
  if (args.size() >= 2 && args[0] == "read") {
    if (args.size() == 2) return Read(args[1], 0);
    if (args.size() == 4 && args[2] == "--threads")
      return Read(args[1], std::atoi(args[3].c_str()));
    return usage();
  }
  if (args.size() < 2 || args[0] != "write") return usage();
  int64_t rows = 1000000;
  int64_t row_group_rows = 1 << 20;
  int64_t batch_rows = 65536;
  bool stream = false;
  std::string codec = "zstd";
  int threads = 0;
  for (size_t i = 2; i < args.size(); ++i) {
    auto next = [&]() -> const std::string& {
      static const std::string empty;
      return i + 1 < args.size() ? args[++i] : empty;
    };
    if (args[i] == "--rows") {
      rows = std::atoll(next().c_str());
    } else if (args[i] == "--row-group-rows") {
      row_group_rows = std::atoll(next().c_str());
    } else if (args[i] == "--batch-rows") {
      batch_rows = std::atoll(next().c_str());
    } else if (args[i] == "--stream") {
      stream = true;
    } else if (args[i] == "--codec") {
      codec = next();
    } else if (args[i] == "--threads") {
      threads = std::atoi(next().c_str());
    } else {
      return usage();
    }
  }
  if (rows <= 0 || row_group_rows <= 0 || batch_rows <= 0) return usage();
  return Write(args[1], rows, row_group_rows, batch_rows, stream, codec, threads);
}
