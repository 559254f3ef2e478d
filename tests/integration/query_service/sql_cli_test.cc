// `hoglake sql` as a user drives it, over the test server's catalog: SQL
// piped to stdin (statements in order, the first error stopping the script
// with exit code 1), Ctrl-C cancelling a running statement (SIGINT to a
// script; the key on the interactive prompt, through a pseudo-terminal),
// and the prompt's multi-line statements, line clearing and history kept
// across runs.
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "columnar/builder.h"
#include "sdk_lake.h"
#include "server_fixture.h"

extern char** environ;

namespace hoglake::testing {
namespace {

using iceberg::ColumnType;

constexpr auto kPatience = std::chrono::seconds(60);  // a hang guard, not a measurement

// A catalog with ns.events holding ids 1..rows.
std::string MakeEvents(SdkLake& lake, int64_t rows) {
  OpenSdkLake(lake, "sqlcli");
  auto table = lake.ns->CreateTable("events", {SdkColumn("id", ColumnType::kLong, false)});
  EXPECT_TRUE(table.ok()) << table.status().ToString();
  auto schema = std::make_shared<columnar::Schema>();
  schema->fields = {{"id", columnar::Int64(), true, {}}};
  columnar::Int64Builder id;
  for (int64_t i = 1; i <= rows; ++i) id.Append(i);
  auto batch = columnar::MakeRecordBatch(schema, {*id.Finish()});
  EXPECT_TRUE(batch.ok()) << batch.status().ToString();
  if (table.ok() && batch.ok()) {
    auto appended = table->Append(*batch);
    EXPECT_TRUE(appended.ok()) << appended.status().ToString();
  }
  return lake.catalog->name();
}

// A three-way cross join of 1000 rows with a filter nothing passes: 10^9
// rows to look at in constant memory, far longer than any test waits.
std::string SlowQuery() {
  return "SELECT count(*) FROM events a, events b, events c WHERE a.id + b.id + c.id < 0";
}

std::vector<std::string> SqlArgs(const std::string& catalog) {
  return {"sql",      "--data-dir", ServerEnvironment::data_dir(), "--catalog", catalog,
          "--schema", "ns"};
}

// `hoglake` with stdout and stderr (and stdin, unless a file is given) on a
// pseudo-terminal of its own, the way a person runs it.
class TerminalCli {
 public:
  ~TerminalCli() {
    if (pid_ > 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
    if (master_ >= 0) close(master_);
  }

  void Start(const std::vector<std::string>& args, const std::map<std::string, std::string>& env,
             const std::string& stdin_file = "") {
    const char* bin = std::getenv("HOGLAKE_BIN");
    ASSERT_NE(bin, nullptr) << "HOGLAKE_BIN must name the hoglake executable";
    // Everything the child needs is made before fork (no allocation after).
    std::vector<std::string> argv_text = {bin};
    argv_text.insert(argv_text.end(), args.begin(), args.end());
    std::vector<std::string> env_text;
    for (char** e = environ; *e != nullptr; ++e) {
      const std::string entry = *e;
      if (!env.count(entry.substr(0, entry.find('=')))) env_text.push_back(entry);
    }
    for (const auto& [name, value] : env) env_text.push_back(name + "=" + value);
    std::vector<char*> argv, envp;
    for (std::string& a : argv_text) argv.push_back(a.data());
    for (std::string& e : env_text) envp.push_back(e.data());
    argv.push_back(nullptr);
    envp.push_back(nullptr);
    int input = -1;
    if (!stdin_file.empty()) {
      input = open(stdin_file.c_str(), O_RDONLY);
      ASSERT_GE(input, 0) << stdin_file;
    }
    struct winsize size {};
    size.ws_row = 40;
    size.ws_col = 200;
    pid_ = forkpty(&master_, nullptr, nullptr, &size);
    ASSERT_GE(pid_, 0) << "forkpty failed";
    if (pid_ == 0) {
      if (input >= 0) dup2(input, STDIN_FILENO);
      execve(argv[0], argv.data(), envp.data());
      _exit(127);
    }
    if (input >= 0) close(input);
  }

  // Waits until the terminal shows `text` after what the last Expect
  // matched; false when it does not in time (or the program ended first).
  bool Expect(const std::string& text) {
    const auto deadline = std::chrono::steady_clock::now() + kPatience;
    while (true) {
      const size_t at = shown_.find(text, matched_);
      if (at != std::string::npos) {
        matched_ = at + text.size();
        return true;
      }
      if (closed_ || std::chrono::steady_clock::now() > deadline) return false;
      ReadSome();
    }
  }

  void Type(const std::string& keys) {
    ASSERT_EQ(write(master_, keys.data(), keys.size()), static_cast<ssize_t>(keys.size()));
  }

  void Signal(int signal) { kill(pid_, signal); }

  // The exit code once the program ends (-1 if it does not in time).
  int Wait() {
    const auto deadline = std::chrono::steady_clock::now() + kPatience;
    while (std::chrono::steady_clock::now() < deadline) {
      int status = 0;
      if (waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        while (!closed_) ReadSome();
        return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      }
      ReadSome();
    }
    return -1;
  }

  // All the terminal has shown.
  const std::string& shown() const { return shown_; }
  // What it has shown since the last Expect matched.
  std::string rest() const { return shown_.substr(matched_); }

 private:
  void ReadSome() {
    struct pollfd fd {
      master_, POLLIN, 0
    };
    if (poll(&fd, 1, 100) <= 0) return;
    char buffer[4096];
    const ssize_t n = read(master_, buffer, sizeof buffer);
    if (n <= 0) {
      closed_ = true;  // EIO: the program closed the terminal
      return;
    }
    shown_.append(buffer, static_cast<size_t>(n));
  }

  pid_t pid_ = -1;
  int master_ = -1;
  std::string shown_;
  size_t matched_ = 0;
  bool closed_ = false;
};

class SqlCliTest : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = MakeServerDir("hoglake-sqlcli"); }

