// PgConnection::ExecPipeline and the pipelined PgTransaction calls against
// the test server's PostgreSQL: results in order, the first failure reported
// with its index and everything after it skipped, an implicit transaction
// that is all or nothing, the prepared-statement cache kept right across a
// failed Parse, and a failed statement before COMMIT committing nothing.
#include <chrono>
#include <string>
#include <vector>

#include "pg/pg_connection.h"
#include "pg_session.h"
#include "server_fixture.h"

namespace hoglake::testing {
namespace {

using pg::PgConnection;
using pg::PgResult;
using pg::PgStatement;
using pg::PgTransaction;

PgConnection Open() {
  Result<PgConnection> conn = PgConnection::Open(TestPgConninfo("hoglake"));
  EXPECT_TRUE(conn.ok()) << conn.error().message;
  return std::move(*conn);
}

// A scratch table of this test's own, created empty.
std::string Scratch(PgConnection& conn, const std::string& name) {
  const std::string table = "pipeline_" + name;
  EXPECT_TRUE(conn.ExecScript("SET client_min_messages = warning; DROP TABLE IF EXISTS " + table +
                              "; CREATE TABLE " + table + " (v bigint PRIMARY KEY)")
                  .ok());
  return table;
}

int64_t Count(PgConnection& conn, const std::string& table) {
  Result<PgResult> r = conn.Exec("SELECT count(*) FROM " + table);
  EXPECT_TRUE(r.ok());
  return r.ok() ? r->GetInt64(0, 0) : -1;
}

TEST(PgPipelineTest, ResultsComeBackInOrder) {
  PgConnection conn = Open();
  // The same text twice (prepared once), a new one, rows and no rows.
  const std::vector<PgStatement> statements = {
      {"SELECT $1::bigint * 2", {"21"}},
      {"SELECT generate_series(1, $1::int)", {"3"}},
      {"SELECT $1::bigint * 2", {"50"}},
      {"SELECT NULL::text WHERE false", {}},
  };
  for (int round = 0; round < 2; ++round) {  // the second from the cache
    Result<std::vector<PgResult>> r = conn.ExecPipeline(statements);
    ASSERT_TRUE(r.ok()) << r.error().message;
    ASSERT_EQ(r->size(), 4u);
    EXPECT_EQ((*r)[0].GetInt64(0, 0), 42);
    EXPECT_EQ((*r)[1].rows(), 3);
    EXPECT_EQ((*r)[1].GetInt64(2, 0), 3);
    EXPECT_EQ((*r)[2].GetInt64(0, 0), 100);
    EXPECT_EQ((*r)[3].rows(), 0);
  }
  EXPECT_FALSE(conn.broken());
  Result<std::vector<PgResult>> none = conn.ExecPipeline({});
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->empty());
}

// Large both ways: 40 statements each sending and getting back 256 KiB,
// far beyond the socket buffers; libpq reads what arrives while it waits to
// send, so the pipeline neither stalls nor loses a byte.
TEST(PgPipelineTest, LargeBothWaysDoesNotStall) {
  PgConnection conn = Open();
  std::vector<PgStatement> statements;
  std::vector<std::string> texts;
  for (int i = 0; i < 40; ++i)
    texts.push_back(std::string(256 * 1024, static_cast<char>('a' + i % 26)));
  for (const std::string& text : texts) statements.push_back({"SELECT $1::text", {text}});
  Result<std::vector<PgResult>> r = conn.ExecPipeline(statements);
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r->size(), texts.size());
  for (size_t i = 0; i < texts.size(); ++i) EXPECT_EQ((*r)[i].GetText(0, 0), texts[i]) << i;
}

