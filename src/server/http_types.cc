#include "server/http_types.h"

#include "common/json_text.h"
#include "common/log.h"

namespace hoglake::server {

const std::string& HttpRequest::Param(std::string_view name) const {
  static const std::string kEmpty;
  auto it = path_params.find(name);
  return it == path_params.end() ? kEmpty : it->second;
}

std::optional<std::string_view> HttpRequest::Query(std::string_view name) const {
  for (const auto& [key, value] : query) {
    if (key == name) return std::string_view(value);
  }
  return std::nullopt;
}

std::vector<std::string_view> HttpRequest::QueryAll(std::string_view name) const {
  std::vector<std::string_view> out;
  for (const auto& [key, value] : query) {
    if (key == name) out.push_back(value);
  }
  return out;
}

std::optional<std::string_view> HttpRequest::Header(std::string_view lowercase_name) const {
  auto it = headers.find(lowercase_name);
  if (it == headers.end()) return std::nullopt;
  return std::string_view(it->second);
}

size_t HttpResponse::BodySize() const {
  size_t size = body.size();
  for (const std::string& segment : body_segments) size += segment.size();
  return size;
}

HttpResponse ErrorResponse(const Error& error) {
  const ErrorCodeInfo& info = InfoFor(error.code);
  std::string body = "{\"error\":";
  AppendJsonString(info.wire_name, &body);
  // Internal failures and database outages do not leak their details
  // (libpq messages, socket paths, connection strings) to clients: they are
  // logged here and the body carries a fixed text.
  std::string_view detail = error.message;
  bool hidden = true;
  if (info.http_status == 500) {
    detail = "internal server error";
  } else if (error.code == ErrorCode::kDatabaseUnavailable) {
    detail = "the catalog database is unavailable; retry later";
  } else {
    hidden = false;
  }
  if (hidden) LogWarn(info.wire_name, ": ", error.message);
  body += ",\"detail\":";
  AppendJsonString(detail, &body);
  if (!error.wire_extra.empty()) body += "," + error.wire_extra;
  body += "}";
  HttpResponse response = HttpResponse::Json(info.http_status, std::move(body));
  // Every 503 is "try again later": backpressure or a dependency that is down.
  if (info.http_status == 503) response.headers.emplace_back("Retry-After", "1");
  return response;
}

Result<std::string> PercentDecode(std::string_view text, bool plus_is_space) {
  auto hex = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '%') {
      const int hi = i + 1 < text.size() ? hex(text[i + 1]) : -1;
      const int lo = i + 2 < text.size() ? hex(text[i + 2]) : -1;
      if (hi < 0 || lo < 0) return BadRequest("invalid percent-escape in '", text, "'");
      out.push_back(static_cast<char>(hi << 4 | lo));
      i += 2;
    } else if (c == '+' && plus_is_space) {
      out.push_back(' ');
    } else {
      out.push_back(c);
    }
  }
  if (out.find('\0') != std::string::npos) {
    return BadRequest("'", text, "' decodes to text with a NUL character");
  }
  if (!IsValidUtf8(out)) return BadRequest("'", text, "' does not decode to UTF-8 text");
  return out;
}

}  // namespace hoglake::server
