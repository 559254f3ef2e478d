// Starting s3rver (npm, pinned in tests/interop/package-lock.json) as a child
// process through start_s3rver.mjs: objects under a fresh temporary
// directory, the named buckets created, a free loopback port. No test
// framework here: the storage tests (s3rver_process.h) and the maintenance
// benchmark (--store s3) both use it.
//
//   S3rverLaunch s3 = S3rverLaunch::Start(node, script, {"bucket"});
//   if (!s3.error.empty()) … ; S3Config config = S3rverConfig(s3.port);
//   s3.Stop();  // SIGTERM, wait, remove the directory
//
// The child also exits when our end of its stdin closes, so a crashed
// parent never leaves it behind.
#pragma once

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "storage/s3_config.h"

namespace hoglake::testing {

struct S3rverLaunch {
  pid_t pid = -1;
  int stdin_fd = -1;
  int port = 0;
  std::string dir;    // where s3rver keeps the objects
  std::string error;  // empty when it is listening on `port`

  static S3rverLaunch Start(const char* node, const char* script,
                            const std::vector<std::string>& buckets) {
    S3rverLaunch s3;
    char pattern[] = "/tmp/hoglake-s3rver-XXXXXX";
    if (mkdtemp(pattern) == nullptr) {
      s3.error = "mkdtemp failed";
      return s3;
    }
    s3.dir = pattern;
    int out[2], in[2];
    if (pipe(out) != 0 || pipe(in) != 0) {
      s3.error = "pipe failed";
      return s3;
    }
    s3.pid = fork();
    if (s3.pid == 0) {
      dup2(in[0], 0);
      dup2(out[1], 1);
      close(in[1]);
      close(out[0]);
      std::vector<const char*> argv = {node, "--openssl-legacy-provider", script, s3.dir.c_str()};
      // s3rver's ListObjectsV2 continuation tokens use DES, which Node 17+
      // (OpenSSL 3) only offers through the legacy provider.
      for (const std::string& bucket : buckets) argv.push_back(bucket.c_str());
      argv.push_back(nullptr);
      execvp(node, const_cast<char* const*>(argv.data()));  // `node` may be a bare name
      _exit(127);
    }
    close(in[0]);
    close(out[1]);
    s3.stdin_fd = in[1];
    fcntl(s3.stdin_fd, F_SETFD, FD_CLOEXEC);
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
      s3.error = "s3rver did not start (is tests/interop installed? `npm ci` there); said: " + line;
      return s3;
    }
    s3.port = std::atoi(line.c_str() + 5);
    return s3;
  }

  void Stop() {
    if (pid <= 0) return;
    kill(pid, SIGTERM);
    waitpid(pid, nullptr, 0);
    pid = -1;
    close(stdin_fd);
    std::filesystem::remove_all(dir);
  }
};

// A client configuration for s3rver on `port` (its built-in account).
inline S3Config S3rverConfig(int port) {
  S3Config config;
  config.endpoint = "http://127.0.0.1:" + std::to_string(port);
  config.region = "us-east-1";
  config.access_key_id = "S3RVER";
  config.secret_access_key = "S3RVER";
  config.path_style = true;
  config.part_size = 5 << 20;
  config.retry_base_delay_ms = 10;
  return config;
}

}  // namespace hoglake::testing
