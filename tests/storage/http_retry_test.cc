// The retry policy the S3 client and the SDK transport share.
#include "storage/http_retry.h"

#include <curl/curl.h>
#include <gtest/gtest.h>

namespace hoglake {
namespace {

TEST(HttpRetryTest, TransportFailuresWorthAnotherAttempt) {
  for (CURLcode code : {CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_HOST, CURLE_OPERATION_TIMEDOUT,
                        CURLE_SEND_ERROR, CURLE_RECV_ERROR, CURLE_GOT_NOTHING, CURLE_PARTIAL_FILE,
                        CURLE_SSL_CONNECT_ERROR, CURLE_HTTP2, CURLE_HTTP2_STREAM}) {
    bool unsent = true;
    EXPECT_TRUE(RetryableTransportFailure(code, &unsent)) << curl_easy_strerror(code);
  }
  for (CURLcode code : {CURLE_URL_MALFORMAT, CURLE_UNSUPPORTED_PROTOCOL, CURLE_WRITE_ERROR,
                        CURLE_ABORTED_BY_CALLBACK, CURLE_PEER_FAILED_VERIFICATION}) {
    bool unsent = true;
    EXPECT_FALSE(RetryableTransportFailure(code, &unsent)) << curl_easy_strerror(code);
  }
  bool unsent = false;
  EXPECT_TRUE(RetryableTransportFailure(CURLE_COULDNT_CONNECT, &unsent));
  EXPECT_TRUE(unsent);
  EXPECT_TRUE(RetryableTransportFailure(CURLE_RECV_ERROR, &unsent));
  EXPECT_FALSE(unsent);  // the request may have been delivered
}

TEST(HttpRetryTest, DelaysDoubleWithJitterUpToTheCap) {
  for (int attempt = 1; attempt <= 20; ++attempt) {
    const int64_t full = std::min<int64_t>(int64_t{100} << std::min(attempt - 1, 16), 5000);
    for (int k = 0; k < 20; ++k) {
      const int64_t delay = RetryDelayMs(100, attempt);
      EXPECT_GE(delay, full / 2) << attempt;
      EXPECT_LE(delay, full) << attempt;
    }
  }
  EXPECT_EQ(RetryDelayMs(0, 3), 0);
}

TEST(HttpRetryTest, RetryAfterReplacesTheBackoffWithinTheCap) {
  EXPECT_EQ(RetryDelayMs(100, 1, "2"), 2000);
  EXPECT_EQ(RetryDelayMs(100, 1, "0"), 0);
  EXPECT_EQ(RetryDelayMs(100, 1, "3600"), kMaxRetryDelayMs);
  // Not whole seconds (an HTTP date, garbage): the computed backoff.
  for (const char* ignored : {"soon", "1.5", "-1", "Wed, 21 Oct 2026 07:28:00 GMT"}) {
    const int64_t delay = RetryDelayMs(100, 1, ignored);
    EXPECT_GE(delay, 50) << ignored;
    EXPECT_LE(delay, 100) << ignored;
  }
}

}  // namespace
}  // namespace hoglake
