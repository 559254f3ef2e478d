#include "storage/local_store.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "storage/object_store.h"

namespace hoglake {
namespace {

namespace fs = std::filesystem;

class LocalStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/hoglake-local-store-XXXXXX";
    ASSERT_NE(mkdtemp(pattern), nullptr);
    dir_ = pattern;
    root_ = "file://" + dir_ + "/root";
    auto store = OpenObjectStore(root_);
    ASSERT_TRUE(store.ok()) << store.error().ToString();
    store_ = std::move(store).value();
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string Path(std::string_view key) const { return root_ + "/" + std::string(key); }

  std::string dir_;
  std::string root_;
  std::unique_ptr<ObjectStore> store_;
};

TEST_F(LocalStoreTest, OpenCreatesRootAndReportsIt) {
  EXPECT_TRUE(fs::is_directory(dir_ + "/root"));
  EXPECT_EQ(store_->root(), root_);
  auto trailing = OpenObjectStore(root_ + "/");
  ASSERT_TRUE(trailing.ok());
  EXPECT_EQ((*trailing)->root(), root_);
}

TEST_F(LocalStoreTest, PutGetRoundTripCreatesParents) {
  std::string bytes("PAR1\0binary\xff", 12);
  ASSERT_TRUE(store_->Put(Path("data/ns/t/a.parquet"), bytes).ok());
  auto got = store_->Get(Path("data/ns/t/a.parquet"));
  ASSERT_TRUE(got.ok()) << got.error().ToString();
  EXPECT_EQ(*got, bytes);
  auto size = store_->Head(Path("data/ns/t/a.parquet"));
  ASSERT_TRUE(size.ok());
  EXPECT_EQ(*size, 12u);
}

TEST_F(LocalStoreTest, PutReplacesAndEmptyObjectsWork) {
  ASSERT_TRUE(store_->Put(Path("k"), "first version").ok());
  ASSERT_TRUE(store_->Put(Path("k"), "").ok());
  EXPECT_EQ(*store_->Get(Path("k")), "");
  EXPECT_EQ(*store_->Head(Path("k")), 0u);
}

TEST_F(LocalStoreTest, RangesClampAtTheEnd) {
  ASSERT_TRUE(store_->Put(Path("r"), "0123456789").ok());
  EXPECT_EQ(*store_->GetRange(Path("r"), 0, 4), "0123");
  EXPECT_EQ(*store_->GetRange(Path("r"), 6, 100), "6789");
  EXPECT_EQ(*store_->GetRange(Path("r"), 10, 5), "");
  EXPECT_EQ(*store_->GetRange(Path("r"), 3, 0), "");
  auto past = store_->GetRange(Path("r"), 11, 1);
  ASSERT_FALSE(past.ok());
  EXPECT_EQ(past.error().code, ErrorCode::kInvalidArgument);
}

TEST_F(LocalStoreTest, MissingObjectsAreNotFound) {
  for (auto result : {store_->Get(Path("nope")), store_->GetRange(Path("nope"), 0, 1)}) {
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().code, ErrorCode::kNotFound);
    EXPECT_NE(result.error().message.find(Path("nope")), std::string::npos);
  }
  auto head = store_->Head(Path("a/b/nope"));
  ASSERT_FALSE(head.ok());
  EXPECT_EQ(head.error().code, ErrorCode::kNotFound);
  // A directory is not an object.
  ASSERT_TRUE(store_->Put(Path("d/x"), "x").ok());
  EXPECT_EQ(store_->Head(Path("d")).error().code, ErrorCode::kNotFound);
  EXPECT_EQ(store_->Get(Path("d")).error().code, ErrorCode::kNotFound);
}

TEST_F(LocalStoreTest, DeleteReportsWhetherTheObjectExisted) {
  ASSERT_TRUE(store_->Put(Path("x/y"), "bytes").ok());
  auto first = store_->Delete(Path("x/y"));
  ASSERT_TRUE(first.ok());
  EXPECT_TRUE(*first);
  auto second = store_->Delete(Path("x/y"));
  ASSERT_TRUE(second.ok());
  EXPECT_FALSE(*second);
  EXPECT_FALSE(*store_->Delete(Path("never/was")));
  EXPECT_EQ(store_->Head(Path("x/y")).error().code, ErrorCode::kNotFound);
}

