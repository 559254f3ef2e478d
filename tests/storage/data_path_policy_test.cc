// DataPathPolicy admits a data path only under an allowed root (file://
// compared with symbolic links resolved, s3:// segment by segment) and never
// one overlapping a denied directory.
#include "storage/data_path_policy.h"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <string>

namespace hoglake {
namespace {

namespace fs = std::filesystem;

class DataPathPolicyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/hoglake-policy-XXXXXX";
    ASSERT_NE(mkdtemp(pattern), nullptr);
    dir_ = pattern;
    fs::create_directories(dir_ + "/lake");
    fs::create_directories(dir_ + "/pg");
    fs::create_directories(dir_ + "/outside");
  }
  void TearDown() override { fs::remove_all(dir_); }

  DataPathPolicy Policy() {
    Result<DataPathPolicy> policy = DataPathPolicy::Make(
        {"file://" + dir_ + "/lake", "s3://bucket/lake"}, {dir_ + "/pg"});
    EXPECT_TRUE(policy.ok());
    return std::move(*policy);
  }

  std::string dir_;
};

TEST_F(DataPathPolicyTest, DefaultPolicyAllowsEverything) {
  DataPathPolicy policy;
  EXPECT_FALSE(policy.restricted());
  EXPECT_TRUE(policy.Check("file:///").ok());
  EXPECT_TRUE(policy.Check("s3://anything/at/all").ok());
}

TEST_F(DataPathPolicyTest, AllowsPathsUnderAnAllowedRoot) {
  DataPathPolicy policy = Policy();
  EXPECT_TRUE(policy.Check("file://" + dir_ + "/lake/").ok());
  EXPECT_TRUE(policy.Check("file://" + dir_ + "/lake/cat/").ok());
  EXPECT_TRUE(policy.Check("file://" + dir_ + "/lake/cat/not/yet/made/x.parquet").ok());
  EXPECT_TRUE(policy.Check("s3://bucket/lake/").ok());
  EXPECT_TRUE(policy.Check("s3://bucket/lake/cat/data/f.parquet").ok());
}

TEST_F(DataPathPolicyTest, RefusesPathsOutsideEveryRoot) {
  DataPathPolicy policy = Policy();
  const std::vector<std::string> paths = {"file:///",
                                           "file:///tmp/",
                                           "file://" + dir_ + "/",
                                           "file://" + dir_ + "/outside/",
                                           "file://" + dir_ + "/lakeside/",
                                           "s3://bucket/",
                                           "s3://bucket/lakeside/",
                                           "s3://other/lake/",
                                           "gs://bucket/lake/"};
  for (const std::string& path : paths) {
    Status status = policy.Check(path);
    EXPECT_FALSE(status.ok()) << path;
    if (!status.ok()) {
      EXPECT_EQ(status.error().code, ErrorCode::kInvalidArgument) << path;
      EXPECT_NE(status.error().message.find(path), std::string::npos) << status.error().message;
    }
  }
}

TEST_F(DataPathPolicyTest, RefusesDotSegmentsThatWouldClimbOut) {
  DataPathPolicy policy = Policy();
  EXPECT_FALSE(policy.Check("file://" + dir_ + "/lake/../pg/").ok());
  EXPECT_FALSE(policy.Check("file://" + dir_ + "/lake/./x/").ok());
  EXPECT_FALSE(policy.Check("s3://bucket/lake/../secret/").ok());
}

TEST_F(DataPathPolicyTest, SymbolicLinksAreResolvedBeforeTheComparison) {
  DataPathPolicy policy = Policy();
  // A link inside the allowed root that points outside it.
  fs::create_directory_symlink(dir_ + "/outside", dir_ + "/lake/escape");
  EXPECT_FALSE(policy.Check("file://" + dir_ + "/lake/escape/").ok());
  EXPECT_FALSE(policy.Check("file://" + dir_ + "/lake/escape/deeper/x.parquet").ok());
  // A link outside that points into the root is fine: the data is inside.
  fs::create_directory_symlink(dir_ + "/lake", dir_ + "/alias");
  EXPECT_TRUE(policy.Check("file://" + dir_ + "/alias/cat/").ok());
  // A link swapped in after the policy was made is seen at the next check.
  fs::create_directories(dir_ + "/lake/cat");
  EXPECT_TRUE(policy.Check("file://" + dir_ + "/lake/cat/").ok());
  fs::remove(dir_ + "/lake/cat");
  fs::create_directory_symlink(dir_ + "/pg", dir_ + "/lake/cat");
  EXPECT_FALSE(policy.Check("file://" + dir_ + "/lake/cat/").ok());
}

TEST_F(DataPathPolicyTest, DeniedDirectoriesStayRefusedInsideAnAllowedRoot) {
  Result<DataPathPolicy> policy =
      DataPathPolicy::Make({"file://" + dir_ + "/"}, {dir_ + "/pg"});
  ASSERT_TRUE(policy.ok());
  EXPECT_TRUE(policy->Check("file://" + dir_ + "/lake/").ok());
  EXPECT_FALSE(policy->Check("file://" + dir_ + "/pg/").ok());
  EXPECT_FALSE(policy->Check("file://" + dir_ + "/pg/global/pg_control").ok());
  // A data path that contains the denied directory overlaps it too.
  EXPECT_FALSE(policy->Check("file://" + dir_ + "/").ok());
}

TEST_F(DataPathPolicyTest, AnEmptyAllowListAllowsNothing) {
  Result<DataPathPolicy> policy = DataPathPolicy::Make({}, {});
  ASSERT_TRUE(policy.ok());
  EXPECT_TRUE(policy->restricted());
  EXPECT_FALSE(policy->Check("s3://bucket/").ok());
  EXPECT_FALSE(policy->Check("file://" + dir_ + "/lake/").ok());
}

TEST_F(DataPathPolicyTest, MalformedRootsAreRefusedByName) {
  for (const std::string& root :
       {std::string("relative/path"), std::string("file://relative"), std::string("s3://"),
        std::string("s3:///nobucket"), std::string("file:///a/../b"), std::string("http://x/")}) {
    Result<DataPathPolicy> policy = DataPathPolicy::Make({root}, {});
    EXPECT_FALSE(policy.ok()) << root;
    if (!policy.ok()) {
      EXPECT_NE(policy.error().message.find(root), std::string::npos);
    }
  }
  EXPECT_FALSE(DataPathPolicy::Make({"s3://b/"}, {"relative"}).ok());
}

TEST_F(DataPathPolicyTest, SplitListTakesCommasAndWhitespace) {
  EXPECT_EQ(DataPathPolicy::SplitList(" s3://a/, file:///x ,,\ts3://b "),
            (std::vector<std::string>{"s3://a/", "file:///x", "s3://b"}));
  EXPECT_TRUE(DataPathPolicy::SplitList("").empty());
}

}  // namespace
}  // namespace hoglake
