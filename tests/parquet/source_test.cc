// The reader over a RandomAccessSource: how many reads opening takes (one
// tail read when the footer fits in it, one more when it does not), that
// every row group announces its chunks with one WillRead before reading
// them, and that the batches are those of the whole-buffer reader; a reader
// over a footer kept from an earlier open reads no footer bytes.
#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <mutex>

#include "columnar/compare.h"
#include "parquet/footer.h"
#include "parquet/reader.h"
#include "parquet/writer.h"
#include "parquet_corpus.h"

namespace hoglake::parquet {
namespace {

// Bytes in memory, read only through ReadInto (no views), counted.
class CountingSource : public RandomAccessSource {
 public:
  explicit CountingSource(std::string bytes) : bytes_(std::move(bytes)) {}
  const std::string& name() const override { return name_; }
  int64_t size() const override { return static_cast<int64_t>(bytes_.size()); }
  Status ReadInto(int64_t offset, int64_t length, char* out) override {
    ++reads;
    std::memcpy(out, bytes_.data() + offset, static_cast<size_t>(length));
    std::lock_guard lock(mutex_);
    read_ranges.push_back({offset, length});
    return Status::Ok();
  }
  Status WillRead(std::span<const ByteRange> ranges) override {
    std::lock_guard lock(mutex_);
    announced.emplace_back(ranges.begin(), ranges.end());
    return Status::Ok();
  }
  std::atomic<int> reads{0};
  std::vector<ByteRange> read_ranges;
  std::vector<std::vector<ByteRange>> announced;

