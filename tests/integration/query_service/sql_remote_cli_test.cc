// `hoglake sql --server`: statements run by the test server's query API,
// with no access to its catalog database. Results read back as the
// in-process mode writes them (types, NULLs, csv/json/table/parquet), a
// failed statement prints the engine's error and exits 1, a wrong API token
// is the server's 401, and Ctrl-C cancels the run on the server (a script
// then exits 1, the prompt goes on).
#include <fstream>
#include <string>

#include "sql_cli_support.h"

namespace hoglake::testing {
namespace {

class SqlRemoteCliTest : public SqlCliFixture {};

// ints, text with a comma, numeric, date and a NULL, from a lake table:
// "-f FILE" for a file in `dir`.
std::string TypedQuery(const std::string& dir) {
  const std::string path = dir + "/typed.sql";
  std::ofstream file(path);
  file << "SELECT id, 'v,' || id AS t, (id * 1.25)::numeric(10,2) AS n,\n"
          "  DATE '2024-02-28' + id::int AS d, CASE WHEN id = 2 THEN NULL ELSE id * 10 END AS z\n"
          "FROM events ORDER BY id";
  return " -f " + path;
}

TEST_F(SqlRemoteCliTest, ResultsReadBackAsTheInProcessModeWritesThem) {
  SdkLake lake;
  const std::string catalog = MakeEvents(lake, 3);
  const std::string names = " --catalog " + catalog + " --schema ns ";
  const std::string server = "--server=" + ServerEnvironment::base_url() + names;
  const std::string local = "--data-dir " + ServerEnvironment::data_dir() + names;
  const std::string typed = TypedQuery(dir_);

  ASSERT_EQ(RunSql(server + "--format csv " + typed), 0) << err_;
  EXPECT_EQ(out_,
            "id,t,n,d,z\n"
            "1,\"v,1\",1.25,2024-02-29,10\n"
            "2,\"v,2\",2.50,2024-03-01,\n"
            "3,\"v,3\",3.75,2024-03-02,30\n");
  const std::string csv = out_;
  ASSERT_EQ(RunSql(local + "--format csv " + typed), 0) << err_;
  EXPECT_EQ(out_, csv);

  ASSERT_EQ(RunSql(server + "--format json " + typed), 0) << err_;
  EXPECT_EQ(out_,
            "{\"id\":\"1\",\"t\":\"v,1\",\"n\":\"1.25\",\"d\":\"2024-02-29\",\"z\":\"10\"}\n"
            "{\"id\":\"2\",\"t\":\"v,2\",\"n\":\"2.50\",\"d\":\"2024-03-01\",\"z\":null}\n"
            "{\"id\":\"3\",\"t\":\"v,3\",\"n\":\"3.75\",\"d\":\"2024-03-02\",\"z\":\"30\"}\n");

  // The table: names, SQL types, rows, the count, then the time.
  ASSERT_EQ(RunSql(server + typed), 0) << err_;
  const std::string remote_table = out_.substr(0, out_.find("Time: "));
  EXPECT_NE(remote_table.find("numeric(10,2)"), std::string::npos) << out_;
  EXPECT_NE(remote_table.find("(3 rows)"), std::string::npos) << out_;
  EXPECT_NE(out_.find("Time: "), std::string::npos) << out_;
  ASSERT_EQ(RunSql(local + typed), 0) << err_;
  EXPECT_EQ(remote_table, out_.substr(0, out_.find("Time: ")));

  // A binary format, to --output.
  ASSERT_EQ(RunSql(server + "--format parquet -o " + dir_ + "/r.parquet " + typed), 0)
      << err_;
  EXPECT_EQ(ReadFile(dir_ + "/r.parquet").substr(0, 4), "PAR1");

  // Piped statements run in order; `--server URL` takes the URL apart from
  // the query, and a bare --server uses HOGLAKE_URL.
  EXPECT_EQ(RunSql("--server " + ServerEnvironment::base_url() + names + "--format csv",
                "SELECT 5 AS five;\n", "HOGLAKE_URL=http://127.0.0.1:9"),
            0)
      << err_;
  EXPECT_EQ(out_, "five\n5\n");
  EXPECT_EQ(RunSql("--server" + names + "--format csv",
                "SELECT max(id) AS top FROM events;\nSELECT 'a;b' AS s;\n",
                "HOGLAKE_URL=" + ServerEnvironment::base_url()),
            0)
      << err_;
  EXPECT_EQ(out_, "top\n3\ns\na;b\n");
}

// Intervals and uuids travel as distinct Arrow types (interval[month_day_nano]
// and arrow.uuid), top level and in arrays, and read back as the in-process
// mode writes them.
TEST_F(SqlRemoteCliTest, IntervalsAndUuidsReadBack) {
  SdkLake lake;
  OpenSdkLake(lake, "sqlcliuuid");
  auto table = lake.ns->CreateTable("ids", {SdkColumn("u", iceberg::ColumnType::kUuid)});
  ASSERT_TRUE(table.ok()) << table.status().ToString();
  auto schema = std::make_shared<columnar::Schema>();
  schema->fields = {columnar::UuidField("u")};
  columnar::FixedSizeBinaryBuilder u(columnar::FixedSizeBinary(16));
  ASSERT_TRUE(u.Append("\xa0\xee\xbc\x99\x9c\x0b\x4e\xf8\xbb\x6d\x6b\xb9\xbd\x38\x0a\x11").ok());
  auto batch = columnar::MakeRecordBatch(schema, {*u.Finish()});
  ASSERT_TRUE(batch.ok()) << batch.status().ToString();
  ASSERT_TRUE(table->Append(*batch).ok());
  const std::string names = " --catalog " + lake.catalog->name() + " --schema ns ";
  const std::string server = "--server=" + ServerEnvironment::base_url() + names;
  const std::string local = "--data-dir " + ServerEnvironment::data_dir() + names;
  const std::string path = dir_ + "/interval_uuid.sql";
  {
    std::ofstream file(path);
    file << "SELECT interval '1 year 2 months 3 days 04:05:06.789012' AS iv,\n"
            "  interval '-7 days -00:00:00.000001' AS neg, u,\n"
            "  ARRAY[interval '90 minutes', NULL] AS ivs, ARRAY[u] AS us,\n"
            "  CAST(NULL AS interval) AS none FROM ids";
  }
  ASSERT_EQ(RunSql(server + "--format csv -f " + path), 0) << err_;
  EXPECT_EQ(out_.substr(0, out_.find('\n')), "iv,neg,u,ivs,us,none");
  EXPECT_NE(out_.find("\n1 year 2 mons 3 days 04:05:06.789012,-7 days -00:00:00.000001,"
                      "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11,"),
            std::string::npos)
      << out_;
  EXPECT_NE(out_.find("01:30:00"), std::string::npos) << out_;
  EXPECT_NE(out_.find(",{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11},\n"), std::string::npos) << out_;
  const std::string csv = out_;
  ASSERT_EQ(RunSql(local + "--format csv -f " + path), 0) << err_;
  EXPECT_EQ(out_, csv);
  // The table's header names the SQL types.
  ASSERT_EQ(RunSql(server + "-f " + path), 0) << err_;
  const std::string remote_table = out_.substr(0, out_.find("Time: "));
  EXPECT_NE(remote_table.find("interval[]"), std::string::npos) << out_;
  EXPECT_NE(remote_table.find("uuid[]"), std::string::npos) << out_;
  ASSERT_EQ(RunSql(local + "-f " + path), 0) << err_;
  EXPECT_EQ(remote_table, out_.substr(0, out_.find("Time: ")));
}

TEST_F(SqlRemoteCliTest, AFailedStatementPrintsTheEnginesErrorAndExits1) {
  const std::string server = "--server=" + ServerEnvironment::base_url() + " --format csv ";
  EXPECT_EQ(RunSql(server + "'SELECT 1/0'"), 1);
  EXPECT_NE(err_.find("ERROR 22012: division by zero"), std::string::npos) << err_;
  EXPECT_EQ(RunSql(server + "'SELECT * FROM no_such_table_anywhere'"), 1);
  EXPECT_NE(err_.find("ERROR 42P01: "), std::string::npos) << err_;
  EXPECT_NE(err_.find("no_such_table_anywhere"), std::string::npos) << err_;
  // A script stops at its first failure.
  EXPECT_EQ(RunSql(server, "SELECT 1 AS first;\nSELECT 1/0;\nSELECT 2 AS never;\n"), 1);
  EXPECT_EQ(out_, "first\n1\n");
  // Options that need the catalog database are usage errors.
  EXPECT_EQ(RunSql(server + "--snapshot 1 'SELECT 1'"), 2);
  EXPECT_NE(err_.find("--snapshot"), std::string::npos) << err_;
  EXPECT_EQ(RunSql(server + "--data-dir /tmp 'SELECT 1'"), 2);
  // Nobody listening: the transport's error, naming the server.
  EXPECT_EQ(RunSql("--server=http://127.0.0.1:9 'SELECT 1'"), 1);
  EXPECT_NE(err_.find("http://127.0.0.1:9"), std::string::npos) << err_;
}

TEST_F(SqlRemoteCliTest, TheApiTokenIsSentAndAWrongOneIsRefused) {
  ServerProcess server;
  const std::string token = "remote-sql-token-0123456789";
  ASSERT_NO_FATAL_FAILURE(
      server.Start(MakeServerDir("hoglake-sqlremote-auth"), {}, {{"HOGLAKE_API_TOKENS", token}}));
  const std::string args = "--server=" + server.base_url() + " --format csv 'SELECT 7 AS seven'";
  EXPECT_EQ(RunSql(args, "", "HOGLAKE_API_TOKEN=wrong-token-0123456789abc"), 1);
  EXPECT_NE(err_.find("unauthorized"), std::string::npos) << err_;
  EXPECT_NE(err_.find("HTTP 401"), std::string::npos) << err_;
  EXPECT_EQ(out_, "");
  EXPECT_EQ(RunSql(args, "", "HOGLAKE_API_TOKEN="), 1);
  EXPECT_NE(err_.find("HTTP 401"), std::string::npos) << err_;
  EXPECT_EQ(RunSql(args, "", "HOGLAKE_API_TOKEN=" + token), 0) << err_;
  EXPECT_EQ(out_, "seven\n7\n");
  server.Stop();
}

TEST_F(SqlRemoteCliTest, InterruptCancelsTheRunOnTheServer) {
  SdkLake lake;
  const std::string catalog = MakeEvents(lake, 1000);
  // The slow statement, named so its run can be told apart.
  const std::string marker = "remote_cancel_" + catalog;
  const std::string slow =
      "SELECT count(*) AS " + marker + SlowQuery().substr(std::string("SELECT count(*)").size());
  TerminalCli cli;
  ASSERT_NO_FATAL_FAILURE(cli.Start(
      {"sql", "--server=" + ServerEnvironment::base_url(), "--catalog", catalog, "--schema", "ns"},
      {}, WriteSlowScript(dir_, slow)));
  // The spinner (stderr is the terminal) says the slow statement runs.
  ASSERT_TRUE(cli.Expect("Ctrl-C cancels")) << cli.shown();
  // Its run, running on the server.
  ApiResponse running = ServerEnvironment::Call("GET", "/v1/query-runs?status=running&limit=100");
  ASSERT_EQ(running.status, 200) << running.body;
  std::string run_id;
  for (const auto& run : running.json["query_runs"].GetArray()) {
    if (std::string(run["sql_text"].GetString()).find(marker) != std::string::npos) {
      run_id = run["id"].GetString();
    }
  }
  ASSERT_FALSE(run_id.empty()) << running.body;

  InterruptSlowScript(cli);
  ApiResponse cancelled = ServerEnvironment::Call("GET", "/v1/query-runs/" + run_id);
  ASSERT_EQ(cancelled.status, 200) << cancelled.body;
  EXPECT_EQ(std::string(cancelled.json["status"].GetString()), "cancelled") << cancelled.body;
}

TEST_F(SqlRemoteCliTest, ThePromptCancelsOnTheServerAndGoesOn) {
  SdkLake lake;
  const std::string catalog = MakeEvents(lake, 1000);
  const std::string prompt = catalog + "=> ";
  TerminalCli cli;
  ASSERT_NO_FATAL_FAILURE(cli.Start(
      {"sql", "--server=" + ServerEnvironment::base_url(), "--catalog", catalog, "--schema", "ns"},
      {{"HOGLAKE_HISTORY", dir_ + "/history"}, {"TERM", "xterm"}}));
  ASSERT_TRUE(cli.Expect(prompt)) << cli.shown();
  // The spinner shows the time alone (no rows scanned while it runs).
  ASSERT_NO_FATAL_FAILURE(CancelSlowQueryAtThePrompt(cli, "Ctrl-C cancels", prompt));
  EXPECT_EQ(cli.shown().find("rows scanned"), std::string::npos) << cli.shown();
  // The next statement runs; \q leaves with 0.
  cli.Type("SELECT max(id) + 1 AS next FROM events;\r");
  ASSERT_TRUE(cli.Expect("1001")) << cli.shown();
  ASSERT_TRUE(cli.Expect(prompt)) << cli.shown();
  cli.Type("\\q\r");
  EXPECT_EQ(cli.Wait(), 0) << cli.shown();
}

}  // namespace
}  // namespace hoglake::testing
