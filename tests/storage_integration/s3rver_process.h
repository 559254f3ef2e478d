// s3rver (npm, pinned in tests/interop/package-lock.json) on loopback for
// tests: one process per test binary, started on first use through
// start_s3rver.mjs (NODE_EXECUTABLE and S3RVER_SCRIPT come from CTest), with
// the bucket `kS3rverBucket`, stopped by the gtest environment below. A test
// checks `startup_error()` first; LoopbackConfig gives an S3Config for it.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "s3rver_launch.h"
#include "storage/s3_config.h"

namespace hoglake::testing {

inline constexpr const char* kS3rverBucket = "hoglake-test";

// One s3rver process for the whole binary.
class S3rverProcess {
 public:
  static S3rverProcess& Get() {
    static S3rverProcess* process = new S3rverProcess();
    return *process;
  }
  int port() const { return launch_.port; }
  const std::string& startup_error() const { return launch_.error; }
  void Stop() { launch_.Stop(); }

 private:
  S3rverProcess() {
    const char* node = std::getenv("NODE_EXECUTABLE");
    const char* script = std::getenv("S3RVER_SCRIPT");
    if (node == nullptr || script == nullptr) {
      launch_.error = "NODE_EXECUTABLE and S3RVER_SCRIPT must be set (CTest sets them)";
      return;
    }
    launch_ = S3rverLaunch::Start(node, script, {kS3rverBucket});
  }

  S3rverLaunch launch_;
};

class S3rverEnvironment : public ::testing::Environment {
 public:
  void TearDown() override { S3rverProcess::Get().Stop(); }
};
inline const auto* const kS3rverEnvironment =
    ::testing::AddGlobalTestEnvironment(new S3rverEnvironment);

inline S3Config LoopbackConfig(int port) { return S3rverConfig(port); }

}  // namespace hoglake::testing
