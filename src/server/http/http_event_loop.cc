#include "server/http/http_event_loop.h"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <optional>
#include <utility>

#include "common/log.h"

namespace hoglake::server {
namespace {

constexpr uint64_t kListenKey = 0;
constexpr uint64_t kWakeKey = 1;
constexpr size_t kReadChunk = size_t{64} << 10;
// Bytes read from one connection before the others get a turn.
constexpr size_t kReadBudgetPerTurn = size_t{1} << 20;
constexpr int kTickMs = 100;
constexpr int kMaxAcceptsPerTurn = 256;
constexpr int kMaxEvents = 256;
constexpr std::chrono::milliseconds kAcceptPause{100};
constexpr std::chrono::seconds kWarningInterval{10};
constexpr std::string_view kContinue = "HTTP/1.1 100 Continue\r\n\r\n";

// The hoglake_http_refused_total reason for a front-end error status.
std::string ReasonFor(int status) {
  switch (status) {
    case 408:
      return "timeout";
    case 413:
      return "body_too_large";
    case 431:
      return "header_too_large";
    case 503:
      return "body_memory";
    case 501:
    case 505:
      return "unsupported";
    default:
      return "malformed";
  }
}

bool IsIdentity(std::string_view encoding) {
  while (!encoding.empty() && (encoding.front() == ' ' || encoding.front() == '\t')) {
    encoding.remove_prefix(1);
  }
  while (!encoding.empty() && (encoding.back() == ' ' || encoding.back() == '\t')) {
    encoding.remove_suffix(1);
  }
  if (encoding.size() != 8) return false;
  for (size_t i = 0; i < 8; ++i) {
    if (std::tolower(static_cast<unsigned char>(encoding[i])) != "identity"[i]) return false;
  }
  return true;
}

int64_t MillisSince(std::chrono::steady_clock::time_point then,
                    std::chrono::steady_clock::time_point now) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(now - then).count();
}

}  // namespace

HttpResponse FrontEndError(int status, const std::string& message) {
  HttpResponse response = ErrorResponse(MakeError(
      status == 503 ? ErrorCode::kCommitQueueTimeout : ErrorCode::kBadRequest, message));
  response.status = status;
  return response;
}

struct HttpEventLoop::Connection {
  enum class Phase { kReading, kDispatched, kWriting, kLingering };

  Connection(uint64_t id, int fd, const HttpParserLimits& limits, BodyBudget* budget)
      : id(id), fd(fd), parser(limits), reservation(budget) {
    parser.SetReserve([this](uint64_t bytes) { return reservation.Add(bytes); });
  }

  const uint64_t id;
  const int fd;
  Phase phase = Phase::kReading;
  HttpRequestParser parser;
  BodyReservation reservation;  // granted to the request being read
  std::string in;               // bytes received, not yet consumed
  Clock::time_point idle_deadline;  // while no request has begun
  Clock::time_point request_start;  // the current request's first byte
  Clock::time_point body_start;
  Clock::time_point last_read;
  Clock::time_point deadline;  // writing: next progress; lingering: the end
  bool evictable = false;
  std::list<uint64_t>::iterator evictable_at;
  std::unique_ptr<OutgoingResponse> out;
  bool close_after = false;
  bool continue_sent = false;
  std::optional<std::string> refusal;  // answered once the body is dropped
  std::shared_ptr<StreamedBody> stream;  // a streamed body being read
  bool paused = false;                   // the stream's window is full
  Clock::time_point paused_since;
  bool closed = false;
};

void HttpEventLoop::WarningLimiter::Warn(const std::string& reason, std::string_view message) {
  const auto now = Clock::now();
  auto [it, fresh] = entries_.try_emplace(reason);
  Entry& entry = it->second;
  if (!fresh && now - entry.last < kWarningInterval) {
    ++entry.suppressed;
    return;
  }
  if (entry.suppressed > 0) {
    LogWarn(message, " (and ", entry.suppressed, " more like it in the last ",
            std::chrono::duration_cast<std::chrono::seconds>(now - entry.last).count(), " s)");
  } else {
    LogWarn(message);
  }
  entry.last = now;
  entry.suppressed = 0;
}

