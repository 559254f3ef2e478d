#include "storage/s3_client.h"

#include <curl/curl.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <thread>

#include "storage/http_retry.h"
#include "storage/xml_text.h"

namespace hoglake {
namespace {

void GlobalInitOnce() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

std::string S3Path(const S3Request& request) {
  return request.key.empty() ? StrCat("s3://", request.bucket)
                             : StrCat("s3://", request.bucket, "/", request.key);
}

// The request body, fed to curl's read callback; rewound for every attempt.
struct Upload {
  std::string_view body;
  size_t offset = 0;
};

size_t ReadBody(char* buffer, size_t size, size_t count, void* user) {
  auto* upload = static_cast<Upload*>(user);
  size_t n = std::min(size * count, upload->body.size() - upload->offset);
  std::memcpy(buffer, upload->body.data() + upload->offset, n);
  upload->offset += n;
  return n;
}

int SeekBody(void* user, curl_off_t offset, int origin) {
  auto* upload = static_cast<Upload*>(user);
  if (origin != SEEK_SET || offset < 0 || static_cast<size_t>(offset) > upload->body.size()) {
    return CURL_SEEKFUNC_CANTSEEK;
  }
  upload->offset = static_cast<size_t>(offset);
  return CURL_SEEKFUNC_OK;
}

size_t WriteBody(char* data, size_t size, size_t count, void* user) {
  static_cast<S3Response*>(user)->body.append(data, size * count);
  return size * count;
}

size_t ReadHeader(char* data, size_t size, size_t count, void* user) {
  auto* response = static_cast<S3Response*>(user);
  std::string_view line(data, size * count);
  size_t colon = line.find(':');
  if (colon != std::string_view::npos) {
    std::string name(line.substr(0, colon));
    std::transform(name.begin(), name.end(), name.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    std::string_view value = line.substr(colon + 1);
    while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) {
      value.remove_prefix(1);
    }
    while (!value.empty() &&
           (value.back() == '\r' || value.back() == '\n' || value.back() == ' ')) {
      value.remove_suffix(1);
    }
    if (name == "etag") response->etag = value;
    if (name == "content-length") response->content_length = value;
  } else if (line.starts_with("HTTP/")) {
    // A new response (after a redirect or a 100 Continue): start afresh.
    response->etag.clear();
    response->content_length.clear();
  }
  return size * count;
}

}  // namespace

S3Client::S3Client(S3Config config) : config_(std::move(config)) {
  GlobalInitOnce();
  std::string endpoint = config_.endpoint;
  if (endpoint.empty()) endpoint = StrCat("https://s3.", config_.region, ".amazonaws.com");
  size_t scheme_end = endpoint.find("://");
  if (scheme_end == std::string::npos) {
    scheme_ = "https";
  } else {
    scheme_ = endpoint.substr(0, scheme_end);
    endpoint = endpoint.substr(scheme_end + 3);
  }
  size_t slash = endpoint.find('/');
  host_ = endpoint.substr(0, slash);
  if (slash != std::string::npos) base_path_ = endpoint.substr(slash);
  while (!base_path_.empty() && base_path_.back() == '/') base_path_.pop_back();
  path_style_ = config_.path_style.value_or(!config_.endpoint.empty());
}

S3Client::~S3Client() {
  for (void* handle : idle_) curl_easy_cleanup(static_cast<CURL*>(handle));
}

void* S3Client::AcquireHandle() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!idle_.empty()) {
      void* handle = idle_.back();
      idle_.pop_back();
      return handle;
    }
  }
  return curl_easy_init();
}

void S3Client::ReleaseHandle(void* handle) {
  std::lock_guard<std::mutex> lock(mu_);
  if (static_cast<int>(idle_.size()) < config_.max_idle_connections) {
    idle_.push_back(handle);
  } else {
    curl_easy_cleanup(static_cast<CURL*>(handle));
  }
}

std::string S3Client::UriEncode(std::string_view text, bool keep_slash) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(text.size());
  for (unsigned char c : text) {
    if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
        c == '.' || c == '_' || c == '~' || (c == '/' && keep_slash)) {
      out.push_back(static_cast<char>(c));
    } else {
      out.push_back('%');
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 15]);
    }
  }
  return out;
}

std::string S3Client::Url(const S3Request& request) const {
  std::string url;
  if (path_style_) {
    url = StrCat(scheme_, "://", host_, base_path_, "/", UriEncode(request.bucket, false));
    if (!request.key.empty()) url += StrCat("/", UriEncode(request.key, true));
  } else {
    url = StrCat(scheme_, "://", request.bucket, ".", host_, base_path_, "/",
                 UriEncode(request.key, true));
  }
  // SigV4 canonical query: names and values encoded, sorted by name, and
  // "name=" for an empty value. Sent in that same form, so the canonical
  // form is the one curl signs whatever it does with the query.
  std::vector<std::string> params;
  for (const auto& [name, value] : request.query) {
    params.push_back(StrCat(UriEncode(name, false), "=", UriEncode(value, false)));
  }
  std::sort(params.begin(), params.end());
  for (size_t i = 0; i < params.size(); ++i) url += StrCat(i == 0 ? "?" : "&", params[i]);
  return url;
}