  // Pipes `script` into `hoglake sql ARGS`; its exit code, with stdout and
  // stderr in out_ and err_.
  int Pipe(const std::string& args, const std::string& script) {
    {
      std::ofstream file(dir_ + "/script.sql");
      file << script;
    }
    const std::string command = "cat " + dir_ + "/script.sql | " + std::getenv("HOGLAKE_BIN") +
                                " sql --data-dir " + ServerEnvironment::data_dir() + " " + args +
                                " >" + dir_ + "/out 2>" + dir_ + "/err";
    const int rc = std::system(command.c_str());
    out_ = ReadFile(dir_ + "/out");
    err_ = ReadFile(dir_ + "/err");
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
  }

  std::string dir_;
  std::string out_;
  std::string err_;
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
  {
    std::ofstream file(dir_ + "/slow.sql");
    file << "SELECT 1 AS first;\n" << SlowQuery() << ";\nSELECT 2 AS never;\n";
  }
  TerminalCli cli;
  ASSERT_NO_FATAL_FAILURE(cli.Start(SqlArgs(catalog), {}, dir_ + "/slow.sql"));
  // The spinner (stderr is the terminal) says the slow statement runs.
  ASSERT_TRUE(cli.Expect("rows scanned")) << cli.shown();
  EXPECT_NE(cli.shown().find("first"), std::string::npos) << cli.shown();
  cli.Signal(SIGINT);
  EXPECT_EQ(cli.Wait(), 1) << cli.shown();
  EXPECT_NE(cli.shown().find("ERROR 57014: canceling statement due to user request"),
            std::string::npos)
      << cli.shown();
  EXPECT_EQ(cli.shown().find("never"), std::string::npos) << cli.shown();
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
    cli.Type(SlowQuery() + ";\r");
    ASSERT_TRUE(cli.Expect("rows scanned")) << cli.shown();
    cli.Type("\x03");
    ASSERT_TRUE(cli.Expect("ERROR 57014: canceling statement due to user request")) << cli.shown();
    ASSERT_TRUE(cli.Expect(prompt)) << cli.shown();
    cli.Type("SELECT 4 AS four;\r");
    ASSERT_TRUE(cli.Expect("four")) << cli.shown();
    ASSERT_TRUE(cli.Expect(prompt)) << cli.shown();
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
