#include "server/http/http_request_parser.h"

#include <algorithm>
#include <cctype>
#include <cstring>

#include "common/status.h"

namespace hoglake::server {
namespace {

// A chunk-size line (size and extensions) longer than this is refused.
constexpr size_t kMaxChunkLineBytes = 4096;

bool IsTokenChar(char c) {
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) return true;
  return std::strchr("!#$%&'*+-.^_`|~", c) != nullptr && c != '\0';
}

bool IsToken(std::string_view text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), IsTokenChar);
}

char Lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

std::string Lowercase(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = Lower(c);
  return out;
}

std::string_view Trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

// Calls `fn` with each trimmed, non-empty element of a comma-separated list.
template <typename Fn>
void ForEachListElement(std::string_view list, Fn fn) {
  while (!list.empty()) {
    const size_t comma = list.find(',');
    const std::string_view element = Trim(list.substr(0, comma));
    if (!element.empty()) fn(element);
    if (comma == std::string_view::npos) break;
    list.remove_prefix(comma + 1);
  }
}

// A request-target in absolute form ("http://host/p?q") as origin form.
std::string OriginForm(std::string_view target) {
  const size_t scheme_end = target.find("://");
  if (scheme_end == std::string_view::npos) return std::string(target);
  const size_t path = target.find_first_of("/?", scheme_end + 3);
  if (path == std::string_view::npos) return "/";
  if (target[path] == '?') return "/" + std::string(target.substr(path));
  return std::string(target.substr(path));
}

}  // namespace

const std::string* HttpRequestHead::Header(std::string_view lowercase_name) const {
  for (const auto& [name, value] : headers) {
    if (name == lowercase_name) return &value;
  }
  return nullptr;
}

HttpRequestParser::HttpRequestParser(HttpParserLimits limits)
    : limits_(limits), body_limit_(limits.max_body_bytes) {}

void HttpRequestParser::Reset() {
  state_ = State::kHead;
  head_ = HttpRequestHead();
  error_ = HttpParseError();
  body_.clear();
  started_ = false;
  head_parsed_ = false;
  discard_body_ = false;
  body_begun_ = false;
  streaming_ = false;
  sink_ = nullptr;
  body_limit_ = limits_.max_body_bytes;
  scanned_ = 0;
  line_start_ = 0;
  lines_ = 0;
  remaining_ = 0;
  body_received_ = 0;
  line_.clear();
  trailer_bytes_ = 0;
}

bool HttpRequestParser::in_body() const {
  return state_ == State::kLengthBody || state_ == State::kChunkSize ||
         state_ == State::kChunkData || state_ == State::kChunkDataEnd ||
         state_ == State::kTrailer;
}

HttpRequestParser::Event HttpRequestParser::Fail(int status, std::string message) {
  state_ = State::kFailed;
  error_ = HttpParseError{status, std::move(message)};
  return Event::kError;
}

HttpRequestParser::Event HttpRequestParser::Parse(std::string_view input, size_t* consumed) {
  *consumed = 0;
  switch (state_) {
    case State::kFailed:
      return Event::kError;
    case State::kHead:
      return ParseHead(input, consumed);
    case State::kDone:
      return Event::kComplete;
    default:
      return ParseBody(input, consumed);
  }
}

