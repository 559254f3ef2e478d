// ObjectSource over a store: ranged reads, and WillRead's coalesced fetches
// counted (a local store stands in for S3 here; storage_integration runs the
// same against s3rver).
#include "storage/object_source.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

namespace hoglake {
namespace {

class ObjectSourceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/hoglake-object-source-XXXXXX";
    ASSERT_NE(mkdtemp(pattern), nullptr);
    dir_ = pattern;
    auto store = OpenObjectStore("file://" + dir_);
    ASSERT_TRUE(store.ok()) << store.error().ToString();
    store_ = std::move(store).value();
    path_ = "file://" + dir_ + "/obj.bin";
    for (int i = 0; i < 4 << 20; ++i) bytes_.push_back(static_cast<char>((i * 131) >> 3));
    ASSERT_TRUE(store_->Put(path_, bytes_).ok());
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::string Read(ObjectSource& source, int64_t offset, int64_t length) {
    std::string out(static_cast<size_t>(length), '\0');
    EXPECT_TRUE(source.ReadInto(offset, length, out.data()).ok());
    return out;
  }

  std::string dir_;
  std::string path_;
  std::string bytes_;
  std::unique_ptr<ObjectStore> store_;
};

TEST_F(ObjectSourceTest, SizeFromTheStoreOrTheCaller) {
  auto asked = ObjectSource::Open(store_.get(), path_);
  ASSERT_TRUE(asked.ok()) << asked.error().ToString();
  EXPECT_EQ((*asked)->size(), static_cast<int64_t>(bytes_.size()));
  auto told = ObjectSource::Open(store_.get(), path_, 1234);
  ASSERT_TRUE(told.ok());
  EXPECT_EQ((*told)->size(), 1234);
  auto missing = ObjectSource::Open(store_.get(), "file://" + dir_ + "/nope");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().code, ErrorCode::kNotFound);
}

TEST_F(ObjectSourceTest, EachReadOutsideWillReadIsOneRangedGet) {
  auto source = *ObjectSource::Open(store_.get(), path_);
  EXPECT_EQ(Read(*source, 100, 50), bytes_.substr(100, 50));
  EXPECT_EQ(Read(*source, 4000000, 10), bytes_.substr(4000000, 10));
  EXPECT_EQ(source->requests(), 2);
}

TEST_F(ObjectSourceTest, WillReadFetchesNearbyRangesInOneRequest) {
  auto source = *ObjectSource::Open(store_.get(), path_);
  // Three chunks within a few KB of each other, and one 3 MB away.
  const std::vector<ByteRange> chunks = {{4, 1000}, {1004, 5000}, {9000, 300}, {3 << 20, 2048}};
  ASSERT_TRUE(source->WillRead(chunks).ok());
  EXPECT_EQ(source->requests(), 2);
  for (const ByteRange& c : chunks) {
    EXPECT_EQ(Read(*source, c.offset, c.length), bytes_.substr(c.offset, c.length));
  }
  EXPECT_EQ(source->requests(), 2);  // every read served from the fetched ranges
  // A read outside them is its own request; the next WillRead replaces them.
  EXPECT_EQ(Read(*source, 2 << 20, 16), bytes_.substr(2 << 20, 16));
  EXPECT_EQ(source->requests(), 3);
  ASSERT_TRUE(source->WillRead(std::vector<ByteRange>{{100, 10}}).ok());
  EXPECT_EQ(Read(*source, 9000, 300), bytes_.substr(9000, 300));
  EXPECT_EQ(source->requests(), 5);
}

TEST_F(ObjectSourceTest, AnObjectShorterThanRecordedIsAnError) {
  auto source = *ObjectSource::Open(store_.get(), path_, static_cast<int64_t>(bytes_.size()) + 10);
  std::string out(20, '\0');
  Status status = source->ReadInto(static_cast<int64_t>(bytes_.size()) - 10, 20, out.data());
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().code, ErrorCode::kIoError);
  EXPECT_NE(status.error().message.find("shorter"), std::string::npos) << status.error().message;
  EXPECT_FALSE(
      source->WillRead(std::vector<ByteRange>{{0, static_cast<int64_t>(bytes_.size()) + 20}}).ok());
}

}  // namespace
}  // namespace hoglake
