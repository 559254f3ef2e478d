// HttpServer sends response bodies as the routes built them: one string or
// segments (never joined, never compressed), with Content-Length,
// Content-Type and X-Request-Id, on a connection that stays open for the
// next request.
#include "server/http/http_server.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cctype>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace hoglake::server {
namespace {

struct Reply {
  std::string status_line;
  std::multimap<std::string, std::string> headers;  // names lowercased
  std::string body;

  std::string Header(const std::string& name) const {
    auto it = headers.find(name);
    return it == headers.end() ? "" : it->second;
  }
};

// One keep-alive HTTP/1.1 connection, read with Content-Length framing.
class Connection {
 public:
  explicit Connection(int port) : fd_(socket(AF_INET, SOCK_STREAM, 0)) {
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<uint16_t>(port));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    connected_ = connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0;
  }
  ~Connection() { close(fd_); }
  bool connected() const { return connected_; }

  // Sends one request with `headers` ("Name: value\r\n" lines) and `body`
  // (with its Content-Length); the reply's body is read only when `read_body`.
  Reply Send(const std::string& method, const std::string& target, const std::string& headers = "",
             bool read_body = true, const std::string& body = "") {
    const std::string request =
        method + " " + target + " HTTP/1.1\r\nHost: test\r\n" + headers +
        (body.empty() ? "" : "Content-Length: " + std::to_string(body.size()) + "\r\n") + "\r\n" +
        body;
    EXPECT_EQ(write(fd_, request.data(), request.size()), static_cast<ssize_t>(request.size()));
    Reply reply;
    size_t end;
    while ((end = buffer_.find("\r\n\r\n")) == std::string::npos) {
      if (!Fill()) return reply;
    }
    std::string head = buffer_.substr(0, end);
    buffer_.erase(0, end + 4);
    size_t line_end = head.find("\r\n");
    reply.status_line = head.substr(0, line_end);
    while (line_end != std::string::npos) {
      const size_t next = head.find("\r\n", line_end + 2);
      const std::string line = head.substr(line_end + 2, next - line_end - 2);
      const size_t colon = line.find(':');
      std::string name = line.substr(0, colon);
      for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      reply.headers.emplace(name, line.substr(line.find_first_not_of(' ', colon + 1)));
      line_end = next;
    }
    if (!read_body) return reply;
    const size_t length = std::stoul(reply.Header("content-length"));
    while (buffer_.size() < length) {
      if (!Fill()) return reply;
    }
    reply.body = buffer_.substr(0, length);
    buffer_.erase(0, length);
    return reply;
  }

 private:
  bool Fill() {
    char chunk[1 << 16];
    const ssize_t n = read(fd_, chunk, sizeof(chunk));
    if (n <= 0) return false;
    buffer_.append(chunk, static_cast<size_t>(n));
    return true;
  }

  int fd_;
  bool connected_ = false;
  std::string buffer_;
};

class HttpServerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    router_.Add("GET", "/segments", [this](HttpRequest&) -> Result<HttpResponse> {
      return HttpResponse::JsonSegments(200, segments_);
    });
    router_.Add("HEAD", "/segments", [this](HttpRequest&) -> Result<HttpResponse> {
      return HttpResponse::JsonSegments(200, segments_);
    });
    router_.Add("POST", "/echo", [](HttpRequest& request) -> Result<HttpResponse> {
      return HttpResponse::Json(200, "{\"length\":" + std::to_string(request.body.size()) + "}");
    });
    router_.Add("GET", "/string", [](HttpRequest&) -> Result<HttpResponse> {
      HttpResponse response = HttpResponse::Json(201, R"({"ok":true})");
      response.headers.emplace_back("Retry-After", "1");
      return response;
    });
    server_ =
        std::make_unique<HttpServer>(&router_, &metrics_, HttpServerOptions{"127.0.0.1", 0, 2, 0});
    Result<int> port = server_->Bind();
    ASSERT_TRUE(port.ok());
    port_ = *port;
    serving_ = std::thread([this] { server_->Serve(); });
  }
  void TearDown() override {
    if (server_) server_->Stop();
    if (serving_.joinable()) serving_.join();
  }

  std::string Joined() const {
    std::string text;
    for (const std::string& segment : segments_) text += segment;
    return text;
  }

  Router router_;
  Metrics metrics_;
  std::vector<std::string> segments_;
  std::unique_ptr<HttpServer> server_;
  std::thread serving_;
  int port_ = 0;
};

