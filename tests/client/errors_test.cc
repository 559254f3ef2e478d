// The SDK's error mapping (errors.h, pyhoglake-writer §13): server bodies →
// Error codes, messages, wire_extra, and the exception kinds with their
// retryable / re-prepare flags.
#include "client/errors.h"

#include <gtest/gtest.h>

namespace hoglake::client {
namespace {

TEST(ErrorFromResponseTest, TableRecreatedFullBody) {
  Error e = ErrorFromResponse(
      409,
      R"({"error":"table_recreated","detail":"table ns1.events was recreated","tables":["ns1.events"],"retry":"re-prepare"})");
  EXPECT_EQ(e.code, ErrorCode::kTableRecreated);
  EXPECT_EQ(e.message, "table_recreated: table ns1.events was recreated (HTTP 409)");
  EXPECT_EQ(e.wire_extra, R"("tables":["ns1.events"],"retry":"re-prepare")");
  EXPECT_EQ(ErrorKindOf(e), ErrorKind::kIncarnationChanged);
  EXPECT_FALSE(Retryable(e));
  EXPECT_TRUE(RePrepare(e));
  EXPECT_EQ(ErrorTables(e), std::vector<std::string>{"ns1.events"});
}

TEST(ErrorFromResponseTest, QueryApiBodyGivesItsCodeAndMessage) {
  Error e = ErrorFromResponse(
      401, R"({"error":{"code":"UNAUTHORIZED","message":"the API token is not valid"}})");
  EXPECT_EQ(e.message, "unauthorized: the API token is not valid (HTTP 401)");
  Error bad = ErrorFromResponse(400, R"({"error":{"code":"BAD_REQUEST","message":"no sql"}})");
  EXPECT_EQ(bad.code, ErrorCode::kBadRequest);
  EXPECT_EQ(bad.message, "bad_request: no sql (HTTP 400)");
}

TEST(ErrorFromResponseTest, TableRecreatedCodeOnly) {
  Error e = ErrorFromResponse(409, R"({"error":"table_recreated"})");
  EXPECT_EQ(e.code, ErrorCode::kTableRecreated);
  EXPECT_EQ(e.message, "table_recreated (HTTP 409)");
  EXPECT_TRUE(e.wire_extra.empty());
  EXPECT_EQ(ErrorKindOf(e), ErrorKind::kIncarnationChanged);
  EXPECT_TRUE(RePrepare(e));
  EXPECT_TRUE(ErrorTables(e).empty());
}

TEST(ErrorFromResponseTest, DdlSinceReadSnapshotCarriesTablesAndSnapshot) {
  Error e = ErrorFromResponse(
      409,
      R"({"error":"ddl_since_read_snapshot","detail":"ddl","tables":["a.b","c.d"],"read_snapshot":9007199254740993,"retry":"re-prepare"})",
      /*on_commit=*/true);
  EXPECT_EQ(e.code, ErrorCode::kDdlSinceReadSnapshot);
  EXPECT_EQ(ErrorKindOf(e), ErrorKind::kDdlSinceReadSnapshot);
  EXPECT_FALSE(Retryable(e));
  EXPECT_TRUE(RePrepare(e));
  EXPECT_EQ(ErrorTables(e), (std::vector<std::string>{"a.b", "c.d"}));
  EXPECT_EQ(ErrorReadSnapshot(e), 9007199254740993);  // exact beyond 2^53
}

TEST(ErrorFromResponseTest, CommitConflictAndQueueTimeoutAreRetryable) {
  Error conflict = ErrorFromResponse(409, R"({"error":"commit_conflict","detail":"x"})");
  EXPECT_EQ(conflict.code, ErrorCode::kCommitConflict);
  EXPECT_TRUE(Retryable(conflict));
  EXPECT_FALSE(RePrepare(conflict));
  Error queue = ErrorFromResponse(503, R"({"error":"commit_queue_timeout","detail":"busy"})");
  EXPECT_EQ(queue.code, ErrorCode::kCommitQueueTimeout);
  EXPECT_EQ(ErrorKindOf(queue), ErrorKind::kCommitConflict);
  EXPECT_TRUE(Retryable(queue));
}

TEST(ErrorFromResponseTest, DatabaseUnavailableIsATransportErrorNotReplayed) {
  // The server's database is down: like an unreachable server, not a
  // conflict — a commit that failed so may or may not have been applied.
  Error down = ErrorFromResponse(
      503, R"({"error":"database_unavailable","detail":"the catalog database is unavailable"})");
  EXPECT_EQ(down.code, ErrorCode::kDatabaseUnavailable);
  EXPECT_EQ(ErrorKindOf(down), ErrorKind::kTransport);
  EXPECT_FALSE(Retryable(down));
  EXPECT_FALSE(RePrepare(down));
}

TEST(ErrorFromResponseTest, Expired410OnACommitIsReadSnapshotExpired) {
  const std::string body = R"({"error":"expired","detail":"snapshot 3 is below the floor 5"})";
  Error read = ErrorFromResponse(410, body);
  EXPECT_EQ(read.code, ErrorCode::kExpired);
  EXPECT_EQ(ErrorKindOf(read), ErrorKind::kExpired);
  EXPECT_FALSE(RePrepare(read));
  Error commit = ErrorFromResponse(410, body, /*on_commit=*/true);
  EXPECT_EQ(commit.code, ErrorCode::kExpired);
  EXPECT_EQ(ErrorKindOf(commit), ErrorKind::kReadSnapshotExpired);
  EXPECT_TRUE(RePrepare(commit));
  EXPECT_FALSE(Retryable(commit));
  EXPECT_EQ(commit.message, "expired: snapshot 3 is below the floor 5 (HTTP 410)");
  // A codeless 410 on a commit is the same.
  EXPECT_EQ(ErrorKindOf(ErrorFromResponse(410, "", true)), ErrorKind::kReadSnapshotExpired);
}

TEST(ErrorFromResponseTest, OtherCodesKeepTheirKinds) {
  struct Case {
    long status;
    const char* body;
    ErrorCode code;
    ErrorKind kind;
  };
  const Case cases[] = {
      {404, R"({"error":"not_found","detail":"nope"})", ErrorCode::kNotFound, ErrorKind::kNotFound},
      {409, R"({"error":"already_exists"})", ErrorCode::kAlreadyExists, ErrorKind::kAlreadyExists},
      {409, R"({"error":"table_dropped"})", ErrorCode::kTableDropped, ErrorKind::kTableDropped},
      {409, R"({"error":"offset_regression"})", ErrorCode::kOffsetRegression,
       ErrorKind::kOffsetRegression},
      {409, R"({"error":"reconciliation_required"})", ErrorCode::kReconciliationRequired,
       ErrorKind::kReconciliationRequired},
      {409, R"({"error":"namespace_not_empty"})", ErrorCode::kNamespaceNotEmpty,
       ErrorKind::kHoglake},
      {422, R"({"error":"validation","detail":"bad"})", ErrorCode::kValidation,
       ErrorKind::kValidation},
      {400, R"({"error":"bad_request"})", ErrorCode::kBadRequest, ErrorKind::kHoglake},
      {500, R"({"error":"internal_error","detail":"internal server error"})", ErrorCode::kInternal,
       ErrorKind::kHoglake},
      {501, R"({"error":"not_implemented"})", ErrorCode::kNotImplemented, ErrorKind::kHoglake},
  };
  for (const Case& c : cases) {
    Error e = ErrorFromResponse(c.status, c.body);
    EXPECT_EQ(e.code, c.code) << c.body;
    EXPECT_EQ(ErrorKindOf(e), c.kind) << c.body;
    EXPECT_FALSE(RePrepare(e)) << c.body;
  }
  EXPECT_EQ(ErrorKindName(ErrorKind::kReconciliationRequired), "ReconciliationRequiredError");
}

TEST(ErrorFromResponseTest, UnknownOrMissingCodeFallsBackToTheStatus) {
  EXPECT_EQ(ErrorFromResponse(404, "").code, ErrorCode::kNotFound);
  EXPECT_EQ(ErrorFromResponse(409, R"({"error":"brand_new_code"})").code,
            ErrorCode::kCommitConflict);
  EXPECT_EQ(ErrorFromResponse(410, "{}").code, ErrorCode::kExpired);
  EXPECT_EQ(ErrorFromResponse(422, "[]").code, ErrorCode::kValidation);
  EXPECT_EQ(ErrorFromResponse(503, "").code, ErrorCode::kUnavailable);
  EXPECT_EQ(ErrorKindOf(ErrorFromResponse(503, "")), ErrorKind::kTransport);
  EXPECT_EQ(ErrorFromResponse(418, "").code, ErrorCode::kInternal);
  EXPECT_EQ(ErrorFromResponse(418, "").message, "HTTP 418");
  Error unknown = ErrorFromResponse(409, R"({"error":"brand_new_code","detail":"d"})");
  EXPECT_EQ(unknown.message, "brand_new_code: d (HTTP 409)");
}

TEST(ErrorFromResponseTest, NonJsonBodyKeepsTheFirst500Bytes) {
  const std::string html = "<html>" + std::string(600, 'x') + "</html>";
  Error e = ErrorFromResponse(502, html);
  EXPECT_EQ(e.code, ErrorCode::kInternal);
  EXPECT_EQ(ErrorKindOf(e), ErrorKind::kHoglake);
  EXPECT_EQ(e.message, "HTTP 502: " + html.substr(0, 500));
  EXPECT_TRUE(e.wire_extra.empty());
}

TEST(ErrorKindTest, ClientSideCodes) {
  EXPECT_EQ(ErrorKindOf(MalformedResponse("Table", "columns", "is not an array")),
            ErrorKind::kMalformedResponse);
  EXPECT_EQ(MalformedResponse("Table", "columns", "is not an array").message,
            "malformed response: Table.columns is not an array");
  EXPECT_EQ(MalformedResponse("Table", "", "is not an object").message,
            "malformed response: Table is not an object");
  EXPECT_EQ(ErrorKindOf(InvalidArgument("x")), ErrorKind::kValidation);
  EXPECT_EQ(ErrorKindOf(InvalidData("batch column 'a' is int32")), ErrorKind::kValidation);
  EXPECT_EQ(ErrorKindOf(Unavailable("cannot reach")), ErrorKind::kTransport);
  EXPECT_EQ(ErrorKindOf(IoError("disk")), ErrorKind::kHoglake);
  EXPECT_EQ(ErrorReadSnapshot(Validation("x")), std::nullopt);
}

}  // namespace
}  // namespace hoglake::client
