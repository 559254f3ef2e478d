#include "server/http_server.h"

#include <httplib.h>
#include <sys/socket.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/audit.h"
#include "common/json_writer.h"
#include "common/log.h"
#include "server/audit_actions.h"

namespace hoglake::server {

namespace {

using Clock = std::chrono::steady_clock;

// When the task now running on this handler thread was queued; cleared by
// the first request it serves (later requests on a kept-alive connection
// did not wait for a thread).
thread_local std::optional<Clock::time_point> t_task_queued_at;

// httplib's thread pool, with each task stamped at enqueue time.
class TimedTaskQueue : public httplib::TaskQueue {
 public:
  explicit TimedTaskQueue(size_t threads) : pool_(threads) {}
  void enqueue(std::function<void()> fn) override {
    pool_.enqueue([fn = std::move(fn), queued = Clock::now()] {
      t_task_queued_at = queued;
      fn();
      t_task_queued_at.reset();
    });
  }
  void shutdown() override { pool_.shutdown(); }

 private:
  httplib::ThreadPool pool_;
};

// Where the pre-routing handler moves a request's Content-Encoding.
constexpr const char* kRefusedContentEncoding = "X-Hoglake-Content-Encoding";

// Hands the response body to httplib without copying it: served by a
// content provider that owns the body's string or segments (Content-Length
// still sent, keep-alive kept) and recycles them when httplib drops the
// response. An empty body goes in res.body.
//
// Bodies go out as they are (identity), whatever Accept-Encoding says.
// httplib compresses a res.body on its own when the request accepts br or
// gzip, and Python clients (requests, so pyhoglake) send "gzip, deflate"
// and "br" too when brotli is installed: its brotli encoder runs at quality
// 11 — 0.65 ms of CPU added to a 300-byte answer, 105 s for a 20K-file scan
// plan (64 MB) — and gzip made that plan 4× slower to serve and to read on
// loopback (0.8 s vs 0.19 s). httplib never compresses a fixed-length
// provider, so every non-empty body takes that path.
void SetBody(HttpResponse response, httplib::Response& res) {
  res.headers.erase("Content-Type");
  const size_t size = response.BodySize();
  if (size == 0) {
    res.body.clear();
    res.set_header("Content-Type", response.content_type);
    for (std::string& part : response.body_segments) RecycleJsonSegment(std::move(part));
    return;
  }
  struct Segments {
    std::vector<std::string> parts;
    ~Segments() {
      for (std::string& part : parts) RecycleJsonSegment(std::move(part));
    }
  };
  auto segments = std::make_shared<Segments>();
  if (!response.body.empty()) segments->parts.push_back(std::move(response.body));
  for (std::string& part : response.body_segments) segments->parts.push_back(std::move(part));
  // Writes from `offset` to the end of the segment holding it (at most
  // `length` bytes); httplib calls again for the rest.
  auto provide = [segments](size_t offset, size_t length, httplib::DataSink& sink) {
    for (const std::string& part : segments->parts) {
      if (offset < part.size()) {
        return sink.write(part.data() + offset, std::min(length, part.size() - offset));
      }
      offset -= part.size();
    }
    return false;
  };
  res.set_content_provider(size, response.content_type, std::move(provide));
}

}  // namespace

class HttpServer::Impl {
 public:
  Impl(const Router* router, Metrics* metrics, HttpServerOptions options)
      : router_(router), metrics_(metrics), options_(std::move(options)) {
    const int threads = options_.threads;
    server_.new_task_queue = [threads] { return new TimedTaskQueue(threads); };
    server_.set_payload_max_length(64 << 20);
    server_.set_keep_alive_max_count(10000);
    server_.set_tcp_nodelay(true);  // small responses must not wait for delayed ACKs
    // httplib's own options (address reuse), and the listening socket kept
    // so Bind() can widen its backlog.
    server_.set_socket_options([this](int sock) {
      httplib::default_socket_options(sock);
      listen_socket_ = sock;
    });
    // Request bodies are taken as sent, never inflated: httplib would inflate
    // a gzip/deflate/br body with no bound on the inflated size (a 0.5 MB
    // gzip of one 512 MB string took the server past 1.4 GB). Before the
    // body is read, a Content-Encoding is moved aside, so httplib reads the
    // raw bytes (bounded by the payload limit and consumed, so the
    // connection stays in step), and Handle() refuses the request. The
    // request object is httplib's own non-const one, handed over as const.
    server_.set_pre_routing_handler([](const httplib::Request& req, httplib::Response&) {
      if (req.has_header("Content-Encoding")) {
        auto& headers = const_cast<httplib::Request&>(req).headers;
        const std::string encoding = req.get_header_value("Content-Encoding");
        headers.erase("Content-Encoding");
        headers.emplace(kRefusedContentEncoding, encoding);
      }
      return httplib::Server::HandlerResponse::Unhandled;
    });
    // One catch-all per method: the Router does the real matching on the raw
    // target (httplib's own matching sees the path already percent-decoded).
    auto handler = [this](const httplib::Request& req, httplib::Response& res) {
      Handle(req, res);
    };
    server_.Get(".*", handler);
    server_.Post(".*", handler);
    server_.Put(".*", handler);
    server_.Patch(".*", handler);
    server_.Delete(".*", handler);
    server_.Options(".*", handler);
  }

