// The HTTP request and response as the route handlers see them, independent
// of the HTTP front end underneath (http_server.cc).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/status.h"

namespace hoglake::server {

// The body of a request to a streaming route (Router::AddStreaming), read
// by its handler as it arrives instead of whole beforehand. The front end
// holds at most a small window of it (and stops reading the socket while
// the window is full); a bound on the body's size is the route's own,
// enforced as the bytes arrive.
class BodyStream {
 public:
  virtual ~BodyStream() = default;
  // Blocks until the next piece of the body is in and moves it into
  // `*piece` (true), or the body has ended (false). An Error when the body
  // cannot be completed: past the route's size limit, malformed framing, a
  // client too slow or gone, the server stopping. After an Error the front
  // end answers the request itself (413, 400, 408, …, or nothing when the
  // client is gone) whatever the handler returns; the handler's duty is to
  // change nothing.
  virtual Result<bool> Next(std::string* piece) = 0;
};

// A response body produced piece by piece while it is sent, so that a
// body of any size costs memory for one piece at a time. The front end
// pulls the next piece only once the socket has taken the previous ones
// (first on the handler thread, then on the I/O thread as the socket
// drains), and drops the producer (freeing whatever it holds) when the
// body is complete, the client is gone or the server stops. A piece
// should be modest (about a megabyte): producing one holds up the I/O
// thread for that long.
class BodyProducer {
 public:
  virtual ~BodyProducer() = default;
  // The next piece into `*piece` (true; an empty piece is skipped), or the
  // end of the body (false). An Error once the head is sent cannot be
  // answered: the front end logs it and closes the connection, so the
  // client sees the body cut short (no final chunk, or fewer bytes than
  // Content-Length).
  virtual Result<bool> Next(std::string* piece) = 0;
};

struct HttpRequest {
  std::string method;
  std::string path;  // raw, still percent-encoded
  // Decoded path segments bound by the route pattern, by name ("catalog").
  std::map<std::string, std::string, std::less<>> path_params;
  // Decoded query parameters in order; a name may repeat.
  std::vector<std::pair<std::string, std::string>> query;
  std::map<std::string, std::string, std::less<>> headers;  // names lowercased
  std::string body;  // empty on a streaming route: read body_stream instead
  BodyStream* body_stream = nullptr;  // streaming routes only

  const std::string& Param(std::string_view name) const;
  // The first value of a query parameter, if present.
  std::optional<std::string_view> Query(std::string_view name) const;
  // Every value of a (possibly repeated) query parameter.
  std::vector<std::string_view> QueryAll(std::string_view name) const;
  std::optional<std::string_view> Header(std::string_view lowercase_name) const;
};

struct HttpResponse {
  int status = 200;
  std::string content_type = "application/json";
  // The body is `body` followed by each of `body_segments`, in order. A large
  // body built in segments (JsonWriter::TakeSegments) is sent as it is,
  // never joined; routes whose responses are audited (audit_actions.h) or
  // errors use `body` alone.
  std::string body;
  std::vector<std::string> body_segments;
  std::vector<std::pair<std::string, std::string>> headers;
  // A streamed body, sent after `body` and `body_segments`: with
  // Content-Length when `streamed_length` gives the whole body's size
  // (then the producer must yield exactly that many bytes), otherwise with
  // chunked transfer coding (to an HTTP/1.0 client: unframed, then the
  // connection closes).
  std::shared_ptr<BodyProducer> body_producer;
  std::optional<uint64_t> streamed_length;

  static HttpResponse Json(int status, std::string body) {
    return HttpResponse{status, "application/json", std::move(body), {}, {}, {}, {}};
  }
  static HttpResponse JsonSegments(int status, std::vector<std::string> segments) {
    return HttpResponse{status, "application/json", {}, std::move(segments), {}, {}, {}};
  }
  static HttpResponse Text(int status, std::string body,
                           std::string content_type = "text/plain; charset=utf-8") {
    return HttpResponse{status, std::move(content_type), std::move(body), {}, {}, {}, {}};
  }

  // The size of `body` and `body_segments` (not counting a streamed body).
  size_t BodySize() const;
};

// Which API's error body a route answers with (the router picks it per
// route, so lower layers only return typed Errors):
//   kHoglake  the hoglake contract's {"error": "<code>", "detail": "...",
//             "tables"?: [...], "read_snapshot"?: N, "retry"?: "re-prepare"}
//             with the code's HTTP status;
//   kHotdata  the Hotdata API's {"error": {"code": "<CODE>", "message":
//             "..."}} (hotdata-api.md §1.4): malformed or invalid input 400
//             BAD_REQUEST, 404 NOT_FOUND, conflicts 409 CONFLICT, 501
//             NOT_IMPLEMENTED, 503 SERVICE_UNAVAILABLE, else 500
//             INTERNAL_SERVER_ERROR.
// Either way Retry-After: 1 comes with every 503 (commit_queue_timeout,
// database_unavailable, another dependency down), and a 500's message is the
// fixed text "internal server error" and database_unavailable's a fixed text
// too; their messages are logged instead.
enum class ErrorBodyStyle { kHoglake, kHotdata };
// The hoglake contract's HTTP status for a code (§1.5; library codes fold
// into 422, 500 or 503). One exhaustive switch: a new code does not compile
// until it has a status here.
int HoglakeHttpStatus(ErrorCode code);
HttpResponse ErrorResponse(const Error& error, ErrorBodyStyle style = ErrorBodyStyle::kHoglake);

// Percent-decodes one path segment or query component ('+' stays '+' in
// paths and becomes ' ' in queries when `plus_is_space`). A result holding a
// NUL character or bytes that are not UTF-8 is refused (kBadRequest naming
// the text): names reach PostgreSQL, where a NUL would cut them short.
Result<std::string> PercentDecode(std::string_view text, bool plus_is_space);

}  // namespace hoglake::server
