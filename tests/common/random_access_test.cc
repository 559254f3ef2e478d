// RandomAccessSource implementations (local file, memory) and the range
// coalescing remote sources use.
#include "common/random_access.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

namespace hoglake {
namespace {

TEST(CoalesceRangesTest, MergesNeighboursWithinTheGapAndSize) {
  const std::vector<ByteRange> in = {{100, 10}, {0, 10}, {15, 5}, {30, 0}, {200, 50}};
  // Gap 5: [0,10) and [15,20) merge; [100,110) and [200,250) stay apart.
  EXPECT_EQ(CoalesceRanges(in, 5, 1000), (std::vector<ByteRange>{{0, 20}, {100, 10}, {200, 50}}));
  // Gap 100: everything up to 250 is one request.
  EXPECT_EQ(CoalesceRanges(in, 100, 1000), (std::vector<ByteRange>{{0, 250}}));
  // ... unless the merged request would pass the size bound.
  EXPECT_EQ(CoalesceRanges(in, 100, 120), (std::vector<ByteRange>{{0, 110}, {200, 50}}));
  // Gap 0: touching ranges merge, others do not.
  EXPECT_EQ(CoalesceRanges(std::vector<ByteRange>{{0, 4}, {4, 6}, {11, 1}}, 0, 1000),
            (std::vector<ByteRange>{{0, 10}, {11, 1}}));
}

TEST(CoalesceRangesTest, OverlappingAndOversizedRangesAreKeptWhole) {
  // Overlapping ranges merge whatever the bound: no byte is fetched twice.
  EXPECT_EQ(CoalesceRanges(std::vector<ByteRange>{{0, 100}, {10, 5}, {50, 60}}, 0, 10),
            (std::vector<ByteRange>{{0, 110}}));
  EXPECT_EQ(CoalesceRanges(std::vector<ByteRange>{{0, 100}, {10, 5}}, 0, 10),
            (std::vector<ByteRange>{{0, 100}}));
  EXPECT_TRUE(CoalesceRanges(std::vector<ByteRange>{}, 0, 10).empty());
}

TEST(CoalesceRangesTest, EveryInputLiesInsideOneOutput) {
  std::vector<ByteRange> in;
  for (int64_t i = 0; i < 200; ++i) in.push_back({(i * 7919) % 5000, (i * 31) % 97});
  for (int64_t gap : {0, 10, 1000}) {
    for (int64_t max : {1, 100, 100000}) {
      const std::vector<ByteRange> out = CoalesceRanges(in, gap, max);
      for (size_t k = 1; k < out.size(); ++k) EXPECT_GT(out[k].offset, out[k - 1].end() - 1);
      for (const ByteRange& r : in) {
        if (r.length == 0) continue;
        int inside = 0;
        for (const ByteRange& o : out) inside += r.offset >= o.offset && r.end() <= o.end();
        EXPECT_EQ(inside, 1) << r.offset << "+" << r.length;
      }
    }
  }
}

TEST(LocalFileSourceTest, ReadsRangesAndNamesTheFile) {
  char pattern[] = "/tmp/hoglake-source-XXXXXX";
  const int fd = mkstemp(pattern);
  ASSERT_GE(fd, 0);
  const std::string bytes = "0123456789abcdef";
  ASSERT_EQ(write(fd, bytes.data(), bytes.size()), static_cast<ssize_t>(bytes.size()));
  close(fd);
  auto source = OpenLocalFileSource(pattern);
  ASSERT_TRUE(source.ok()) << source.error().ToString();
  EXPECT_EQ((*source)->size(), 16);
  EXPECT_EQ((*source)->name(), pattern);
  EXPECT_FALSE((*source)->View(0, 4).has_value());
  std::string out(6, '\0');
  ASSERT_TRUE((*source)->ReadInto(10, 6, out.data()).ok());
  EXPECT_EQ(out, "abcdef");
  // The file shrinks under the reader: an I/O error naming it.
  ASSERT_EQ(truncate(pattern, 8), 0);
  Status short_read = (*source)->ReadInto(4, 8, out.data());
  ASSERT_FALSE(short_read.ok());
  EXPECT_EQ(short_read.error().code, ErrorCode::kIoError);
  EXPECT_NE(short_read.error().message.find(pattern), std::string::npos);
  std::remove(pattern);
  auto missing = OpenLocalFileSource(pattern);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().code, ErrorCode::kIoError);
}

TEST(MemorySourceTest, ViewsWithoutCopying) {
  auto bytes = std::make_shared<const std::string>("PAR1 and more");
  auto source = MemorySource(bytes);
  EXPECT_EQ(source->size(), 13);
  const auto view = source->View(5, 3);
  ASSERT_TRUE(view.has_value());
  EXPECT_EQ(*view, "and");
  EXPECT_EQ(view->data(), bytes->data() + 5);
  EXPECT_FALSE(source->View(10, 10).has_value());
  std::string out(4, '\0');
  ASSERT_TRUE(source->ReadInto(0, 4, out.data()).ok());
  EXPECT_EQ(out, "PAR1");
  EXPECT_FALSE(source->ReadInto(10, 10, out.data()).ok());
}

}  // namespace
}  // namespace hoglake
