// `hoglake sql` as a user drives it, over the test server's catalog: SQL
// piped to stdin (statements in order, the first error stopping the script
// with exit code 1), Ctrl-C cancelling a running statement (SIGINT to a
// script; the key on the interactive prompt, through a pseudo-terminal),
// and the prompt's multi-line statements, line clearing and history kept
// across runs.
#include <cstdlib>
#include <fstream>
#include <map>
#include <string>

#include "sql_cli_support.h"

namespace hoglake::testing {
namespace {

std::vector<std::string> SqlArgs(const std::string& catalog) {
  return {"sql",      "--data-dir", ServerEnvironment::data_dir(), "--catalog", catalog,
          "--schema", "ns"};
}

class SqlCliTest : public SqlCliFixture {
 protected:
  // Pipes `script` into `hoglake sql --data-dir <the server's> ARGS`.
  int Pipe(const std::string& args, const std::string& script) {
    return RunSql("--data-dir " + ServerEnvironment::data_dir() + " " + args, script);
  }
};

TEST_F(SqlCliTest, PipedStatementsRunInOrderAndTheFirstErrorStopsTheScript) {
  SdkLake lake;
  const std::string catalog = MakeEvents(lake, 3);
  const std::string names = "--format csv --catalog " + catalog + " --schema ns";
  // Several statements over several lines; a ';' quoted or in a comment
  // does not split; the last one may omit its ';'.
  EXPECT_EQ(Pipe(names,
                 "SELECT id FROM events ORDER BY id;\n"
                 "SELECT 'a;b' AS s, -- not the end;\n"
                 "  2 AS n; SELECT count(*) AS n\n"
                 "FROM events"),
            0)
      << err_;
  EXPECT_EQ(out_, "id\n1\n2\n3\ns,n\na;b,2\nn\n3\n");

  // An error mid-way: reported with its SQLSTATE, nothing after it runs.
  EXPECT_EQ(Pipe(names, "SELECT 1 AS first;\nSELECT 1/0;\nSELECT 2 AS never;\n"), 1);
  EXPECT_EQ(out_, "first\n1\n");
  EXPECT_NE(err_.find("ERROR 22012: division by zero"), std::string::npos) << err_;

  // \q ends the input; an unknown command fails like a statement.
  EXPECT_EQ(Pipe(names, "SELECT 1 AS a;\n\\q\nSELECT 2 AS b;\n"), 0) << err_;
  EXPECT_EQ(out_, "a\n1\n");
  EXPECT_EQ(Pipe(names, "SELECT 1 AS a;\n\\dt\nSELECT 2 AS b;\n"), 1);
  EXPECT_EQ(out_, "a\n1\n");
  EXPECT_NE(err_.find("unknown command \\dt"), std::string::npos) << err_;

  // No statement at all (comments only, or nothing) is a usage error.
  EXPECT_EQ(Pipe(names, "-- nothing to run;\n"), 2);
  EXPECT_EQ(Pipe(names, ""), 2);
  EXPECT_NE(err_.find("give a query"), std::string::npos) << err_;

  // A binary format writes one result: two statements are refused, unrun.
  EXPECT_EQ(Pipe("--format parquet -o " + dir_ + "/two.parquet", "SELECT 1; SELECT 2;"), 2);
  EXPECT_NE(err_.find("holds 2 statements"), std::string::npos) << err_;
  EXPECT_EQ(Pipe("--format parquet -o " + dir_ + "/one.parquet", "SELECT 1 AS one;\n"), 0) << err_;
  EXPECT_EQ(ReadFile(dir_ + "/one.parquet").substr(0, 4), "PAR1");

  // -f runs a file's statements the same way.
  {
    std::ofstream file(dir_ + "/two.sql");
    file << "SELECT max(id) AS top FROM events;\nSELECT min(id) AS low FROM events;\n";
  }
  EXPECT_EQ(Pipe(names + " -f " + dir_ + "/two.sql", ""), 0) << err_;
  EXPECT_EQ(out_, "top\n3\nlow\n1\n");
}

TEST_F(SqlCliTest, InterruptCancelsTheRunningStatementOfAScriptAndExits) {
  SdkLake lake;
  const std::string catalog = MakeEvents(lake, 1000);
  TerminalCli cli;
  ASSERT_NO_FATAL_FAILURE(cli.Start(SqlArgs(catalog), {}, WriteSlowScript(dir_, SlowQuery())));
  // The spinner (stderr is the terminal) says the slow statement runs.
  ASSERT_TRUE(cli.Expect("rows scanned")) << cli.shown();
  InterruptSlowScript(cli);
}

TEST_F(SqlCliTest, PromptRunsEditsCancelsAndKeepsHistory) {
  SdkLake lake;
  const std::string catalog = MakeEvents(lake, 1000);
  const std::map<std::string, std::string> env = {{"HOGLAKE_HISTORY", dir_ + "/history"},
                                                  {"TERM", "xterm"}};
  const std::string prompt = catalog + "=> ";
  const std::string more = catalog + "-> ";
  {
    TerminalCli cli;
    ASSERT_NO_FATAL_FAILURE(cli.Start(SqlArgs(catalog), env));
    ASSERT_TRUE(cli.Expect(prompt)) << cli.shown();
    // A statement over two lines: the second prompt says one is under way.
    cli.Type("SELECT max(id) AS top\r");
    ASSERT_TRUE(cli.Expect(more)) << cli.shown();
    cli.Type("FROM events;\r");
    ASSERT_TRUE(cli.Expect("1000")) << cli.shown();
    ASSERT_TRUE(cli.Expect("(1 row)")) << cli.shown();
    ASSERT_TRUE(cli.Expect(prompt)) << cli.shown();

    // Ctrl-C at the prompt drops the unfinished statement.
    cli.Type("SELECT 'dropped'\r");
    ASSERT_TRUE(cli.Expect(more)) << cli.shown();
    cli.Type("\x03");
    ASSERT_TRUE(cli.Expect(prompt)) << cli.shown();
    cli.Type("SELECT 3 AS three;\r");
    ASSERT_TRUE(cli.Expect("three")) << cli.shown();
    ASSERT_TRUE(cli.Expect(prompt)) << cli.shown();

    // Ctrl-C while a statement runs cancels it and returns to the prompt.
    ASSERT_NO_FATAL_FAILURE(CancelSlowQueryAtThePrompt(cli, "rows scanned", prompt));
    cli.Type("SELECT 4 AS four;\r");
    ASSERT_TRUE(cli.Expect("four")) << cli.shown();
    ASSERT_TRUE(cli.Expect(prompt)) << cli.shown();
    ASSERT_TRUE(cli.AwaitLineEditor()) << cli.shown();
    cli.Type("\x04");  // Ctrl-D
    EXPECT_EQ(cli.Wait(), 0) << cli.shown();
    // Three results; only the cancelled statement failed (the dropped one
    // never ran).
    int results = 0;
    for (size_t at = 0; (at = cli.shown().find("(1 row)", at)) != std::string::npos; ++at)
      ++results;
    EXPECT_EQ(results, 3) << cli.shown();
    EXPECT_EQ(cli.shown().find("ERROR"), cli.shown().rfind("ERROR")) << cli.shown();
  }
  {
    // The history outlives the run: Up recalls the last line; \q leaves.
    TerminalCli cli;
    ASSERT_NO_FATAL_FAILURE(cli.Start(SqlArgs(catalog), env));
    ASSERT_TRUE(cli.Expect(prompt)) << cli.shown();
    cli.Type("\x1b[A\r");
    ASSERT_TRUE(cli.Expect("four")) << cli.shown();
    ASSERT_TRUE(cli.Expect("(1 row)")) << cli.shown();
    ASSERT_TRUE(cli.Expect(prompt)) << cli.shown();
    cli.Type("\\q\r");
    EXPECT_EQ(cli.Wait(), 0) << cli.shown();
  }
}

}  // namespace
}  // namespace hoglake::testing
