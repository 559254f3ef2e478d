// A real `hoglake serve` (embedded PostgreSQL in a temporary directory) on a
// loopback port, started once per test binary, plus a small HTTP/JSON client
// for talking to it the way hoglake clients do.
#pragma once

#include <rapidjson/document.h>

#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace hoglake::testing {

struct ApiResponse {
  int status = 0;
  std::string body;
  rapidjson::Document json;  // parsed when the body is JSON
  std::string header_retry_after;
  std::map<std::string, std::string> headers;  // names lowercased

  // "error" of an error body, "" otherwise.
  std::string error() const;
};

// HOGLAKE_ALLOWED_DATA_PATHS for the servers the tests start: /tmp (where
// local lakes and the servers' data directories are made; each server's own
// PostgreSQL directories stay refused) and the buckets the tests name.
inline constexpr const char* kTestAllowedDataPaths =
    "file:///tmp/ file:///srv/ s3://bucket/ s3://b/ s3://b1/ s3://b2/ s3://elsewhere/ "
    "s3://lake-bucket/ s3://loop/ s3://nowhere/ s3://other/ s3://replicas/ s3://shared/ "
    "s3://hoglake-test/";

// The whole text of a file ("" when it cannot be read).
std::string ReadFile(const std::string& path);

// A fresh directory /tmp/<stem>-XXXXXX that the embedded PostgreSQL (which
// runs as another user) may enter, for a server's data or a test's files.
// A failure is reported as a test failure and returns "".
std::string MakeServerDir(const std::string& stem);

// One `hoglake serve` child process on a data directory.
class ServerProcess {
 public:
  ServerProcess() = default;
  ServerProcess(const ServerProcess&) = delete;
  ServerProcess& operator=(const ServerProcess&) = delete;
  // A server still running (a test that stopped at a failed ASSERT) is
  // killed, so it does not outlive the test binary.
  ~ServerProcess() { Kill9(); }
  // Starts the server (with `extra_args` after the defaults, and `env` set in
  // the child's environment only) and waits until it serves; fails the test
  // otherwise.
  void Start(const std::string& data_dir, const std::vector<std::string>& extra_args = {},
             const std::map<std::string, std::string>& env = {});
  // SIGKILL, no cleanup: the crash case.
  void Kill9();
  // SIGTERM and wait; expects a clean exit.
  void Stop();
  bool running() const { return pid_ > 0; }
  int pid() const { return pid_; }
  const std::string& base_url() const { return base_url_; }
  std::string Log() const;

 private:
  std::string data_dir_;
  std::string base_url_;
  int pid_ = -1;
};

// Sends a request to `base_url`; `body` is sent as application/json unless
// content_type says otherwise.
ApiResponse CallServer(const std::string& base_url, const std::string& method,
                       const std::string& path, const std::string& body = "",
                       const std::string& content_type = "application/json");

class ServerEnvironment : public ::testing::Environment {
 public:
  void SetUp() override;
  void TearDown() override;

  static const std::string& base_url();
  static const std::string& data_dir();
  // Sends a request; `body` is sent as application/json unless content_type says otherwise.
  static ApiResponse Call(const std::string& method, const std::string& path,
                          const std::string& body = "",
                          const std::string& content_type = "application/json");
};

// The value of series `series` (name plus exact label text, e.g.
// `name_bucket{le="4"}`) in Prometheus text `text`; -1 when absent.
double MetricSample(const std::string& text, const std::string& series);

// A fresh, unique catalog name per call ("t1", "t2", …) with its own data path.
std::string NewCatalog();

// A NewCatalog() holding namespace `ns` and table `table` (one long column
// "id"). Creation failures are reported as test failures.
struct TableLake {
  std::string name;
  std::string catalog;  // "/v1/catalogs/<name>"
  std::string data;     // its data path, "s3://bucket/<name>/" or "file://<dir>/"
  std::string uuid;     // the table's table_uuid
  std::string dir;      // NewLocalTableLake only: the directory behind data
};
TableLake NewTableLake(const std::string& ns, const std::string& table);
// The same over a file:// data path: a fresh directory under /tmp whose
// objects really exist on disk, for tests that watch cleanup delete them.
TableLake NewLocalTableLake(const std::string& ns, const std::string& table);

}  // namespace hoglake::testing
