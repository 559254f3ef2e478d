// FooterCache: hits and misses by file identity (path, size, data file id),
// eviction of the least recently used entries by the bytes of parsed
// footers, footers larger than the capacity not kept, and many threads
// finding and inserting at once with the byte total never past capacity.
#include "sql/source/footer_cache.h"

#include <gtest/gtest.h>

#include <thread>
#include <vector>

#include "columnar/builder.h"
#include "common/random_access.h"
#include "parquet/writer.h"

namespace hoglake::sql {
namespace {

// The parsed footer of a Parquet file of `columns` int64 columns.
std::shared_ptr<const parquet::ParquetFooter> FooterOf(int columns) {
  auto schema = std::make_shared<columnar::Schema>();
  std::vector<columnar::ArrayPtr> arrays;
  for (int c = 0; c < columns; ++c) {
    schema->fields.push_back({"c" + std::to_string(c), columnar::Int64(), true, {}});
    columnar::Int64Builder values;
    values.Append(c);
    arrays.push_back(*values.Finish());
  }
  auto batch = columnar::MakeRecordBatch(schema, arrays);
  EXPECT_TRUE(batch.ok());
  auto bytes = std::make_shared<std::string>();
  auto writer = parquet::ParquetWriter::OpenBuffer(bytes.get(), schema);
  EXPECT_TRUE((*writer)->WriteBatch(*batch).ok());
  EXPECT_TRUE((*writer)->Close().ok());
  auto source = MemorySource(bytes);
  auto footer = parquet::ParquetFooter::Read(*source, int64_t{64} << 20);
  EXPECT_TRUE(footer.ok()) << footer.error().ToString();
  return *footer;
}

FooterCache::Key KeyOf(int i) { return {"file:///lake/f" + std::to_string(i) + ".parquet", 100, i}; }

TEST(FooterCacheTest, FindsWhatWasInsertedByTheWholeIdentity) {
  FooterCache cache(int64_t{1} << 20);
  auto footer = FooterOf(3);
  EXPECT_EQ(cache.Find(KeyOf(1)), nullptr);
  cache.Insert(KeyOf(1), footer);
  EXPECT_EQ(cache.Find(KeyOf(1)), footer);
  // Same path, another size or another catalog file: another file.
  FooterCache::Key resized = KeyOf(1);
  resized.file_size = 101;
  EXPECT_EQ(cache.Find(resized), nullptr);
  FooterCache::Key reregistered = KeyOf(1);
  reregistered.data_file_id = 99;
  EXPECT_EQ(cache.Find(reregistered), nullptr);
  FooterCache::Counters counters = cache.counters();
  EXPECT_EQ(counters.hits, 1);
  EXPECT_EQ(counters.misses, 3);
  EXPECT_EQ(counters.entries, 1);
  EXPECT_EQ(counters.bytes, footer->memory_bytes());
}

TEST(FooterCacheTest, EvictsTheLeastRecentlyUsedByBytes) {
  auto footer = FooterOf(4);
  const int64_t each = footer->memory_bytes();
  ASSERT_GT(each, 1000);  // the schema, a row group and its chunks' metadata
  FooterCache cache(3 * each);  // room for three
  for (int i = 0; i < 3; ++i) cache.Insert(KeyOf(i), footer);
  EXPECT_EQ(cache.counters().bytes, 3 * each);
  ASSERT_NE(cache.Find(KeyOf(0)), nullptr);  // 0 is now the most recent
  cache.Insert(KeyOf(3), footer);            // evicts 1, the least recent
  EXPECT_NE(cache.Find(KeyOf(0)), nullptr);
  EXPECT_EQ(cache.Find(KeyOf(1)), nullptr);
  EXPECT_NE(cache.Find(KeyOf(2)), nullptr);
  EXPECT_NE(cache.Find(KeyOf(3)), nullptr);
  FooterCache::Counters counters = cache.counters();
  EXPECT_EQ(counters.evictions, 1);
  EXPECT_EQ(counters.entries, 3);
  EXPECT_EQ(counters.bytes, 3 * each);

  // A larger footer takes the room of several.
  auto wide = FooterOf(10);
  ASSERT_GT(wide->memory_bytes(), 2 * each);
  ASSERT_LE(wide->memory_bytes(), 3 * each);
  cache.Insert(KeyOf(4), wide);
  EXPECT_LE(cache.counters().bytes, 3 * each);
  EXPECT_NE(cache.Find(KeyOf(4)), nullptr);
  EXPECT_EQ(cache.Find(KeyOf(0)), nullptr);  // the oldest went first
}

TEST(FooterCacheTest, AFooterLargerThanTheCapacityIsNotKept) {
  auto footer = FooterOf(4);
  FooterCache small(footer->memory_bytes() - 1);
  small.Insert(KeyOf(1), footer);
  EXPECT_EQ(small.Find(KeyOf(1)), nullptr);
  EXPECT_EQ(small.counters().entries, 0);
  FooterCache none(0);
  none.Insert(KeyOf(1), footer);
  EXPECT_EQ(none.Find(KeyOf(1)), nullptr);
  EXPECT_EQ(none.counters().bytes, 0);
}

TEST(FooterCacheTest, ManyThreadsShareOneCache) {
  auto footer = FooterOf(4);
  const int64_t capacity = 10 * footer->memory_bytes();
  FooterCache cache(capacity);
  constexpr int kThreads = 8;
  constexpr int kRounds = 2000;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int r = 0; r < kRounds; ++r) {
        const FooterCache::Key key = KeyOf((t * 7 + r) % 25);
        std::shared_ptr<const parquet::ParquetFooter> found = cache.Find(key);
        if (found == nullptr) {
          cache.Insert(key, footer);
        } else {
          EXPECT_EQ(found->file_size(), footer->file_size());
        }
      }
    });
  }
  for (std::thread& t : threads) t.join();
  FooterCache::Counters counters = cache.counters();
  EXPECT_EQ(counters.hits + counters.misses, kThreads * kRounds);
  EXPECT_GT(counters.hits, 0);
  EXPECT_LE(counters.bytes, capacity);
  EXPECT_EQ(counters.bytes, counters.entries * footer->memory_bytes());
  EXPECT_LE(counters.entries, 10);
}

}  // namespace
}  // namespace hoglake::sql
