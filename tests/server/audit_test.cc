// The audit log's vocabulary and line shape: every mutating route has an
// audit entry, events take their outcome from the contract's error codes,
// and a line is one JSON object with the documented keys.
#include <gtest/gtest.h>

#include <set>

#include "common/audit.h"
#include "server/audit_actions.h"
#include "server/routes.h"

namespace hoglake::server {
namespace {

TEST(AuditTest, EveryMutatingRouteHasAnAuditEntry) {
  Router router;
  RegisterRoutes(router, ServerContext{});  // handlers are not called
  int mutating = 0;
  for (const auto& [method, pattern] : router.Routes()) {
    if (method == "GET" || method == "OPTIONS" || method == "HEAD") {
      EXPECT_FALSE(AuditActionForRoute(method, pattern)) << method << " " << pattern;
      continue;
    }
    ++mutating;
    EXPECT_TRUE(AuditActionForRoute(method, pattern))
        << method << " " << pattern << " has no audit entry in server/audit_actions.cc";
  }
  EXPECT_GT(mutating, 15);
}

TEST(AuditTest, OutcomesFollowTheErrorCodes) {
  EXPECT_EQ(AuditOutcomeName(AuditOutcomeFor(ErrorCode::kCommitConflict)), "conflict");
  EXPECT_EQ(AuditOutcomeName(AuditOutcomeFor(ErrorCode::kAlreadyExists)), "conflict");
  EXPECT_EQ(AuditOutcomeName(AuditOutcomeFor(ErrorCode::kTableDropped)), "conflict");
  EXPECT_EQ(AuditOutcomeName(AuditOutcomeFor(ErrorCode::kTableRecreated)), "table_recreated");
  EXPECT_EQ(AuditOutcomeName(AuditOutcomeFor(ErrorCode::kDdlSinceReadSnapshot)),
            "ddl_since_read_snapshot");
  EXPECT_EQ(AuditOutcomeName(AuditOutcomeFor(ErrorCode::kOffsetRegression)), "regression");
  EXPECT_EQ(AuditOutcomeName(AuditOutcomeFor(ErrorCode::kCommitQueueTimeout)), "timeout");
  EXPECT_EQ(AuditOutcomeName(AuditOutcomeFor(ErrorCode::kBadRequest)), "validation");
  EXPECT_EQ(AuditOutcomeName(AuditOutcomeFor(ErrorCode::kValidation)), "validation");
  EXPECT_EQ(AuditOutcomeName(AuditOutcomeFor(ErrorCode::kNotFound)), "not_found");
  EXPECT_EQ(AuditOutcomeName(AuditOutcomeFor(ErrorCode::kInternal)), "error");
  // Every code maps to a named outcome.
  std::set<std::string_view> names;
  for (const ErrorCodeInfo& info : AllErrorCodes()) {
    names.insert(AuditOutcomeName(AuditOutcomeFor(info.code)));
  }
  EXPECT_FALSE(names.contains(""));
}

TEST(AuditTest, RefusedCommitNamesTableOutcomeAndError) {
  HttpRequest request;
  request.method = "POST";
  request.path_params = {{"catalog", "lake"}};
  const HttpResponse refused = ErrorResponse(
      Error{ErrorCode::kTableRecreated, "table web.events was recreated since it was read"});
  const AuditEvent event = AuditEventFor("commit", request, refused);
  EXPECT_EQ(event.catalog, "lake");
  EXPECT_EQ(event.outcome, AuditOutcome::kTableRecreated);
  EXPECT_EQ(event.detail,
            "{\"status\":409,\"error\":\"table_recreated\",\"message\":\"table web.events was "
            "recreated since it was read\"}");
}

TEST(AuditTest, ManagedLoadsNameTheirCatalogAndTable) {
  HttpRequest request;
  request.method = "POST";
  request.path_params = {{"connection_id", "db1"}, {"schema", "main"}, {"table", "events"}};
  const AuditEvent event = AuditEventFor("table_load", request, HttpResponse::Json(200, "{}"));
  EXPECT_EQ(event.catalog, "db1");
  EXPECT_EQ(event.object, "main.events");
}

TEST(AuditTest, SuccessfulCreatesNameWhatTheyCreated) {
  HttpRequest request;
  request.method = "POST";
  request.path_params = {{"catalog", "lake"}, {"namespace", "web"}};
  const AuditEvent table = AuditEventFor(
      "table_create", request, HttpResponse::Json(200, R"({"name":"events","snapshot_id":7})"));
  EXPECT_EQ(table.object, "web.events");
  EXPECT_EQ(table.outcome, AuditOutcome::kSuccess);
  EXPECT_EQ(table.detail, "{\"snapshot_id\":7}");

  HttpRequest create_catalog;
  create_catalog.method = "POST";
  const AuditEvent catalog = AuditEventFor("catalog_create", create_catalog,
                                           HttpResponse::Json(201, R"({"name":"lake2"})"));
  EXPECT_EQ(catalog.catalog, "lake2");
  EXPECT_EQ(catalog.object, "");
  EXPECT_EQ(catalog.detail, "");
}

TEST(AuditTest, LineIsOneJsonObjectWithTheRequestId) {
  AuditEvent event;
  event.action = "offset_commit";
  event.outcome = AuditOutcome::kRegression;
  event.catalog = "lake";
  event.object = "etl/0b7f3a86-5b8e-4f3e-9d0a-6c1f7c2e9a11";
  event.detail = "{\"status\":409}";
  {
    ScopedRequestId id("req-\"42\"");
    EXPECT_EQ(FormatAuditLine(event, 1'780'000'000'000'000),
              "{\"ts\":\"2026-05-28T20:26:40.000000Z\",\"logger\":\"hoglake.audit\","
              "\"action\":\"offset_commit\",\"actor\":\"anonymous\",\"outcome\":\"regression\","
              "\"catalog\":\"lake\",\"object\":\"etl/0b7f3a86-5b8e-4f3e-9d0a-6c1f7c2e9a11\","
              "\"detail\":{\"status\":409},\"request_id\":\"req-\\\"42\\\"\"}");
  }
  // Outside the request scope: no request id, empty fields omitted.
  AuditEvent bare;
  bare.action = "expiry";
  EXPECT_EQ(FormatAuditLine(bare, 0),
            "{\"ts\":\"1970-01-01T00:00:00.000000Z\",\"logger\":\"hoglake.audit\","
            "\"action\":\"expiry\",\"actor\":\"anonymous\",\"outcome\":\"success\"}");
}

}  // namespace
}  // namespace hoglake::server
