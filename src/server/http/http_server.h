// HttpServer: serves a Router over HTTP/1.1 with our own front end (no HTTP
// library underneath): one event-driven I/O thread (HttpEventLoop) accepts
// and reads every connection and parses requests (HttpRequestParser);
// complete requests run on a pool of `threads` handler threads, and health
// checks (GET or HEAD /livez, /healthz, /metrics) on `health_threads`
// threads of their own, so they are answered while every handler is busy.
// An idle or slow connection holds no thread.
//
// Limits (HttpServerOptions; the event loop's header says what happens at
// each): `max_connections` (the oldest idle connection is closed to admit
// a new one; with none idle the new one is answered 503), a head of at
// most `max_header_bytes` (431) arriving within `header_timeout_ms` of its
// first byte, a body of at most `max_body_bytes` whatever its framing
// (Content-Length or chunked: 413 as soon as it is known to pass, the
// excess never buffered) arriving at a minimum pace (408), and
// `max_body_memory_bytes` of request bodies held at once server-wide (503
// with Retry-After: 1). Those answers carry the contract's error body.
// Streaming routes (Router::AddStreaming: uploads) are the exception: their
// handler runs once the head is in and reads the body as it arrives
// (HttpRequest::body_stream), bounded by the route's own limit, with a
// small window in memory and none of the body budget (http_event_loop.h).
//
// Every response echoes X-Request-Id when the request carried one, carries
// Content-Length (chunked transfer coding for a streamed body of unknown
// size), and is counted in Metrics. Response bodies reach the socket
// without being copied or joined: `body` and each of `body_segments` are
// written as they are (writev) and the buffers are recycled
// (RecycleJsonSegment); a streamed body (HttpResponse::body_producer) is
// pulled a piece at a time as the socket drains (http_response_writer.h). Responses are never compressed, whatever
// Accept-Encoding says; a request body with a Content-Encoding other than
// identity is refused 400 and never inflated. Keep-alive with exact
// framing (pipelined requests are answered in order), Connection: close
// honoured, HTTP/1.0 keep-alive only when asked for, Expect: 100-continue
// answered. The Router dispatches on the raw target: the path is not
// percent-decoded, the query is split and decoded here. Sockets use
// TCP_NODELAY; the listen backlog is SOMAXCONN.
//
// Admission: a request that waited for a handler thread longer than
// `admission_ms` (HOGLAKE_COMMIT_LOCK_TIMEOUT_MS; 0 = never) is shed on any
// /v1 route — 503 commit_queue_timeout with Retry-After: 1, nothing
// dispatched — rather than served after its client gave up. Every such
// wait is recorded in hoglake_request_queue_wait_seconds and each shed
// request in hoglake_requests_shed_total.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "common/status.h"
#include "server/observability/metrics.h"
#include "server/http/router.h"

namespace hoglake::server {

struct HttpServerOptions {
  std::string host = "127.0.0.1";
  int port = 8080;  // 0 picks a free port
  int threads = 16;
  int64_t admission_ms = 30000;
  int health_threads = 2;
  int max_connections = 4096;
  int64_t max_header_bytes = int64_t{64} << 10;
  int64_t max_body_bytes = int64_t{64} << 20;
  int64_t max_body_memory_bytes = int64_t{512} << 20;
  int64_t header_timeout_ms = 10000;
  // A body may pause this long; it must be in within this plus its size
  // at body_min_bytes_per_second.
  int64_t body_idle_timeout_ms = 10000;
  int64_t body_min_bytes_per_second = int64_t{128} << 10;
  int64_t keep_alive_timeout_ms = 60000;
  // A response that makes no progress for this long is abandoned.
  int64_t write_timeout_ms = 30000;
};

class HttpServer {
 public:
  HttpServer(const Router* router, Metrics* metrics, HttpServerOptions options);
  ~HttpServer();

  // Binds the socket; returns the bound port (useful with port 0).
  Result<int> Bind();
  // Serves until Stop() (blocks the calling thread); requests already
  // being handled are answered first.
  void Serve();
  // Thread-safe; makes Serve() return.
  void Stop();

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace hoglake::server
