// Multi-threaded reading and writing give exactly what one thread gives
// (same batches, same file bytes), plus the helpers behind them:
// PodBuffer (mapped blocks and their cache), the bit-width-specialized RLE
// unpack, the all-present definition-level shortcut, and the bulk BYTE_ARRAY
// paths (PLAIN and dictionary gathers). No timing is checked.
#include <gtest/gtest.h>

#include <atomic>
#include <random>
#include <set>
#include <thread>

#include "columnar/builder.h"
#include "columnar/compare.h"
#include "parquet/pod_buffer.h"
#include "parquet/reader.h"
#include "parquet/rle.h"
#include "parquet/writer.h"
#include "parquet_corpus.h"

namespace hoglake::parquet {
namespace {

using columnar::RecordBatch;

// ---- PodBuffer

TEST(PodBufferTest, GrowsAcrossTheMappedThresholdKeepingContents) {
  PodBuffer<uint32_t> b;
  const size_t n = (pod_block::kMappedBlockBytes / 4) * 5 + 123;  // several mapped growths
  for (size_t i = 0; i < n; ++i) b.push_back(static_cast<uint32_t>(i * 2654435761u));
  ASSERT_EQ(b.size(), n);
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(b[i], static_cast<uint32_t>(i * 2654435761u)) << i;
  b.resize(n + 1000);  // value-initialized, even on reused memory
  for (size_t i = n; i < n + 1000; ++i) ASSERT_EQ(b[i], 0u);
  auto buffer = b.ReleaseToBuffer();
  EXPECT_TRUE(b.empty());
  ASSERT_EQ(buffer->size(), static_cast<int64_t>((n + 1000) * 4));
  EXPECT_EQ(reinterpret_cast<const uint32_t*>(buffer->data())[n - 1],
            static_cast<uint32_t>((n - 1) * 2654435761u));
}

TEST(PodBufferTest, ReusedBlocksAreIndependent) {
  // Free big blocks into the cache and take them again: contents written
  // through one owner never show up in another live one.
  std::vector<std::shared_ptr<columnar::Buffer>> live;
  for (int round = 0; round < 6; ++round) {
    PodBuffer<char> a, c;
    a.resize(pod_block::kMappedBlockBytes * 3, static_cast<char>('a' + round));
    c.resize(pod_block::kMappedBlockBytes * 3, static_cast<char>('A' + round));
    live.push_back(a.ReleaseToBuffer());
    if (round % 2) live.erase(live.begin());  // free some
    for (const auto& buf : live) {
      const char first = static_cast<char>(buf->data()[0]);
      for (int64_t i = 0; i < buf->size(); i += 4093) ASSERT_EQ(buf->data()[i], first);
    }
  }
  PodBuffer<char> copy;
  copy.append("hello", 5);
  PodBuffer<char> other = copy;
  other.push_back('!');
  EXPECT_EQ(copy.view(), "hello");
  EXPECT_EQ(other.view(), "hello!");
  PodBuffer<char> moved = std::move(other);
  EXPECT_EQ(moved.view(), "hello!");
  EXPECT_TRUE(other.empty());  // NOLINT(bugprone-use-after-move)
}

// ---- RLE / bit-packed unpack against a bit-by-bit reference

TEST(RleUnpackTest, AllWidthsAnyStepMatchTheEncoder) {
  std::mt19937_64 rng(5);
  for (int width = 1; width <= 32; ++width) {
    const uint64_t limit = width == 32 ? 0xFFFFFFFFull : (uint64_t{1} << width) - 1;
    std::vector<uint32_t> values;
    for (int i = 0; i < 1000; ++i) {
      // Mix literal stretches with runs so both kinds of run appear.
      if (i % 97 < 15) {
        values.push_back(static_cast<uint32_t>(limit / 3));
      } else {
        values.push_back(static_cast<uint32_t>(rng() & limit));
      }
    }
    std::string encoded;
    EncodeRleHybrid(values, width, &encoded);
    for (int64_t step : {1, 3, 8, 13, 64, 1000}) {
      RleDecoder decoder(reinterpret_cast<const uint8_t*>(encoded.data()),
                         static_cast<int64_t>(encoded.size()), width);
      std::vector<uint32_t> out;
      for (int64_t done = 0; done < 1000; done += step) {
        ASSERT_TRUE(decoder.Decode(std::min<int64_t>(step, 1000 - done), &out).ok());
      }
      ASSERT_EQ(out, values) << "width " << width << " step " << step;
    }
  }
}

TEST(RleUnpackTest, LevelsAboveTheMaximumAreRefusedInBulk) {
  for (size_t bad : {size_t{10}, size_t{250}}) {  // in the bulk groups, in the tail
    std::vector<int16_t> levels(256, 1);
    for (size_t i = 0; i < levels.size(); i += 2) levels[i] = 0;  // keep it bit-packed
    levels[bad] = 3;  // bit width 2 holds 3, max level 2 refuses it
    std::string encoded;
    EncodeRleHybrid(levels.data(), static_cast<int64_t>(levels.size()), 2, &encoded);
    RleDecoder decoder(reinterpret_cast<const uint8_t*>(encoded.data()),
                       static_cast<int64_t>(encoded.size()), 2);
    std::vector<int16_t> out;
    EXPECT_FALSE(decoder.DecodeLevels(256, 2, &out).ok()) << bad;
    RleDecoder ok(reinterpret_cast<const uint8_t*>(encoded.data()),
                  static_cast<int64_t>(encoded.size()), 2);
    out.clear();
    EXPECT_TRUE(ok.DecodeLevels(256, 3, &out).ok());
    EXPECT_EQ(out, levels);
  }
}

TEST(RleUnpackTest, StartsWithRun) {
  std::vector<int16_t> ones(100, 1);
  std::string encoded;
  EncodeRleHybrid(ones.data(), 100, 1, &encoded);
  auto at = [&](const std::string& s) { return reinterpret_cast<const uint8_t*>(s.data()); };
  const int64_t size = static_cast<int64_t>(encoded.size());
  EXPECT_TRUE(RleDecoder(at(encoded), size, 1).StartsWithRun(100, 1));
  EXPECT_FALSE(RleDecoder(at(encoded), size, 1).StartsWithRun(101, 1));
  EXPECT_FALSE(RleDecoder(at(encoded), size, 1).StartsWithRun(100, 0));
  ones[50] = 0;
  encoded.clear();
  EncodeRleHybrid(ones.data(), 100, 1, &encoded);
  EXPECT_FALSE(
      RleDecoder(at(encoded), static_cast<int64_t>(encoded.size()), 1).StartsWithRun(100, 1));
  EXPECT_FALSE(RleDecoder(at(encoded), 0, 1).StartsWithRun(1, 1));
}

// ---- threaded writer and reader vs one thread

// A flat table: every top-level column a leaf. Strings of 0..40 bytes (short
// and long values, PLAIN and dictionary), nulls only in some stretches so
// that some pages have all definition levels at the maximum and some not.
RecordBatch FlatBatch(int64_t first, int64_t rows) {
  auto field = [](std::string name, columnar::DataTypePtr type, int32_t id, bool nullable) {
    return columnar::Field{std::move(name), std::move(type), nullable, {}}.WithFieldId(id);
  };
  auto schema = std::make_shared<columnar::Schema>(columnar::Schema{
      {field("id", columnar::Int64(), 1, false), field("small", columnar::Int8(), 2, true),
       field("ts", columnar::Timestamp(columnar::TimeUnit::kMicro), 3, true),
       field("name", columnar::Utf8(), 4, true), field("key", columnar::Utf8(), 5, true),
       field("value", columnar::Float64(), 6, true), field("flag", columnar::Bool(), 7, true),
       field("n32", columnar::Int32(), 8, true)},
      {}});
  columnar::Int64Builder id;
  columnar::Int8Builder small;
  columnar::TimestampBuilder ts(columnar::Timestamp(columnar::TimeUnit::kMicro));
  columnar::StringBuilder name, key;
  columnar::Float64Builder value;
  columnar::BooleanBuilder flag;
  columnar::Int32Builder n32;
  for (int64_t i = first; i < first + rows; ++i) {
    const bool nulls_here = (i / 3000) % 3 == 1;  // stretches with nulls
    const bool null = nulls_here && i % 5 == 0;
    id.Append(i);
    null ? small.AppendNull() : small.Append(static_cast<int8_t>(i % 100));
    null ? ts.AppendNull() : ts.Append(1700000000000000 + i * 1000);
    if (null) {
      name.AppendNull();
      key.AppendNull();
    } else {
      name.Append("event_" + std::to_string((i * 13) % 50));
      const int64_t k = (i * 2654435761LL) % 100003;
      key.Append(std::string(static_cast<size_t>(k % 41), static_cast<char>('a' + k % 26)) +
                 std::to_string(k));
    }
    null ? value.AppendNull() : value.Append(static_cast<double>((i * 37) % 1000) / 8.0);
    null ? flag.AppendNull() : flag.Append(i % 3 == 0);
    null ? n32.AppendNull() : n32.Append(static_cast<int32_t>(i * 7919));
  }
  std::vector<columnar::ArrayPtr> columns;
  for (columnar::ArrayBuilder* b : std::initializer_list<columnar::ArrayBuilder*>{
           &id, &small, &ts, &name, &key, &value, &flag, &n32}) {
    columns.push_back(testing::FinishOrThrow(*b));
  }
  auto batch = columnar::MakeRecordBatch(schema, std::move(columns));
  if (!batch.ok()) throw std::runtime_error(batch.error().ToString());
  return *batch;
}

std::string Write(const std::vector<RecordBatch>& batches, WriterOptions options) {
  std::string out;
  auto writer = ParquetWriter::OpenBuffer(&out, batches[0].schema, options);
  EXPECT_TRUE(writer.ok()) << writer.error().ToString();
  if (!writer.ok()) return out;
  for (const RecordBatch& b : batches) {
    Status st = (*writer)->WriteBatch(b);
    EXPECT_TRUE(st.ok()) << st.ToString();
  }
  auto s = (*writer)->Close();
  EXPECT_TRUE(s.ok()) << s.error().ToString();
  return out;
}

std::vector<RecordBatch> FlatBatches(int64_t rows, int64_t batch_rows) {
  std::vector<RecordBatch> out;
  for (int64_t first = 0; first < rows; first += batch_rows) {
    out.push_back(FlatBatch(first, std::min(batch_rows, rows - first)));
  }
  return out;
}

struct WriteCase {
  const char* name;
  WriterOptions options;
};

std::vector<WriteCase> WriteCases() {
  std::vector<WriteCase> cases;
  WriterOptions o;
  cases.push_back({"defaults", o});
  o.max_row_group_rows = 10000;
  o.max_page_rows = 777;
  cases.push_back({"small groups and pages", o});
  o = WriterOptions{};
  o.dictionary_page_size_limit = 4096;  // dictionaries fall back to PLAIN
  o.data_page_size = 3000;
  o.codec = Codec::kSnappy;
  cases.push_back({"dictionary fallback, small pages, snappy", o});
  o = WriterOptions{};
  o.dictionary = false;
  o.codec = Codec::kUncompressed;
  cases.push_back({"plain, uncompressed", o});
  o = WriterOptions{};
  o.max_row_group_bytes = 200000;  // row groups cut by size
  cases.push_back({"row groups by bytes", o});
  o.max_row_group_bytes = 1;  // a row group per 4096-row step
  cases.push_back({"tiny byte limit", o});
  return cases;
}

TEST(ParallelWriteTest, ThreadedFileIsByteForByteTheSingleThreadedOne) {
  const auto batches = FlatBatches(40000, 7000);
  for (WriteCase c : WriteCases()) {
    c.options.threads = 1;
    const std::string one = Write(batches, c.options);
    for (int threads : {2, 4}) {
      c.options.threads = threads;
      const std::string many = Write(batches, c.options);
      EXPECT_EQ(one.size(), many.size()) << c.name << ", " << threads << " threads";
      EXPECT_TRUE(one == many) << c.name << ", " << threads << " threads";
    }
  }
}

TEST(ParallelWriteTest, NestedSchemaFileIsTheSame) {
  const std::vector<RecordBatch> batches = {testing::CorpusBatch(3000, 9),
                                            testing::CorpusBatch(1000, 4)};
  WriterOptions options;
  options.max_row_group_rows = 1500;
  options.threads = 1;
  const std::string one = Write(batches, options);
  options.threads = 4;
  EXPECT_TRUE(one == Write(batches, options));
}

// Every row group of `bytes` read with 1 and with `threads` threads.
void ExpectSameReads(const std::string& bytes, int threads,
                     const std::vector<std::string>& columns = {}) {
  auto shared = std::make_shared<const std::string>(bytes);
  ReaderOptions one_thread;
  one_thread.threads = 1;
  ReaderOptions many;
  many.threads = threads;
  auto a = ParquetReader::OpenBuffer(shared, one_thread);
  auto b = ParquetReader::OpenBuffer(shared, many);
  ASSERT_TRUE(a.ok() && b.ok());
  if (!columns.empty()) {
    ASSERT_TRUE((*a)->SelectColumns(columns).ok());
    ASSERT_TRUE((*b)->SelectColumns(columns).ok());
  }
  int groups = 0;
  while (true) {
    auto x = (*a)->Next();
    auto y = (*b)->Next();
    ASSERT_TRUE(x.ok()) << x.error().ToString();
    ASSERT_TRUE(y.ok()) << y.error().ToString();
    ASSERT_EQ(x->has_value(), y->has_value());
    if (!x->has_value()) break;
    std::string why;
    EXPECT_TRUE(columnar::BatchEquals(**x, **y, &why)) << "row group " << groups << ": " << why;
    ++groups;
  }
  EXPECT_GT(groups, 0);
}

TEST(ParallelReadTest, ThreadedBatchesEqualSingleThreadedOnes) {
  const auto batches = FlatBatches(40000, 7000);
  for (const WriteCase& c : WriteCases()) {
    SCOPED_TRACE(c.name);
    const std::string bytes = Write(batches, c.options);
    ExpectSameReads(bytes, 4);
    ExpectSameReads(bytes, 2, {"value", "key", "id"});
  }
}

TEST(ParallelReadTest, ReadBackEqualsWhatWasWritten) {
  // Nulls only in some pages: the all-present shortcut must still produce
  // the right validity for the pages with nulls.
  const auto batch = FlatBatch(0, 20000);
  WriterOptions options;
  options.max_page_rows = 1000;
  const std::string bytes = Write({batch}, options);
  for (int threads : {1, 3}) {
    ReaderOptions ro;
    ro.threads = threads;
    auto reader = ParquetReader::OpenBuffer(std::make_shared<const std::string>(bytes), ro);
    ASSERT_TRUE(reader.ok());
    auto read = (*reader)->ReadRowGroup(0);
    ASSERT_TRUE(read.ok()) << read.error().ToString();
    std::string why;
    EXPECT_TRUE(columnar::BatchEquals(testing::ExpectedReadBack(batch), *read, &why)) << why;
  }
}

TEST(ParallelReadTest, NestedCorpusReadsTheSame) {
  const std::vector<RecordBatch> batches = {testing::CorpusBatch(2000, 21)};
  WriterOptions options;
  options.max_row_group_rows = 700;
  options.max_page_rows = 90;
  ExpectSameReads(Write(batches, options), 4);
}

TEST(ParallelReadTest, FileReaderWithThreads) {
  const auto batches = FlatBatches(30000, 30000);
  const std::string bytes = Write(batches, WriterOptions{});
  const std::string path = ::testing::TempDir() + "/parallel_read_test.parquet";
  {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    ASSERT_TRUE(f);
    ASSERT_EQ(std::fwrite(bytes.data(), 1, bytes.size(), f), bytes.size());
    std::fclose(f);
  }
  ReaderOptions ro;
  ro.threads = 4;
  auto reader = ParquetReader::OpenFile(path, ro);
  ASSERT_TRUE(reader.ok()) << reader.error().ToString();
  auto read = (*reader)->ReadRowGroup(0);
  ASSERT_TRUE(read.ok()) << read.error().ToString();
  std::string why;
  EXPECT_TRUE(columnar::BatchEquals(testing::ExpectedReadBack(batches[0]), *read, &why)) << why;
  std::remove(path.c_str());
}

}  // namespace
}  // namespace hoglake::parquet
