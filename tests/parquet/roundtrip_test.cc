// Writer → reader round trips of the whole corpus for every codec, with and
// without dictionary encoding, plus projection and row-group iteration.
#include <gtest/gtest.h>

#include "columnar/compare.h"
#include "columnar/json_rows.h"
#include "columnar/validate.h"
#include "parquet/compression.h"
#include "parquet/reader.h"
#include "parquet/writer.h"
#include "parquet_corpus.h"

namespace hoglake::parquet {
namespace {

using columnar::RecordBatch;

std::string WriteAll(const std::vector<const RecordBatch*>& batches, WriterOptions options,
                     WriteSummary* summary = nullptr) {
  std::string out;
  auto writer = ParquetWriter::OpenBuffer(&out, batches[0]->schema, options);
  EXPECT_TRUE(writer.ok()) << writer.error().ToString();
  for (const RecordBatch* b : batches) {
    Status st = (*writer)->WriteBatch(*b);
    EXPECT_TRUE(st.ok()) << st.ToString();
  }
  auto s = (*writer)->Close();
  EXPECT_TRUE(s.ok()) << s.error().ToString();
  if (summary && s.ok()) *summary = std::move(*s);
  return out;
}

std::unique_ptr<ParquetReader> Open(const std::string& bytes) {
  auto reader = ParquetReader::OpenBuffer(std::make_shared<const std::string>(bytes));
  EXPECT_TRUE(reader.ok()) << reader.error().ToString();
  return reader.ok() ? std::move(*reader) : nullptr;
}

std::string ReadJson(ParquetReader& reader) {
  std::string out;
  while (true) {
    auto next = reader.Next();
    EXPECT_TRUE(next.ok()) << next.error().ToString();
    if (!next.ok() || !next->has_value()) break;
    std::string why;
    EXPECT_TRUE(columnar::ValidateBatch(**next).ok());
    columnar::AppendJsonLines(**next, &out);
  }
  return out;
}

struct Case {
  Codec codec;
  bool dictionary;
};

class CodecRoundTrip : public ::testing::TestWithParam<Case> {};

TEST_P(CodecRoundTrip, CorpusReadsBackValueForValue) {
  auto full = testing::CorpusBatch(300, 7);
  auto other = testing::CorpusBatch(100, 11);
  auto slice = testing::SliceBatch(other, 20, 70);
  WriterOptions options;
  options.codec = GetParam().codec;
  options.dictionary = GetParam().dictionary;
  options.max_row_group_rows = 128;
  options.max_page_rows = 50;
  const std::string bytes = WriteAll({&full, &slice}, options);
  auto reader = Open(bytes);
  ASSERT_TRUE(reader);
  EXPECT_EQ(reader->num_rows(), 370);
  EXPECT_EQ(reader->num_row_groups(), 3);  // 128, 128, then 44 + 70
  auto expected_full = testing::ExpectedReadBack(full);
  EXPECT_TRUE(reader->schema()->Equals(*expected_full.schema))
      << reader->schema()->ToString() << "\nvs\n"
      << expected_full.schema->ToString();
  std::string expected;
  columnar::AppendJsonLines(expected_full, &expected);
  columnar::AppendJsonLines(testing::ExpectedReadBack(slice), &expected);
  EXPECT_EQ(ReadJson(*reader), expected);
}

INSTANTIATE_TEST_SUITE_P(AllCodecs, CodecRoundTrip,
                         ::testing::Values(Case{Codec::kUncompressed, true},
                                           Case{Codec::kUncompressed, false},
                                           Case{Codec::kSnappy, true}, Case{Codec::kSnappy, false},
                                           Case{Codec::kGzip, true}, Case{Codec::kGzip, false},
                                           Case{Codec::kZstd, true}, Case{Codec::kZstd, false},
                                           Case{Codec::kLz4Raw, true}, Case{Codec::kBrotli, false}),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           return std::string(CodecName(info.param.codec)) +
                                  (info.param.dictionary ? "_dict" : "_plain");
                         });

TEST(RoundTripTest, SingleRowGroupIsBatchEqual) {
  auto batch = testing::CorpusBatch(500, 3);
  const std::string bytes = WriteAll({&batch}, WriterOptions{});
  auto reader = Open(bytes);
  ASSERT_TRUE(reader);
  ASSERT_EQ(reader->num_row_groups(), 1);
  auto read = reader->ReadRowGroup(0);
  ASSERT_TRUE(read.ok()) << read.error().ToString();
  std::string why;
  EXPECT_TRUE(columnar::BatchEquals(testing::ExpectedReadBack(batch), *read, &why)) << why;
}

}  // namespace
}  // namespace hoglake::parquet
