// The Parquet reader over an object in s3rver through ObjectSource: opening
// takes one ranged GET (the tail holds the footer), each row group one more
// (its selected column chunks coalesced), and the batches are those read
// from the same bytes in memory.
#include <gtest/gtest.h>

#include <string>

#include "columnar/compare.h"
#include "parquet/reader.h"
#include "parquet/writer.h"
#include "parquet_corpus.h"
#include "s3rver_process.h"
#include "storage/object_source.h"

namespace hoglake {
namespace {

TEST(ParquetOverS3Test, RowGroupsAreReadByCoalescedRangedGets) {
  ASSERT_EQ(testing::S3rverProcess::Get().startup_error(), "");
  auto store = OpenObjectStore(std::string("s3://") + testing::kS3rverBucket,
                               testing::LoopbackConfig(testing::S3rverProcess::Get().port()));
  ASSERT_TRUE(store.ok()) << store.error().ToString();
  const std::string path =
      std::string("s3://") + testing::kS3rverBucket + "/parquet-over-s3/file.parquet";

  auto batch = parquet::testing::CorpusBatch(30000, 11);
  parquet::WriterOptions options;
  options.max_row_group_rows = 10000;
  std::string bytes;
  auto writer = parquet::ParquetWriter::OpenBuffer(&bytes, batch.schema, options);
  ASSERT_TRUE((*writer)->WriteBatch(batch).ok());
  ASSERT_TRUE((*writer)->Close().ok());
  ASSERT_TRUE((*store)->Put(path, bytes).ok());

  auto source = ObjectSource::Open(store->get(), path, static_cast<int64_t>(bytes.size()));
  ASSERT_TRUE(source.ok()) << source.error().ToString();
  auto reader = parquet::ParquetReader::Open(*source);
  ASSERT_TRUE(reader.ok()) << reader.error().ToString();
  EXPECT_EQ((*source)->requests(), 1);
  auto whole = parquet::ParquetReader::OpenBuffer(std::make_shared<const std::string>(bytes));
  ASSERT_TRUE(whole.ok());
  ASSERT_EQ((*reader)->num_row_groups(), 3);
  for (int g = 0; g < 3; ++g) {
    auto got = (*reader)->ReadRowGroup(g);
    ASSERT_TRUE(got.ok()) << got.error().ToString();
    auto expected = (*whole)->ReadRowGroup(g);
    ASSERT_TRUE(expected.ok());
    std::string why;
    EXPECT_TRUE(columnar::BatchEquals(*got, *expected, &why)) << g << ": " << why;
    EXPECT_EQ((*source)->requests(), 2 + g) << "row group " << g;
  }
  // A projection reads only its chunks, still in one request per row group.
  ASSERT_TRUE((*reader)->SelectColumns({(*reader)->schema()->fields[1].name}).ok());
  auto one = (*reader)->ReadRowGroup(2);
  ASSERT_TRUE(one.ok()) << one.error().ToString();
  EXPECT_EQ(one->columns.size(), 1u);
  EXPECT_EQ((*source)->requests(), 5);
}

}  // namespace
}  // namespace hoglake
