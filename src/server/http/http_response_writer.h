// Response serialization for the HTTP front end: an HttpResponse becomes a
// status line and header block followed by the route's own body buffers,
// which are sent as they are (never joined, copied or compressed) and
// recycled (RecycleJsonSegment) when the response is dropped.
//
// Every response carries Content-Length (except 1xx, 204 and 304, which
// have no body, and a streamed body of unknown size, which is sent with
// chunked transfer coding, or unframed to an HTTP/1.0 client, whose
// connection then closes); a HEAD response carries the length of the body
// it omits when known. A streamed body (HttpResponse::body_producer) is
// pulled one piece at a time, only when everything before it has been
// sent, and the pieces sent are freed at once, so such a response holds
// one piece of its body at a time. Writing never blocks: WriteTo sends
// what the socket takes now and keeps its place for the next call.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <optional>
#include <string_view>
#include <vector>

#include "server/http/http_types.h"

namespace hoglake::server {

// How the response is framed on its connection.
struct ResponseFraming {
  bool head_only = false;      // answering HEAD: headers only
  bool keep_alive = true;      // the connection stays open after it
  bool http10_client = false;  // keep-alive must then be spelled out
  std::string_view request_id;  // echoed as X-Request-Id when not empty
};

class OutgoingResponse {
 public:
  enum class WriteResult { kDone, kBlocked, kFailed };

  OutgoingResponse(HttpResponse response, const ResponseFraming& framing);
  // Bytes ready to send as they are ("HTTP/1.1 100 Continue\r\n\r\n").
  explicit OutgoingResponse(std::string raw);
  OutgoingResponse(const OutgoingResponse&) = delete;
  OutgoingResponse& operator=(const OutgoingResponse&) = delete;
  ~OutgoingResponse();

  // Sends on non-blocking socket `fd` until done, the socket is full
  // (kBlocked: call again once writable) or it failed (the peer is gone,
  // or a streamed body failed: logged, and the connection must close).
  WriteResult WriteTo(int fd);
  int status() const { return status_; }
  bool done() const { return part_ == parts_.size() && producer_ == nullptr; }
  // Whether the connection must close after this response (a streamed
  // body of unknown size sent unframed to an HTTP/1.0 client).
  static bool EndsConnection(const HttpResponse& response, const ResponseFraming& framing);

 private:
  // Pulls the producer's next piece into parts_ (framed as a chunk when
  // chunked); at the end, the final chunk. False when the producer failed.
  bool Refill();

  int status_ = 0;
  std::shared_ptr<BodyProducer> producer_;  // the rest of a streamed body
  bool chunked_ = false;
  std::optional<uint64_t> streamed_left_;  // bytes a sized streamed body still owes
  std::vector<std::string> parts_;  // parts_[0] is the head
  size_t part_ = 0;                 // the first part not wholly sent
  size_t offset_ = 0;               // bytes of parts_[part_] already sent
};

// "OK" for 200, "Not Found" for 404, …; "Unknown" for a code not listed.
std::string_view ReasonPhrase(int status);

}  // namespace hoglake::server
