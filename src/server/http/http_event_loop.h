// HttpEventLoop: the HTTP/1.1 front end's I/O thread. One epoll loop
// accepts connections, reads them without blocking, parses each request
// whole (HttpRequestParser; a streaming route's body excepted, see below)
// and hands complete requests to the dispatch function, which runs them
// on handler threads; a connection costs no thread while it is idle,
// dribbling a head, or sending a body.
//
// What it bounds (HttpFrontEndOptions):
//   - connections: at `max_connections` the oldest idle keep-alive (or
//     lingering) connection is closed to make room; with none idle a new
//     connection is answered 503 and closed at once;
//   - time: a request head must arrive within `header_timeout_ms` of its
//     first byte (of the accept, for a connection's first request); a body
//     may pause at most `body_idle_timeout_ms` and must be in within
//     `body_idle_timeout_ms` + its size at `body_min_bytes_per_second`
//     (408); a kept-alive connection idles `keep_alive_timeout_ms`; a
//     response must make progress every `write_timeout_ms`;
//   - memory: head and body limits (parser: 431, 413) and the server-wide
//     body budget (`max_body_memory_bytes`, 503 with Retry-After).
// A request with a Content-Encoding other than identity is answered 400
// after its body is read and dropped (never decompressed). Expect:
// 100-continue is answered once the body is admitted. Errors the front end
// produces use the contract's body ({"error", "detail"}: bad_request, or
// commit_queue_timeout with Retry-After: 1 for 503) under the status named
// above, close the connection (lingering briefly so the client reads the
// answer), are counted in Metrics (route "refused" and
// hoglake_http_refused_total{reason}) and logged at most once per reason
// every 10 s.
//
// Streaming routes (the stream policy, HttpFrontEndOptions::stream_body,
// gives a body limit for the head): the request is dispatched as soon as
// its head is in, with a StreamedBody the loop fills as the body arrives;
// reading pauses while its window (`stream_window_bytes`) is full and
// resumes once the handler has read it down, and the pause does not count
// against the body's time limits. Such a body takes nothing from the
// memory budget. If the body fails (past its limit, malformed, late, the
// client gone, the server stopping), the handler's next read fails and the
// loop's own answer (413, 400, 408, 503; none for a client that is gone)
// replaces the handler's; a handler that answers before the body ended
// closes the connection after its answer.
//
// A dispatched request owns its connection until Respond: the loop neither
// reads nor closes it meanwhile (pipelined requests wait in the kernel).
// Respond writes what the socket takes from the calling thread and leaves
// the rest to the loop, so a slow reader never holds a handler thread. A
// streamed response body (HttpResponse::body_producer) is pulled the same
// way: on the handler thread until the socket is full, then on the loop
// as the socket drains, one piece at a time; a client that goes away (or
// reads nothing for `write_timeout_ms`) closes the connection, and with it
// the producer and everything it holds.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "server/http/body_budget.h"
#include "server/http/http_request_parser.h"
#include "server/http/http_response_writer.h"
#include "server/http/http_types.h"
#include "server/http/streamed_body.h"
#include "server/observability/metrics.h"

namespace hoglake::server {

struct HttpFrontEndOptions {
  HttpParserLimits limits;
  uint64_t max_body_memory_bytes = uint64_t{512} << 20;
  int max_connections = 4096;
  int64_t header_timeout_ms = 10000;
  int64_t body_idle_timeout_ms = 10000;
  uint64_t body_min_bytes_per_second = uint64_t{128} << 10;
  int64_t keep_alive_timeout_ms = 60000;
  int64_t write_timeout_ms = 30000;
  // After an error answer or a closing response: how long the connection
  // is drained (input read and dropped) before it is closed.
  int64_t linger_ms = 2000;
  // Which requests' bodies are streamed, and their limit (see above);
  // unset: every body is read whole.
  HttpRequestParser::StreamPolicy stream_body;
  size_t stream_window_bytes = size_t{4} << 20;
};

// A complete request between the loop and a handler thread.
struct HttpExchange {
  uint64_t connection = 0;
  int fd = -1;
  HttpRequestHead head;
  std::string body;
  BodyReservation reservation;  // the body's memory, given back with it
  std::shared_ptr<StreamedBody> stream;  // a streaming route's body instead
};

class HttpEventLoop {
 public:
  using Dispatch = std::function<void(std::unique_ptr<HttpExchange>)>;