TEST_F(LocalStoreTest, DeleteManyReportsEachPathOnItsOwn) {
  // Enough paths for every worker thread; every third one never existed.
  std::vector<std::string> paths;
  for (int i = 0; i < 300; ++i) {
    paths.push_back(Path("many/f" + std::to_string(i)));
    if (i % 3 != 0) {
      ASSERT_TRUE(store_->Put(paths.back(), "x").ok());
    }
  }
  ASSERT_TRUE(store_->Put(Path("many/dir/inner"), "x").ok());
  ASSERT_TRUE(store_->Put(Path("kept"), "x").ok());
  paths.push_back(Path("many/dir"));                  // a directory: not an object
  paths.push_back(Path("many/../kept"));              // refused, alone
  paths.push_back("file:///elsewhere/outside-root");  // refused, alone
  std::vector<Result<bool>> outcomes = store_->DeleteMany(paths);
  ASSERT_EQ(outcomes.size(), paths.size());
  for (int i = 0; i < 300; ++i) {
    ASSERT_TRUE(outcomes[i].ok()) << paths[i] << ": " << outcomes[i].error().ToString();
    EXPECT_EQ(*outcomes[i], i % 3 != 0) << paths[i];
    EXPECT_EQ(store_->Head(paths[i]).error().code, ErrorCode::kNotFound) << paths[i];
  }
  ASSERT_TRUE(outcomes[300].ok());
  EXPECT_FALSE(*outcomes[300]);
  ASSERT_FALSE(outcomes[301].ok());
  EXPECT_EQ(outcomes[301].error().code, ErrorCode::kInvalidArgument);
  EXPECT_NE(outcomes[301].error().message.find("many/../kept"), std::string::npos);
  ASSERT_FALSE(outcomes[302].ok());
  EXPECT_EQ(outcomes[302].error().code, ErrorCode::kInvalidArgument);
  EXPECT_TRUE(store_->Head(Path("kept")).ok());
  EXPECT_TRUE(store_->Head(Path("many/dir/inner")).ok());
  EXPECT_TRUE(store_->DeleteMany({}).empty());
}

TEST_F(LocalStoreTest, ListIsAStringPrefixSortedWithSizes) {
  ASSERT_TRUE(store_->Put(Path("data/ns/t1/b.parquet"), "bb").ok());
  ASSERT_TRUE(store_->Put(Path("data/ns/t1/a.parquet"), "a").ok());
  ASSERT_TRUE(store_->Put(Path("data/ns/t10/c.parquet"), "ccc").ok());
  ASSERT_TRUE(store_->Put(Path("data/other/d"), "").ok());

  auto all = store_->List(root_);
  ASSERT_TRUE(all.ok()) << all.error().ToString();
  ASSERT_EQ(all->size(), 4u);
  EXPECT_EQ((*all)[0].path, Path("data/ns/t1/a.parquet"));
  EXPECT_EQ((*all)[0].size, 1u);
  EXPECT_EQ((*all)[1].path, Path("data/ns/t1/b.parquet"));
  EXPECT_EQ((*all)[1].size, 2u);
  EXPECT_EQ((*all)[2].path, Path("data/ns/t10/c.parquet"));
  EXPECT_EQ((*all)[3].path, Path("data/other/d"));

  auto dir = store_->List(Path("data/ns/t1/"));
  ASSERT_TRUE(dir.ok());
  EXPECT_EQ(dir->size(), 2u);
  auto partial = store_->List(Path("data/ns/t1"));  // also matches t10
  ASSERT_TRUE(partial.ok());
  EXPECT_EQ(partial->size(), 3u);
  auto name_prefix = store_->List(Path("data/ns/t1/b"));
  ASSERT_TRUE(name_prefix.ok());
  ASSERT_EQ(name_prefix->size(), 1u);
  EXPECT_EQ((*name_prefix)[0].path, Path("data/ns/t1/b.parquet"));
  auto none = store_->List(Path("missing/dir/"));
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->empty());
}