HttpRequestParser::Event HttpRequestParser::ParseHead(std::string_view input, size_t* consumed) {
  if (!started_) {
    // Empty lines before a request line are ignored (RFC 9112 §2.2).
    size_t skip = 0;
    while (skip < input.size() && (input[skip] == '\r' || input[skip] == '\n')) ++skip;
    *consumed = skip;
    if (skip == input.size()) return Event::kNeedMore;
    input.remove_prefix(skip);
    started_ = true;
  }
  const size_t start = *consumed;
  size_t head_end = 0;
  while (scanned_ < input.size()) {
    const void* found = std::memchr(input.data() + scanned_, '\n', input.size() - scanned_);
    if (found == nullptr) {
      scanned_ = input.size();
      break;
    }
    const size_t newline = static_cast<size_t>(static_cast<const char*>(found) - input.data());
    scanned_ = newline + 1;
    const size_t length = newline - line_start_;
    if (length == 0 || (length == 1 && input[line_start_] == '\r')) {
      head_end = newline + 1;
      break;
    }
    line_start_ = newline + 1;
    if (++lines_ > limits_.max_header_fields + 1) {
      return Fail(431, StrCat("the request has more than ", limits_.max_header_fields,
                              " header fields"));
    }
  }
  const size_t bound = limits_.max_header_bytes;
  if ((head_end == 0 && input.size() > bound) || head_end > bound) {
    return Fail(431, StrCat("the request line and header fields exceed ", bound, " bytes"));
  }
  if (head_end == 0) return Event::kNeedMore;
  if (!ParseHeadLines(input.substr(0, head_end)) || !ApplyFraming()) return Event::kError;
  head_parsed_ = true;
  *consumed = start + head_end;
  body_limit_ = limits_.max_body_bytes;
  if (stream_policy_) {
    if (std::optional<uint64_t> limit = stream_policy_(head_)) {
      streaming_ = true;
      body_limit_ = *limit;
    }
  }
  if (head_.content_length && *head_.content_length > body_limit_) {
    return Fail(413, StrCat("the request body of ", *head_.content_length,
                            " bytes exceeds the limit of ", body_limit_, " bytes"));
  }
  if (head_.chunked) {
    state_ = State::kChunkSize;
  } else if (head_.content_length && *head_.content_length > 0) {
    state_ = State::kLengthBody;
    remaining_ = *head_.content_length;
  } else {
    state_ = State::kDone;  // no framing: an empty body (RFC 9112 §6.3)
  }
  return Event::kHeadComplete;
}

bool HttpRequestParser::ParseHeadLines(std::string_view head) {
  bool first = true;
  while (!head.empty()) {
    const size_t newline = head.find('\n');
    std::string_view line = head.substr(0, newline);
    head.remove_prefix(newline + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty()) break;  // the empty line ending the head
    if (line.find('\r') != std::string_view::npos || line.find('\0') != std::string_view::npos) {
      Fail(400, "a request line or header field holds a bare CR or NUL");
      return false;
    }
    if (first) {
      first = false;
      const size_t sp1 = line.find(' ');
      const size_t sp2 = sp1 == std::string_view::npos ? sp1 : line.find(' ', sp1 + 1);
      if (sp2 == std::string_view::npos || line.find(' ', sp2 + 1) != std::string_view::npos) {
        Fail(400, "malformed request line (expected: METHOD target HTTP/1.1)");
        return false;
      }
      const std::string_view method = line.substr(0, sp1);
      const std::string_view target = line.substr(sp1 + 1, sp2 - sp1 - 1);
      const std::string_view version = line.substr(sp2 + 1);
      if (!IsToken(method)) {
        Fail(400, "malformed request method");
        return false;
      }
      if (target.empty() || std::any_of(target.begin(), target.end(), [](char c) {
            return static_cast<unsigned char>(c) <= 0x20 || c == 0x7f;
          })) {
        Fail(400, "malformed request target");
        return false;
      }
      if (version == "HTTP/1.1") {
        head_.version_minor = 1;
      } else if (version == "HTTP/1.0") {
        head_.version_minor = 0;
      } else if (version.size() == 8 && version.starts_with("HTTP/") &&
                 std::isdigit(static_cast<unsigned char>(version[5])) && version[6] == '.' &&
                 std::isdigit(static_cast<unsigned char>(version[7]))) {
        Fail(505, StrCat("HTTP version '", version, "' is not supported (HTTP/1.1 is)"));
        return false;
      } else {
        Fail(400, "malformed HTTP version in the request line");
        return false;
      }
      head_.method = std::string(method);
      head_.target = OriginForm(target);
      continue;
    }
    if (line.front() == ' ' || line.front() == '\t') {
      Fail(400, "obsolete line folding in a header field is not accepted");
      return false;
    }
    const size_t colon = line.find(':');
    if (colon == std::string_view::npos || !IsToken(line.substr(0, colon))) {
      Fail(400, "malformed header field (expected: Name: value)");
      return false;
    }
    const std::string_view value = Trim(line.substr(colon + 1));
    if (std::any_of(value.begin(), value.end(), [](char c) {
          return (static_cast<unsigned char>(c) < 0x20 && c != '\t') || c == 0x7f;
        })) {
      Fail(400, StrCat("header field '", line.substr(0, colon), "' holds a control character"));
      return false;
    }
    head_.headers.emplace_back(Lowercase(line.substr(0, colon)), std::string(value));
  }
  return true;
}

