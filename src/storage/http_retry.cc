#include "storage/http_retry.h"

#include <curl/curl.h>

#include <algorithm>
#include <charconv>
#include <random>

namespace hoglake {

bool RetryableTransportFailure(int curl_code, bool* unsent) {
  const auto code = static_cast<CURLcode>(curl_code);
  *unsent = code == CURLE_COULDNT_CONNECT || code == CURLE_COULDNT_RESOLVE_HOST ||
            code == CURLE_COULDNT_RESOLVE_PROXY;
  switch (code) {
    case CURLE_COULDNT_CONNECT:
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_RESOLVE_PROXY:
    case CURLE_OPERATION_TIMEDOUT:
    case CURLE_SEND_ERROR:
    case CURLE_RECV_ERROR:
    case CURLE_GOT_NOTHING:
    case CURLE_PARTIAL_FILE:
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_HTTP2:
    case CURLE_HTTP2_STREAM:
      return true;
    default:
      return false;
  }
}

int64_t RetryDelayMs(int64_t base_delay_ms, int attempt, std::string_view retry_after) {
  if (!retry_after.empty()) {
    int64_t seconds = 0;
    const auto [end, ec] =
        std::from_chars(retry_after.data(), retry_after.data() + retry_after.size(), seconds);
    if (ec == std::errc() && end == retry_after.data() + retry_after.size() && seconds >= 0) {
      return std::min(seconds, kMaxRetryDelayMs / 1000) * 1000;
    }
  }
  thread_local std::mt19937 rng{std::random_device{}()};
  int64_t delay = std::max<int64_t>(0, base_delay_ms) << std::clamp(attempt - 1, 0, 16);
  delay = std::min(delay, kMaxRetryDelayMs);
  std::uniform_int_distribution<int64_t> jitter(delay / 2, delay);
  return jitter(rng);
}

}  // namespace hoglake