TEST_F(HttpServerTest, SegmentedBodyArrivesWholeAndConnectionStaysOpen) {
  segments_ = {"[", std::string(1 << 20, 'a'), "", std::string(2 << 20, 'b'), ",1]"};
  Connection connection(port_);
  ASSERT_TRUE(connection.connected());
  for (int i = 0; i < 2; ++i) {
    const Reply reply = connection.Send("GET", "/segments", "X-Request-Id: req-7\r\n");
    EXPECT_EQ(reply.status_line, "HTTP/1.1 200 OK");
    EXPECT_EQ(reply.Header("content-length"), std::to_string(Joined().size()));
    EXPECT_EQ(reply.headers.count("content-type"), 1u);
    EXPECT_EQ(reply.Header("content-type"), "application/json");
    EXPECT_EQ(reply.Header("x-request-id"), "req-7");
    EXPECT_EQ(reply.Header("connection"), "");
    EXPECT_TRUE(reply.body == Joined());
  }
  const Reply small = connection.Send("GET", "/string");
  EXPECT_EQ(small.status_line, "HTTP/1.1 201 Created");
  EXPECT_EQ(small.body, R"({"ok":true})");
  EXPECT_EQ(small.Header("retry-after"), "1");
  EXPECT_EQ(small.headers.count("content-type"), 1u);
}

TEST_F(HttpServerTest, EmptySegmentedBody) {
  Connection connection(port_);
  ASSERT_TRUE(connection.connected());
  for (auto segments : {std::vector<std::string>{}, std::vector<std::string>{"", ""}}) {
    segments_ = segments;
    const Reply reply = connection.Send("GET", "/segments");
    EXPECT_EQ(reply.status_line, "HTTP/1.1 200 OK");
    EXPECT_EQ(reply.Header("content-length"), "0");
    EXPECT_EQ(reply.Header("content-type"), "application/json");
    EXPECT_EQ(reply.body, "");
  }
  EXPECT_EQ(connection.Send("GET", "/string").body, R"({"ok":true})");
}

// Whatever the client accepts (Python's requests sends "gzip, deflate" and
// "br" when brotli is installed), bodies go out as built: httplib's own
// compression made a 64 MB scan plan take 105 s with br.
TEST_F(HttpServerTest, BodiesAreNeverCompressed) {
  segments_ = {"[", std::string(1 << 20, 'a'), "]"};
  Connection connection(port_);
  ASSERT_TRUE(connection.connected());
  for (const char* accepted : {"gzip", "gzip, deflate, br", "br", "*"}) {
    const std::string header = std::string("Accept-Encoding: ") + accepted + "\r\n";
    const Reply large = connection.Send("GET", "/segments", header);
    EXPECT_EQ(large.status_line, "HTTP/1.1 200 OK") << accepted;
    EXPECT_EQ(large.Header("content-encoding"), "") << accepted;
    EXPECT_EQ(large.Header("content-length"), std::to_string(Joined().size())) << accepted;
    EXPECT_TRUE(large.body == Joined()) << accepted;
    const Reply small = connection.Send("GET", "/string", header);
    EXPECT_EQ(small.Header("content-encoding"), "") << accepted;
    EXPECT_EQ(small.body, R"({"ok":true})") << accepted;
    EXPECT_EQ(small.Header("retry-after"), "1") << accepted;
  }
}

// A compressed request body is refused before anything inflates it (httplib
// would inflate it unbounded): 400 naming the encoding, the raw body read
// and dropped, so the next request on the connection is answered.
TEST_F(HttpServerTest, CompressedRequestBodiesAreRefused) {
  Connection connection(port_);
  ASSERT_TRUE(connection.connected());
  // The gzip of "{}" (it is never inflated whatever it holds).
  const std::string gzip_body(
      "\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03\xab\xae\x05\x00\x43\xbf\xa6\xa3\x02\x00\x00\x00",
      22);
  for (const char* encoding : {"gzip", "deflate", "br", "GZIP"}) {
    const Reply refused = connection.Send(
        "POST", "/echo", std::string("Content-Encoding: ") + encoding + "\r\n", true, gzip_body);
    EXPECT_EQ(refused.status_line, "HTTP/1.1 400 Bad Request") << encoding;
    EXPECT_NE(refused.body.find("bad_request"), std::string::npos) << refused.body;
    EXPECT_NE(refused.body.find(std::string("Content-Encoding '") + encoding + "'"),
              std::string::npos)
        << refused.body;
    EXPECT_EQ(connection.Send("GET", "/string").body, R"({"ok":true})") << encoding;
  }
  const Reply plain =
      connection.Send("POST", "/echo", "Content-Encoding: identity\r\n", true, "{}");
  EXPECT_EQ(plain.status_line, "HTTP/1.1 200 OK");
  EXPECT_EQ(plain.body, R"({"length":2})");
}

TEST_F(HttpServerTest, HeadSendsLengthWithoutBody) {
  segments_ = {"[", std::string(1 << 20, 'a'), "]"};
  Connection connection(port_);
  ASSERT_TRUE(connection.connected());
  const Reply reply = connection.Send("HEAD", "/segments", "", /*read_body=*/false);
  EXPECT_EQ(reply.status_line, "HTTP/1.1 200 OK");
  EXPECT_EQ(reply.Header("content-length"), std::to_string(Joined().size()));
  EXPECT_EQ(connection.Send("GET", "/string").body, R"({"ok":true})");
}

}  // namespace
}  // namespace hoglake::server
