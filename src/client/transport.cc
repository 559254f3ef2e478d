// Transport (transport.h): libcurl easy handles in a pool, one request per
// Send, with the SDK's retry rules.
//
// Safe to repeat: GET/PUT/PATCH/DELETE and kSafe POSTs. They are retried on
// transport failures (storage/http_retry.h, shared with the S3 client:
// couldn't connect, reset, timeout, empty reply, HTTP/2 errors) and on 503.
// An unsafe POST is retried only when curl never connected (nothing was
// sent) or the server answered 503 commit_queue_timeout (refused before
// doing anything). Delays: RetryDelayMs (base · 2^(attempt-1) jittered,
// capped at 5 s; a Retry-After replaces it).
#include "client/transport.h"

#include <curl/curl.h>

#include <algorithm>
#include <chrono>
#include <mutex>
#include <thread>

#include "client/errors.h"
#include "storage/http_retry.h"

namespace hoglake::client {
namespace {

constexpr size_t kMaxIdleHandles = 16;

void GlobalInitOnce() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

struct Response {
  long status = 0;
  std::string body;
  std::string location;
  std::string retry_after;
};

size_t WriteBody(char* data, size_t size, size_t count, void* user) {
  static_cast<Response*>(user)->body.append(data, size * count);
  return size * count;
}

size_t ReadHeader(char* data, size_t size, size_t count, void* user) {
  auto* response = static_cast<Response*>(user);
  std::string_view line(data, size * count);
  const size_t colon = line.find(':');
  if (colon == std::string_view::npos) return size * count;
  std::string name(line.substr(0, colon));
  std::transform(name.begin(), name.end(), name.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  std::string_view value = line.substr(colon + 1);
  while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) value.remove_prefix(1);
  while (!value.empty() && (value.back() == '\r' || value.back() == '\n' || value.back() == ' ')) {
    value.remove_suffix(1);
  }
  if (name == "location") response->location = value;
  if (name == "retry-after") response->retry_after = value;
  return size * count;
}

const char* MethodName(HttpMethod method) {
  switch (method) {
    case HttpMethod::kGet:
      return "GET";
    case HttpMethod::kPost:
      return "POST";
    case HttpMethod::kPut:
      return "PUT";
    case HttpMethod::kPatch:
      return "PATCH";
    case HttpMethod::kDelete:
      return "DELETE";
  }
  return "GET";
}

bool IsCommitQueueTimeout(long status, std::string_view body) {
  return status == 503 && ErrorFromResponse(status, body).code == ErrorCode::kCommitQueueTimeout;
}

}  // namespace

struct Transport::Pool {
  std::mutex mu;
  std::vector<CURL*> idle;

  CURL* Acquire() {
    {
      std::lock_guard<std::mutex> lock(mu);
      if (!idle.empty()) {
        CURL* handle = idle.back();
        idle.pop_back();
        return handle;
      }
    }
    return curl_easy_init();
  }
  void Release(CURL* handle) {
    std::lock_guard<std::mutex> lock(mu);
    if (idle.size() < kMaxIdleHandles) {
      idle.push_back(handle);
    } else {
      curl_easy_cleanup(handle);
    }
  }
  ~Pool() {
    for (CURL* handle : idle) curl_easy_cleanup(handle);
  }
};

std::string EncodeSegment(std::string_view segment) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(segment.size());
  for (unsigned char c : segment) {
    if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' ||
        c == '.' || c == '-' || c == '~') {
      out.push_back(static_cast<char>(c));
    } else {
      out.push_back('%');
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 15]);
    }
  }
  return out;
}

Transport::Transport(std::string base_url, ClientOptions options)
    : base_url_(std::move(base_url)), options_(std::move(options)), pool_(new Pool) {
  GlobalInitOnce();
  while (!base_url_.empty() && base_url_.back() == '/') base_url_.pop_back();
  if (options_.user_agent.empty()) options_.user_agent = StrCat("hoglake-cpp/", HOGLAKE_VERSION);
  if (options_.max_attempts < 1) options_.max_attempts = 1;
}

