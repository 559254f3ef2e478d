// libFuzzer target: arbitrary bytes as a Parquet file. Opening parses the
// footer (thrift compact decoder, schema mapping); reading every row group
// exercises the page headers, decompression, level and value decoders and
// batch assembly. Any crash, sanitizer report or unbounded allocation is a
// bug; errors are expected and ignored.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "parquet/reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto bytes = std::make_shared<const std::string>(reinterpret_cast<const char*>(data), size);
  hoglake::parquet::ReaderOptions options;
  options.limits.max_page_bytes = 1 << 20;
  options.limits.max_values_per_chunk = 1 << 16;
  options.max_footer_bytes = 1 << 20;
  auto reader = hoglake::parquet::ParquetReader::OpenBuffer(bytes, options);
  if (!reader.ok()) return 0;
  for (int i = 0; i < (*reader)->num_row_groups() && i < 8; ++i) {
    (void)(*reader)->ReadRowGroup(i);
  }
  return 0;
}
