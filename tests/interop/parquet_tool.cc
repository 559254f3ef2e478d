// parquet_tool: the hoglake side of the DuckDB Parquet interop test.
//   parquet_tool corpus OUT CODEC DICT   writes the corpus (parquet_corpus.h)
//                                         as Parquet with CODEC (zstd, snappy,
//                                         gzip, lz4_raw, brotli, none) and
//                                         DICT (dict|plain), in several row
//                                         groups; prints the JSON lines a
//                                         reader must return.
//   parquet_tool cat FILE [COLUMNS]       reads FILE with hoglake's reader and
//                                         prints one JSON line per row
//                                         (columnar/json_rows.h); COLUMNS is an
//                                         optional comma-separated projection.
//   parquet_tool schema FILE              prints the columnar schema as JSON
//                                         (columnar/schema_json.h).
#include <iostream>
#include <string>

#include "../parquet/parquet_corpus.h"
#include "columnar/json_rows.h"
#include "columnar/schema_json.h"
#include "parquet/reader.h"
#include "parquet/writer.h"

using namespace hoglake;
using namespace hoglake::parquet;

namespace {

int Fail(const std::string& what) {
  std::cerr << "parquet_tool: " << what << "\n";
  return 1;
}

bool ParseCodec(const std::string& name, Codec* codec) {
  if (name == "zstd")
    *codec = Codec::kZstd;
  else if (name == "snappy")
    *codec = Codec::kSnappy;
  else if (name == "gzip")
    *codec = Codec::kGzip;
  else if (name == "lz4_raw")
    *codec = Codec::kLz4Raw;
  else if (name == "brotli")
    *codec = Codec::kBrotli;
  else if (name == "none")
    *codec = Codec::kUncompressed;
  else
    return false;
  return true;
}

int Corpus(const std::string& path, const std::string& codec_name, const std::string& dict) {
  WriterOptions options;
  if (!ParseCodec(codec_name, &options.codec)) return Fail("unknown codec " + codec_name);
  options.dictionary = dict == "dict";
  options.max_row_group_rows = 128;
  options.max_page_rows = 50;
  auto full = testing::CorpusBatch(300, 7);
  auto other = testing::CorpusBatch(100, 11);
  auto slice = testing::SliceBatch(other, 20, 70);
  auto writer = ParquetWriter::OpenFile(path, full.schema, options);
  if (!writer.ok()) return Fail(writer.error().ToString());
  for (const auto* batch : {&full, &slice}) {
    Status st = (*writer)->WriteBatch(*batch);
    if (!st.ok()) return Fail(st.ToString());
  }
  auto summary = (*writer)->Close();
  if (!summary.ok()) return Fail(summary.error().ToString());
  std::string out;
  columnar::AppendJsonLines(testing::ExpectedReadBack(full), &out);
  columnar::AppendJsonLines(testing::ExpectedReadBack(slice), &out);
  std::cout << out;
  return 0;
}

int Cat(const std::string& path, const std::string& columns) {
  auto reader = ParquetReader::OpenFile(path);
  if (!reader.ok()) return Fail(reader.error().ToString());
  if (!columns.empty()) {
    std::vector<std::string> names;
    size_t start = 0;
    while (start <= columns.size()) {
      const size_t comma = columns.find(',', start);
      names.push_back(
          columns.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
    Status st = (*reader)->SelectColumns(names);
    if (!st.ok()) return Fail(st.ToString());
  }
  while (true) {
    auto batch = (*reader)->Next();
    if (!batch.ok()) return Fail(batch.error().ToString());
    if (!batch->has_value()) break;
    std::string out;
    columnar::AppendJsonLines(**batch, &out);
    std::cout << out;
  }
  return 0;
}

int Schema(const std::string& path) {
  auto reader = ParquetReader::OpenFile(path);
  if (!reader.ok()) return Fail(reader.error().ToString());
  std::string out;
  columnar::AppendSchemaJson(*(*reader)->schema(), &out);
  std::cout << out << "\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string command = argc > 1 ? argv[1] : "";
  if (command == "corpus" && argc == 5) return Corpus(argv[2], argv[3], argv[4]);
  if (command == "cat" && (argc == 3 || argc == 4)) return Cat(argv[2], argc == 4 ? argv[3] : "");
  if (command == "schema" && argc == 3) return Schema(argv[2]);
  std::cerr
      << "usage: parquet_tool corpus OUT CODEC dict|plain | cat FILE [COLUMNS] | schema FILE\n";
  return 2;
}