Transport::~Transport() = default;

Result<std::string> Transport::Send(const HttpCall& call) {
  std::string url = StrCat(base_url_, "/v1", call.path);
  for (size_t i = 0; i < call.query.size(); ++i) {
    url += StrCat(i == 0 ? "?" : "&", EncodeSegment(call.query[i].first), "=",
                  EncodeSegment(call.query[i].second));
  }
  const bool safe = call.method != HttpMethod::kPost || call.retry == RetryPolicy::kSafe;
  const char* method = MethodName(call.method);

  curl_slist* headers = nullptr;
  headers = curl_slist_append(headers, "Accept: application/json");
  headers = curl_slist_append(headers, "Expect:");
  if (!call.body.empty()) headers = curl_slist_append(headers, "Content-Type: application/json");
  if (!options_.bearer_token.empty()) {
    headers =
        curl_slist_append(headers, ("Authorization: Bearer " + options_.bearer_token).c_str());
  }

  Result<std::string> outcome = std::string();
  for (int attempt = 1;; ++attempt) {
    CURL* curl = pool_->Acquire();
    if (curl == nullptr) {
      curl_slist_free_all(headers);
      return Unavailable("curl_easy_init failed");
    }
    curl_easy_reset(curl);  // keeps the connection cache
    Response response;
    char error_buffer[CURL_ERROR_SIZE] = {0};
    curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl, CURLOPT_TCP_NODELAY, 1L);
    curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 0L);
    curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, error_buffer);
    curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS,
                     static_cast<long>(options_.timeout_seconds * 1000.0));
    curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS,
                     static_cast<long>(options_.connect_timeout_seconds * 1000.0));
    curl_easy_setopt(curl, CURLOPT_USERAGENT, options_.user_agent.c_str());
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, WriteBody);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &response);
    curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, ReadHeader);
    curl_easy_setopt(curl, CURLOPT_HEADERDATA, &response);
    if (call.method == HttpMethod::kPost || !call.body.empty()) {
      // POSTFIELDS makes the request a POST with this (possibly empty) body;
      // CUSTOMREQUEST below renames the method for PUT/PATCH/DELETE.
      curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE,
                       static_cast<curl_off_t>(call.body.size()));
      curl_easy_setopt(curl, CURLOPT_POSTFIELDS, call.body.data());
    }
    if (call.method != HttpMethod::kGet && call.method != HttpMethod::kPost) {
      curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, method);
    }

    const CURLcode code = curl_easy_perform(curl);
    if (code == CURLE_OK) curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &response.status);
    pool_->Release(curl);

    bool retry = false;
    std::string_view retry_after;
    if (code != CURLE_OK) {
      bool unsent = false;
      const bool retryable = RetryableTransportFailure(code, &unsent);
      retry = retryable && (safe || unsent);
      const std::string detail = error_buffer[0] != 0 ? error_buffer : curl_easy_strerror(code);
      outcome = Unavailable("cannot reach the hoglake server at ", base_url_, ": ", detail, " (",
                            method, " ", call.path, ", after ", attempt,
                            attempt == 1 ? " attempt)" : " attempts)");
    } else if (response.status >= 200 && response.status < 300) {
      outcome = std::move(response.body);
    } else if (response.status >= 300 && response.status < 400) {
      outcome = Internal("unexpected redirect HTTP ", response.status,
                         " from the hoglake API (redirects are not followed; check base_url): "
                         "Location: ",
                         response.location.empty() ? "(none)" : response.location);
    } else {
      retry =
          response.status == 503 && (safe || IsCommitQueueTimeout(response.status, response.body));
      retry_after = response.retry_after;
      outcome = ErrorFromResponse(response.status, response.body, call.is_commit);
    }
    if (!retry || attempt >= options_.max_attempts) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(
        RetryDelayMs(options_.retry_base_delay_ms, attempt, retry_after)));
  }
  curl_slist_free_all(headers);
  return outcome;
}

}  // namespace hoglake::client
