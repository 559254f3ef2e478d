// ErrorResponse (http_types.h): the contract's error bodies, with details
// that must not reach clients kept out of them and every 503 retryable.
#include "server/http_types.h"

#include <gtest/gtest.h>

#include <string>

namespace hoglake::server {
namespace {

std::string RetryAfter(const HttpResponse& response) {
  for (const auto& [name, value] : response.headers) {
    if (name == "Retry-After") return value;
  }
  return "";
}

TEST(ErrorResponseTest, DatabaseUnavailableIsA503WithRetryAfterAndNoDetails) {
  const HttpResponse response = ErrorResponse(DatabaseUnavailable(
      "cannot connect to PostgreSQL: connection to server on socket "
      "\"/srv/hoglake/run/.s.PGSQL.5432\" failed: Connection refused"));
  EXPECT_EQ(response.status, 503);
  EXPECT_EQ(RetryAfter(response), "1");
  EXPECT_EQ(response.body,
            R"({"error":"database_unavailable",)"
            R"("detail":"the catalog database is unavailable; retry later"})");
}

TEST(ErrorResponseTest, Every503CarriesRetryAfter) {
  const HttpResponse queue =
      ErrorResponse(MakeError(ErrorCode::kCommitQueueTimeout, "lock not acquired within 5 ms"));
  EXPECT_EQ(queue.status, 503);
  EXPECT_EQ(RetryAfter(queue), "1");
  EXPECT_NE(queue.body.find("lock not acquired within 5 ms"), std::string::npos);
  const HttpResponse down = ErrorResponse(Unavailable("stats hydration is not configured"));
  EXPECT_EQ(down.status, 503);
  EXPECT_EQ(RetryAfter(down), "1");
}

TEST(ErrorResponseTest, InternalErrorsHideTheirMessageAndAreNotRetryable) {
  const HttpResponse response = ErrorResponse(Internal("PostgreSQL XX000: host=/srv/run"));
  EXPECT_EQ(response.status, 500);
  EXPECT_EQ(RetryAfter(response), "");
  EXPECT_EQ(response.body, R"({"error":"internal_error","detail":"internal server error"})");
}

TEST(ErrorResponseTest, OtherErrorsKeepTheirDetail) {
  const HttpResponse response = ErrorResponse(NotFound("catalog 'x' not found"));
  EXPECT_EQ(response.status, 404);
  EXPECT_EQ(RetryAfter(response), "");
  EXPECT_EQ(response.body, R"({"error":"not_found","detail":"catalog 'x' not found"})");
}

}  // namespace
}  // namespace hoglake::server
