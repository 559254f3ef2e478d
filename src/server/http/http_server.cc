#include "server/http/http_server.h"

#include <netdb.h>
#include <netinet/in.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "common/audit.h"
#include "common/log.h"
#include "server/audit_actions.h"
#include "server/http/handler_pool.h"
#include "server/http/http_event_loop.h"

namespace hoglake::server {

namespace {

using Clock = std::chrono::steady_clock;

// Health checks and metrics run on their own threads (never shed, never
// queued behind slow requests).
bool IsHealthCheck(const HttpRequestHead& head) {
  if (head.method != "GET" && head.method != "HEAD") return false;
  const std::string_view path = std::string_view(head.target).substr(0, head.target.find('?'));
  return path == "/livez" || path == "/healthz" || path == "/metrics";
}

// Raises the soft limit on open files toward what `max_connections` needs
// (the hard limit permitting): a default of 1024 would refuse connections
// long before the bound.
void RaiseFileLimit(int max_connections) {
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0) return;
  const rlim_t wanted = static_cast<rlim_t>(max_connections) + 1024;
  if (limit.rlim_cur >= wanted) return;
  const rlim_t raised = limit.rlim_max == RLIM_INFINITY ? wanted : std::min(wanted, limit.rlim_max);
  if (raised <= limit.rlim_cur) return;
  limit.rlim_cur = raised;
  if (setrlimit(RLIMIT_NOFILE, &limit) != 0) {
    LogWarn("cannot raise the open-file limit to ", raised, ": ", std::strerror(errno));
  }
}

Status ParseQuery(std::string_view query, HttpRequest* request) {
  while (!query.empty()) {
    size_t amp = query.find('&');
    std::string_view part = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
    if (part.empty()) continue;
    size_t eq = part.find('=');
    HOGLAKE_ASSIGN_OR_RETURN(std::string key, PercentDecode(part.substr(0, eq), true));
    std::string value;
    if (eq != std::string_view::npos) {
      HOGLAKE_ASSIGN_OR_RETURN(value, PercentDecode(part.substr(eq + 1), true));
    }
    request->query.emplace_back(std::move(key), std::move(value));
  }
  return Status::Ok();
}

// One audit line for a request to a mutating route (audit_actions.h); not
// for routes that are not implemented yet.
void Audit(const std::string& route, const HttpRequest& request, const HttpResponse& response) {
  if (response.status == 501) return;
  const std::optional<std::string_view> action = AuditActionForRoute(request.method, route);
  if (!action || *action == kSelfAudited || *action == kNotAMutation) return;
  EmitAudit(AuditEventFor(*action, request, response));
}

}  // namespace

class HttpServer::Impl {
 public:
  Impl(const Router* router, Metrics* metrics, HttpServerOptions options)
      : router_(router), metrics_(metrics), options_(std::move(options)) {}

  ~Impl() {
    if (listen_fd_ >= 0) ::close(listen_fd_);
  }