bool HttpRequestParser::ApplyFraming() {
  std::vector<std::string> codings;
  bool close = false;
  bool keep_alive = false;
  for (const auto& [name, value] : head_.headers) {
    if (name == "content-length") {
      bool ok = true;
      bool too_large = false;
      ForEachListElement(value, [&](std::string_view element) {
        uint64_t length = 0;
        for (char c : element) {
          if (c < '0' || c > '9') {
            ok = false;
            return;
          }
          if (length > (UINT64_MAX - 9) / 10) {
            too_large = true;
            return;
          }
          length = length * 10 + static_cast<uint64_t>(c - '0');
        }
        if (head_.content_length && *head_.content_length != length) ok = false;
        head_.content_length = length;
      });
      if (too_large) {
        Fail(413, StrCat("the request's Content-Length exceeds the limit of ",
                         limits_.max_body_bytes, " bytes"));
        return false;
      }
      if (!ok || !head_.content_length) {
        Fail(400, StrCat("invalid Content-Length '", value, "'"));
        return false;
      }
    } else if (name == "transfer-encoding") {
      ForEachListElement(value, [&](std::string_view c) { codings.push_back(Lowercase(c)); });
    } else if (name == "connection") {
      ForEachListElement(value, [&](std::string_view option) {
        const std::string lower = Lowercase(option);
        close = close || lower == "close";
        keep_alive = keep_alive || lower == "keep-alive";
      });
    } else if (name == "expect") {
      head_.expect_continue = head_.version_minor == 1 && Lowercase(value) == "100-continue";
    }
  }
  if (!codings.empty()) {
    if (head_.content_length) {
      Fail(400, "a request may not carry both Content-Length and Transfer-Encoding");
      return false;
    }
    if (codings.back() != "chunked") {
      Fail(400, "the final Transfer-Encoding of a request must be chunked");
      return false;
    }
    if (codings.size() > 1) {
      Fail(501, StrCat("Transfer-Encoding '", codings.front(),
                       "' is not supported: send the body chunked or with a Content-Length"));
      return false;
    }
    head_.chunked = true;
  }
  head_.keep_alive = !close && (head_.version_minor == 1 || keep_alive);
  return true;
}

bool HttpRequestParser::Grant(uint64_t bytes) {
  if (discard_body_ || streaming_ || !reserve_) return true;
  if (reserve_(bytes)) return true;
  Fail(503, "the server is holding its limit of request body memory; retry later");
  return false;
}

bool HttpRequestParser::TakeLine(std::string_view input, size_t* pos, size_t bound,
                                 int status_over, std::string_view what) {
  const size_t newline = input.find('\n', *pos);
  const size_t end = newline == std::string_view::npos ? input.size() : newline;
  line_.append(input.data() + *pos, end - *pos);
  *pos = newline == std::string_view::npos ? input.size() : newline + 1;
  if (line_.size() > bound + 1) {
    Fail(status_over, std::string(what));
    return false;
  }
  if (newline == std::string_view::npos) return false;
  if (!line_.empty() && line_.back() == '\r') line_.pop_back();
  return true;
}

