// JsonWriter's segmented output: EnsureSpare starts new segments instead of
// moving written text, and the segments join to exactly the one-buffer text.
#include "common/json_writer.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace hoglake {
namespace {

std::string Join(const std::vector<std::string>& segments) {
  std::string text;
  for (const std::string& segment : segments) text += segment;
  return text;
}

// A nested document of `files` objects (~1.3 KB each); `spare` > 0 calls
// EnsureSpare(spare) before each, as the scan route does.
void WriteFiles(JsonWriter& w, int files, size_t spare) {
  w.BeginObject();
  w.Field("name", "events");
  w.Key("files");
  w.BeginArray();
  for (int i = 0; i < files; ++i) {
    if (spare > 0) w.EnsureSpare(spare);
    w.BeginObject();
    w.Field("id", int64_t{i});
    w.Field("path", std::string(1000, static_cast<char>('a' + i % 26)) + "\"\n");
    w.Key("stats");
    w.BeginArray();
    for (int c = 0; c < 20; ++c) {
      w.BeginObject();
      w.Field("field_id", int64_t{c});
      w.Key("null_count");
      w.UInt(uint64_t{1} << 63);
      w.Key("bounds");
      w.BeginArray();
      w.Null();
      w.Bool(c % 2 == 0);
      w.EndArray();
      w.EndObject();
    }
    w.EndArray();
    w.EndObject();
  }
  w.EndArray();
  w.Key("empty");
  w.BeginArray();
  w.EndArray();
  w.EndObject();
}

std::string OneBuffer(int files) {
  JsonWriter w;
  WriteFiles(w, files, 0);
  return w.Take();
}

TEST(JsonWriterSegmentsTest, SegmentsJoinToTheOneBufferText) {
  constexpr int kFiles = 4000;  // ~8 MB: several segments
  JsonWriter w;
  WriteFiles(w, kFiles, 1 << 16);
  const std::vector<std::string> segments = w.TakeSegments();
  EXPECT_GE(segments.size(), 2u);
  for (const std::string& segment : segments) EXPECT_FALSE(segment.empty());
  EXPECT_EQ(Join(segments), OneBuffer(kFiles));
}

TEST(JsonWriterSegmentsTest, TakeJoinsSegments) {
  constexpr int kFiles = 4000;
  JsonWriter w;
  WriteFiles(w, kFiles, 1 << 16);
  EXPECT_EQ(w.Take(), OneBuffer(kFiles));
}

TEST(JsonWriterSegmentsTest, SmallDocumentIsOneSegment) {
  JsonWriter w;
  WriteFiles(w, 3, 1 << 16);
  const std::vector<std::string> segments = w.TakeSegments();
  ASSERT_EQ(segments.size(), 1u);
  EXPECT_EQ(segments[0], OneBuffer(3));
}

TEST(JsonWriterSegmentsTest, NothingWrittenIsNoSegments) {
  JsonWriter w;
  EXPECT_TRUE(w.TakeSegments().empty());
  w.EnsureSpare(1 << 16);
  EXPECT_TRUE(w.TakeSegments().empty());
  EXPECT_EQ(w.Take(), "");
}

TEST(JsonWriterSegmentsTest, WritingContinuesAfterTakeSegments) {
  JsonWriter w;
  w.BeginArray();
  w.Int(1);
  std::vector<std::string> segments = w.TakeSegments();
  w.Int(2);
  w.BeginObject();
  w.Field("a", "b");
  w.EndObject();
  w.EndArray();
  for (std::string& segment : w.TakeSegments()) segments.push_back(std::move(segment));
  EXPECT_EQ(Join(segments), R"([1,2,{"a":"b"}])");
}

TEST(JsonWriterSegmentsTest, SpareLargerThanASegment) {
  const std::string big(kJsonSegmentBytes + 10, 'x');
  JsonWriter w;
  w.BeginArray();
  w.EnsureSpare(big.size() + 2);
  w.String(big);
  w.EnsureSpare(big.size() + 2);
  w.String(big);
  w.EndArray();
  EXPECT_EQ(Join(w.TakeSegments()), "[\"" + big + "\",\"" + big + "\"]");
}

TEST(JsonSegmentPoolTest, AcquiredSegmentsAreEmptyAndLarge) {
  std::string segment = AcquireJsonSegment();
  EXPECT_TRUE(segment.empty());
  EXPECT_GE(segment.capacity(), kJsonSegmentBytes);
  segment = "written";
  const char* storage = segment.data();
  RecycleJsonSegment(std::move(segment));
  std::string again = AcquireJsonSegment();
  EXPECT_TRUE(again.empty());
  EXPECT_GE(again.capacity(), kJsonSegmentBytes);
  EXPECT_EQ(again.data(), storage);  // reused, not a fresh allocation
  RecycleJsonSegment(std::move(again));
}

TEST(JsonSegmentPoolTest, SmallBuffersAreNotKept) {
  RecycleJsonSegment(std::string("small"));
  EXPECT_GE(AcquireJsonSegment().capacity(), kJsonSegmentBytes);
}

}  // namespace
}  // namespace hoglake
