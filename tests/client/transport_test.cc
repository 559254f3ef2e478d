// Transport (transport.h) against a scripted loopback server: URL building
// and encoding, headers, redirects, and the retry rules for safe and unsafe
// requests.
#include "client/transport.h"

#include <gtest/gtest.h>

#include "client/errors.h"
#include "fake_server.h"

namespace hoglake::client {
namespace {

using testing::FakeServer;

ClientOptions FastRetries(int attempts = 4) {
  ClientOptions options;
  options.max_attempts = attempts;
  options.retry_base_delay_ms = 1;
  options.timeout_seconds = 10;
  return options;
}

HttpCall Call(HttpMethod method, std::string path, std::string body = "",
              RetryPolicy retry = RetryPolicy::kSafe) {
  HttpCall call;
  call.method = method;
  call.path = std::move(path);
  call.body = std::move(body);
  call.retry = retry;
  return call;
}

TEST(EncodeSegmentTest, OnlyUnreservedCharactersStayLiteral) {
  EXPECT_EQ(EncodeSegment("AZaz09_.-~"), "AZaz09_.-~");
  EXPECT_EQ(EncodeSegment("0b8e-f012?x=1"), "0b8e-f012%3Fx%3D1");
  EXPECT_EQ(EncodeSegment("a/b c+d%"), "a%2Fb%20c%2Bd%25");
  EXPECT_EQ(EncodeSegment("é"), "%C3%A9");
  EXPECT_EQ(EncodeSegment(""), "");
}

TEST(TransportTest, SendsUnderV1WithHeadersAndEncodedQuery) {
  FakeServer server;
  server.Queue(200, R"({"ok":true})");
  Transport transport(server.base_url() + "/", FastRetries());
  HttpCall call = Call(HttpMethod::kGet, "/catalogs/c1/namespaces");
  call.query = {{"at_timestamp", "2026-09-04T12:00:00"}, {"a b", "x&y"}};
  Result<std::string> body = transport.Send(call);
  ASSERT_TRUE(body.ok()) << body.error().ToString();
  EXPECT_EQ(*body, R"({"ok":true})");
  ASSERT_EQ(server.requests().size(), 1u);
  const testing::RecordedRequest r = server.last();
  EXPECT_EQ(r.line(),
            "GET /v1/catalogs/c1/namespaces?at_timestamp=2026-09-04T12%3A00%3A00&a%20b=x%26y");
  EXPECT_EQ(r.header("User-Agent"), std::string("hoglake-cpp/") + HOGLAKE_VERSION);
  EXPECT_EQ(r.header("Content-Type"), "");
}

TEST(TransportTest, BodiesAndMethods) {
  FakeServer server;
  Transport transport(server.base_url(), FastRetries());
  for (int i = 0; i < 5; ++i) server.Queue(200, "{}");
  ASSERT_TRUE(transport.Send(Call(HttpMethod::kPost, "/p", R"({"a":1})")).ok());
  ASSERT_TRUE(transport.Send(Call(HttpMethod::kPut, "/u", R"({"b":2})")).ok());
  ASSERT_TRUE(transport.Send(Call(HttpMethod::kPatch, "/o", R"({"c":3})")).ok());
  ASSERT_TRUE(transport.Send(Call(HttpMethod::kDelete, "/d")).ok());
  ASSERT_TRUE(transport.Send(Call(HttpMethod::kPost, "/empty")).ok());
  std::vector<testing::RecordedRequest> r = server.requests();
  ASSERT_EQ(r.size(), 5u);
  EXPECT_EQ(r[0].line(), "POST /v1/p");
  EXPECT_EQ(r[0].body, R"({"a":1})");
  EXPECT_EQ(r[0].header("Content-Type"), "application/json");
  EXPECT_EQ(r[1].line(), "PUT /v1/u");
  EXPECT_EQ(r[1].body, R"({"b":2})");
  EXPECT_EQ(r[2].line(), "PATCH /v1/o");
  EXPECT_EQ(r[2].body, R"({"c":3})");
  EXPECT_EQ(r[3].line(), "DELETE /v1/d");
  EXPECT_EQ(r[3].body, "");
  EXPECT_EQ(r[4].line(), "POST /v1/empty");
  EXPECT_EQ(r[4].body, "");
}

TEST(TransportTest, CustomUserAgent) {
  FakeServer server;
  server.Queue(200, "{}");
  ClientOptions options = FastRetries();
  options.user_agent = "my-app/2";
  Transport transport(server.base_url(), options);
  ASSERT_TRUE(transport.Send(Call(HttpMethod::kGet, "/x")).ok());
  EXPECT_EQ(server.last().header("User-Agent"), "my-app/2");
}

TEST(TransportTest, RetriesA503GetUntilItSucceeds) {
  FakeServer server;
  server.Queue(503, "");
  server.Queue(503, R"({"error":"internal_error","detail":"db down"})");
  server.Queue(200, R"([1])");
  Transport transport(server.base_url(), FastRetries());
  Result<std::string> body = transport.Send(Call(HttpMethod::kGet, "/catalogs"));
  ASSERT_TRUE(body.ok()) << body.error().ToString();
  EXPECT_EQ(*body, "[1]");
  EXPECT_EQ(server.requests().size(), 3u);
}

TEST(TransportTest, GivesUpAfterMaxAttempts) {
  FakeServer server;
  for (int i = 0; i < 3; ++i) server.Queue(503, R"({"error":"commit_queue_timeout"})");
  Transport transport(server.base_url(), FastRetries(2));
  Result<std::string> body = transport.Send(Call(HttpMethod::kGet, "/catalogs"));
  ASSERT_FALSE(body.ok());
  EXPECT_EQ(body.error().code, ErrorCode::kCommitQueueTimeout);
  EXPECT_EQ(server.requests().size(), 2u);
}

TEST(TransportTest, HonoursRetryAfter) {
  FakeServer server;
  server.Queue(503, R"({"error":"commit_queue_timeout"})", {{"Retry-After", "1"}});
  server.Queue(200, "{}");
  Transport transport(server.base_url(), FastRetries());
  const auto start = std::chrono::steady_clock::now();
  ASSERT_TRUE(transport.Send(Call(HttpMethod::kGet, "/x")).ok());
  EXPECT_GE(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(900));
}

TEST(TransportTest, UnsafePostIsNotRetriedOn500Or503) {
  FakeServer server;
  server.Queue(500, R"({"error":"internal_error","detail":"internal server error"})");
  server.Queue(200, "{}");
  Transport transport(server.base_url(), FastRetries());
  Result<std::string> first =
      transport.Send(Call(HttpMethod::kPost, "/catalogs/c/commit", "{}", RetryPolicy::kUnsafe));
  ASSERT_FALSE(first.ok());
  EXPECT_EQ(first.error().code, ErrorCode::kInternal);
  EXPECT_EQ(first.error().message, "internal_error: internal server error (HTTP 500)");
  EXPECT_EQ(server.requests().size(), 1u);

  server.Clear();
  server.Queue(503, R"({"error":"internal_error"})");
  server.Queue(200, "{}");
  EXPECT_FALSE(
      transport.Send(Call(HttpMethod::kPost, "/catalogs/c/commit", "{}", RetryPolicy::kUnsafe))
          .ok());
  EXPECT_EQ(server.requests().size(), 1u);
}

TEST(TransportTest, UnsafePostIsRetriedOnCommitQueueTimeout) {
  FakeServer server;
  server.Queue(503, R"({"error":"commit_queue_timeout","detail":"queued too long"})");
  server.Queue(200, R"({"snapshot_id":3})");
  Transport transport(server.base_url(), FastRetries());
  Result<std::string> body =
      transport.Send(Call(HttpMethod::kPost, "/catalogs/c/commit", "{}", RetryPolicy::kUnsafe));
  ASSERT_TRUE(body.ok()) << body.error().ToString();
  EXPECT_EQ(server.requests().size(), 2u);
}

TEST(TransportTest, SafePostIsRetriedOn503) {
  FakeServer server;
  server.Queue(503, "");
  server.Queue(200, "{}");
  Transport transport(server.base_url(), FastRetries());
  ASSERT_TRUE(
      transport.Send(Call(HttpMethod::kPost, "/catalogs/c/commit", "{}", RetryPolicy::kSafe)).ok());
  EXPECT_EQ(server.requests().size(), 2u);
}

TEST(TransportTest, RedirectIsAnErrorNamingTheLocation) {
  FakeServer server;
  server.Queue(302, "", {{"Location", "https://elsewhere.example/v1/catalogs"}});
  Transport transport(server.base_url(), FastRetries());
  Result<std::string> body = transport.Send(Call(HttpMethod::kGet, "/catalogs"));
  ASSERT_FALSE(body.ok());
  EXPECT_EQ(ErrorKindOf(body.error()), ErrorKind::kHoglake);
  EXPECT_NE(body.error().message.find("unexpected redirect HTTP 302"), std::string::npos);
  EXPECT_NE(body.error().message.find("redirects are not followed"), std::string::npos);
  EXPECT_NE(body.error().message.find("Location: https://elsewhere.example/v1/catalogs"),
            std::string::npos)
      << body.error().message;
  EXPECT_EQ(server.requests().size(), 1u);  // not followed, not retried
}

TEST(TransportTest, NonJsonErrorBody) {
  FakeServer server;
  server.Queue(502, "<html>bad gateway</html>");
  Transport transport(server.base_url(), FastRetries());
  Result<std::string> body = transport.Send(Call(HttpMethod::kGet, "/catalogs"));
  ASSERT_FALSE(body.ok());
  EXPECT_EQ(body.error().message, "HTTP 502: <html>bad gateway</html>");
  EXPECT_EQ(ErrorKindOf(body.error()), ErrorKind::kHoglake);
  EXPECT_EQ(server.requests().size(), 1u);
}

TEST(TransportTest, CommitCallsMap410ToReadSnapshotExpired) {
  FakeServer server;
  server.Queue(410, R"({"error":"expired","detail":"read_snapshot 2 below floor 4"})");
  Transport transport(server.base_url(), FastRetries());
  HttpCall call = Call(HttpMethod::kPost, "/catalogs/c/commit", "{}", RetryPolicy::kUnsafe);
  call.is_commit = true;
  Result<std::string> body = transport.Send(call);
  ASSERT_FALSE(body.ok());
  EXPECT_EQ(ErrorKindOf(body.error()), ErrorKind::kReadSnapshotExpired);
  EXPECT_TRUE(RePrepare(body.error()));
}

TEST(TransportTest, UnreachableServerIsATransportError) {
  std::string url;
  {
    FakeServer gone;
    url = gone.base_url();
  }  // the port is closed now
  Transport transport(url, FastRetries(2));
  Result<std::string> body =
      transport.Send(Call(HttpMethod::kPost, "/catalogs", "{}", RetryPolicy::kUnsafe));
  ASSERT_FALSE(body.ok());
  EXPECT_EQ(body.error().code, ErrorCode::kUnavailable);
  EXPECT_EQ(ErrorKindOf(body.error()), ErrorKind::kTransport);
  // Never connected: even an unsafe POST was tried again.
  EXPECT_NE(body.error().message.find("after 2 attempts"), std::string::npos)
      << body.error().message;
}

TEST(TransportTest, ConcurrentCallsShareThePool) {
  FakeServer server;
  for (int i = 0; i < 40; ++i) server.Queue(200, "{}");
  Transport transport(server.base_url(), FastRetries());
  std::vector<std::thread> threads;
  std::atomic<int> ok{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 10; ++i) ok += transport.Send(Call(HttpMethod::kGet, "/x")).ok();
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(ok.load(), 40);
}

}  // namespace
}  // namespace hoglake::client