HttpRequestParser::Event HttpRequestParser::ParseBody(std::string_view input, size_t* consumed) {
  size_t pos = 0;
  auto take = [&] {
    const uint64_t n = std::min<uint64_t>(remaining_, input.size() - pos);
    if (discard_body_) {
      // dropped
    } else if (streaming_) {
      if (sink_ && n > 0) sink_(input.substr(pos, static_cast<size_t>(n)));
    } else {
      body_.append(input.data() + pos, static_cast<size_t>(n));
    }
    pos += static_cast<size_t>(n);
    remaining_ -= n;
    body_received_ += n;
  };
  while (state_ != State::kDone) {
    switch (state_) {
      case State::kLengthBody:
        if (!body_begun_) {
          body_begun_ = true;
          if (!Grant(remaining_)) return Event::kError;
          if (!discard_body_ && !streaming_) body_.reserve(static_cast<size_t>(remaining_));
        }
        take();
        if (remaining_ > 0) {
          *consumed = pos;
          return Event::kNeedMore;
        }
        state_ = State::kDone;
        break;
      case State::kChunkSize: {
        if (!TakeLine(input, &pos, kMaxChunkLineBytes, 400, "a chunk-size line is too long")) {
          *consumed = pos;
          return state_ == State::kFailed ? Event::kError : Event::kNeedMore;
        }
        std::string_view line = line_;
        uint64_t size = 0;
        size_t digits = 0;
        while (digits < line.size() && std::isxdigit(static_cast<unsigned char>(line[digits]))) {
          const char c = Lower(line[digits]);
          if (size > (body_limit_ >> 4)) {
            return Fail(413, StrCat("the chunked request body exceeds the limit of ",
                                    body_limit_, " bytes"));
          }
          size = size * 16 + static_cast<uint64_t>(c <= '9' ? c - '0' : c - 'a' + 10);
          ++digits;
        }
        const std::string_view rest = Trim(line.substr(digits));
        if (digits == 0 || (!rest.empty() && rest.front() != ';')) {
          return Fail(400, "malformed chunk-size line in a chunked request body");
        }
        line_.clear();
        if (size > body_limit_ - body_received_) {
          return Fail(413, StrCat("the chunked request body exceeds the limit of ",
                                  body_limit_, " bytes"));
        }
        if (size == 0) {
          state_ = State::kTrailer;
          break;
        }
        if (!Grant(size)) return Event::kError;
        remaining_ = size;
        state_ = State::kChunkData;
        break;
      }
      case State::kChunkData:
        take();
        if (remaining_ > 0) {
          *consumed = pos;
          return Event::kNeedMore;
        }
        state_ = State::kChunkDataEnd;
        break;
      case State::kChunkDataEnd:
        if (!TakeLine(input, &pos, 1, 400, "a chunk's data is longer than its chunk size")) {
          *consumed = pos;
          return state_ == State::kFailed ? Event::kError : Event::kNeedMore;
        }
        if (!line_.empty()) return Fail(400, "a chunk's data is longer than its chunk size");
        state_ = State::kChunkSize;
        break;
      case State::kTrailer: {
        const size_t left = limits_.max_header_bytes - std::min(trailer_bytes_,
                                                                limits_.max_header_bytes);
        if (!TakeLine(input, &pos, left, 431,
                      StrCat("the request's trailer fields exceed ", limits_.max_header_bytes,
                             " bytes"))) {
          *consumed = pos;
          return state_ == State::kFailed ? Event::kError : Event::kNeedMore;
        }
        const bool end = line_.empty();
        trailer_bytes_ += line_.size() + 2;
        line_.clear();
        if (end) state_ = State::kDone;
        break;
      }
      default:
        return Fail(500, "request parser in an impossible state");
    }
  }
  *consumed = pos;
  return Event::kComplete;
}

}  // namespace hoglake::server
