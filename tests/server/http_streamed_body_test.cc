// Streaming routes (Router::AddStreaming) against an in-process server on
// 127.0.0.1: a body far past the server's whole-body limit and its body
// memory budget reaches the handler whole and in order, in pieces, with
// either framing; past the route's own limit it is 413 (from the head for
// a Content-Length, as it passes for a chunked body) and a malformed chunk
// is 400, the handler's read failing either way; a client gone mid-body fails the read and nothing is
// answered; a handler that answers before reading closes the connection
// after its answer; a streamed request leaves its connection usable for
// the next one. Clients give up after a few seconds; no pass/fail depends
// on timing.
#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "raw_http_client.h"
#include "server/http/http_server.h"

namespace hoglake::server {
namespace {

using namespace std::chrono_literals;

constexpr uint64_t kStreamLimit = uint64_t{48} << 20;

// Byte `i` of every test body.
char BodyByte(uint64_t i) { return static_cast<char>((i * 131 + i / 7) & 0xff); }

std::string Body(uint64_t from, size_t n) {
  std::string bytes(n, '\0');
  for (size_t i = 0; i < n; ++i) bytes[i] = BodyByte(from + i);
  return bytes;
}

class HttpStreamedBodyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // Reads the body, checking every byte against BodyByte.
    router_.AddStreaming(
        "POST", "/stream",
        [this](HttpRequest& request) -> Result<HttpResponse> {
          if (request.body_stream == nullptr) return BadRequest("not streamed");
          uint64_t length = 0, pieces = 0;
          bool exact = request.body.empty();
          std::string piece;
          while (true) {
            Result<bool> more = request.body_stream->Next(&piece);
            if (!more.ok()) {
              Note(more.error().message);
              return more.error();
            }
            if (!*more) break;
            for (size_t i = 0; i < piece.size(); ++i) {
              exact = exact && piece[i] == BodyByte(length + i);
            }
            length += piece.size();
            ++pieces;
          }
          Note("done");
          return HttpResponse::Json(200, "{\"length\":" + std::to_string(length) +
                                             ",\"exact\":" + (exact ? "true" : "false") +
                                             ",\"pieces\":" + std::to_string(pieces) + "}");
        },
        ErrorBodyStyle::kHoglake, kStreamLimit);
    router_.AddStreaming(
        "PUT", "/early",
        [](HttpRequest&) -> Result<HttpResponse> { return BadRequest("refused unread"); },
        ErrorBodyStyle::kHoglake, kStreamLimit);
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
    // Whole bodies are held to 1 MiB and 2 MiB in all: streamed ones are not.
    options.max_body_bytes = int64_t{1} << 20;
    options.max_body_memory_bytes = int64_t{2} << 20;
    server_ = std::make_unique<HttpServer>(&router_, &metrics_, options);
    Result<int> port = server_->Bind();
    ASSERT_TRUE(port.ok()) << port.error().ToString();
    port_ = *port;
    serving_ = std::thread([this] { server_->Serve(); });
  }

  void Note(std::string outcome) {
    std::lock_guard lock(mutex_);
    outcomes_.push_back(std::move(outcome));
    changed_.notify_all();
  }
  // The handler's `n`th outcome ("done" or its read's error), waiting at
  // most 10 s; "" if none came.
  std::string Outcome(size_t n) {
    std::unique_lock lock(mutex_);
    changed_.wait_for(lock, 10s, [&] { return outcomes_.size() > n; });
    return outcomes_.size() > n ? outcomes_[n] : "";
  }

  Router router_;
  Metrics metrics_;
  std::unique_ptr<HttpServer> server_;
  std::thread serving_;
  int port_ = 0;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<std::string> outcomes_;
};

TEST_F(HttpStreamedBodyTest, ContentLengthBodyPastWholeBodyLimitsIsStreamedExactly) {
  ASSERT_NO_FATAL_FAILURE(Start());
  RawHttpClient client(port_);
  const size_t size = size_t{40} << 20;
  ASSERT_TRUE(client.Send("POST /stream HTTP/1.1\r\nHost: t\r\nContent-Length: " +
                          std::to_string(size) + "\r\n\r\n"));
  for (size_t at = 0; at < size; at += size_t{1} << 20) {
    ASSERT_TRUE(client.Send(Body(at, size_t{1} << 20)));
  }
  RawReply reply = client.Read();
  ASSERT_TRUE(reply.ok);
  EXPECT_EQ(reply.status, 200) << reply.body;
  EXPECT_NE(reply.body.find("\"length\":" + std::to_string(size) + ",\"exact\":true"),
            std::string::npos)
      << reply.body;
  EXPECT_EQ(reply.body.find("\"pieces\":1}"), std::string::npos) << "not streamed in pieces";
  // The connection stays usable.
  RawReply next = client.Call("GET", "/livez");
  ASSERT_TRUE(next.ok);
  EXPECT_EQ(next.status, 200);
}

