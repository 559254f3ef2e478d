// Transport: the SDK's HTTP/1.1 client for one hoglake server (libcurl,
// keep-alive connections reused across calls, thread-safe through a small
// handle pool).
//
// Every route lives under `<base_url>/v1`; paths given here start with "/"
// and are already percent-encoded (EncodeSegment). Requests carry
// `User-Agent: hoglake-cpp/<version>` and, with a body, `Content-Type:
// application/json`. Redirects are never followed: a 3xx is an error naming
// the Location. A 2xx returns the body text; anything else returns
// ErrorFromResponse(status, body).
//
// Retries (RetryPolicy): transport failures (connection refused, reset,
// timeout) and 503 answers are retried with exponential backoff
// (retry_base_delay_ms · 2^(attempt-1), jittered, honouring Retry-After up to
// 5 s) when the request is safe to repeat: GET/PUT/DELETE, and POSTs the
// caller marks kSafe (keyed commits, whose replay returns the stored
// receipt). An unsafe POST is retried only when the connection was never
// established or the server answered 503 commit_queue_timeout (the request
// was refused before doing anything).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/status.h"

namespace hoglake::client {

struct ClientOptions {
  double timeout_seconds = 30.0;  // whole request
  double connect_timeout_seconds = 3.0;
  int max_attempts = 4;  // 1 = no retries
  int retry_base_delay_ms = 100;
  std::string user_agent;  // empty: "hoglake-cpp/<version>"
  // Sent as `Authorization: Bearer <token>` when set (the server's API
  // tokens, HOGLAKE_API_TOKENS).
  std::string bearer_token;
};

enum class HttpMethod { kGet, kPost, kPut, kPatch, kDelete };
enum class RetryPolicy { kSafe, kUnsafe };

using QueryParams = std::vector<std::pair<std::string, std::string>>;  // raw, unencoded

struct HttpCall {
  HttpMethod method = HttpMethod::kGet;
  std::string path;  // "/catalogs/c1/namespaces", encoded segments
  QueryParams query;
  std::string body;  // JSON; empty for none
  RetryPolicy retry = RetryPolicy::kSafe;
  bool is_commit = false;  // 410 → read-snapshot-expired (errors.h)
};

class Transport {
 public:
  // `base_url` like "http://127.0.0.1:8080" (a trailing '/' is dropped).
  Transport(std::string base_url, ClientOptions options);
  ~Transport();
  Transport(const Transport&) = delete;
  Transport& operator=(const Transport&) = delete;

  const std::string& base_url() const { return base_url_; }

  // Sends the call; the 2xx body, or the typed error.
  Result<std::string> Send(const HttpCall& call);

  struct Pool;

 private:
  std::string base_url_;
  ClientOptions options_;
  std::unique_ptr<Pool> pool_;
};

// Percent-encodes one path segment: everything but A-Z a-z 0-9 _ . - ~.
std::string EncodeSegment(std::string_view segment);

}  // namespace hoglake::client
