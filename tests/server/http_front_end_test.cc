// The HTTP front end under hostile or unusual clients, against an
// in-process server on 127.0.0.1 with two handler threads: slow and idle
// connections hold no thread (health checks and new requests are still
// answered), head and body limits are enforced while reading (431, 413,
// the body memory budget's 503), bodies without framing are empty, and
// keep-alive, pipelining, HTTP/1.0 and Expect: 100-continue behave. Every
// client gives up after a few seconds, so a server that stalls fails the
// test instead of hanging it; no pass/fail depends on timing otherwise.
#include <gtest/gtest.h>
#include <poll.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <fstream>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "raw_http_client.h"
#include "server/http/http_server.h"

namespace hoglake::server {
namespace {

using namespace std::chrono_literals;

class HttpFrontEndTest : public ::testing::Test {
 protected:
  void SetUp() override {
    router_.Add("GET", "/livez", [](HttpRequest&) -> Result<HttpResponse> {
      return HttpResponse::Text(200, "ok\n");
    });
    router_.Add("GET", "/metrics", [this](HttpRequest&) -> Result<HttpResponse> {
      return HttpResponse::Text(200, metrics_.RenderPrometheus());
    });
    router_.Add("POST", "/echo", [this](HttpRequest& request) -> Result<HttpResponse> {
      ++echoed_;
      if (request.body.empty()) return BadRequest("request body is empty");
      return HttpResponse::Json(200, "{\"length\":" + std::to_string(request.body.size()) + "}");
    });
    // Held until Release() (or 10 s), to keep handler threads busy.
    auto hold = [this](HttpRequest& request) -> Result<HttpResponse> {
      std::unique_lock lock(mutex_);
      ++held_;
      changed_.notify_all();
      changed_.wait_for(lock, 10s, [this] { return released_; });
      return HttpResponse::Json(200, "{\"length\":" + std::to_string(request.body.size()) + "}");
    };
    router_.Add("GET", "/big", [](HttpRequest&) -> Result<HttpResponse> {
      return HttpResponse::JsonSegments(200,
                                        {std::string(16 << 20, 'a'), std::string(16 << 20, 'b')});
    });
    router_.Add("GET", "/hold", hold);
    router_.Add("POST", "/hold", hold);
  }

  void TearDown() override {
    Release();
    if (server_) server_->Stop();
    if (serving_.joinable()) serving_.join();
  }

  void Start(HttpServerOptions options = {}) {
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

  // Waits (at most 10 s) until `n` requests are inside a /hold handler.
  bool WaitHeld(int n) {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, 10s, [&] { return held_ >= n; });
  }
  void Release() {
    std::lock_guard lock(mutex_);
    released_ = true;
    changed_.notify_all();
  }

