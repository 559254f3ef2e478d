// Admission (contract §1.5 backpressure): a second server with two handler
// threads and a 300 ms admission bound. Connections that stall mid-request
// hold no handler thread (the front end reads them without one), so a
// request beside them is served at once. Two requests blocked in
// PostgreSQL on a table lock hold both threads for over a second; a /v1
// request queued behind them is shed with 503 commit_queue_timeout and
// Retry-After: 1, never dispatched, and counted on /metrics. Health checks
// run on threads of their own and are served meanwhile.
#include <arpa/inet.h>
#include <httplib.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <future>
#include <string>
#include <thread>

#include "pg_session.h"
#include "server_fixture.h"

namespace hoglake::testing {
namespace {

// A connection that sends half a request line and then stalls.
class StalledClient {
 public:
  explicit StalledClient(int port) {
    fd_ = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<uint16_t>(port));
    inet_pton(AF_INET, "127.0.0.1", &addr.sin_addr);
    EXPECT_EQ(connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
    const char partial[] = "GET /v1/catalo";
    EXPECT_EQ(send(fd_, partial, sizeof partial - 1, 0), static_cast<ssize_t>(sizeof partial - 1));
  }
  ~StalledClient() { close(fd_); }

 private:
  int fd_ = -1;
};

int PortOf(const std::string& url) { return std::stoi(url.substr(url.rfind(':') + 1)); }

TEST(AdmissionTest, RequestsQueuedPastTheBoundAreShed) {
  const std::string db = "admission_" + std::to_string(getpid());
  ASSERT_NO_FATAL_FAILURE(CreateTestDatabase(db));
  char server_dir[] = "/tmp/hoglake-admission-XXXXXX";
  ASSERT_NE(mkdtemp(server_dir), nullptr);
  ServerProcess server;
  server.Start(server_dir, {"--database-url", TestDatabaseUrl(db), "--http-threads", "2"},
               // No background loop touches the catalog tables: only this
               // test's requests wait on the lock it takes below.
               {{"HOGLAKE_COMMIT_LOCK_TIMEOUT_MS", "300"},
                {"HOGLAKE_EXPIRY_INTERVAL_MS", "0"},
                {"HOGLAKE_METRICS_SAMPLE_INTERVAL_MS", "0"},
                {"HOGLAKE_ANALYZE_INTERVAL_MS", "0"},
                {"HOGLAKE_HYDRATOR_INTERVAL_MS", "0"}});
  ASSERT_TRUE(server.running());
  const std::string url = server.base_url();
  const int port = PortOf(url);
  ASSERT_EQ(CallServer(url, "GET", "/v1/catalogs").status, 200);  // not queued: served

  auto queued_call = [&](const std::string& path) {
    return std::async(std::launch::async, [url, path] {
      httplib::Client client(url);
      client.set_read_timeout(10, 0);
      httplib::Result r = client.Get(path);
      return r ? std::make_pair(r->status, r->get_header_value("Retry-After"))
               : std::make_pair(-1, std::string());
    });
  };
  {
    // Stalled connections take no handler thread: served, not shed.
    StalledClient a(port), b(port), c(port);
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    EXPECT_EQ(CallServer(url, "GET", "/v1/catalogs").status, 200);
  }

  // Two requests wait on a lock held here, one on each handler thread.
  PgSession locker(TestPgConninfo(db));
  ASSERT_TRUE(locker.ok());
  locker.Exec("BEGIN");
  locker.Exec("LOCK TABLE hog_catalog IN ACCESS EXCLUSIVE MODE");
  auto blocked_a = queued_call("/v1/catalogs");
  auto blocked_b = queued_call("/v1/catalogs");
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (locker.Int("SELECT count(*) FROM pg_locks WHERE NOT granted AND relation = "
                    "'hog_catalog'::regclass") < 2 &&
         std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  auto shed = queued_call("/v1/catalogs");
  auto health = queued_call("/livez");
  EXPECT_EQ(health.get().first, 200);  // its own threads: served while both are held
  // Releasing the lock frees the threads; the queued request then starts
  // after ~1.2 s in the queue, four times the bound.
  std::this_thread::sleep_for(std::chrono::milliseconds(1200));
  locker.Exec("COMMIT");
  EXPECT_EQ(blocked_a.get().first, 200);
  EXPECT_EQ(blocked_b.get().first, 200);
  const auto [shed_status, retry_after] = shed.get();
  EXPECT_EQ(shed_status, 503);
  EXPECT_EQ(retry_after, "1");

  // Once the queue is short again, requests are served; the shed one is
  // counted and the queue waits are recorded.
  ApiResponse after = CallServer(url, "GET", "/v1/catalogs");
  EXPECT_EQ(after.status, 200) << after.body;
  const std::string metrics = CallServer(url, "GET", "/metrics").body;
  EXPECT_NE(metrics.find("\nhoglake_requests_shed_total 1\n"), std::string::npos) << metrics;
  EXPECT_NE(metrics.find("# TYPE hoglake_request_queue_wait_seconds histogram\n"),
            std::string::npos);
  EXPECT_NE(metrics.find("route=\"shed\",method=\"GET\",status=\"503\""), std::string::npos)
      << metrics;
  server.Stop();
}

}  // namespace
}  // namespace hoglake::testing