  Result<int> Bind() {
    if (listen_fd_ >= 0) return IoError("the server is bound already");
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE;
    addrinfo* found = nullptr;
    const std::string service = std::to_string(options_.port);
    if (getaddrinfo(options_.host.c_str(), service.c_str(), &hints, &found) != 0 ||
        found == nullptr) {
      return IoError("cannot listen on ", options_.host, ":", options_.port,
                     " (not an address of this machine)");
    }
    int fd = -1;
    for (addrinfo* ai = found; ai != nullptr && fd < 0; ai = ai->ai_next) {
      fd = ::socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, ai->ai_protocol);
      if (fd < 0) continue;
      const int one = 1;
      setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
      // A backlog of SOMAXCONN: a burst of clients connecting at once (writers
      // starting together on a busy machine) waits in the kernel's queue
      // instead of having handshakes dropped.
      if (::bind(fd, ai->ai_addr, ai->ai_addrlen) != 0 || ::listen(fd, SOMAXCONN) != 0) {
        ::close(fd);
        fd = -1;
      }
    }
    freeaddrinfo(found);
    if (fd < 0) {
      if (options_.port == 0) return IoError("cannot bind ", options_.host, " to any port");
      return IoError("cannot listen on ", options_.host, ":", options_.port,
                     " (in use, or not an address of this machine)");
    }
    sockaddr_storage bound{};
    socklen_t size = sizeof bound;
    getsockname(fd, reinterpret_cast<sockaddr*>(&bound), &size);
    const int port = bound.ss_family == AF_INET6
                         ? ntohs(reinterpret_cast<sockaddr_in6*>(&bound)->sin6_port)
                         : ntohs(reinterpret_cast<sockaddr_in*>(&bound)->sin_port);
    listen_fd_ = fd;
    RaiseFileLimit(options_.max_connections);
    loop_ = std::make_unique<HttpEventLoop>(
        listen_fd_, metrics_, FrontEndOptions(),
        [this](std::unique_ptr<HttpExchange> exchange) { Dispatch(std::move(exchange)); });
    handlers_ = std::make_unique<HandlerPool>(std::max(options_.threads, 1));
    health_ = std::make_unique<HandlerPool>(std::max(options_.health_threads, 1));
    return port;
  }

  void Serve() {
    if (!loop_) {
      LogError("HTTP server: Serve() without a successful Bind()");
      return;
    }
    if (!stop_requested_) loop_->Run();
    // Requests already queued or running are answered, then the
    // connections they hold are closed.
    handlers_->Shutdown();
    health_->Shutdown();
    loop_->CloseAll();
  }

  void Stop() {
    stop_requested_ = true;
    if (loop_) loop_->Stop();
  }

 private:
  HttpFrontEndOptions FrontEndOptions() const {
    HttpFrontEndOptions front;
    front.limits.max_header_bytes =
        static_cast<size_t>(std::max<int64_t>(options_.max_header_bytes, 1024));
    front.limits.max_body_bytes =
        static_cast<uint64_t>(std::max<int64_t>(options_.max_body_bytes, 0));
    front.max_body_memory_bytes =
        static_cast<uint64_t>(std::max<int64_t>(options_.max_body_memory_bytes, 0));
    front.max_connections = std::max(options_.max_connections, 1);
    front.header_timeout_ms = options_.header_timeout_ms;
    front.body_idle_timeout_ms = options_.body_idle_timeout_ms;
    front.body_min_bytes_per_second =
        static_cast<uint64_t>(std::max<int64_t>(options_.body_min_bytes_per_second, 1));
    front.keep_alive_timeout_ms = options_.keep_alive_timeout_ms;
    front.write_timeout_ms = options_.write_timeout_ms;
    // Streaming routes' bodies are read as they arrive (router.h).
    const Router* router = router_;
    front.stream_body = [router](const HttpRequestHead& head) -> std::optional<uint64_t> {
      const std::string_view target = head.target;
      return router->StreamedBodyLimit(head.method, target.substr(0, target.find('?')));
    };
    return front;
  }

  void Dispatch(std::unique_ptr<HttpExchange> exchange) {
    HandlerPool* pool = IsHealthCheck(exchange->head) ? health_.get() : handlers_.get();
    auto held = std::make_shared<std::unique_ptr<HttpExchange>>(std::move(exchange));
    pool->Enqueue(
        [this, held](double queued_seconds) { Handle(std::move(*held), queued_seconds); });
  }

  void Handle(std::unique_ptr<HttpExchange> exchange, double queued_seconds) {
    const auto start = Clock::now();
    metrics_->RecordRequestQueueWait(queued_seconds);
    const HttpRequestHead& head = exchange->head;
    HttpRequest request;
    request.method = head.method;
    const std::string_view target = head.target;
    const size_t question = target.find('?');
    request.path = std::string(target.substr(0, question));
    HttpResponse response;
    std::string route = "unmatched";
    const std::string* id = head.Header("x-request-id");
    // Audit lines emitted while serving this request (by a maintenance run
    // it triggers, say) carry its X-Request-Id.
    ScopedRequestId request_id(id ? *id : std::string());
    Status parsed =
        ParseQuery(question == std::string_view::npos ? "" : target.substr(question + 1), &request);
    if (!parsed.ok()) {
      response = ErrorResponse(parsed.error());
    } else if (options_.admission_ms > 0 &&
               queued_seconds * 1000 > static_cast<double>(options_.admission_ms) &&
               request.path.starts_with("/v1/")) {
      metrics_->RecordRequestShed();
      route = "shed";  // never matched: labelled as what happened to it
      response = ErrorResponse(MakeError(
          ErrorCode::kCommitQueueTimeout, "the server is overloaded: this request waited ",
          static_cast<int64_t>(queued_seconds * 1000), " ms for a handler thread (bound ",
          options_.admission_ms, " ms); retry later"));
    } else {
      for (const auto& [name, value] : head.headers) request.headers.emplace(name, value);
      request.body = std::move(exchange->body);
      request.body_stream = exchange->stream.get();
      try {
        response = router_->Dispatch(request, &route);
      } catch (const std::exception& e) {
        LogError("unhandled exception on ", request.method, " ", request.path, ": ", e.what());
        response = ErrorResponse(Internal(e.what()));
      }
    }
    Audit(route, request, response);
    if (response.status >= 500) {
      LogWarn(request.method, " ", request.path, " → ", response.status, " ", response.body);
    }
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    metrics_->RecordRequest(route, request.method, response.status, seconds);
    // The body's memory goes back to the budget before the answer is sent.
    request.body = std::string();
    exchange->body = std::string();
    exchange->reservation.Release();
    loop_->Respond(std::move(exchange), std::move(response));
  }

  const Router* router_;
  Metrics* metrics_;
  const HttpServerOptions options_;
  int listen_fd_ = -1;
  std::atomic<bool> stop_requested_{false};
  std::unique_ptr<HttpEventLoop> loop_;
  std::unique_ptr<HandlerPool> handlers_;
  std::unique_ptr<HandlerPool> health_;
};

HttpServer::HttpServer(const Router* router, Metrics* metrics, HttpServerOptions options)
    : impl_(std::make_unique<Impl>(router, metrics, std::move(options))) {}
HttpServer::~HttpServer() = default;
Result<int> HttpServer::Bind() { return impl_->Bind(); }
void HttpServer::Serve() { impl_->Serve(); }
void HttpServer::Stop() { impl_->Stop(); }

}  // namespace hoglake::server