HttpEventLoop::HttpEventLoop(int listen_fd, Metrics* metrics, HttpFrontEndOptions options,
                             Dispatch dispatch)
    : listen_fd_(listen_fd),
      metrics_(metrics),
      options_(std::move(options)),
      dispatch_(std::move(dispatch)),
      budget_(options_.max_body_memory_bytes),
      scratch_(new char[kReadChunk]) {
  epoll_fd_ = epoll_create1(EPOLL_CLOEXEC);
  wake_fd_ = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
}

HttpEventLoop::~HttpEventLoop() {
  CloseAll();
  if (epoll_fd_ >= 0) ::close(epoll_fd_);
  if (wake_fd_ >= 0) ::close(wake_fd_);
}

void HttpEventLoop::Stop() {
  stopping_ = true;
  Wake();
}

void HttpEventLoop::Wake() {
  const uint64_t one = 1;
  if (wake_fd_ >= 0) {
    [[maybe_unused]] const ssize_t n = ::write(wake_fd_, &one, sizeof one);
  }
}

HttpEventLoop::Connection* HttpEventLoop::Find(uint64_t id) {
  auto it = connections_.find(id);
  return it == connections_.end() ? nullptr : it->second.get();
}

void HttpEventLoop::Run() {
  if (epoll_fd_ < 0 || wake_fd_ < 0) {
    LogError("HTTP server: cannot create its epoll or eventfd descriptor: ", std::strerror(errno));
    return;
  }
  epoll_event listen_event{};
  listen_event.events = EPOLLIN;
  listen_event.data.u64 = kListenKey;
  epoll_event wake_event{};
  wake_event.events = EPOLLIN;
  wake_event.data.u64 = kWakeKey;
  if (epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, listen_fd_, &listen_event) != 0 ||
      epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, wake_fd_, &wake_event) != 0) {
    LogError("HTTP server: cannot watch its sockets: ", std::strerror(errno));
    return;
  }
  epoll_event events[kMaxEvents];
  now_ = Clock::now();
  auto next_sweep = now_ + std::chrono::milliseconds(kTickMs);
  while (!stopping_) {
    const int timeout = ready_.empty() ? kTickMs : 0;
    const int n = epoll_wait(epoll_fd_, events, kMaxEvents, timeout);
    if (n < 0 && errno != EINTR) {
      LogError("HTTP server: epoll_wait failed: ", std::strerror(errno));
      break;
    }
    now_ = Clock::now();
    for (int i = 0; i < n; ++i) {
      const uint64_t key = events[i].data.u64;
      if (key == kListenKey) {
        AcceptConnections();
      } else if (key == kWakeKey) {
        uint64_t count;
        [[maybe_unused]] ssize_t r = ::read(wake_fd_, &count, sizeof count);
        TakeCompletions();
      } else {
        OnEvent(key, events[i].events);
      }
    }
    RunReady();
    if (now_ >= next_sweep) {
      Sweep();
      next_sweep = now_ + std::chrono::milliseconds(kTickMs);
    }
    if (accept_paused_ && now_ >= accept_resume_) {
      epoll_event resume{};
      resume.events = EPOLLIN;
      resume.data.u64 = kListenKey;
      epoll_ctl(epoll_fd_, EPOLL_CTL_MOD, listen_fd_, &resume);
      accept_paused_ = false;
    }
    closed_.clear();
  }
  epoll_ctl(epoll_fd_, EPOLL_CTL_DEL, listen_fd_, nullptr);
  std::vector<Connection*> open;
  for (auto& [id, conn] : connections_) {
    if (conn->stream && conn->phase == Connection::Phase::kReading) {
      // Its handler holds the connection: fail the body so it returns.
      conn->stream->Fail(503, "the server is stopping");
      conn->phase = Connection::Phase::kDispatched;
    }
    if (conn->phase != Connection::Phase::kDispatched) open.push_back(conn.get());
  }
  for (Connection* conn : open) Close(*conn);
  closed_.clear();
}

void HttpEventLoop::CloseAll() {
  for (auto& [id, conn] : connections_) {
    if (!conn->closed) ::close(conn->fd);
  }
  connections_.clear();
  closed_.clear();
  evictable_.clear();
  ready_.clear();
  std::lock_guard lock(completions_mutex_);
  completions_.clear();
}

// ---- accepting ----

