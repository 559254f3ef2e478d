// s3rver (npm, pinned in tests/interop/package-lock.json) on loopback for
// tests: one process per test binary, started on first use through
// start_s3rver.mjs (NODE_EXECUTABLE and S3RVER_SCRIPT come from CTest), with
// the bucket `kS3rverBucket`, stopped by the gtest environment below. A test
// checks `startup_error()` first; LoopbackConfig gives an S3Config for it.
#pragma once

#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>

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
  int port() const { return port_; }
  const std::string& startup_error() const { return error_; }
  void Stop() {
    if (pid_ > 0) {
      kill(pid_, SIGTERM);
      waitpid(pid_, nullptr, 0);
      pid_ = -1;
      close(stdin_fd_);
      std::filesystem::remove_all(dir_);
    }
  }

 private:
  S3rverProcess() {
    const char* node = std::getenv("NODE_EXECUTABLE");
    const char* script = std::getenv("S3RVER_SCRIPT");
    if (node == nullptr || script == nullptr) {
      error_ = "NODE_EXECUTABLE and S3RVER_SCRIPT must be set (CTest sets them)";
      return;
    }
    char pattern[] = "/tmp/hoglake-s3rver-XXXXXX";
    if (mkdtemp(pattern) == nullptr) {
      error_ = "mkdtemp failed";
      return;
    }
    dir_ = pattern;
    int out[2], in[2];
    if (pipe(out) != 0 || pipe(in) != 0) {
      error_ = "pipe failed";
      return;
    }
    pid_ = fork();
    if (pid_ == 0) {
      dup2(in[0], 0);
      dup2(out[1], 1);
      close(in[1]);
      close(out[0]);
      // s3rver's ListObjectsV2 continuation tokens use DES, which Node 17+
      // (OpenSSL 3) only offers through the legacy provider.
      execl(node, node, "--openssl-legacy-provider", script, dir_.c_str(), kS3rverBucket,
            static_cast<char*>(nullptr));
      _exit(127);
    }
    close(in[0]);
    close(out[1]);
    stdin_fd_ = in[1];
    fcntl(stdin_fd_, F_SETFD, FD_CLOEXEC);
    std::string line;
    pollfd pfd{out[0], POLLIN, 0};
    while (line.find('\n') == std::string::npos && poll(&pfd, 1, 30000) > 0) {
      char buffer[256];
      ssize_t n = read(out[0], buffer, sizeof(buffer));
      if (n <= 0) break;
      line.append(buffer, n);
    }
    close(out[0]);
    if (!line.starts_with("PORT ")) {
      error_ = "s3rver did not start (is tests/interop installed? `npm ci` there); said: " + line;
      return;
    }
    port_ = std::atoi(line.c_str() + 5);
  }

  pid_t pid_ = -1;
  int stdin_fd_ = -1;
  int port_ = 0;
  std::string dir_;
  std::string error_;
};

class S3rverEnvironment : public ::testing::Environment {
 public:
  void TearDown() override { S3rverProcess::Get().Stop(); }
};
inline const auto* const kS3rverEnvironment =
    ::testing::AddGlobalTestEnvironment(new S3rverEnvironment);

inline S3Config LoopbackConfig(int port) {
  S3Config config;
  config.endpoint = "http://127.0.0.1:" + std::to_string(port);
  config.region = "us-east-1";
  config.access_key_id = "S3RVER";  // s3rver's built-in account
  config.secret_access_key = "S3RVER";
  config.path_style = true;
  config.part_size = 5 << 20;
  config.retry_base_delay_ms = 10;
  return config;
}

}  // namespace hoglake::testing
