// HttpServer: serves a Router over HTTP/1.1 (cpp-httplib underneath, kept
// out of every other header). A bounded thread pool handles requests with
// keep-alive; bodies above 64 MiB are refused (413). Every response echoes
// X-Request-Id when the request carried one, and is counted in Metrics.
// Response bodies reach the socket without being copied: a string body is
// moved to httplib, a segmented one (HttpResponse::body_segments) is sent
// segment by segment with its Content-Length and its buffers are recycled
// (AcquireJsonSegment) — unless the request accepts a compressed encoding,
// which httplib applies to a single string only.
//
// Admission: a connection's first request that waited for a handler thread
// longer than `admission_ms` (HOGLAKE_COMMIT_LOCK_TIMEOUT_MS; 0 = never) is
// shed on any /v1 route — 503 commit_queue_timeout with Retry-After: 1,
// nothing dispatched — rather than served after its client gave up. Every
// such wait is recorded in hoglake_request_queue_wait_seconds and each shed
// request in hoglake_requests_shed_total.
#pragma once

#include <memory>
#include <string>

#include "common/status.h"
#include "server/metrics.h"
#include "server/router.h"

namespace hoglake::server {

struct HttpServerOptions {
  std::string host = "127.0.0.1";
  int port = 8080;  // 0 picks a free port
  int threads = 16;
  int64_t admission_ms = 30000;
};

class HttpServer {
 public:
  HttpServer(const Router* router, Metrics* metrics, HttpServerOptions options);
  ~HttpServer();

  // Binds the socket; returns the bound port (useful with port 0).
  Result<int> Bind();
  // Serves until Stop() (blocks the calling thread).
  void Serve();
  // Thread-safe; makes Serve() return.
  void Stop();

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace hoglake::server
