// `hoglake serve` reads every environment variable before it starts
// anything: a bad value stops it with a message naming the variable, and no
// PostgreSQL is initialized (cli/serve_config.h, docs/operations.md).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "server_fixture.h"

namespace hoglake::testing {
namespace {

namespace fs = std::filesystem;

TEST(ServeConfigTest, EachInvalidVariableStopsServeNamingIt) {
  const char* bin = std::getenv("HOGLAKE_BIN");
  ASSERT_NE(bin, nullptr);
  const std::string dir = MakeServerDir("hoglake-config");
  ASSERT_FALSE(dir.empty());
  struct Case {
    std::string assignment;  // NAME='value'
    std::string message;
  };
  const std::vector<Case> cases = {
      {"HOGLAKE_EXPIRY_INTERVAL_MS=5x", "HOGLAKE_EXPIRY_INTERVAL_MS='5x' is not an integer"},
      {"HOGLAKE_EXPIRY_INTERVAL_MS=-1", "HOGLAKE_EXPIRY_INTERVAL_MS=-1 is out of range"},
      {"HOGLAKE_RETIREMENT_BATCH=0", "HOGLAKE_RETIREMENT_BATCH=0 is out of range"},
      {"HOGLAKE_HYDRATOR_LEASE_SECONDS=abc", "HOGLAKE_HYDRATOR_LEASE_SECONDS='abc'"},
      {"HOGLAKE_COMMIT_STATE_CACHE=maybe", "HOGLAKE_COMMIT_STATE_CACHE='maybe' is not a boolean"},
      {"HOGLAKE_MAX_CONNECTIONS=0", "HOGLAKE_MAX_CONNECTIONS=0 is out of range"},
      {"HOGLAKE_MAX_REQUEST_BODY_BYTES=64MiB", "HOGLAKE_MAX_REQUEST_BODY_BYTES='64MiB'"},
      {"HOGLAKE_METRICS_SAMPLE_INTERVAL_MS=1e3", "HOGLAKE_METRICS_SAMPLE_INTERVAL_MS='1e3'"},
      {"HOGLAKE_EMBEDDED_PG_SETTINGS='fsync=off oops'",
       "HOGLAKE_EMBEDDED_PG_SETTINGS: 'oops' is not name=value"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.assignment);
    const std::string log = dir + "/refused.log";
    const std::string command = "env " + c.assignment + " timeout 60 " + bin +
                                " serve --data-dir " + dir + "/data --listen 127.0.0.1:0 2>" + log;
    const int rc = std::system(command.c_str());
    ASSERT_TRUE(WIFEXITED(rc));
    EXPECT_EQ(WEXITSTATUS(rc), 1);
    const std::string text = ReadFile(log);
    EXPECT_NE(text.find(c.message), std::string::npos) << text;
    // Refused before anything started: no PostgreSQL was initialized.
    EXPECT_FALSE(fs::exists(dir + "/data/pg"));
  }
  // Two bad variables are both named in one message.
  const std::string log = dir + "/both.log";
  const std::string command = "env HOGLAKE_EXPIRY_INTERVAL_MS=x HOGLAKE_HYDRATOR_BATCH=0 " +
                              std::string("timeout 60 ") + bin + " serve --data-dir " + dir +
                              "/data --listen 127.0.0.1:0 2>" + log;
  const int rc = std::system(command.c_str());
  ASSERT_TRUE(WIFEXITED(rc));
  EXPECT_EQ(WEXITSTATUS(rc), 1);
  const std::string text = ReadFile(log);
  EXPECT_NE(text.find("HOGLAKE_EXPIRY_INTERVAL_MS"), std::string::npos) << text;
  EXPECT_NE(text.find("HOGLAKE_HYDRATOR_BATCH"), std::string::npos) << text;
  if (!::testing::Test::HasFailure()) fs::remove_all(dir);
}

}  // namespace
}  // namespace hoglake::testing
