// S3Client: one signed S3 REST request at a time over libcurl, with
// connection reuse and retries. It knows URLs, signing (CURLOPT_AWS_SIGV4
// "aws:amz:<region>:s3"), transport and S3 error bodies; it does not know
// what the operations mean (s3_store.cc does).
//
// Thread-safe: each call borrows a curl handle from a small pool, so
// concurrent calls use separate connections and sequential calls reuse them.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/status.h"
#include "storage/s3_config.h"

namespace hoglake {

struct S3Request {
  std::string_view operation;  // "GetObject", for messages
  std::string_view method;     // "GET", "PUT", "POST", "DELETE", "HEAD"
  std::string bucket;
  std::string key;  // raw, not encoded; empty for bucket-level requests
  // Raw names and values; the client encodes and sorts them.
  std::vector<std::pair<std::string, std::string>> query;
  std::vector<std::string> headers;  // "Name: value"
  std::string_view body;             // sent for PUT and POST
  // Retried on 5xx, 429, timeouts and transport errors. A request that is
  // not idempotent is retried only when the connection was never made.
  bool idempotent = true;
};

struct S3Response {
  long status = 0;
  std::string body;
  std::string etag;            // ETag header
  std::string content_length;  // Content-Length header
  int attempts = 0;            // tries it took
};

class S3Client {
 public:
  // `config` must have been through ResolveS3Config.
  explicit S3Client(S3Config config);
  ~S3Client();
  S3Client(const S3Client&) = delete;
  S3Client& operator=(const S3Client&) = delete;

  const S3Config& config() const { return config_; }

  // Sends `request`, retrying as S3Config says. Any HTTP response comes back
  // as a value (the caller decides what a status means); only a transport
  // failure that outlived the retries is an error (kUnavailable, or
  // kInvalidArgument for a malformed URL), naming the operation, s3:// path
  // and URL.
  Result<S3Response> Send(const S3Request& request);

  // The error for a response the caller does not accept: names the
  // operation, s3://bucket/key, the HTTP status and the S3 error code and
  // message from the XML body. 404 → kNotFound, 416 → kInvalidArgument,
  // 5xx/429 → kUnavailable, anything else → kIoError.
  static Error ResponseError(const S3Request& request, const S3Response& response);

  // The request's URL (exposed for tests).
  std::string Url(const S3Request& request) const;

  // RFC 3986 percent-encoding as SigV4 wants it: everything but A-Z a-z 0-9
  // - . _ ~ is %XX-encoded, and '/' too unless `keep_slash`.
  static std::string UriEncode(std::string_view text, bool keep_slash);

 private:
  void* AcquireHandle();
  void ReleaseHandle(void* handle);

  S3Config config_;
  std::string scheme_;     // "https"
  std::string host_;       // "host[:port]"
  std::string base_path_;  // path of the endpoint, no trailing '/'
  bool path_style_;
  std::mutex mu_;
  std::vector<void*> idle_;  // CURL*
};

}  // namespace hoglake