  Result<int> Bind() {
    int port = options_.port;
    if (port == 0) {
      port = server_.bind_to_any_port(options_.host);
      if (port <= 0) return IoError("cannot bind ", options_.host, " to any port");
    } else if (!server_.bind_to_port(options_.host, port)) {
      return IoError("cannot listen on ", options_.host, ":", port,
                     " (in use, or not an address of this machine)");
    }
    // httplib listens with a backlog of 5: when more clients connect at once
    // than its accept loop has taken (a burst of writers on a busy 2-core
    // machine), the kernel drops their handshakes and they stall a second
    // or more, or see their first request fail. Listening again on the bound
    // socket raises the backlog to the system's limit.
    if (listen_socket_ < 0 || ::listen(listen_socket_, SOMAXCONN) != 0) {
      return IoError("cannot widen the listen backlog on ", options_.host, ":", port);
    }
    return port;
  }

  void Serve() { server_.listen_after_bind(); }
  void Stop() { server_.stop(); }

 private:
  void Handle(const httplib::Request& req, httplib::Response& res) {
    if (req.has_header(kRefusedContentEncoding)) {
      const std::string encoding = req.get_header_value(kRefusedContentEncoding);
      if (encoding != "identity") {
        HttpResponse refused =
            ErrorResponse(BadRequest("Content-Encoding '", encoding,
                                     "' is not accepted: send the request body uncompressed"));
        res.status = refused.status;
        SetBody(std::move(refused), res);
        return;
      }
    }
    const auto start = Clock::now();
    std::optional<double> queued_seconds;
    if (t_task_queued_at) {
      queued_seconds = std::chrono::duration<double>(start - *t_task_queued_at).count();
      t_task_queued_at.reset();
      metrics_->RecordRequestQueueWait(*queued_seconds);
    }
    HttpRequest request;
    request.method = req.method;
    std::string_view target = req.target;
    const size_t question = target.find('?');
    request.path = std::string(target.substr(0, question));
    HttpResponse response;
    std::string route = "unmatched";
    // Audit lines emitted while serving this request (by a maintenance run
    // it triggers, say) carry its X-Request-Id.
    ScopedRequestId request_id(req.get_header_value("X-Request-Id"));
    Status parsed =
        ParseQuery(question == std::string_view::npos ? "" : target.substr(question + 1), &request);
    if (!parsed.ok()) {
      response = ErrorResponse(parsed.error());
    } else if (queued_seconds && options_.admission_ms > 0 &&
               *queued_seconds * 1000 > static_cast<double>(options_.admission_ms) &&
               request.path.starts_with("/v1/")) {
      metrics_->RecordRequestShed();
      route = "shed";  // never matched: labelled as what happened to it
      response = ErrorResponse(MakeError(
          ErrorCode::kCommitQueueTimeout, "the server is overloaded: this request waited ",
          static_cast<int64_t>(*queued_seconds * 1000), " ms for a handler thread (bound ",
          options_.admission_ms, " ms); retry later"));
    } else {
      for (const auto& [name, value] : req.headers) {
        std::string lower = name;
        std::transform(lower.begin(), lower.end(), lower.begin(),
                       [](unsigned char c) { return std::tolower(c); });
        request.headers.emplace(std::move(lower), value);
      }
      request.body = req.body;
      try {
        response = router_->Dispatch(request, &route);
      } catch (const std::exception& e) {
        LogError("unhandled exception on ", req.method, " ", request.path, ": ", e.what());
        response = ErrorResponse(Internal(e.what()));
      }
    }
    Audit(route, request, response);
    if (response.status >= 500) {
      LogWarn(req.method, " ", request.path, " → ", response.status, " ", response.body);
    }
    res.status = response.status;
    for (const auto& [name, value] : response.headers) res.set_header(name, value);
    if (auto id = req.get_header_value("X-Request-Id"); !id.empty()) {
      res.set_header("X-Request-Id", id);
    }
    SetBody(std::move(response), res);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    metrics_->RecordRequest(route, req.method, res.status, seconds);
  }

  // One audit line for a request to a mutating route (audit_actions.h);
  // not for routes that are not implemented yet.
  static void Audit(const std::string& route, const HttpRequest& request,
                    const HttpResponse& response) {
    if (response.status == 501) return;
    const std::optional<std::string_view> action = AuditActionForRoute(request.method, route);
    if (!action || *action == kSelfAudited || *action == kNotAMutation) return;
    EmitAudit(AuditEventFor(*action, request, response));
  }

  static Status ParseQuery(std::string_view query, HttpRequest* request) {
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

  const Router* router_;
  Metrics* metrics_;
  HttpServerOptions options_;
  httplib::Server server_;
  int listen_socket_ = -1;  // the bound listening socket (Bind)
};

HttpServer::HttpServer(const Router* router, Metrics* metrics, HttpServerOptions options)
    : impl_(std::make_unique<Impl>(router, metrics, std::move(options))) {}
HttpServer::~HttpServer() = default;
Result<int> HttpServer::Bind() { return impl_->Bind(); }
void HttpServer::Serve() { impl_->Serve(); }
void HttpServer::Stop() { impl_->Stop(); }

}  // namespace hoglake::server