void HttpEventLoop::AcceptConnections() {
  for (int i = 0; i < kMaxAcceptsPerTurn; ++i) {
    const int fd = accept4(listen_fd_, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd < 0) {
      if (errno == EINTR || errno == ECONNABORTED) continue;
      if (errno == EAGAIN || errno == EWOULDBLOCK) return;
      if ((errno == EMFILE || errno == ENFILE) && EvictOldest()) continue;
      warnings_.Warn("accept", StrCat("HTTP server: cannot accept connections (",
                                      std::strerror(errno), ") with ", connections_.size(),
                                      " open; pausing accepts for 100 ms"));
      PauseAccepting();
      return;
    }
    const auto full = [this] {
      return connections_.size() >= static_cast<size_t>(std::max(options_.max_connections, 1));
    };
    if (full() && !EvictOldest()) {
      // Responses handler threads finished but this loop has not taken yet
      // leave their connections idle once taken: take them, then look again.
      TakeCompletions();
      if (full() && !EvictOldest()) {
        RefuseConnection(fd);
        continue;
      }
    }
    AddConnection(fd);
  }
}

void HttpEventLoop::PauseAccepting() {
  epoll_event paused{};
  paused.events = 0;
  paused.data.u64 = kListenKey;
  epoll_ctl(epoll_fd_, EPOLL_CTL_MOD, listen_fd_, &paused);
  accept_paused_ = true;
  accept_resume_ = now_ + kAcceptPause;
}

void HttpEventLoop::AddConnection(int fd) {
  const int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);  // no delayed-ACK stalls
  const uint64_t id = next_id_++;
  auto owned = std::make_unique<Connection>(id, fd, options_.limits, &budget_);
  Connection& conn = *owned;
  if (options_.stream_body) conn.parser.SetStreamPolicy(options_.stream_body);
  epoll_event event{};
  event.events = EPOLLIN | EPOLLOUT | EPOLLRDHUP | EPOLLET;
  event.data.u64 = id;
  if (epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, fd, &event) != 0) {
    warnings_.Warn("epoll", StrCat("HTTP server: cannot watch a connection: ",
                                   std::strerror(errno)));
    ::close(fd);
    return;
  }
  conn.idle_deadline = now_ + std::chrono::milliseconds(options_.header_timeout_ms);
  conn.last_read = now_;
  connections_.emplace(id, std::move(owned));
  SetEvictable(conn, true);
  ReadInput(conn);  // the request may be waiting already
}

void HttpEventLoop::RefuseConnection(int fd) {
  HttpResponse response = FrontEndError(
      503, StrCat("the server has its limit of ", options_.max_connections,
                  " connections open and none idle; retry later"));
  OutgoingResponse out(std::move(response), ResponseFraming{false, false, false, {}});
  out.WriteTo(fd);  // best effort: a new socket takes a small answer whole
  ::shutdown(fd, SHUT_WR);
  ::close(fd);
  CountRefusal("connection_limit", "-", 503);
  warnings_.Warn("connection_limit",
                 StrCat("HTTP server: refused a connection with 503: ", connections_.size(),
                        " connections open (the limit), none idle"));
}

bool HttpEventLoop::EvictOldest() {
  if (evictable_.empty()) return false;
  Connection* conn = Find(evictable_.front());
  if (conn == nullptr) {
    evictable_.pop_front();
    return true;
  }
  Close(*conn);
  CountCut("idle_evicted");
  warnings_.Warn("idle_evicted",
                 StrCat("HTTP server: closed the oldest idle connection to admit a new one (",
                        options_.max_connections, " connections is the limit)"));
  return true;
}

// ---- reading ----

void HttpEventLoop::OnEvent(uint64_t id, uint32_t events) {
  Connection* conn = Find(id);
  if (conn == nullptr || conn->phase == Connection::Phase::kDispatched) return;
  switch (conn->phase) {
    case Connection::Phase::kWriting:
      if (events & (EPOLLOUT | EPOLLERR | EPOLLHUP)) ContinueWrite(*conn);
      break;
    case Connection::Phase::kReading:
      if (events & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR)) ReadInput(*conn);
      break;
    case Connection::Phase::kLingering:
      if (events & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR)) Drain(*conn);
      break;
    case Connection::Phase::kDispatched:
      break;
  }
}

