// The listen backlog (server/http/http_server.cc, Bind): a burst of connections
// arriving while the server cannot accept them waits in the kernel's queue
// and is served once the server runs again. With a small backlog (the 5
// cpp-httplib's server used) the kernel drops handshakes past it, and a
// client then stalls for a second or more or sees its first request fail
// (what 24 writers starting at once on a busy machine hit). Here the server is stopped (SIGSTOP) while
// 40 clients connect, so nothing is accepted until it continues.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <string>
#include <vector>

#include "pg_session.h"
#include "server_fixture.h"

namespace hoglake::testing {
namespace {

int PortOf(const std::string& url) { return std::stoi(url.substr(url.rfind(':') + 1)); }

// Starts a non-blocking connect to 127.0.0.1:`port`.
int StartConnect(int port) {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  inet_pton(AF_INET, "127.0.0.1", &addr.sin_addr);
  const int rc = connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
  EXPECT_TRUE(rc == 0 || errno == EINPROGRESS) << "connect: " << errno;
  return fd;
}

// Whether `fd`'s connect completed, waiting until `deadline`.
bool Connected(int fd, std::chrono::steady_clock::time_point deadline) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
      deadline - std::chrono::steady_clock::now());
  pollfd p{fd, POLLOUT, 0};
  if (poll(&p, 1, static_cast<int>(std::max<int64_t>(left.count(), 0))) != 1) return false;
  int error = 0;
  socklen_t size = sizeof error;
  getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &size);
  return error == 0;
}

// Sends a health check on `fd` and returns the response's status line.
std::string StatusLine(int fd) {
  const int flags = 0;
  timeval timeout{10, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
  const std::string request = "GET /livez HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n";
  size_t sent = 0;
  while (sent < request.size()) {
    pollfd p{fd, POLLOUT, 0};
    if (poll(&p, 1, 10'000) != 1) return "send timed out";
    const ssize_t n = send(fd, request.data() + sent, request.size() - sent, flags);
    if (n <= 0) return "send failed";
    sent += static_cast<size_t>(n);
  }
  std::string got;
  char buffer[256];
  while (got.find("\r\n") == std::string::npos) {
    pollfd p{fd, POLLIN, 0};
    if (poll(&p, 1, 10'000) != 1) return "no answer: " + got;
    const ssize_t n = recv(fd, buffer, sizeof buffer, 0);
    if (n <= 0) return "closed: " + got;
    got.append(buffer, static_cast<size_t>(n));
  }
  return got.substr(0, got.find("\r\n"));
}

TEST(ListenBacklogTest, ABurstOfConnectionsWaitsForTheServer) {
  const std::string db = "backlog_" + std::to_string(getpid());
  ASSERT_NO_FATAL_FAILURE(CreateTestDatabase(db));
  char server_dir[] = "/tmp/hoglake-backlog-XXXXXX";
  ASSERT_NE(mkdtemp(server_dir), nullptr);
  ServerProcess server;
  server.Start(server_dir, {"--database-url", TestDatabaseUrl(db)},
               {{"HOGLAKE_EXPIRY_INTERVAL_MS", "0"}});
  ASSERT_TRUE(server.running());
  const int port = PortOf(server.base_url());
  ASSERT_EQ(CallServer(server.base_url(), "GET", "/livez").status, 200);

  constexpr int kConnections = 40;
  ASSERT_EQ(kill(server.pid(), SIGSTOP), 0);
  std::vector<int> fds;
  for (int i = 0; i < kConnections; ++i) fds.push_back(StartConnect(port));
  // The kernel completes every handshake into the listen queue; with a
  // backlog of 5 all but six would still be waiting at the deadline.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
  int connected = 0;
  for (int fd : fds) connected += Connected(fd, deadline) ? 1 : 0;
  ASSERT_EQ(kill(server.pid(), SIGCONT), 0);
  EXPECT_EQ(connected, kConnections);
  for (int fd : fds) {
    EXPECT_EQ(StatusLine(fd), "HTTP/1.1 200 OK");
    close(fd);
  }
  server.Stop();
}

}  // namespace
}  // namespace hoglake::testing
