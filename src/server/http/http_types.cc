#include "server/http/http_types.h"

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

int HoglakeHttpStatus(ErrorCode code) {
  switch (code) {
    case ErrorCode::kBadRequest:
      return 400;
    case ErrorCode::kNotFound:
      return 404;
    case ErrorCode::kAlreadyExists:
    case ErrorCode::kCommitConflict:
    case ErrorCode::kDdlSinceReadSnapshot:
    case ErrorCode::kTableRecreated:
    case ErrorCode::kTableDropped:
    case ErrorCode::kOffsetRegression:
    case ErrorCode::kIdlessFilesPresent:
    case ErrorCode::kNamespaceNotEmpty:
    case ErrorCode::kReconciliationRequired:
      return 409;
    case ErrorCode::kExpired:
      return 410;
    case ErrorCode::kValidation:
    case ErrorCode::kInvalidArgument:
    case ErrorCode::kInvalidData:
      return 422;
    case ErrorCode::kCorruptDefinition:
    case ErrorCode::kInternal:
    case ErrorCode::kIoError:
      return 500;
    case ErrorCode::kNotImplemented:
      return 501;
    case ErrorCode::kCommitQueueTimeout:
    case ErrorCode::kDatabaseUnavailable:
    case ErrorCode::kUnavailable:
      return 503;
  }
  return 500;
}

namespace {

// The Hotdata API's status and code for an error (hotdata-api.md §1.4).
std::pair<int, std::string_view> HotdataStatus(int hoglake_status) {
  switch (hoglake_status) {
    case 400:
    case 422:
      return {400, "BAD_REQUEST"};
    case 404:
    case 410:
      return {404, "NOT_FOUND"};
    case 409:
      return {409, "CONFLICT"};
    case 413:
      return {413, "PAYLOAD_TOO_LARGE"};
    case 501:
      return {501, "NOT_IMPLEMENTED"};
    case 503:
      return {503, "SERVICE_UNAVAILABLE"};
    default:
      return {500, "INTERNAL_SERVER_ERROR"};
  }
}

void AppendDetail(const ErrorDetail& detail, std::string* body) {
  if (!detail.tables.empty()) {
    *body += ",\"tables\":[";
    for (size_t i = 0; i < detail.tables.size(); ++i) {
      if (i) *body += ',';
      AppendJsonString(detail.tables[i], body);
    }
    *body += ']';
  }
  if (detail.read_snapshot) *body += ",\"read_snapshot\":" + std::to_string(*detail.read_snapshot);
  if (detail.re_prepare) *body += ",\"retry\":\"re-prepare\"";
}

}  // namespace

HttpResponse ErrorResponse(const Error& error, ErrorBodyStyle style) {
  const ErrorCodeInfo& info = InfoFor(error.code);
  // Internal failures and database outages do not leak their details
  // (libpq messages, socket paths, connection strings) to clients: they are
  // logged here and the body carries a fixed text.
  std::string_view detail = error.message;
  bool hidden = true;
  const int hoglake_status = HoglakeHttpStatus(error.code);
  if (hoglake_status == 500) {
    detail = "internal server error";
  } else if (error.code == ErrorCode::kDatabaseUnavailable) {
    detail = "the catalog database is unavailable; retry later";
  } else {
    hidden = false;
  }
  if (hidden) LogWarn(info.wire_name, ": ", error.message);
  int status = hoglake_status;
  std::string body;
  if (style == ErrorBodyStyle::kHotdata) {
    const auto [hotdata_status, code] = HotdataStatus(hoglake_status);
    status = hotdata_status;
    body = "{\"error\":{\"code\":";
    AppendJsonString(code, &body);
    body += ",\"message\":";
    AppendJsonString(detail, &body);
    body += "}}";
  } else {
    body = "{\"error\":";
    AppendJsonString(info.wire_name, &body);
    body += ",\"detail\":";
    AppendJsonString(detail, &body);
    AppendDetail(error.detail, &body);
    body += "}";
  }
  HttpResponse response = HttpResponse::Json(status, std::move(body));
  // Every 503 is "try again later": backpressure or a dependency that is down.
  if (status == 503) response.headers.emplace_back("Retry-After", "1");
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
