// HttpRequestParser: an incremental HTTP/1.1 request parser (RFC 9112) for
// the server's event loop. It is fed whatever bytes have arrived and says
// when a request's head and then its whole body are in; it never reads a
// socket, never blocks and holds no more than one request.
//
// Limits are enforced while parsing, before anything is buffered:
//   - the head (request line, header fields, and any chunked trailer) is at
//     most `max_header_bytes` and `max_header_fields` → 431;
//   - the decoded body is at most `max_body_bytes`, for a Content-Length
//     (refused from the head, before one body byte is read) and for a
//     chunked body (refused at the chunk-size line that would pass it) → 413;
//   - every byte the body will hold is first granted by the reserve
//     callback (a server-wide memory budget) → 503 when refused.
// A request with neither Content-Length nor Transfer-Encoding has an empty
// body and is complete with its head. Malformed syntax, conflicting framing
// (Content-Length with Transfer-Encoding, differing Content-Lengths) and
// obsolete line folding → 400; a transfer coding other than chunked → 501;
// an HTTP version other than 1.0 or 1.1 → 505. After an error the parser
// stays failed: the connection cannot be re-synchronised and must close.
//
// Streamed bodies: when the stream policy (SetStreamPolicy) gives a limit
// for a request's head, its body is not buffered and takes nothing from the
// reserve callback; each piece goes to the body sink (SetBodySink) as it is
// decoded, and the policy's limit replaces `max_body_bytes` (413 exactly as
// above: from the head for a Content-Length, at the chunk that passes it).
//
// Framing is exact: Parse consumes a request's bytes and none of the next
// one's, so pipelined requests are parsed one after another. While the head
// is incomplete, Parse consumes nothing (beyond empty lines before a
// request line): the caller keeps the unconsumed bytes and passes them again
// with more appended, and the parser resumes its scan where it stopped.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace hoglake::server {

struct HttpParserLimits {
  size_t max_header_bytes = size_t{64} << 10;
  size_t max_header_fields = 256;
  uint64_t max_body_bytes = uint64_t{64} << 20;
};

struct HttpRequestHead {
  std::string method;
  std::string target;  // the request-target as sent (not decoded)
  int version_minor = 1;  // HTTP/1.<minor>: 0 or 1
  // Header fields in order; names lowercased, values trimmed.
  std::vector<std::pair<std::string, std::string>> headers;
  std::optional<uint64_t> content_length;
  bool chunked = false;
  // Whether the connection may carry another request after this one: by
  // version (1.1 yes, 1.0 only with Connection: keep-alive) and
  // Connection: close.
  bool keep_alive = true;
  // Expect: 100-continue on an HTTP/1.1 request.
  bool expect_continue = false;

  // The first value of header `lowercase_name`, or nullptr.
  const std::string* Header(std::string_view lowercase_name) const;
};

struct HttpParseError {
  int status = 400;  // 400, 413, 431, 501, 503 or 505
  std::string message;
};

class HttpRequestParser {
 public:
  enum class Event {
    kNeedMore,      // more input is needed (see the head rule above)
    kHeadComplete,  // head() is ready; call Parse again for the body
    kComplete,      // head() and the body are ready; Reset() before the next
    kError,         // error() says why; head_complete() tells if head() is set
  };
  // Asked for `bytes` more of body memory before they are buffered; false
  // refuses the request (503). Not called for a discarded body.
  using Reserve = std::function<bool(uint64_t bytes)>;
  // For a parsed head: the body limit when the body is to be streamed,
  // nullopt to buffer it whole.
  using StreamPolicy = std::function<std::optional<uint64_t>(const HttpRequestHead& head)>;
  // Receives each decoded piece of a streamed body, in order.
  using BodySink = std::function<void(std::string_view piece)>;

  explicit HttpRequestParser(HttpParserLimits limits = {});

  void SetReserve(Reserve reserve) { reserve_ = std::move(reserve); }
  void SetStreamPolicy(StreamPolicy policy) { stream_policy_ = std::move(policy); }
  // After kHeadComplete of a streamed request; cleared by Reset.
  void SetBodySink(BodySink sink) { sink_ = std::move(sink); }
  // Parses a prefix of `input`; `*consumed` receives how many bytes of it
  // were used (the rest belongs to a later call or the next request).
  Event Parse(std::string_view input, size_t* consumed);
  // After kHeadComplete: the body is read (and bounded) but not kept.
  void DiscardBody() { discard_body_ = true; }
  // Forgets the request, ready for the next one on the connection.
  void Reset();

  // Whether any byte of the current request has been seen (a request line
  // in progress or later), as opposed to idle between requests.
  bool started() const { return started_; }
  bool head_complete() const { return head_parsed_; }
  bool in_body() const;
  // After kHeadComplete: whether the body is streamed (see above).
  bool streaming() const { return streaming_; }
  // Decoded body bytes received so far (discarded ones included).
  uint64_t body_received() const { return body_received_; }
  const HttpRequestHead& head() const { return head_; }
  // After kComplete: the head and body, moved out (Reset() before reuse).
  HttpRequestHead TakeHead() { return std::move(head_); }
  std::string TakeBody() { return std::move(body_); }
  const HttpParseError& error() const { return error_; }

 private:
  enum class State {
    kHead,
    kLengthBody,
    kChunkSize,
    kChunkData,
    kChunkDataEnd,
    kTrailer,
    kDone,
    kFailed
  };

  Event Fail(int status, std::string message);
  Event ParseHead(std::string_view input, size_t* consumed);
  bool ParseHeadLines(std::string_view head);
  bool ApplyFraming();
  Event ParseBody(std::string_view input, size_t* consumed);
  // Takes one CRLF- (or LF-) terminated line of the body framing into
  // `line_`; false when `input` ran out first (the part seen is kept).
  bool TakeLine(std::string_view input, size_t* pos, size_t bound, int status_over,
                std::string_view what);
  bool Grant(uint64_t bytes);

  HttpParserLimits limits_;
  Reserve reserve_;
  StreamPolicy stream_policy_;
  BodySink sink_;
  bool streaming_ = false;
  uint64_t body_limit_ = 0;  // the current request's (set with its head)
  State state_ = State::kHead;
  HttpRequestHead head_;
  HttpParseError error_;
  std::string body_;
  bool started_ = false;
  bool head_parsed_ = false;
  bool discard_body_ = false;
  bool body_begun_ = false;
  // Head scan: bytes of the head already scanned, where the current line
  // starts and how many lines were seen (resumed on the next call).
  size_t scanned_ = 0;
  size_t line_start_ = 0;
  size_t lines_ = 0;
  uint64_t remaining_ = 0;  // of the Content-Length body or the current chunk
  uint64_t body_received_ = 0;
  std::string line_;  // a chunk-size or trailer line in progress
  size_t trailer_bytes_ = 0;
};

}  // namespace hoglake::server
