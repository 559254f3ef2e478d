#include "server/http/http_response_writer.h"

#include <sys/socket.h>
#include <sys/uio.h>

#include <cerrno>
#include <cstdio>
#include <utility>

#include "common/json_writer.h"
#include "common/log.h"

namespace hoglake::server {
namespace {

// iovec entries per sendmsg (well under IOV_MAX).
constexpr size_t kMaxIovecs = 64;

constexpr std::pair<int, std::string_view> kReasons[] = {
    {100, "Continue"},
    {200, "OK"},
    {201, "Created"},
    {202, "Accepted"},
    {204, "No Content"},
    {206, "Partial Content"},
    {301, "Moved Permanently"},
    {302, "Found"},
    {304, "Not Modified"},
    {307, "Temporary Redirect"},
    {308, "Permanent Redirect"},
    {400, "Bad Request"},
    {401, "Unauthorized"},
    {403, "Forbidden"},
    {404, "Not Found"},
    {405, "Method Not Allowed"},
    {406, "Not Acceptable"},
    {408, "Request Timeout"},
    {409, "Conflict"},
    {410, "Gone"},
    {411, "Length Required"},
    {412, "Precondition Failed"},
    {413, "Payload Too Large"},
    {415, "Unsupported Media Type"},
    {416, "Range Not Satisfiable"},
    {417, "Expectation Failed"},
    {422, "Unprocessable Content"},
    {428, "Precondition Required"},
    {429, "Too Many Requests"},
    {431, "Request Header Fields Too Large"},
    {500, "Internal Server Error"},
    {501, "Not Implemented"},
    {502, "Bad Gateway"},
    {503, "Service Unavailable"},
    {504, "Gateway Timeout"},
    {505, "HTTP Version Not Supported"},
};

bool HasBody(int status) { return status >= 200 && status != 204 && status != 304; }

std::string ChunkSizeLine(size_t size) {
  char line[24];
  const int n = std::snprintf(line, sizeof line, "%zx\r\n", size);
  return std::string(line, static_cast<size_t>(n));
}

}  // namespace

std::string_view ReasonPhrase(int status) {
  for (const auto& [code, reason] : kReasons) {
    if (code == status) return reason;
  }
  return "Unknown";
}

OutgoingResponse::OutgoingResponse(HttpResponse response, const ResponseFraming& framing)
    : status_(response.status) {
  std::string head = "HTTP/1.1 ";
  head += std::to_string(response.status);
  head += ' ';
  head += ReasonPhrase(response.status);
  head += "\r\n";
  for (const auto& [name, value] : response.headers) {
    head += name;
    head += ": ";
    head += value;
    head += "\r\n";
  }
  if (!framing.request_id.empty()) {
    head += "X-Request-Id: ";
    head += framing.request_id;
    head += "\r\n";
  }
  const bool has_body = HasBody(response.status);
  if (has_body) {
    if (!response.content_type.empty()) {
      head += "Content-Type: ";
      head += response.content_type;
      head += "\r\n";
    }
    if (!response.body_producer) {
      head += "Content-Length: ";
      head += std::to_string(response.BodySize());
      head += "\r\n";
    } else if (response.streamed_length) {
      head += "Content-Length: ";
      head += std::to_string(response.BodySize() + *response.streamed_length);
      head += "\r\n";
    } else if (!framing.http10_client) {
      head += "Transfer-Encoding: chunked\r\n";
    }
  }
  if (!framing.keep_alive || EndsConnection(response, framing)) {
    head += "Connection: close\r\n";
  } else if (framing.http10_client) {
    head += "Connection: keep-alive\r\n";
  }
  head += "\r\n";
  parts_.reserve(2 + response.body_segments.size());
  parts_.push_back(std::move(head));
  const bool send_body = has_body && !framing.head_only;
  chunked_ = response.body_producer && !response.streamed_length && !framing.http10_client;
  const bool chunk_prefix = send_body && chunked_ && response.BodySize() > 0;
  if (chunk_prefix) parts_.push_back(ChunkSizeLine(response.BodySize()));
  if (send_body && !response.body.empty()) parts_.push_back(std::move(response.body));
  for (std::string& segment : response.body_segments) {
    if (send_body && !segment.empty()) {
      parts_.push_back(std::move(segment));
    } else {
      RecycleJsonSegment(std::move(segment));
    }
  }
  if (chunk_prefix) parts_.push_back("\r\n");
  if (send_body && response.body_producer) {
    producer_ = std::move(response.body_producer);
    streamed_left_ = response.streamed_length;
  }
}

bool OutgoingResponse::EndsConnection(const HttpResponse& response,
                                      const ResponseFraming& framing) {
  return HasBody(response.status) && !framing.head_only && response.body_producer &&
         !response.streamed_length && framing.http10_client;
}

bool OutgoingResponse::Refill() {
  // Everything queued is sent: free it before producing more.
  for (size_t i = 1; i < parts_.size(); ++i) RecycleJsonSegment(std::move(parts_[i]));
  parts_.clear();
  part_ = 0;
  offset_ = 0;
  std::string piece;
  while (piece.empty()) {
    Result<bool> more = producer_->Next(&piece);
    if (!more.ok()) {
      LogWarn("HTTP server: a streamed response body failed after its head was sent (",
              more.error().message, "); closing the connection");
      producer_.reset();
      return false;
    }
    if (!*more) {
      producer_.reset();
      if (streamed_left_ && *streamed_left_ != 0) {
        LogWarn("HTTP server: a streamed response body ended ", *streamed_left_,
                " bytes short of its Content-Length; closing the connection");
        return false;
      }
      if (chunked_) parts_.push_back("0\r\n\r\n");
      return true;
    }
  }
  if (streamed_left_) {
    if (piece.size() > *streamed_left_) {
      LogWarn("HTTP server: a streamed response body ran past its Content-Length; "
              "closing the connection");
      producer_.reset();
      return false;
    }
    *streamed_left_ -= piece.size();
  }
  if (chunked_) parts_.push_back(ChunkSizeLine(piece.size()));
  parts_.push_back(std::move(piece));
  if (chunked_) parts_.push_back("\r\n");
  return true;
}

OutgoingResponse::OutgoingResponse(std::string raw) { parts_.push_back(std::move(raw)); }

OutgoingResponse::~OutgoingResponse() {
  for (size_t i = 1; i < parts_.size(); ++i) RecycleJsonSegment(std::move(parts_[i]));
}

OutgoingResponse::WriteResult OutgoingResponse::WriteTo(int fd) {
  while (true) {
    if (part_ == parts_.size()) {
      if (producer_ == nullptr) break;
      if (!Refill()) return WriteResult::kFailed;
      continue;
    }
    iovec iov[kMaxIovecs];
    size_t count = 0;
    for (size_t i = part_; i < parts_.size() && count < kMaxIovecs; ++i, ++count) {
      const size_t skip = i == part_ ? offset_ : 0;
      iov[count].iov_base = parts_[i].data() + skip;
      iov[count].iov_len = parts_[i].size() - skip;
    }
    msghdr message{};
    message.msg_iov = iov;
    message.msg_iovlen = count;
    const ssize_t sent = ::sendmsg(fd, &message, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (sent < 0) {
      if (errno == EINTR) continue;
      if (errno == EAGAIN || errno == EWOULDBLOCK) return WriteResult::kBlocked;
      return WriteResult::kFailed;
    }
    size_t left = static_cast<size_t>(sent);
    while (left > 0 && part_ < parts_.size()) {
      const size_t rest = parts_[part_].size() - offset_;
      if (left < rest) {
        offset_ += left;
        left = 0;
      } else {
        left -= rest;
        ++part_;
        offset_ = 0;
      }
    }
  }
  return WriteResult::kDone;
}

}  // namespace hoglake::server