Result<S3Response> S3Client::Send(const S3Request& request) {
  const std::string url = Url(request);
  curl_slist* headers = nullptr;
  for (const std::string& header : request.headers) {
    headers = curl_slist_append(headers, header.c_str());
  }
  // The payload is not hashed into the signature (TLS protects it). Every
  // header listed here is signed by curl, even a blanked one ("Expect:"),
  // so only headers that are really sent may appear.
  headers = curl_slist_append(headers, "x-amz-content-sha256: UNSIGNED-PAYLOAD");
  if (config_.session_token.has_value()) {
    headers = curl_slist_append(headers,
                                StrCat("x-amz-security-token: ", *config_.session_token).c_str());
  }
  const std::string sigv4 = StrCat("aws:amz:", config_.region, ":s3");

  S3Response response;
  Result<S3Response> outcome = response;
  for (int attempt = 1;; ++attempt) {
    CURL* curl = static_cast<CURL*>(AcquireHandle());
    if (curl == nullptr) {
      curl_slist_free_all(headers);
      return Internal("curl_easy_init failed");
    }
    curl_easy_reset(curl);  // keeps the connection cache
    response = S3Response{};
    response.attempts = attempt;
    Upload upload{request.body, 0};
    char error_buffer[CURL_ERROR_SIZE] = {0};
    curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
    curl_easy_setopt(curl, CURLOPT_PATH_AS_IS, 1L);
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, error_buffer);
    curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS,
                     static_cast<long>(config_.connect_timeout_ms));
    curl_easy_setopt(curl, CURLOPT_LOW_SPEED_LIMIT, 1L);
    curl_easy_setopt(curl, CURLOPT_LOW_SPEED_TIME,
                     static_cast<long>(std::max(1, config_.read_timeout_ms / 1000)));
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, WriteBody);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &response);
    curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, ReadHeader);
    curl_easy_setopt(curl, CURLOPT_HEADERDATA, &response);
    if (!config_.access_key_id.empty()) {
      curl_easy_setopt(curl, CURLOPT_AWS_SIGV4, sigv4.c_str());
      curl_easy_setopt(curl, CURLOPT_USERNAME, config_.access_key_id.c_str());
      curl_easy_setopt(curl, CURLOPT_PASSWORD, config_.secret_access_key.c_str());
    }
    if (request.method == "PUT") {
      curl_easy_setopt(curl, CURLOPT_UPLOAD, 1L);
      curl_easy_setopt(curl, CURLOPT_READFUNCTION, ReadBody);
      curl_easy_setopt(curl, CURLOPT_READDATA, &upload);
      curl_easy_setopt(curl, CURLOPT_SEEKFUNCTION, SeekBody);
      curl_easy_setopt(curl, CURLOPT_SEEKDATA, &upload);
      curl_easy_setopt(curl, CURLOPT_INFILESIZE_LARGE,
                       static_cast<curl_off_t>(request.body.size()));
    } else if (request.method == "POST") {
      curl_easy_setopt(curl, CURLOPT_POST, 1L);
      curl_easy_setopt(curl, CURLOPT_POSTFIELDS, request.body.data());
      curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE,
                       static_cast<curl_off_t>(request.body.size()));
    } else if (request.method == "HEAD") {
      curl_easy_setopt(curl, CURLOPT_NOBODY, 1L);
    } else if (request.method != "GET") {
      curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, std::string(request.method).c_str());
    }

    CURLcode code = curl_easy_perform(curl);
    if (code == CURLE_OK) curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &response.status);
    ReleaseHandle(curl);

    bool retry = false;
    if (code != CURLE_OK) {
      bool unsent = false;
      const bool retryable = RetryableTransportFailure(code, &unsent);
      retry = retryable && (request.idempotent || unsent);
      std::string detail = error_buffer[0] != 0 ? error_buffer : curl_easy_strerror(code);
      ErrorCode error_code = code == CURLE_URL_MALFORMAT ? ErrorCode::kInvalidArgument
                             : retryable                 ? ErrorCode::kUnavailable
                                                         : ErrorCode::kIoError;
      outcome = MakeError(error_code, "S3 ", request.operation, " ", S3Path(request),
                          ": cannot reach ", scheme_, "://", host_, ": ", detail, " (after ",
                          attempt, attempt == 1 ? " attempt)" : " attempts)");
    } else {
      // 501 Not Implemented is an answer, not a passing failure.
      retry = request.idempotent &&
              ((response.status >= 500 && response.status != 501) || response.status == 429);
      outcome = response;
    }
    if (!retry || attempt >= config_.max_attempts) break;
    std::this_thread::sleep_for(
        std::chrono::milliseconds(RetryDelayMs(config_.retry_base_delay_ms, attempt)));
  }
  curl_slist_free_all(headers);
  return outcome;
}

Error S3Client::ResponseError(const S3Request& request, const S3Response& response) {
  std::string message =
      StrCat("S3 ", request.operation, " ", S3Path(request), " failed: HTTP ", response.status);
  std::optional<std::string> code = XmlFirstText(response.body, "Code");
  std::optional<std::string> text = XmlFirstText(response.body, "Message");
  if (code) message += StrCat(" ", *code);
  if (text) message += StrCat(": ", *text);
  if (!code && !text && response.status == 404) message += " (not found)";
  if (response.attempts > 1) message += StrCat(" (after ", response.attempts, " attempts)");
  ErrorCode error_code = ErrorCode::kIoError;
  if (response.status == 404) error_code = ErrorCode::kNotFound;
  if (response.status == 416) error_code = ErrorCode::kInvalidArgument;
  if (response.status >= 500 || response.status == 429) error_code = ErrorCode::kUnavailable;
  return Error{error_code, std::move(message)};
}

}  // namespace hoglake
