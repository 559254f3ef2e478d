// The one HTTP retry policy of hoglake's clients: the S3 client
// (storage/s3_client.cc) and the SDK's transport to a hoglake server
// (client/transport.cc). Which answers are worth another attempt is each
// protocol's own (S3: 5xx but 501, and 429; hoglake: 503); which transport
// failures are, and how long to wait, is decided here.
#pragma once

#include <cstdint>
#include <string_view>

namespace hoglake {

// Whether a curl failure (a CURLcode) may be retried: connection refused or
// unresolved, timeouts, send/receive errors, an empty or cut reply, TLS
// handshake failures, HTTP/2 framing and stream errors. `*unsent` is set
// when the request certainly never reached the server (connect and resolve
// failures), so even a non-idempotent request may be sent again.
bool RetryableTransportFailure(int curl_code, bool* unsent);

// Milliseconds to wait before attempt `attempt + 1` (attempt counts from
// 1): a Retry-After in whole seconds when the server sent one, else
// base_delay_ms · 2^(attempt-1); either capped at kMaxRetryDelayMs, the
// computed one jittered uniformly to [½, 1]× so clients do not retry in step.
inline constexpr int64_t kMaxRetryDelayMs = 5000;
int64_t RetryDelayMs(int64_t base_delay_ms, int attempt, std::string_view retry_after = {});

}  // namespace hoglake
