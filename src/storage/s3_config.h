// S3Config: how to reach and authenticate to an S3-compatible store.
//
// Empty fields are filled from the standard AWS environment variables by
// ResolveS3Config (config wins over the environment):
//   access_key_id      ← AWS_ACCESS_KEY_ID
//   secret_access_key  ← AWS_SECRET_ACCESS_KEY
//   session_token      ← AWS_SESSION_TOKEN (only when the keys also came
//                        from the environment, so a token never pairs with
//                        keys it was not issued for)
//   region             ← AWS_REGION, then AWS_DEFAULT_REGION, then us-east-1
//   endpoint           ← AWS_ENDPOINT_URL_S3, then AWS_ENDPOINT_URL
// Without an access key requests go unsigned (public buckets).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "common/status.h"

namespace hoglake {

struct S3Config {
  // Endpoint override, e.g. "http://127.0.0.1:9000" or "minio.local:9000"
  // (a bare host means https). Empty: https://s3.<region>.amazonaws.com.
  std::string endpoint;
  std::string region;
  std::string access_key_id;
  std::string secret_access_key;
  std::optional<std::string> session_token;
  // Path-style addressing (http://host/bucket/key) instead of virtual-hosted
  // (http://bucket.host/key). Unset: path-style exactly when an endpoint
  // override is set (MinIO-like servers).
  std::optional<bool> path_style;

  // Streamed writes go up as one PutObject when they fit in one part, else
  // as a multipart upload of parts of this size (at least 5 MiB, S3's
  // minimum for every part but the last).
  uint64_t part_size = 8ull << 20;
  // Keys per ListObjectsV2 request (1..1000).
  int list_page_size = 1000;

  // Attempts per request (1 = no retries). Idempotent requests are retried
  // on transport errors, timeouts, HTTP 5xx and 429, after
  // retry_base_delay_ms · 2^(attempt-1) (with jitter, capped at 5 s).
  int max_attempts = 4;
  int retry_base_delay_ms = 100;
  int connect_timeout_ms = 3000;
  // A response that delivers no byte for this long fails (and is retried).
  int read_timeout_ms = 30000;
  // Idle connections kept for reuse.
  int max_idle_connections = 16;
};

// `config` with empty fields filled from the environment (see above), then
// checked: part_size ≥ 5 MiB, list_page_size in 1..1000, max_attempts ≥ 1,
// secret present when an access key is. kInvalidArgument naming the field.
Result<S3Config> ResolveS3Config(S3Config config);

}  // namespace hoglake
