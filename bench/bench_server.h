// BenchServer: the `hoglake serve` a benchmark runs against — the embedded
// PostgreSQL on a fresh temporary data directory (mode 0755: PostgreSQL runs
// as another user when we are root), a loopback port picked by the server,
// its log in <dir>/server.log. Header-only; shared by the bench programs.
//
//   BenchServer server = BenchServer::Start("feed_bench", hoglake_bin);
//   … server.url, server.Conninfo() …
//   server.Stop();
//
// Start exits the process (status 1, message on stderr naming the log) when
// the server does not come up within 120 s.
#pragma once

#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

struct BenchServer {
  pid_t pid = -1;
  std::string dir;  // the server's --data-dir
  std::string url;  // http://127.0.0.1:<port>

  // `env` is set in the server's environment only (e.g. loop intervals).
  static BenchServer Start(const std::string& program, const std::string& hoglake,
                           const std::vector<std::pair<std::string, std::string>>& env = {}) {
    BenchServer server;
    char pattern[] = "/tmp/hoglake-bench-XXXXXX";
    if (!mkdtemp(pattern)) Fail(program, "mkdtemp failed");
    server.dir = pattern;
    chmod(server.dir.c_str(), 0755);
    const std::string ready = server.dir + "/ready";
    const std::string log = server.dir + "/server.log";
    server.pid = fork();
    if (server.pid == 0) {
      if (!std::freopen(log.c_str(), "w", stderr)) _exit(126);
      // The benchmarks' catalogs: file:// lakes under /tmp and their buckets.
      setenv("HOGLAKE_ALLOWED_DATA_PATHS",
             "file:///tmp/ s3://bench/ s3://lake/ s3://scan-bench/ s3://hoglake-test/", 0);
      for (const auto& [name, value] : env) setenv(name.c_str(), value.c_str(), 1);
      execl(hoglake.c_str(), hoglake.c_str(), "serve", "--data-dir", server.dir.c_str(), "--listen",
            "127.0.0.1:0", "--ready-file", ready.c_str(), static_cast<char*>(nullptr));
      _exit(127);
    }
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    while (!std::filesystem::exists(ready)) {
      if (std::chrono::steady_clock::now() > deadline ||
          waitpid(server.pid, nullptr, WNOHANG) == server.pid) {
        Fail(program, "server did not start (log: " + log + ")");
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    std::ifstream(ready) >> server.url;
    std::cerr << program << ": server pid " << server.pid << ", data dir " << server.dir << "\n";
    return server;
  }

  // libpq conninfo of the embedded PostgreSQL (its socket lives in <dir>/run).
  std::string Conninfo() const {
    return "host=" + dir + "/run port=5432 user=hoglake dbname=hoglake";
  }

  // SIGTERM and wait (no-op when not started).
  void Stop() {
    if (pid <= 0) return;
    kill(pid, SIGTERM);
    waitpid(pid, nullptr, 0);
    pid = -1;
  }

 private:
  [[noreturn]] static void Fail(const std::string& program, const std::string& message) {
    std::cerr << program << ": " << message << "\n";
    std::exit(1);
  }
};