TEST(PgPipelineTest, FirstFailureIsReportedAndTheRestIsSkipped) {
  PgConnection conn = Open();
  const std::string table = Scratch(conn, "failure");
  // Outside a transaction the pipeline is one implicit transaction: the
  // insert before the failure is undone, the one after never runs.
  const std::string insert = "INSERT INTO " + table + " VALUES ($1) RETURNING v";
  PgConnection::PipelineOutcome outcome =
      conn.RunPipeline({{insert, {"1"}}, {"SELECT 1 / $1::int", {"0"}}, {insert, {"2"}}});
  ASSERT_TRUE(outcome.error.has_value());
  EXPECT_EQ(outcome.failed_index, 1u);
  EXPECT_NE(outcome.error->message.find("22012"), std::string::npos) << outcome.error->message;
  ASSERT_EQ(outcome.results.size(), 3u);
  EXPECT_EQ(outcome.results[0].GetInt64(0, 0), 1);  // what ran before the failure
  EXPECT_EQ(outcome.results[2].rows(), 0);
  EXPECT_EQ(Count(conn, table), 0);
  Result<std::vector<PgResult>> r = conn.ExecPipeline({{"SELECT 1 / $1::int", {"0"}}});
  ASSERT_FALSE(r.ok());
  EXPECT_FALSE(conn.broken());

  // A statement PostgreSQL cannot parse fails at its Parse; the texts after
  // it were never prepared, and all of them work in the next pipeline.
  const std::string late = "SELECT count(*) FROM " + table + " WHERE v > $1";
  outcome = conn.RunPipeline({{"SELEC broken", {}}, {late, {"0"}}});
  ASSERT_TRUE(outcome.error.has_value());
  EXPECT_EQ(outcome.failed_index, 0u);
  r = conn.ExecPipeline({{late, {"0"}}, {insert, {"3"}}, {late, {"0"}}});
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ((*r)[0].GetInt64(0, 0), 0);
  EXPECT_EQ((*r)[2].GetInt64(0, 0), 1);
  // A unique violation keeps its typed code.
  r = conn.ExecPipeline({{insert, {"3"}}});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kAlreadyExists);
  EXPECT_EQ(Count(conn, table), 1);
}

// flush_after: the results up to that statement arrive as soon as it ran,
// not with the rest at the end (how a commit times its lock wait apart from
// the reads after it). The sleep after the flushed statement bounds from
// below how much earlier they arrive, however slow the machine.
TEST(PgPipelineTest, FlushAfterDeliversEarlierResultsFirst) {
  PgConnection conn = Open();
  const std::vector<PgStatement> statements = {{"SELECT $1::int", {"7"}},
                                               {"SELECT pg_sleep($1::float8)", {"0.3"}}};
  PgConnection::PipelineOutcome flushed = conn.RunPipeline(statements, 0);
  const auto ended = std::chrono::steady_clock::now();
  ASSERT_FALSE(flushed.error.has_value()) << flushed.error->message;
  EXPECT_EQ(flushed.results[0].GetInt64(0, 0), 7);
  ASSERT_TRUE(flushed.flushed_result_at.has_value());
  EXPECT_GE(std::chrono::duration<double>(ended - *flushed.flushed_result_at).count(), 0.25);
  // Without it nothing is timed; a failure at or before the flushed
  // statement leaves no time either.
  EXPECT_FALSE(conn.RunPipeline(statements).flushed_result_at.has_value());
  PgConnection::PipelineOutcome failed =
      conn.RunPipeline({{"SELECT 1 / $1::int", {"0"}}, {"SELECT 1", {}}}, 0);
  ASSERT_TRUE(failed.error.has_value());
  EXPECT_FALSE(failed.flushed_result_at.has_value());
  EXPECT_FALSE(conn.broken());
}

TEST(PgPipelineTest, TransactionBeginsAndCommitsWithItsStatements) {
  PgConnection conn = Open();
  const std::string table = Scratch(conn, "transaction");
  const std::string insert = "INSERT INTO " + table + " VALUES ($1)";
  const std::string count = "SELECT count(*) FROM " + table;
  {
    std::vector<PgResult> results;
    Result<PgTransaction> txn =
        PgTransaction::Begin(conn, {{insert, {"1"}}, {count, {}}}, &results);
    ASSERT_TRUE(txn.ok()) << txn.error().message;
    ASSERT_EQ(results.size(), 2u);
    EXPECT_EQ(results[1].GetInt64(0, 0), 1);
    ASSERT_TRUE(txn->Commit({{insert, {"2"}}}).ok());
  }
  EXPECT_EQ(Count(conn, table), 2);
  {
    // A statement that fails before COMMIT: nothing of the transaction stays
    // and the connection is usable (not left inside an aborted transaction).
    std::vector<PgResult> results;
    Result<PgTransaction> txn = PgTransaction::Begin(conn, {{insert, {"3"}}}, &results);
    ASSERT_TRUE(txn.ok());
    EXPECT_FALSE(txn->Commit({{insert, {"4"}}, {insert, {"4"}}}).ok());
  }
  EXPECT_EQ(Count(conn, table), 2);
  {
    // A statement that fails with BEGIN: rolled back at once.
    std::vector<PgResult> results;
    Result<PgTransaction> txn =
        PgTransaction::Begin(conn, {{insert, {"5"}}, {insert, {"1"}}}, &results);
    EXPECT_FALSE(txn.ok());
  }
  EXPECT_EQ(Count(conn, table), 2);
  Result<PgResult> status = conn.Exec("SELECT 1");
  EXPECT_TRUE(status.ok());
}

}  // namespace
}  // namespace hoglake::testing