TEST_F(HttpStreamedBodyTest, ChunkedBodyIsStreamedAndKeepsTheConnection) {
  ASSERT_NO_FATAL_FAILURE(Start());
  RawHttpClient client(port_);
  ASSERT_TRUE(
      client.Send("POST /stream HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n"));
  uint64_t sent = 0;
  for (size_t n : {size_t{1}, size_t{70000}, size_t{3} << 20, size_t{5}}) {
    char line[32];
    const int len = std::snprintf(line, sizeof line, "%zx\r\n", n);
    ASSERT_TRUE(client.Send(std::string(line, static_cast<size_t>(len)) + Body(sent, n) + "\r\n"));
    sent += n;
  }
  ASSERT_TRUE(client.Send("0\r\n\r\nGET /livez HTTP/1.1\r\nHost: t\r\n\r\n"));  // pipelined
  RawReply reply = client.Read();
  ASSERT_TRUE(reply.ok);
  EXPECT_EQ(reply.status, 200) << reply.body;
  EXPECT_NE(reply.body.find("\"length\":" + std::to_string(sent) + ",\"exact\":true"),
            std::string::npos)
      << reply.body;
  RawReply next = client.Read();
  ASSERT_TRUE(next.ok);
  EXPECT_EQ(next.status, 200);
}

TEST_F(HttpStreamedBodyTest, PastTheRouteLimitIs413) {
  ASSERT_NO_FATAL_FAILURE(Start());
  {
    RawHttpClient client(port_);
    RawReply reply = client.Call("POST", "/stream", "", "");
    ASSERT_TRUE(reply.ok);
    EXPECT_EQ(reply.status, 200);  // an empty body streams too
  }
  EXPECT_EQ(Outcome(0), "done");
  {
    RawHttpClient client(port_);
    ASSERT_TRUE(client.Send("POST /stream HTTP/1.1\r\nHost: t\r\nContent-Length: " +
                            std::to_string(kStreamLimit + 1) + "\r\n\r\n"));
    RawReply reply = client.Read();
    ASSERT_TRUE(reply.ok);
    EXPECT_EQ(reply.status, 413) << reply.body;  // from the head: no handler ran
  }
  {
    RawHttpClient client(port_);
    ASSERT_TRUE(
        client.Send("POST /stream HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n"));
    const size_t piece = size_t{4} << 20;
    uint64_t sent = 0;
    char line[32];
    const int len = std::snprintf(line, sizeof line, "%zx\r\n", piece);
    // Past 48 MiB at the thirteenth chunk; the server may stop reading.
    for (int i = 0; i < 13; ++i) {
      if (!client.Send(std::string(line, static_cast<size_t>(len)) + Body(sent, piece) + "\r\n")) {
        break;
      }
      sent += piece;
    }
    RawReply reply = client.Read();
    ASSERT_TRUE(reply.ok);
    EXPECT_EQ(reply.status, 413) << reply.body;
    EXPECT_NE(reply.body.find("exceeds the limit of " + std::to_string(kStreamLimit)),
              std::string::npos)
        << reply.body;
    EXPECT_TRUE(client.ClosedByPeer());
  }
  EXPECT_NE(Outcome(1).find("exceeds the limit"), std::string::npos) << Outcome(1);
}

TEST_F(HttpStreamedBodyTest, MalformedChunkedBodyIs400AndFailsTheRead) {
  ASSERT_NO_FATAL_FAILURE(Start());
  RawHttpClient client(port_);
  ASSERT_TRUE(client.Send(
      "POST /stream HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n4\r\n" +
      Body(0, 4) + "\r\nzz\r\n"));
  RawReply reply = client.Read();
  ASSERT_TRUE(reply.ok);
  EXPECT_EQ(reply.status, 400) << reply.body;
  EXPECT_NE(reply.body.find("malformed chunk-size line"), std::string::npos) << reply.body;
  EXPECT_NE(Outcome(0).find("malformed chunk-size line"), std::string::npos) << Outcome(0);
}

TEST_F(HttpStreamedBodyTest, ClientGoneMidBodyFailsTheRead) {
  ASSERT_NO_FATAL_FAILURE(Start());
  {
    RawHttpClient client(port_);
    ASSERT_TRUE(client.Send("POST /stream HTTP/1.1\r\nHost: t\r\nContent-Length: 10000000\r\n\r\n" +
                            Body(0, 100000)));
  }  // closed mid-body
  EXPECT_NE(Outcome(0).find("closed the connection"), std::string::npos) << Outcome(0);
  RawHttpClient client(port_);
  RawReply reply = client.Call("GET", "/livez");
  ASSERT_TRUE(reply.ok);
  EXPECT_EQ(reply.status, 200);
}

TEST_F(HttpStreamedBodyTest, AnswerBeforeTheBodyClosesTheConnectionAfterIt) {
  ASSERT_NO_FATAL_FAILURE(Start());
  RawHttpClient client(port_);
  ASSERT_TRUE(client.Send("PUT /early HTTP/1.1\r\nHost: t\r\nContent-Length: 3000000\r\n\r\n" +
                          Body(0, 1000)));
  RawReply reply = client.Read();
  ASSERT_TRUE(reply.ok);
  EXPECT_EQ(reply.status, 400) << reply.body;
  EXPECT_EQ(reply.Header("connection"), "close");
  // The rest of the body is drained, not taken for a request.
  client.Send(Body(1000, 100000));
  EXPECT_TRUE(client.ClosedByPeer());
}

}  // namespace
}  // namespace hoglake::server