  // Serves connections accepted on `listen_fd` (bound, listening; not
  // owned). Call Run on one thread.
  HttpEventLoop(int listen_fd, Metrics* metrics, HttpFrontEndOptions options, Dispatch dispatch);
  HttpEventLoop(const HttpEventLoop&) = delete;
  HttpEventLoop& operator=(const HttpEventLoop&) = delete;
  ~HttpEventLoop();

  // Runs until Stop(); then stops accepting and closes every connection
  // that has no request in a handler.
  void Run();
  // Thread-safe; makes Run return.
  void Stop();
  // Thread-safe: answers `exchange` with `response` and gives its
  // connection back to the loop (kept alive unless the request or Stop
  // says otherwise).
  void Respond(std::unique_ptr<HttpExchange> exchange, HttpResponse response);
  // Once Run has returned and no handler can call Respond any more: closes
  // the remaining connections.
  void CloseAll();

 private:
  using Clock = std::chrono::steady_clock;
  struct Connection;
  struct Completion {
    uint64_t connection = 0;
    std::unique_ptr<OutgoingResponse> rest;  // what the handler could not send
    bool keep_alive = true;
    bool failed = false;
  };
  // At most one warning per reason every 10 s (loop thread only).
  class WarningLimiter {
   public:
    void Warn(const std::string& reason, std::string_view message);

   private:
    struct Entry {
      Clock::time_point last;
      uint64_t suppressed = 0;
    };
    std::unordered_map<std::string, Entry> entries_;
  };

  Connection* Find(uint64_t id);
  void Wake();
  void AcceptConnections();
  void AddConnection(int fd);
  void RefuseConnection(int fd);
  bool EvictOldest();
  void PauseAccepting();
  void OnEvent(uint64_t id, uint32_t events);
  void ReadInput(Connection& conn);
  void Drain(Connection& conn);
  void ProcessInput(Connection& conn, std::string_view view, bool stored);
  void OnHead(Connection& conn);
  void OnRequest(Connection& conn);
  void MaybeSendContinue(Connection& conn);
  // A streaming route's request: dispatched now, its body fed as it comes.
  void StartStream(Connection& conn);
  // Ends a streamed body with a failure (status 0: the client is gone);
  // the connection waits for the handler's Respond, then closes.
  void FailStream(Connection& conn, int status, const std::string& message);
  // Thread-safe: the handler drained connection `id`'s window.
  void RequestResume(uint64_t id);
  // Answers with a front-end error (see the header comment) and closes.
  void Refuse(Connection& conn, int status, const std::string& message);
  void Send(Connection& conn, std::unique_ptr<OutgoingResponse> out, bool close_after);
  void ContinueWrite(Connection& conn);
  void FinishResponse(Connection& conn);
  void ResumeReading(Connection& conn);
  void StartLingering(Connection& conn);
  void SetEvictable(Connection& conn, bool evictable);
  void Close(Connection& conn);
  void TakeCompletions();
  void RunReady();
  void Sweep();
  // A front-end answer: counted as a request (route "refused") and a cut.
  void CountRefusal(const std::string& reason, const std::string& method, int status);
  // One more hoglake_http_refused_total{reason}.
  void CountCut(const std::string& reason);

  const int listen_fd_;
  Metrics* const metrics_;
  const HttpFrontEndOptions options_;
  const Dispatch dispatch_;
  BodyBudget budget_;
  int epoll_fd_ = -1;
  int wake_fd_ = -1;
  std::atomic<bool> stopping_{false};
  Clock::time_point now_;
  std::unordered_map<uint64_t, std::unique_ptr<Connection>> connections_;
  std::vector<std::unique_ptr<Connection>> closed_;  // freed at the end of a turn
  std::list<uint64_t> evictable_;  // idle or lingering, oldest first
  std::deque<uint64_t> ready_;     // connections with input to process this turn
  uint64_t next_id_ = 2;           // 0 and 1 key the listener and the wake-up fd
  bool accept_paused_ = false;
  Clock::time_point accept_resume_;
  std::unique_ptr<char[]> scratch_;
  WarningLimiter warnings_;
  std::mutex completions_mutex_;
  std::vector<Completion> completions_;
  std::vector<uint64_t> resumes_;  // connections whose stream has room again
};

// The error answer of the front end: ErrorResponse's body for bad_request
// (commit_queue_timeout with Retry-After: 1 when `status` is 503) under
// HTTP status `status`.
HttpResponse FrontEndError(int status, const std::string& message);

}  // namespace hoglake::server
