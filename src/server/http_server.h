// HttpServer: serves a Router over HTTP/1.1 (cpp-httplib underneath, kept
// out of every other header). A bounded thread pool handles requests with
// keep-alive; bodies above 64 MiB are refused (413). Every response echoes
// X-Request-Id when the request carried one, and is counted in Metrics.
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