TEST_F(LocalStoreTest, DotDotAndOutOfRootPathsAreRefused) {
  const std::string outside = dir_ + "/outside";
  const std::vector<std::string> paths = {Path("../outside"),
                                          Path("a/../../outside"),
                                          Path("a/./b"),
                                          Path("a//b"),
                                          Path(""),
                                          root_,
                                          "file://" + outside,
                                          root_ + "sibling/x",
                                          "s3://bucket/key",
                                          root_ + std::string("/a\0b", 4)};
  for (const std::string& path : paths) {
    auto put = store_->Put(path, "x");
    ASSERT_FALSE(put.ok()) << path;
    EXPECT_EQ(put.error().code, ErrorCode::kInvalidArgument) << path;
    EXPECT_EQ(store_->Get(path).error().code, ErrorCode::kInvalidArgument) << path;
    EXPECT_EQ(store_->Head(path).error().code, ErrorCode::kInvalidArgument) << path;
    EXPECT_EQ(store_->Delete(path).error().code, ErrorCode::kInvalidArgument) << path;
  }
  EXPECT_FALSE(fs::exists(outside));
  EXPECT_EQ(store_->List("file://" + dir_).error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(store_->List(root_ + "x").error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(store_->List(Path("../")).error().code, ErrorCode::kInvalidArgument);
}

TEST_F(LocalStoreTest, SymlinkEscapesAreRefused) {
  const std::string outside = dir_ + "/outside";
  fs::create_directories(outside);
  {
    auto out = OpenObjectStore("file://" + outside);
    ASSERT_TRUE(out.ok());
    ASSERT_TRUE((*out)->Put("file://" + outside + "/secret", "secret").ok());
  }
  fs::create_directory_symlink(outside, dir_ + "/root/link");
  fs::create_symlink(outside + "/secret", dir_ + "/root/file_link");

  auto read_through_dir = store_->Get(Path("link/secret"));
  ASSERT_FALSE(read_through_dir.ok());
  EXPECT_EQ(read_through_dir.error().code, ErrorCode::kInvalidArgument);
  EXPECT_NE(read_through_dir.error().message.find("symbolic link"), std::string::npos);
  EXPECT_EQ(store_->Get(Path("file_link")).error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(store_->Put(Path("link/new"), "x").error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(store_->Put(Path("link/deeper/new"), "x").error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(store_->Delete(Path("link/secret")).error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(store_->List(Path("link/")).error().code, ErrorCode::kInvalidArgument);
  EXPECT_FALSE(fs::exists(outside + "/new"));
  EXPECT_TRUE(fs::exists(outside + "/secret"));

  // Listing the root does not descend through the links.
  ASSERT_TRUE(store_->Put(Path("real"), "r").ok());
  auto all = store_->List(root_);
  ASSERT_TRUE(all.ok());
  ASSERT_EQ(all->size(), 1u);
  EXPECT_EQ((*all)[0].path, Path("real"));

  // A link that stays inside the root is fine.
  fs::create_symlink(dir_ + "/root/real", dir_ + "/root/inner_link");
  EXPECT_EQ(*store_->Get(Path("inner_link")), "r");
}

TEST_F(LocalStoreTest, StreamedWriteIsInvisibleUntilCommit) {
  auto writer = store_->OpenWriter(Path("big/object"));
  ASSERT_TRUE(writer.ok()) << writer.error().ToString();
  std::string expected;
  for (int i = 0; i < 100; ++i) {
    std::string chunk(1000 + i, static_cast<char>('a' + i % 26));
    ASSERT_TRUE((*writer)->Append(chunk).ok());
    expected += chunk;
  }
  EXPECT_EQ((*writer)->bytes_written(), expected.size());
  EXPECT_EQ(store_->Head(Path("big/object")).error().code, ErrorCode::kNotFound);
  EXPECT_TRUE(store_->List(root_)->empty());  // temporary files are not listed
  ASSERT_TRUE((*writer)->Commit().ok());
  EXPECT_EQ(*store_->Get(Path("big/object")), expected);
  EXPECT_FALSE((*writer)->Append("more").ok());
  EXPECT_FALSE((*writer)->Commit().ok());
  // Only the object remains in its directory: no temporary file left.
  int entries = 0;
  for ([[maybe_unused]] auto& e : fs::directory_iterator(dir_ + "/root/big")) ++entries;
  EXPECT_EQ(entries, 1);
}

TEST_F(LocalStoreTest, AbortAndDestructionDiscardTheWrite) {
  ASSERT_TRUE(store_->Put(Path("keep"), "old").ok());
  {
    auto writer = store_->OpenWriter(Path("keep"));
    ASSERT_TRUE(writer.ok());
    ASSERT_TRUE((*writer)->Append("new bytes").ok());
    ASSERT_TRUE((*writer)->Abort().ok());
    ASSERT_TRUE((*writer)->Abort().ok());
  }
  {
    auto writer = store_->OpenWriter(Path("keep"));
    ASSERT_TRUE(writer.ok());
    ASSERT_TRUE((*writer)->Append("dropped").ok());
  }  // destroyed without Commit
  EXPECT_EQ(*store_->Get(Path("keep")), "old");
  int entries = 0;
  for ([[maybe_unused]] auto& e : fs::directory_iterator(dir_ + "/root")) ++entries;
  EXPECT_EQ(entries, 1);
}

TEST_F(LocalStoreTest, ReadersNeverSeeAPartialObject) {
  const std::string a(256 << 10, 'a');
  const std::string b(512 << 10, 'b');
  ASSERT_TRUE(store_->Put(Path("hot"), a).ok());
  std::atomic<bool> stop{false};
  std::atomic<int> bad{0};
  std::thread reader([&] {
    while (!stop) {
      auto got = store_->Get(Path("hot"));
      if (!got.ok() || (*got != a && *got != b)) ++bad;
    }
  });
  for (int i = 0; i < 50; ++i) ASSERT_TRUE(store_->Put(Path("hot"), i % 2 ? a : b).ok());
  stop = true;
  reader.join();
  EXPECT_EQ(bad.load(), 0);
}

TEST(OpenObjectStoreTest, RejectsUnknownSchemesAndRelativeRoots) {
  for (const char* uri :
       {"gs://bucket", "file://relative/dir", "file:///", "/abs/no/scheme", "file:///tmp/../etc"}) {
    auto store = OpenObjectStore(uri);
    ASSERT_FALSE(store.ok()) << uri;
    EXPECT_EQ(store.error().code, ErrorCode::kInvalidArgument) << uri;
  }
}

}  // namespace
}  // namespace hoglake