  Router router_;
  Metrics metrics_;
  std::unique_ptr<HttpServer> server_;
  std::thread serving_;
  int port_ = 0;
  std::atomic<int> echoed_{0};
  std::mutex mutex_;
  std::condition_variable changed_;
  int held_ = 0;
  bool released_ = false;
};

// 80 connections dribble a request head one byte every 100 ms for 2 s
// (thread per connection: two handler threads taken by the first two, and
// nothing else answered until they finish); a normal client is answered.
TEST_F(HttpFrontEndTest, SlowlorisConnectionsDoNotStarveOtherClients) {
  ASSERT_NO_FATAL_FAILURE(Start());
  constexpr int kSlow = 80;
  std::vector<std::unique_ptr<RawHttpClient>> slow;
  for (int i = 0; i < kSlow; ++i) {
    slow.push_back(std::make_unique<RawHttpClient>(port_));
    ASSERT_TRUE(slow.back()->connected());
    ASSERT_TRUE(slow.back()->Send("GET /livez HTTP/1.1\r\nX-Slow: "));
  }
  std::atomic<bool> stop{false};
  std::thread dribble([&] {
    for (int tick = 0; tick < 20 && !stop; ++tick) {
      for (auto& client : slow) client->Send("a");
      std::this_thread::sleep_for(100ms);
    }
  });
  std::this_thread::sleep_for(300ms);  // every slow client has started
  for (const char* path : {"/livez", "/metrics"}) {
    RawHttpClient client(port_, 5);
    const RawReply reply = client.Call("GET", path);
    EXPECT_TRUE(reply.ok) << path;
    EXPECT_EQ(reply.status, 200) << path;
  }
  RawHttpClient writer(port_, 5);
  const RawReply echoed = writer.Call("POST", "/echo", "", "{\"a\":1}");
  EXPECT_EQ(echoed.status, 200);
  EXPECT_EQ(echoed.body, "{\"length\":7}");
  stop = true;
  dribble.join();
  // The slow clients were kept waiting, not cut: each still completes.
  for (auto& client : slow) ASSERT_TRUE(client->Send("\r\n\r\n"));
  for (auto& client : slow) EXPECT_EQ(client->Read().status, 200);
}

TEST_F(HttpFrontEndTest, IdleKeepAliveConnectionsDoNotDelayNewRequests) {
  ASSERT_NO_FATAL_FAILURE(Start());
  constexpr int kIdle = 500;
  std::vector<std::unique_ptr<RawHttpClient>> idle;
  for (int i = 0; i < kIdle; ++i) {
    idle.push_back(std::make_unique<RawHttpClient>(port_));
    ASSERT_TRUE(idle.back()->connected()) << i;
    ASSERT_EQ(idle.back()->Call("GET", "/livez").status, 200) << i;  // then left open
  }
  for (int i = 0; i < 20; ++i) {
    RawHttpClient client(port_, 5);
    ASSERT_EQ(client.Call("GET", "/livez").status, 200) << i;
    ASSERT_EQ(client.Call("POST", "/echo", "", "xy").body, "{\"length\":2}") << i;
  }
  // The idle ones were kept and still work.
  EXPECT_EQ(idle.front()->Call("GET", "/livez").status, 200);
  EXPECT_EQ(idle.back()->Call("GET", "/livez").status, 200);
}

TEST_F(HttpFrontEndTest, HealthChecksAreAnsweredWhileEveryHandlerIsBusy) {
  ASSERT_NO_FATAL_FAILURE(Start());
  RawHttpClient a(port_), b(port_);
  ASSERT_TRUE(a.Send("GET /hold HTTP/1.1\r\n\r\n"));
  ASSERT_TRUE(b.Send("GET /hold HTTP/1.1\r\n\r\n"));
  ASSERT_TRUE(WaitHeld(2));  // both handler threads are taken
  for (const char* path : {"/livez", "/metrics", "/livez?verbose=1"}) {
    RawHttpClient client(port_, 5);
    const RawReply reply = client.Call("GET", path);
    EXPECT_EQ(reply.status, 200) << path;
  }
  Release();
  EXPECT_EQ(a.Read().status, 200);
  EXPECT_EQ(b.Read().status, 200);
}

TEST_F(HttpFrontEndTest, ChunkedBodyOverTheLimitIs413AndTheConnectionCloses) {
  HttpServerOptions options;
  options.max_body_bytes = 1 << 20;
  ASSERT_NO_FATAL_FAILURE(Start(options));
  RawHttpClient client(port_);
  ASSERT_TRUE(client.Send("POST /echo HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"));
  std::thread sender([&] {
    const std::string chunk = "10000\r\n" + std::string(1 << 16, 'x') + "\r\n";
    for (int i = 0; i < 64; ++i) {  // 4 MiB, far past the limit
      if (!client.Send(chunk)) return;  // the server stopped listening
    }
  });
  const RawReply reply = client.Read();
  sender.join();
  ASSERT_TRUE(reply.ok);
  EXPECT_EQ(reply.status, 413);
  EXPECT_EQ(reply.Header("connection"), "close");
  EXPECT_NE(reply.body.find("\"error\":\"bad_request\""), std::string::npos) << reply.body;
  EXPECT_NE(reply.body.find("exceeds the limit of 1048576 bytes"), std::string::npos)
      << reply.body;
  EXPECT_TRUE(client.ClosedByPeer());
  EXPECT_EQ(echoed_, 0);  // never dispatched
}

TEST_F(HttpFrontEndTest, ContentLengthOverTheLimitIs413BeforeTheBodyIsSent) {
  HttpServerOptions options;
  options.max_body_bytes = 1 << 20;
  ASSERT_NO_FATAL_FAILURE(Start(options));
  RawHttpClient client(port_);
  ASSERT_TRUE(client.Send("POST /echo HTTP/1.1\r\nX-Request-Id: big-1\r\n"
                          "Content-Length: 1073741824\r\n\r\n"));  // and no body at all
  const RawReply reply = client.Read();
  ASSERT_TRUE(reply.ok);
  EXPECT_EQ(reply.status, 413);
  EXPECT_EQ(reply.Header("x-request-id"), "big-1");
  EXPECT_NE(reply.body.find("1073741824"), std::string::npos) << reply.body;
  EXPECT_TRUE(client.ClosedByPeer());
}

TEST_F(HttpFrontEndTest, HeadersOverTheBoundAre431) {
  HttpServerOptions options;
  options.max_header_bytes = 16 << 10;
  ASSERT_NO_FATAL_FAILURE(Start(options));
  RawHttpClient client(port_);
  std::string head = "GET /livez HTTP/1.1\r\n";
  for (int i = 0; i < 40; ++i) {
    head += "X-Filler-" + std::to_string(i) + ": " + std::string(1000, 'f') + "\r\n";
  }
  client.Send(head + "\r\n");  // may be cut short once the server has answered
  const RawReply reply = client.Read();
  ASSERT_TRUE(reply.ok);
  EXPECT_EQ(reply.status, 431);
  EXPECT_EQ(reply.status_line, "HTTP/1.1 431 Request Header Fields Too Large");
  EXPECT_NE(reply.body.find("\"error\":\"bad_request\""), std::string::npos) << reply.body;
  EXPECT_NE(reply.body.find("16384 bytes"), std::string::npos) << reply.body;
  EXPECT_TRUE(client.ClosedByPeer());
  RawHttpClient after(port_);
  EXPECT_EQ(after.Call("GET", "/livez").status, 200);
}

TEST_F(HttpFrontEndTest, PostWithoutContentLengthIsDispatchedAtOnceWithAnEmptyBody) {
  ASSERT_NO_FATAL_FAILURE(Start());
  RawHttpClient client(port_, 3);  // the old front end waited 5 s for a body
  ASSERT_TRUE(client.Send("POST /echo HTTP/1.1\r\nHost: test\r\n\r\n"));
  const RawReply reply = client.Read();
  ASSERT_TRUE(reply.ok);
  EXPECT_EQ(reply.status, 400);
  EXPECT_NE(reply.body.find("request body is empty"), std::string::npos) << reply.body;
  EXPECT_EQ(echoed_, 1);
  EXPECT_EQ(client.Call("POST", "/echo", "", "abc").body, "{\"length\":3}");  // still in step
}

// With a 1 MiB budget, a 600 KiB body held by a handler leaves no room for
// a second one; once it is answered, the budget is whole again.
TEST_F(HttpFrontEndTest, BodyMemoryBudgetExceededIs503WithRetryAfter) {
  HttpServerOptions options;
  options.max_body_bytes = 8 << 20;
  options.max_body_memory_bytes = 1 << 20;
  ASSERT_NO_FATAL_FAILURE(Start(options));
  const std::string body(600 << 10, 'b');
  RawHttpClient holder(port_);
  ASSERT_TRUE(holder.Send("POST /hold HTTP/1.1\r\nContent-Length: " +
                          std::to_string(body.size()) + "\r\n\r\n" + body));
  ASSERT_TRUE(WaitHeld(1));
  for (bool chunked : {false, true}) {
    RawHttpClient second(port_);
    if (chunked) {
      second.Send("POST /echo HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n");
      second.Send("96000\r\n" + body + "\r\n0\r\n\r\n");  // may be cut short
    } else {
      second.Send("POST /echo HTTP/1.1\r\nContent-Length: " + std::to_string(body.size()) +
                  "\r\n\r\n");
    }
    const RawReply refused = second.Read();
    ASSERT_TRUE(refused.ok) << chunked;
    EXPECT_EQ(refused.status, 503) << chunked;
    EXPECT_EQ(refused.Header("retry-after"), "1") << chunked;
    EXPECT_NE(refused.body.find("\"error\":\"commit_queue_timeout\""), std::string::npos)
        << refused.body;
  }
  Release();
  EXPECT_EQ(holder.Read().body, "{\"length\":614400}");
  RawHttpClient third(port_);
  EXPECT_EQ(third.Call("POST", "/echo", "", body).body, "{\"length\":614400}");
  EXPECT_EQ(echoed_, 1);
}

TEST_F(HttpFrontEndTest, ExpectContinueIsAnsweredBeforeTheBody) {
  HttpServerOptions options;
  options.max_body_bytes = 1 << 20;
  ASSERT_NO_FATAL_FAILURE(Start(options));
  RawHttpClient client(port_);
  ASSERT_TRUE(client.Send(
      "POST /echo HTTP/1.1\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n"));
  std::string interim;
  ASSERT_TRUE(client.ReadExactly(25, &interim));
  EXPECT_EQ(interim, "HTTP/1.1 100 Continue\r\n\r\n");
  ASSERT_TRUE(client.Send("hello"));
  const RawReply reply = client.Read();
  EXPECT_EQ(reply.status, 200);
  EXPECT_EQ(reply.body, "{\"length\":5}");
  // A body that will be refused gets the final answer instead of 100.
  RawHttpClient big(port_);
  ASSERT_TRUE(big.Send(
      "POST /echo HTTP/1.1\r\nContent-Length: 2000000\r\nExpect: 100-continue\r\n\r\n"));
  const RawReply refused = big.Read();
  EXPECT_EQ(refused.status, 413);
}

TEST_F(HttpFrontEndTest, PipelinedRequestsAreAnsweredInOrder) {
  ASSERT_NO_FATAL_FAILURE(Start());
  RawHttpClient client(port_);
  ASSERT_TRUE(client.Send(
      "POST /echo HTTP/1.1\r\nContent-Length: 1\r\n\r\na"
      "GET /livez HTTP/1.1\r\n\r\n"
      "POST /echo HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n"
      "GET /missing HTTP/1.1\r\nConnection: close\r\n\r\n"));
  EXPECT_EQ(client.Read().body, "{\"length\":1}");
  EXPECT_EQ(client.Read().body, "ok\n");
  EXPECT_EQ(client.Read().body, "{\"length\":3}");
  const RawReply last = client.Read();
  EXPECT_EQ(last.status, 404);
  EXPECT_EQ(last.Header("connection"), "close");
  EXPECT_TRUE(client.ClosedByPeer());
}

TEST_F(HttpFrontEndTest, Http10ConnectionsCloseUnlessKeptAlive) {
  ASSERT_NO_FATAL_FAILURE(Start());
  RawHttpClient plain(port_);
  ASSERT_TRUE(plain.Send("GET /livez HTTP/1.0\r\n\r\n"));
  const RawReply once = plain.Read();
  EXPECT_EQ(once.status, 200);
  EXPECT_EQ(once.status_line, "HTTP/1.1 200 OK");
  EXPECT_EQ(once.Header("connection"), "close");
  EXPECT_TRUE(plain.ClosedByPeer());
  RawHttpClient kept(port_);
  for (int i = 0; i < 2; ++i) {
    ASSERT_TRUE(kept.Send("GET /livez HTTP/1.0\r\nConnection: keep-alive\r\n\r\n"));
    const RawReply reply = kept.Read();
    EXPECT_EQ(reply.status, 200) << i;
    EXPECT_EQ(reply.Header("connection"), "keep-alive") << i;
  }
}

TEST_F(HttpFrontEndTest, ConnectionLimitClosesIdleConnectionsFirstThenRefuses) {
  HttpServerOptions options;
  options.max_connections = 8;
  ASSERT_NO_FATAL_FAILURE(Start(options));
  std::vector<std::unique_ptr<RawHttpClient>> idle;
  for (int i = 0; i < 8; ++i) {
    idle.push_back(std::make_unique<RawHttpClient>(port_));
    ASSERT_EQ(idle.back()->Call("GET", "/livez").status, 200) << i;
  }
  // A ninth is served: the oldest idle connection is closed for it. (A
  // connection is idle once the server has taken its finished response,
  // just after the client has it: settle first.)
  std::this_thread::sleep_for(200ms);
  RawHttpClient ninth(port_);
  EXPECT_EQ(ninth.Call("GET", "/livez").status, 200);
  EXPECT_TRUE(idle.front()->ClosedByPeer());
  EXPECT_EQ(idle.back()->Call("GET", "/livez").status, 200);
  // With every connection in the middle of a request, a new one gets 503.
  idle.clear();
  ninth.Close();
  // Generous settles (a loaded machine runs other tests beside this one).
  std::this_thread::sleep_for(500ms);  // the server has seen them go
  std::vector<std::unique_ptr<RawHttpClient>> busy;
  for (int i = 0; i < 8; ++i) {
    busy.push_back(std::make_unique<RawHttpClient>(port_));
    ASSERT_TRUE(busy.back()->Send("GET /livez HTTP/1.1\r\nX-Partial: "));
  }
  std::this_thread::sleep_for(1000ms);  // the closed ones are gone, the busy ones counted
  RawHttpClient refused(port_);
  const RawReply reply = refused.Read();
  ASSERT_TRUE(reply.ok);
  EXPECT_EQ(reply.status, 503);
  EXPECT_EQ(reply.Header("retry-after"), "1");
  EXPECT_NE(reply.body.find("limit of 8 connections"), std::string::npos) << reply.body;
  for (auto& client : busy) {
    ASSERT_TRUE(client->Send("\r\n\r\n"));
    EXPECT_EQ(client->Read().status, 200);
  }
}

// Clients that ask for 32 MiB and read none of it: the rest of each answer
// waits in the loop, not on a handler thread (there are two).
TEST_F(HttpFrontEndTest, ClientsThatDoNotReadHoldNoHandlerThread) {
  ASSERT_NO_FATAL_FAILURE(Start());
  std::vector<std::unique_ptr<RawHttpClient>> stuck;
  for (int i = 0; i < 4; ++i) {
    stuck.push_back(std::make_unique<RawHttpClient>(port_));
    ASSERT_TRUE(stuck.back()->Send("GET /big HTTP/1.1\r\n\r\n"));
  }
  std::this_thread::sleep_for(200ms);
  for (int i = 0; i < 4; ++i) {
    RawHttpClient client(port_, 5);
    EXPECT_EQ(client.Call("POST", "/echo", "", "abc").body, "{\"length\":3}") << i;
  }
  const RawReply whole = stuck.front()->Read();  // and the answer is still whole
  EXPECT_EQ(whole.status, 200);
  EXPECT_EQ(whole.body.size(), size_t{32} << 20);
}

TEST_F(HttpFrontEndTest, IdleKeepAliveConnectionsAreClosedAfterTheirTimeout) {
  HttpServerOptions options;
  options.keep_alive_timeout_ms = 200;
  ASSERT_NO_FATAL_FAILURE(Start(options));
  RawHttpClient client(port_);
  ASSERT_EQ(client.Call("GET", "/livez").status, 200);
  EXPECT_TRUE(client.ClosedByPeer());  // within the client's 10 s
}

TEST_F(HttpFrontEndTest, AHeadThatDoesNotArriveInTimeIs408) {
  HttpServerOptions options;
  options.header_timeout_ms = 300;
  ASSERT_NO_FATAL_FAILURE(Start(options));
  RawHttpClient client(port_);
  ASSERT_TRUE(client.Send("GET /livez HTTP/1.1\r\nX-Never-Ends: "));
  const RawReply reply = client.Read();
  ASSERT_TRUE(reply.ok);
  EXPECT_EQ(reply.status, 408);
  EXPECT_NE(reply.body.find("300 ms"), std::string::npos) << reply.body;
  EXPECT_TRUE(client.ClosedByPeer());
}

TEST_F(HttpFrontEndTest, ABodyThatStopsComingIs408) {
  HttpServerOptions options;
  options.body_idle_timeout_ms = 300;
  ASSERT_NO_FATAL_FAILURE(Start(options));
  RawHttpClient client(port_);
  ASSERT_TRUE(client.Send("POST /echo HTTP/1.1\r\nContent-Length: 10\r\n\r\nabc"));
  const RawReply reply = client.Read();
  ASSERT_TRUE(reply.ok);
  EXPECT_EQ(reply.status, 408);
  EXPECT_NE(reply.body.find("request body did not arrive"), std::string::npos) << reply.body;
  EXPECT_TRUE(client.ClosedByPeer());
  EXPECT_EQ(echoed_, 0);
}

// Peak resident memory while a 600 MB chunked body (made on the fly) is
// sent at a server with an 8 MiB body limit: refused at the limit, the rest
// read and dropped, never buffered.
TEST_F(HttpFrontEndTest, AHugeChunkedBodyDoesNotGrowPeakMemory) {
  constexpr int64_t kLimit = 8 << 20;
  HttpServerOptions options;
  options.max_body_bytes = kLimit;
  ASSERT_NO_FATAL_FAILURE(Start(options));
  auto status_kib = [](const std::string& field) -> int64_t {
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line)) {
      if (line.rfind(field + ":", 0) == 0) return std::stoll(line.substr(field.size() + 1));
    }
    return -1;
  };
  {
    std::ofstream clear("/proc/self/clear_refs");
    clear << "5";  // resets the peak (VmHWM) to the current RSS, where allowed
  }
  const int64_t before = std::max(status_kib("VmHWM"), status_kib("VmRSS"));
  ASSERT_GT(before, 0);
  RawHttpClient client(port_, 20);
  ASSERT_TRUE(client.Send("POST /echo HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"));
  std::atomic<int64_t> sent{0};
  std::thread sender([&] {
    const std::string chunk = "100000\r\n" + std::string(1 << 20, 'z') + "\r\n";
    for (int i = 0; i < 600; ++i) {
      if (!client.Send(chunk)) return;
      sent += 1 << 20;
    }
  });
  const RawReply reply = client.Read();
  sender.join();
  ASSERT_TRUE(reply.ok);
  EXPECT_EQ(reply.status, 413);
  const int64_t growth_kib = status_kib("VmHWM") - before;
  EXPECT_LE(growth_kib * 1024, 2 * kLimit + (int64_t{64} << 20))
      << "peak RSS grew by " << growth_kib << " KiB while " << sent << " bytes were sent";
  EXPECT_EQ(echoed_, 0);
}

}  // namespace
}  // namespace hoglake::server
