// ErrorResponse (http_types.h): the contract's error bodies, with details
// that must not reach clients kept out of them and every 503 retryable.
#include "server/http/http_types.h"

#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <vector>

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

TEST(ErrorResponseTest, StatusesFollowTheContractTable) {
  // Contract §1.5, and our database_unavailable beside it.
  EXPECT_EQ(HoglakeHttpStatus(ErrorCode::kBadRequest), 400);
  EXPECT_EQ(HoglakeHttpStatus(ErrorCode::kNotFound), 404);
  EXPECT_EQ(HoglakeHttpStatus(ErrorCode::kDdlSinceReadSnapshot), 409);
  EXPECT_EQ(HoglakeHttpStatus(ErrorCode::kExpired), 410);
  EXPECT_EQ(HoglakeHttpStatus(ErrorCode::kValidation), 422);
  EXPECT_EQ(HoglakeHttpStatus(ErrorCode::kInvalidData), 422);
  EXPECT_EQ(HoglakeHttpStatus(ErrorCode::kInternal), 500);
  EXPECT_EQ(HoglakeHttpStatus(ErrorCode::kNotImplemented), 501);
  EXPECT_EQ(HoglakeHttpStatus(ErrorCode::kCommitQueueTimeout), 503);
  EXPECT_EQ(HoglakeHttpStatus(ErrorCode::kDatabaseUnavailable), 503);
  // Every code has one, and its body carries the same.
  for (const ErrorCodeInfo& info : AllErrorCodes()) {
    const int status = HoglakeHttpStatus(info.code);
    EXPECT_TRUE(status >= 400 && status < 600) << info.name;
    EXPECT_EQ(ErrorResponse(MakeError(info.code, "x")).status, status) << info.name;
  }
}

TEST(ErrorResponseTest, TypedDetailsBecomeTheContractsMembers) {
  Error e =
      MakeError(ErrorCode::kDdlSinceReadSnapshot, "DDL on ns.a and others since read_snapshot 7");
  e.detail.tables = {"ns.a", "ns.b"};
  e.detail.read_snapshot = 7;
  e.detail.re_prepare = true;
  const HttpResponse response = ErrorResponse(e);
  EXPECT_EQ(response.status, 409);
  EXPECT_EQ(response.body,
            R"({"error":"ddl_since_read_snapshot","detail":"DDL on ns.a and others since )"
            R"(read_snapshot 7","tables":["ns.a","ns.b"],"read_snapshot":7,"retry":"re-prepare"})");
}

TEST(ErrorResponseTest, TheHotdataStyleNestsCodeAndMessage) {
  const std::vector<std::tuple<Error, int, std::string>> cases = {
      {NotFound("table 'x' not found"), 404, "NOT_FOUND"},
      {BadRequest("limit must be an integer"), 400, "BAD_REQUEST"},
      {Validation("limit must be at least 1"), 400, "BAD_REQUEST"},
      {MakeError(ErrorCode::kAlreadyExists, "connection 'c' exists"), 409, "CONFLICT"},
      {NotImplemented("federated queries"), 501, "NOT_IMPLEMENTED"},
      {Unavailable("results store down"), 503, "SERVICE_UNAVAILABLE"},
  };
  for (const auto& [error, status, code] : cases) {
    const HttpResponse response = ErrorResponse(error, ErrorBodyStyle::kHotdata);
    EXPECT_EQ(response.status, status) << code;
    EXPECT_EQ(response.body,
              R"({"error":{"code":")" + code + R"(","message":")" + error.message + R"("}})");
    EXPECT_EQ(RetryAfter(response), status == 503 ? "1" : "");
  }
  // Hidden messages stay hidden in either shape.
  const HttpResponse internal =
      ErrorResponse(Internal("PostgreSQL XX000: host=/srv/run"), ErrorBodyStyle::kHotdata);
  EXPECT_EQ(internal.status, 500);
  EXPECT_EQ(internal.body,
            R"({"error":{"code":"INTERNAL_SERVER_ERROR","message":"internal server error"}})");
}

}  // namespace
}  // namespace hoglake::server
