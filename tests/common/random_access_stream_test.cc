// RandomAccessStream: an istream over ranged reads gives back exactly the
// source's bytes whatever the chunk size (records and multi-byte characters
// cut across chunks included), rewinds for a second pass, and turns a failed
// read into badbit with the source's error kept.
#include "common/random_access_stream.h"

#include <gtest/gtest.h>

#include <iterator>
#include <string>

namespace hoglake {
namespace {

// A source whose reads fail from byte `fail_at` on.
class FailingSource : public RandomAccessSource {
 public:
  FailingSource(std::string bytes, int64_t fail_at) : bytes_(std::move(bytes)), fail_at_(fail_at) {}
  const std::string& name() const override { return name_; }
  int64_t size() const override { return static_cast<int64_t>(bytes_.size()); }
  Status ReadInto(int64_t offset, int64_t length, char* out) override {
    ++reads_;
    if (offset + length > fail_at_) return IoError("the store went away at ", offset);
    bytes_.copy(out, static_cast<size_t>(length), static_cast<size_t>(offset));
    return Status::Ok();
  }
  int reads_ = 0;

 private:
  std::string bytes_;
  int64_t fail_at_;
  std::string name_ = "failing";
};

std::string ReadAll(std::istream& in) {
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

TEST(RandomAccessStreamTest, GivesEveryByteInOrderForAnyChunkSize) {
  const std::string text =
      "id,name\n1,\"a,\nb\"\n2,h\xC3\xA9llo \xE2\x82\xAC\n3,\xF0\x9F\x98\x80\n";
  for (int64_t chunk : {1, 2, 3, 5, 7, 64, 4096}) {
    RandomAccessStream in(MemorySource(std::make_shared<const std::string>(text)), chunk);
    EXPECT_EQ(ReadAll(in), text) << "chunk " << chunk;
    EXPECT_FALSE(in.bad());
    EXPECT_EQ(in.bytes_fetched(), static_cast<int64_t>(text.size()));
    in.Rewind();
    std::string line;
    ASSERT_TRUE(std::getline(in, line)) << "chunk " << chunk;
    EXPECT_EQ(line, "id,name");
  }
}

TEST(RandomAccessStreamTest, EmptySourceIsAtEndAtOnce) {
  RandomAccessStream in(MemorySource(std::make_shared<const std::string>()), 16);
  EXPECT_EQ(ReadAll(in), "");
  EXPECT_FALSE(in.bad());
  EXPECT_FALSE(in.error().has_value());
}

TEST(RandomAccessStreamTest, AFailedReadIsBadbitWithTheSourcesError) {
  auto source = std::make_shared<FailingSource>(std::string(100, 'x'), 40);
  RandomAccessStream in(source, 16);
  char buffer[100];
  in.read(buffer, sizeof buffer);
  EXPECT_TRUE(in.bad());
  ASSERT_TRUE(in.error().has_value());
  EXPECT_EQ(in.error()->code, ErrorCode::kIoError);
  EXPECT_NE(in.error()->message.find("went away at 32"), std::string::npos) << in.error()->message;
  // Rewinding clears the error: the first bytes read again.
  in.Rewind();
  EXPECT_FALSE(in.error().has_value());
  in.read(buffer, 16);
  EXPECT_EQ(in.gcount(), 16);
  EXPECT_FALSE(in.bad());
}

}  // namespace
}  // namespace hoglake
