// Streamed responses (HttpResponse::body_producer) against an in-process
// server on 127.0.0.1, read by a real HTTP client (cpp-httplib) and by raw
// sockets: a body far larger than any piece arrives whole and exact, with
// chunked framing when its size is unknown and Content-Length when it is
// known; the connection stays usable after it (kept alive); a client gone
// mid-body makes the server drop the producer without pulling the rest; a
// producer that fails mid-body cuts the response short (the client sees an
// incomplete body, never a complete wrong one); an HTTP/1.0 client gets
// the body unframed and the connection closed. Clients give up after a
// few seconds; no pass/fail depends on timing.
#include <httplib.h>

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "raw_http_client.h"
#include "server/http/http_server.h"

namespace hoglake::server {
namespace {

using namespace std::chrono_literals;

constexpr size_t kPieceBytes = size_t{1} << 20;

// Byte `i` of every test body.
char BodyByte(uint64_t i) { return static_cast<char>((i * 131 + i / 7) & 0xff); }

bool IsBody(const std::string& bytes, uint64_t from = 0) {
  for (size_t i = 0; i < bytes.size(); ++i) {
    if (bytes[i] != BodyByte(from + i)) return false;
  }
  return true;
}

// Counts what the server's producers did, shared with the test.
struct ProducerLog {
  std::mutex mutex;
  std::condition_variable changed;
  int released = 0;
  uint64_t pulled_bytes = 0;  // by the last released producer
};

// Yields `size` bytes of the BodyByte pattern from byte `from` on, in
// pieces of kPieceBytes; fails after `fail_after` bytes when set.
class PatternBody final : public BodyProducer {
 public:
  PatternBody(uint64_t from, uint64_t size, std::optional<uint64_t> fail_after, ProducerLog* log)
      : from_(from), size_(size), fail_after_(fail_after), log_(log) {}
  ~PatternBody() override {
    std::lock_guard lock(log_->mutex);
    ++log_->released;
    log_->pulled_bytes = at_;
    log_->changed.notify_all();
  }

  Result<bool> Next(std::string* piece) override {
    if (fail_after_ && at_ >= *fail_after_) {
      return MakeError(ErrorCode::kIoError, "the body's source failed");
    }
    if (at_ == size_) return false;
    const size_t n = static_cast<size_t>(std::min<uint64_t>(kPieceBytes, size_ - at_));
    piece->resize(n);
    for (size_t i = 0; i < n; ++i) (*piece)[i] = BodyByte(from_ + at_ + i);
    at_ += n;
    return true;
  }

 private:
  const uint64_t from_;
  const uint64_t size_;
  const std::optional<uint64_t> fail_after_;
  ProducerLog* const log_;
  uint64_t at_ = 0;
};

class HttpStreamedResponseTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // GET /body?bytes=N[&sized=1][&fail_after=M]: a streamed body of N
    // pattern bytes, its first byte in `body` and the rest streamed.
    auto body = [this](HttpRequest& request) -> Result<HttpResponse> {
      const uint64_t bytes = std::stoull(std::string(request.Query("bytes").value_or("0")));
      std::optional<uint64_t> fail_after;
      if (auto fail = request.Query("fail_after")) fail_after = std::stoull(std::string(*fail));
      HttpResponse response = HttpResponse::Text(200, std::string(1, BodyByte(0)),
                                                 "application/octet-stream");
      response.body_producer = std::make_shared<PatternBody>(1, bytes - 1, fail_after, &log_);
      if (request.Query("sized")) response.streamed_length = bytes - 1;
      return response;
    };
    router_.Add("GET", "/body", body);
    router_.Add("HEAD", "/body", body);
    router_.Add("GET", "/livez", [](HttpRequest&) -> Result<HttpResponse> {
      return HttpResponse::Text(200, "ok\n");
    });
  }

  void TearDown() override {
    if (server_) server_->Stop();
    if (serving_.joinable()) serving_.join();
  }

  void Start() {
    HttpServerOptions options;
    options.host = "127.0.0.1";
    options.port = 0;
    options.threads = 2;
    options.admission_ms = 0;
    server_ = std::make_unique<HttpServer>(&router_, &metrics_, options);
    Result<int> port = server_->Bind();
    ASSERT_TRUE(port.ok()) << port.error().ToString();
    port_ = *port;
    serving_ = std::thread([this] { server_->Serve(); });
  }

  // Waits at most 10 s for `n` producers to have been released.
  bool Released(int n) {
    std::unique_lock lock(log_.mutex);
    return log_.changed.wait_for(lock, 10s, [&] { return log_.released >= n; });
  }

  ProducerLog log_;
  Router router_;
  Metrics metrics_;
  std::unique_ptr<HttpServer> server_;
  std::thread serving_;
  int port_ = 0;
};