 private:
  std::string bytes_;
  std::string name_ = "counted";
  std::mutex mutex_;
};

std::string WriteFile(int64_t rows, int64_t row_group_rows) {
  auto batch = testing::CorpusBatch(rows, 7);
  WriterOptions options;
  options.max_row_group_rows = row_group_rows;
  std::string out;
  auto writer = ParquetWriter::OpenBuffer(&out, batch.schema, options);
  EXPECT_TRUE((*writer)->WriteBatch(batch).ok());
  EXPECT_TRUE((*writer)->Close().ok());
  return out;
}

void ExpectSameBatches(const std::string& bytes, int expected_open_reads) {
  auto counted = std::make_shared<CountingSource>(bytes);
  auto reader = ParquetReader::Open(counted);
  ASSERT_TRUE(reader.ok()) << reader.error().ToString();
  EXPECT_EQ(counted->reads.load(), expected_open_reads);
  // The first read is the file's tail.
  EXPECT_EQ(counted->read_ranges.front().end(), static_cast<int64_t>(bytes.size()));
  auto whole = ParquetReader::OpenBuffer(std::make_shared<const std::string>(bytes));
  ASSERT_TRUE(whole.ok());
  for (int g = 0; g < (*reader)->num_row_groups(); ++g) {
    counted->read_ranges.clear();
    auto batch = (*reader)->ReadRowGroup(g);
    ASSERT_TRUE(batch.ok()) << batch.error().ToString();
    auto expected = (*whole)->ReadRowGroup(g);
    ASSERT_TRUE(expected.ok());
    std::string why;
    EXPECT_TRUE(columnar::BatchEquals(*batch, *expected, &why)) << g << ": " << why;
    // Announced once, before reading: every read lies in an announced range.
    ASSERT_EQ(counted->announced.size(), static_cast<size_t>(g + 1));
    for (const ByteRange& r : counted->read_ranges) {
      bool inside = false;
      for (const ByteRange& a : counted->announced.back()) {
        inside = inside || (r.offset >= a.offset && r.end() <= a.end());
      }
      EXPECT_TRUE(inside) << "row group " << g << " read [" << r.offset << ", +" << r.length
                          << ") it did not announce";
    }
  }
}

TEST(ReaderSourceTest, ASmallFileIsOpenedWithOneRead) {
  const std::string bytes = WriteFile(8, 5);
  ASSERT_LT(bytes.size(), 16u << 10);
  ExpectSameBatches(bytes, 1);
}

TEST(ReaderSourceTest, AFooterInTheLastSixteenKilobytesTakesOneRead) {
  const std::string bytes = WriteFile(20000, 10000);
  uint32_t footer = 0;
  std::memcpy(&footer, bytes.data() + bytes.size() - 8, 4);
  ASSERT_GT(bytes.size(), 16u << 10);
  ASSERT_LT(footer + 8, 16u << 10);
  ExpectSameBatches(bytes, 1);
}

TEST(ReaderSourceTest, ALargerFooterTakesOneMoreRead) {
  const std::string bytes = WriteFile(600, 3);
  uint32_t footer = 0;
  std::memcpy(&footer, bytes.data() + bytes.size() - 8, 4);
  ASSERT_GT(footer + 8, 16u << 10);
  ExpectSameBatches(bytes, 2);
}

TEST(ReaderSourceTest, ABadLeadingMagicPastTheTailFailsTheFirstRowGroup) {
  std::string bytes = WriteFile(20000, 10000);
  bytes[0] = 'X';
  auto reader = ParquetReader::Open(std::make_shared<CountingSource>(bytes));
  ASSERT_TRUE(reader.ok()) << reader.error().ToString();
  auto batch = (*reader)->ReadRowGroup(0);
  ASSERT_FALSE(batch.ok());
  EXPECT_EQ(batch.error().code, ErrorCode::kInvalidData);
  EXPECT_NE(batch.error().message.find("leading magic"), std::string::npos);
}

// A second reader over the first one's footer reads only row group bytes
// (never the tail), gives the same batches, and does not check the leading
// magic again once the first reader did.
TEST(ReaderSourceTest, AKeptFooterIsNotReadAgain) {
  const std::string bytes = WriteFile(20000, 10000);
  auto first_source = std::make_shared<CountingSource>(bytes);
  auto first = ParquetReader::Open(first_source);
  ASSERT_TRUE(first.ok()) << first.error().ToString();
  std::shared_ptr<const ParquetFooter> footer = (*first)->footer();
  EXPECT_FALSE(footer->leading_magic_checked());
  ASSERT_TRUE((*first)->ReadRowGroup(0).ok());
  EXPECT_TRUE(footer->leading_magic_checked());
  EXPECT_GT(footer->memory_bytes(), footer->footer_size());

  auto counted = std::make_shared<CountingSource>(bytes);
  auto second = ParquetReader::Open(counted, footer);
  ASSERT_TRUE(second.ok()) << second.error().ToString();
  EXPECT_EQ(counted->reads.load(), 0);
  for (int g = 0; g < (*second)->num_row_groups(); ++g) {
    auto batch = (*second)->ReadRowGroup(g);
    ASSERT_TRUE(batch.ok()) << batch.error().ToString();
    auto expected = (*first)->ReadRowGroup(g);
    ASSERT_TRUE(expected.ok());
    std::string why;
    EXPECT_TRUE(columnar::BatchEquals(*batch, *expected, &why)) << g << ": " << why;
  }
  const int64_t data_end = static_cast<int64_t>(bytes.size()) - 8 - footer->footer_size();
  for (const ByteRange& r : counted->read_ranges) {
    EXPECT_GE(r.offset, 4) << "the leading magic was read again";
    EXPECT_LE(r.end(), data_end) << "footer bytes were read";
  }

  // A footer of another file size is refused.
  auto other = ParquetReader::Open(std::make_shared<CountingSource>(WriteFile(8, 5)), footer);
  ASSERT_FALSE(other.ok());
  EXPECT_EQ(other.error().code, ErrorCode::kInvalidArgument);
  EXPECT_NE(other.error().message.find("cannot serve"), std::string::npos);
}

}  // namespace
}  // namespace hoglake::parquet
