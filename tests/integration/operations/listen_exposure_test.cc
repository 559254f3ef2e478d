// No request is authenticated yet, so `hoglake serve` refuses an address
// other machines can reach unless the operator says --allow-unauthenticated,
// and then warns in its log.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "server_fixture.h"

namespace hoglake::testing {
namespace {

namespace fs = std::filesystem;

class ListenExposureTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* bin = std::getenv("HOGLAKE_BIN");
    ASSERT_NE(bin, nullptr);
    bin_ = bin;
    dir_ = MakeServerDir("hoglake-listen");
    ASSERT_FALSE(dir_.empty());
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string bin_;
  std::string dir_;
};

TEST_F(ListenExposureTest, ANonLoopbackAddressIsRefusedWithoutTheFlag) {
  for (const std::string listen : {"0.0.0.0:0", "[::]:0"}) {
    const std::string log = dir_ + "/refused.log";
    const std::string command = "timeout 60 " + bin_ + " serve --data-dir " + dir_ +
                                "/data --listen '" + listen + "' 2>" + log;
    const int rc = std::system(command.c_str());
    ASSERT_TRUE(WIFEXITED(rc));
    EXPECT_EQ(WEXITSTATUS(rc), 1) << listen;
    const std::string text = ReadFile(log);
    EXPECT_NE(text.find("--allow-unauthenticated"), std::string::npos) << text;
    // Refused before anything started: no PostgreSQL was initialized.
    EXPECT_FALSE(fs::exists(dir_ + "/data/pg")) << listen;
  }
}

TEST_F(ListenExposureTest, TheFlagServesAndWarns) {
  const std::string log = dir_ + "/serve.log";
  const std::string ready = dir_ + "/ready";
  // Started in the background, stopped as soon as it reported ready.
  const std::string command =
      "(" + bin_ + " serve --data-dir " + dir_ + "/data --listen 0.0.0.0:0 " +
      "--allow-unauthenticated --ready-file " + ready + " 2>" + log + " & pid=$!; " +
      "for i in $(seq 1 600); do [ -f " + ready + " ] && break; sleep 0.1; done; " +
      "kill -TERM $pid; wait $pid)";
  const int rc = std::system(command.c_str());
  ASSERT_TRUE(WIFEXITED(rc));
  EXPECT_EQ(WEXITSTATUS(rc), 0) << ReadFile(log);
  EXPECT_TRUE(fs::exists(ready)) << ReadFile(log);
  EXPECT_NE(ReadFile(log).find("WITHOUT AUTHENTICATION"), std::string::npos) << ReadFile(log);
}

}  // namespace
}  // namespace hoglake::testing