TEST_F(HttpStreamedResponseTest, LargeChunkedBodyArrivesExactlyAndKeepsTheConnection) {
  Start();
  httplib::Client client("127.0.0.1", port_);
  client.set_keep_alive(true);
  client.set_read_timeout(10, 0);
  std::atomic<int> sockets{0};
  client.set_socket_options([&](socket_t) { ++sockets; });
  const uint64_t size = (uint64_t{64} << 20) + 12345;  // 64 pieces and a bit
  auto response = client.Get("/body?bytes=" + std::to_string(size));
  ASSERT_TRUE(response) << httplib::to_string(response.error());
  EXPECT_EQ(response->status, 200);
  EXPECT_EQ(response->get_header_value("Transfer-Encoding"), "chunked");
  EXPECT_FALSE(response->has_header("Content-Length"));
  ASSERT_EQ(response->body.size(), size);
  EXPECT_TRUE(IsBody(response->body));
  // The same connection serves the next request.
  auto next = client.Get("/livez");
  ASSERT_TRUE(next) << httplib::to_string(next.error());
  EXPECT_EQ(next->body, "ok\n");
  EXPECT_EQ(sockets.load(), 1);
  ASSERT_TRUE(Released(1));
  EXPECT_EQ(log_.pulled_bytes, size - 1);
}

TEST_F(HttpStreamedResponseTest, KnownSizeIsSentWithContentLength) {
  Start();
  httplib::Client client("127.0.0.1", port_);
  client.set_read_timeout(10, 0);
  const uint64_t size = (uint64_t{8} << 20) + 7;
  auto response = client.Get("/body?sized=1&bytes=" + std::to_string(size));
  ASSERT_TRUE(response) << httplib::to_string(response.error());
  EXPECT_EQ(response->get_header_value("Content-Length"), std::to_string(size));
  EXPECT_FALSE(response->has_header("Transfer-Encoding"));
  ASSERT_EQ(response->body.size(), size);
  EXPECT_TRUE(IsBody(response->body));
}

TEST_F(HttpStreamedResponseTest, EmptyStreamedBodyIsOneFinalChunk) {
  Start();
  RawHttpClient client(port_);
  ASSERT_TRUE(client.Send("GET /body?bytes=1 HTTP/1.1\r\nHost: t\r\n\r\n"));
  RawReply reply = client.Read(/*with_body=*/false);
  ASSERT_TRUE(reply.ok);
  EXPECT_EQ(reply.Header("transfer-encoding"), "chunked");
  std::string framed;
  const std::string expected = std::string("1\r\n") + BodyByte(0) + "\r\n0\r\n\r\n";
  ASSERT_TRUE(client.ReadExactly(expected.size(), &framed));
  EXPECT_EQ(framed, expected);
  RawReply next = client.Call("GET", "/livez");
  EXPECT_EQ(next.status, 200);
}

TEST_F(HttpStreamedResponseTest, ClientGoneMidBodyReleasesTheProducer) {
  Start();
  const uint64_t size = uint64_t{4} << 30;  // 4 GiB: never produced whole
  {
    RawHttpClient client(port_);
    ASSERT_TRUE(client.Send("GET /body?bytes=" + std::to_string(size) +
                            " HTTP/1.1\r\nHost: t\r\n\r\n"));
    RawReply reply = client.Read(/*with_body=*/false);
    ASSERT_TRUE(reply.ok);
    std::string some;
    ASSERT_TRUE(client.ReadExactly(size_t{1} << 20, &some));
  }  // closed mid-body
  ASSERT_TRUE(Released(1));
  EXPECT_LT(log_.pulled_bytes, size);
  // The server goes on serving.
  RawHttpClient after(port_);
  EXPECT_EQ(after.Call("GET", "/livez").status, 200);
}

TEST_F(HttpStreamedResponseTest, ProducerFailureCutsTheBodyShort) {
  Start();
  httplib::Client client("127.0.0.1", port_);
  client.set_read_timeout(10, 0);
  for (const char* sized : {"", "&sized=1"}) {
    auto response = client.Get(std::string("/body?bytes=") + std::to_string(uint64_t{16} << 20) +
                               "&fail_after=" + std::to_string(uint64_t{4} << 20) + sized);
    // An incomplete body is an error to the client, never a short success.
    EXPECT_FALSE(response) << sized;
  }
  ASSERT_TRUE(Released(2));
}

TEST_F(HttpStreamedResponseTest, Http10ClientGetsTheBodyUnframedThenClose) {
  Start();
  RawHttpClient client(port_);
  const uint64_t size = (uint64_t{3} << 20) + 5;
  ASSERT_TRUE(client.Send("GET /body?bytes=" + std::to_string(size) + " HTTP/1.0\r\n\r\n"));
  RawReply reply = client.Read(/*with_body=*/false);
  ASSERT_TRUE(reply.ok);
  EXPECT_EQ(reply.Header("connection"), "close");
  EXPECT_EQ(reply.Header("transfer-encoding"), "");
  EXPECT_EQ(reply.Header("content-length"), "");
  std::string body;
  ASSERT_TRUE(client.ReadExactly(size, &body));
  EXPECT_TRUE(IsBody(body));
  EXPECT_TRUE(client.ClosedByPeer());
}

TEST_F(HttpStreamedResponseTest, HeadSendsNoBodyAndReleasesTheProducer) {
  Start();
  RawHttpClient client(port_);
  ASSERT_TRUE(client.Send("HEAD /body?bytes=5000000 HTTP/1.1\r\nHost: t\r\n\r\n"));
  RawReply reply = client.Read(/*with_body=*/false);
  ASSERT_TRUE(reply.ok);
  EXPECT_EQ(reply.status, 200);
  ASSERT_TRUE(Released(1));
  EXPECT_EQ(log_.pulled_bytes, 0u);
  EXPECT_EQ(client.Call("GET", "/livez").status, 200);
}

}  // namespace
}  // namespace hoglake::server