void HttpEventLoop::ReadInput(Connection& conn) {
  size_t budget = kReadBudgetPerTurn;
  while (!conn.closed && conn.phase == Connection::Phase::kReading && !conn.paused) {
    const ssize_t n = ::recv(conn.fd, scratch_.get(), kReadChunk, 0);
    if (n > 0) {
      conn.last_read = now_;
      const std::string_view data(scratch_.get(), static_cast<size_t>(n));
      if (conn.in.empty()) {
        ProcessInput(conn, data, /*stored=*/false);
      } else {
        conn.in.append(data);
        ProcessInput(conn, conn.in, /*stored=*/true);
      }
      if (static_cast<size_t>(n) >= budget) {
        if (!conn.closed && conn.phase == Connection::Phase::kReading && !conn.paused) {
          ready_.push_back(conn.id);
        }
        return;
      }
      budget -= static_cast<size_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
    if (conn.stream) {
      // A handler holds the connection: it learns from the body.
      FailStream(conn, 0, "the client closed the connection before the body ended");
      return;
    }
    Close(conn);  // the peer closed (mid-request or idle) or the socket failed
    return;
  }
}

void HttpEventLoop::Drain(Connection& conn) {
  size_t budget = kReadBudgetPerTurn;
  while (!conn.closed) {
    const ssize_t n = ::recv(conn.fd, scratch_.get(), kReadChunk, 0);
    if (n > 0) {
      if (static_cast<size_t>(n) >= budget) {
        ready_.push_back(conn.id);
        return;
      }
      budget -= static_cast<size_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
    Close(conn);
    return;
  }
}

void HttpEventLoop::ProcessInput(Connection& conn, std::string_view view, bool stored) {
  size_t offset = 0;
  bool more = true;
  while (more && !conn.closed && conn.phase == Connection::Phase::kReading) {
    const bool was_started = conn.parser.started();
    size_t used = 0;
    const HttpRequestParser::Event event = conn.parser.Parse(view.substr(offset), &used);
    offset += used;
    if (!was_started && conn.parser.started()) {
      SetEvictable(conn, false);
      conn.request_start = now_;
    }
    switch (event) {
      case HttpRequestParser::Event::kNeedMore:
        if (conn.parser.in_body()) MaybeSendContinue(conn);
        more = false;
        break;
      case HttpRequestParser::Event::kHeadComplete:
        OnHead(conn);
        break;
      case HttpRequestParser::Event::kComplete:
        OnRequest(conn);
        more = false;
        break;
      case HttpRequestParser::Event::kError:
        if (conn.stream) {
          FailStream(conn, conn.parser.error().status, conn.parser.error().message);
        } else {
          Refuse(conn, conn.parser.error().status, conn.parser.error().message);
        }
        more = false;
        break;
    }
  }
  if (conn.closed) return;
  if (conn.phase == Connection::Phase::kLingering) {
    conn.in.clear();
    return;
  }
  // Keep what was not consumed: a partial head, or a pipelined request.
  if (stored) {
    conn.in.erase(0, std::min(offset, conn.in.size()));
  } else {
    conn.in.assign(view.substr(std::min(offset, view.size())));
  }
}

void HttpEventLoop::OnHead(Connection& conn) {
  const HttpRequestHead& head = conn.parser.head();
  conn.body_start = now_;
  conn.last_read = now_;
  const std::string* encoding = head.Header("content-encoding");
  if (encoding == nullptr || IsIdentity(*encoding)) {
    if (conn.parser.streaming()) StartStream(conn);
    return;
  }
  // Never inflated: the body is read (within the limits) and dropped, so
  // the connection stays in step, then the request is answered 400.
  std::string message = StrCat("Content-Encoding '", *encoding,
                               "' is not accepted: send the request body uncompressed");
  if (head.expect_continue && conn.parser.in_body()) {
    Refuse(conn, 400, message);  // the client has not sent the body: no need to read it
    return;
  }
  conn.parser.DiscardBody();
  conn.refusal = std::move(message);
}

void HttpEventLoop::MaybeSendContinue(Connection& conn) {
  if (conn.continue_sent || !conn.parser.head().expect_continue ||
      conn.parser.body_received() > 0) {
    return;
  }
  conn.continue_sent = true;
  // Nothing else is being written now; a fresh socket takes 25 bytes whole.
  [[maybe_unused]] ssize_t n =
      ::send(conn.fd, kContinue.data(), kContinue.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
}

void HttpEventLoop::StartStream(Connection& conn) {
  const uint64_t id = conn.id;
  auto stream = std::make_shared<StreamedBody>(std::max<size_t>(options_.stream_window_bytes, 1),
                                               [this, id] { RequestResume(id); });
  conn.stream = stream;
  Connection* reading = &conn;
  conn.parser.SetBodySink([reading, stream](std::string_view piece) {
    if (!stream->Push(piece) && !reading->paused) {
      reading->paused = true;
      reading->paused_since = Clock::now();
    }
  });
  MaybeSendContinue(conn);  // now, before the handler may start answering
  auto exchange = std::make_unique<HttpExchange>();
  exchange->connection = conn.id;
  exchange->fd = conn.fd;
  exchange->head = conn.parser.head();
  exchange->stream = std::move(stream);
  dispatch_(std::move(exchange));
}

void HttpEventLoop::FailStream(Connection& conn, int status, const std::string& message) {
  if (status != 0) {
    const HttpRequestHead& head = conn.parser.head();
    const std::string reason = ReasonFor(status);
    CountCut(reason);
    warnings_.Warn(reason, StrCat("HTTP server: answering ", status, " and closing (", head.method,
                                  " ", head.target, "): ", message));
  }
  conn.stream->Fail(status, message);
  conn.paused = false;
  conn.in.clear();
  conn.phase = Connection::Phase::kDispatched;
}

void HttpEventLoop::RequestResume(uint64_t id) {
  {
    std::lock_guard lock(completions_mutex_);
    resumes_.push_back(id);
  }
  Wake();
}

void HttpEventLoop::OnRequest(Connection& conn) {
  if (conn.stream) {
    conn.stream->Finish();  // its handler has it already
    conn.phase = Connection::Phase::kDispatched;
    return;
  }
  if (conn.refusal) {
    const HttpRequestHead& head = conn.parser.head();
    CountRefusal("content_encoding", head.method, 400);
    const std::string* id = head.Header("x-request-id");
    const bool keep_alive = head.keep_alive && !stopping_;
    auto out = std::make_unique<OutgoingResponse>(
        FrontEndError(400, *conn.refusal),
        ResponseFraming{head.method == "HEAD", keep_alive, head.version_minor == 0,
                        id ? std::string_view(*id) : std::string_view()});
    Send(conn, std::move(out), !keep_alive);
    return;
  }
  auto exchange = std::make_unique<HttpExchange>();
  exchange->connection = conn.id;
  exchange->fd = conn.fd;
  exchange->head = conn.parser.TakeHead();
  exchange->body = conn.parser.TakeBody();
  exchange->reservation = std::move(conn.reservation);
  conn.phase = Connection::Phase::kDispatched;
  dispatch_(std::move(exchange));
}

// ---- answering ----

void HttpEventLoop::CountRefusal(const std::string& reason, const std::string& method,
                                 int status) {
  metrics_->RecordRequest("refused", method, status, 0);
  CountCut(reason);
}

void HttpEventLoop::CountCut(const std::string& reason) {
  metrics_->AddToCounter(metric::kHttpRefused, {{"reason", reason}}, 1);
}

void HttpEventLoop::Refuse(Connection& conn, int status, const std::string& message) {
  const bool has_head = conn.parser.head_complete();
  const HttpRequestHead& head = conn.parser.head();
  const std::string reason = ReasonFor(status);
  const std::string method = has_head ? head.method : "-";
  CountRefusal(reason, method, status);
  warnings_.Warn(reason, StrCat("HTTP server: answered ", status, " and closed the connection",
                                has_head ? StrCat(" (", head.method, " ", head.target, ")") : "",
                                ": ", message));
  const std::string* id = has_head ? head.Header("x-request-id") : nullptr;
  auto out = std::make_unique<OutgoingResponse>(
      FrontEndError(status, message),
      ResponseFraming{has_head && head.method == "HEAD", false, false,
                      id ? std::string_view(*id) : std::string_view()});
  conn.reservation.Release();
  conn.in.clear();
  Send(conn, std::move(out), /*close_after=*/true);
}

void HttpEventLoop::Send(Connection& conn, std::unique_ptr<OutgoingResponse> out,
                         bool close_after) {
  SetEvictable(conn, false);
  conn.out = std::move(out);
  conn.close_after = close_after;
  conn.phase = Connection::Phase::kWriting;
  ContinueWrite(conn);
}

void HttpEventLoop::ContinueWrite(Connection& conn) {
  switch (conn.out->WriteTo(conn.fd)) {
    case OutgoingResponse::WriteResult::kFailed:
      Close(conn);
      return;
    case OutgoingResponse::WriteResult::kBlocked:
      conn.deadline = now_ + std::chrono::milliseconds(options_.write_timeout_ms);
      return;
    case OutgoingResponse::WriteResult::kDone:
      conn.out.reset();
      FinishResponse(conn);
      return;
  }
}

void HttpEventLoop::FinishResponse(Connection& conn) {
  if (conn.close_after || stopping_) {
    StartLingering(conn);
  } else {
    ResumeReading(conn);
  }
}

void HttpEventLoop::StartLingering(Connection& conn) {
  // Half-close, then read and drop whatever the client still sends, so
  // that closing with unread input (a reset) cannot destroy the answer
  // before the client reads it.
  ::shutdown(conn.fd, SHUT_WR);
  conn.phase = Connection::Phase::kLingering;
  conn.deadline = now_ + std::chrono::milliseconds(options_.linger_ms);
  conn.in.clear();
  conn.reservation.Release();
  SetEvictable(conn, true);
  Drain(conn);
}

void HttpEventLoop::ResumeReading(Connection& conn) {
  conn.parser.Reset();
  conn.reservation.Release();
  conn.continue_sent = false;
  conn.refusal.reset();
  conn.phase = Connection::Phase::kReading;
  conn.idle_deadline = now_ + std::chrono::milliseconds(options_.keep_alive_timeout_ms);
  if (conn.in.empty()) SetEvictable(conn, true);
  // Pipelined bytes already held, then the socket (edge-triggered: what
  // arrived while the request was in a handler raised no new event).
  ready_.push_back(conn.id);
}

void HttpEventLoop::Respond(std::unique_ptr<HttpExchange> exchange, HttpResponse response) {
  const HttpRequestHead& head = exchange->head;
  bool keep_alive = head.keep_alive && !stopping_;
  bool client_gone = false;
  if (exchange->stream) {
    if (std::optional<BodyRefusal> refusal = exchange->stream->refusal()) {
      client_gone = refusal->status == 0;
      response = FrontEndError(client_gone ? 400 : refusal->status, refusal->message);
      keep_alive = false;
    } else if (!exchange->stream->finished()) {
      keep_alive = false;  // the rest of the body is drained, not parsed
    }
  }
  const std::string* id = head.Header("x-request-id");
  const ResponseFraming framing{head.method == "HEAD", keep_alive, head.version_minor == 0,
                                id ? std::string_view(*id) : std::string_view()};
  if (OutgoingResponse::EndsConnection(response, framing)) keep_alive = false;
  auto out = std::make_unique<OutgoingResponse>(std::move(response), framing);
  const OutgoingResponse::WriteResult result =
      client_gone ? OutgoingResponse::WriteResult::kFailed : out->WriteTo(exchange->fd);
  Completion completion;
  completion.connection = exchange->connection;
  completion.keep_alive = keep_alive;
  completion.failed = result == OutgoingResponse::WriteResult::kFailed;
  if (result == OutgoingResponse::WriteResult::kBlocked) completion.rest = std::move(out);
  exchange.reset();  // the body and its memory reservation go now
  {
    std::lock_guard lock(completions_mutex_);
    completions_.push_back(std::move(completion));
  }
  Wake();
}

void HttpEventLoop::TakeCompletions() {
  std::vector<Completion> done;
  std::vector<uint64_t> resumes;
  {
    std::lock_guard lock(completions_mutex_);
    done.swap(completions_);
    resumes.swap(resumes_);
  }
  for (uint64_t id : resumes) {
    Connection* conn = Find(id);
    if (conn == nullptr || !conn->paused) continue;
    conn->paused = false;
    conn->last_read = now_;
    conn->body_start += now_ - conn->paused_since;  // the wait was ours, not the client's
    ready_.push_back(id);
  }
  for (Completion& completion : done) {
    Connection* conn = Find(completion.connection);
    if (conn == nullptr) continue;
    if (conn->stream) {
      // The handler is done with its body, ended or not (Respond then
      // said close, and the rest is drained while lingering).
      conn->stream->Fail(0, "the handler answered before the body ended");
      conn->stream.reset();
      conn->paused = false;
      if (conn->phase == Connection::Phase::kReading) conn->phase = Connection::Phase::kDispatched;
    }
    if (conn->phase != Connection::Phase::kDispatched) continue;
    if (completion.failed) {
      Close(*conn);
    } else if (completion.rest) {
      Send(*conn, std::move(completion.rest), !completion.keep_alive);
    } else if (!completion.keep_alive) {
      StartLingering(*conn);
    } else {
      ResumeReading(*conn);
    }
  }
}

// ---- bookkeeping ----

void HttpEventLoop::SetEvictable(Connection& conn, bool evictable) {
  if (conn.evictable == evictable) return;
  if (evictable) {
    conn.evictable_at = evictable_.insert(evictable_.end(), conn.id);
  } else {
    evictable_.erase(conn.evictable_at);
  }
  conn.evictable = evictable;
}

void HttpEventLoop::Close(Connection& conn) {
  if (conn.closed) return;
  SetEvictable(conn, false);
  epoll_ctl(epoll_fd_, EPOLL_CTL_DEL, conn.fd, nullptr);
  ::close(conn.fd);
  conn.closed = true;
  auto it = connections_.find(conn.id);
  if (it != connections_.end()) {
    closed_.push_back(std::move(it->second));
    connections_.erase(it);
  }
}

void HttpEventLoop::RunReady() {
  std::deque<uint64_t> ready;
  ready.swap(ready_);
  for (uint64_t id : ready) {
    Connection* conn = Find(id);
    if (conn == nullptr) continue;
    if (conn->phase == Connection::Phase::kLingering) {
      Drain(*conn);
      continue;
    }
    if (conn->phase != Connection::Phase::kReading || conn->paused) continue;
    if (!conn->in.empty()) ProcessInput(*conn, conn->in, /*stored=*/true);
    if (!conn->closed && conn->phase == Connection::Phase::kReading) ReadInput(*conn);
  }
}

void HttpEventLoop::Sweep() {
  std::vector<std::pair<Connection*, int>> due;  // 0 close, 1 head late, 2 body late
  for (auto& [id, owned] : connections_) {
    Connection& conn = *owned;
    switch (conn.phase) {
      case Connection::Phase::kReading:
        if (!conn.parser.started()) {
          if (now_ >= conn.idle_deadline) due.emplace_back(&conn, 0);
        } else if (!conn.parser.head_complete()) {
          if (MillisSince(conn.request_start, now_) >= options_.header_timeout_ms) {
            due.emplace_back(&conn, 1);
          }
        } else if (!conn.paused) {
          const HttpRequestHead& head = conn.parser.head();
          const uint64_t expected = head.content_length.value_or(conn.parser.body_received());
          const int64_t allowance =
              options_.body_idle_timeout_ms +
              static_cast<int64_t>(expected * 1000 /
                                   std::max<uint64_t>(options_.body_min_bytes_per_second, 1));
          if (MillisSince(conn.last_read, now_) >= options_.body_idle_timeout_ms ||
              MillisSince(conn.body_start, now_) >= allowance) {
            due.emplace_back(&conn, 2);
          }
        }
        break;
      case Connection::Phase::kWriting:
      case Connection::Phase::kLingering:
        if (now_ >= conn.deadline) due.emplace_back(&conn, 0);
        break;
      case Connection::Phase::kDispatched:
        break;
    }
  }
  for (auto [conn, what] : due) {
    if (conn->closed) continue;
    if (what == 1) {
      Refuse(*conn, 408,
             StrCat("the request line and header fields did not arrive within ",
                    options_.header_timeout_ms, " ms"));
    } else if (what == 2 && conn->stream) {
      FailStream(*conn, 408,
                 StrCat("the request body did not arrive in time (at most ",
                        options_.body_idle_timeout_ms, " ms without a byte, at least ",
                        options_.body_min_bytes_per_second, " bytes/s)"));
    } else if (what == 2) {
      Refuse(*conn, 408,
             StrCat("the request body did not arrive in time (at most ",
                    options_.body_idle_timeout_ms, " ms without a byte, at least ",
                    options_.body_min_bytes_per_second, " bytes/s)"));
    } else {
      if (conn->phase == Connection::Phase::kWriting) {
        CountCut("slow_reader");
        warnings_.Warn("slow_reader",
                       StrCat("HTTP server: closed a connection whose client read nothing of "
                              "its response for ",
                              options_.write_timeout_ms, " ms"));
      }
      Close(*conn);
    }
  }
}

}  // namespace hoglake::server
