// What the `hoglake sql` integration tests share: a catalog holding a
// table of ids, a statement slow enough to cancel, `hoglake sql` run with a
// script piped in (SqlCliFixture), and `hoglake` run on a pseudo-terminal
// of its own (TerminalCli) to watch, type into and signal.
#pragma once

#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <sys/wait.h>
#include <termios.h>
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

inline constexpr auto kPatience = std::chrono::seconds(60);  // a hang guard, not a measurement

// A catalog with ns.events holding ids 1..rows.
inline std::string MakeEvents(SdkLake& lake, int64_t rows) {
  OpenSdkLake(lake, "sqlcli");
  auto table =
      lake.ns->CreateTable("events", {SdkColumn("id", iceberg::ColumnType::kLong, false)});
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
inline std::string SlowQuery() {
  return "SELECT count(*) FROM events a, events b, events c WHERE a.id + b.id + c.id < 0";
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

  // Waits until the program's line editor reads the keys itself (the
  // terminal out of canonical mode); false when it does not in time. The
  // editor shows its prompt before it leaves canonical mode, and a Ctrl-D
  // typed in between is taken by the kernel's line discipline as an
  // end-of-file mark, which does not survive the switch: type it only once
  // this is true.
  bool AwaitLineEditor() {
    const auto deadline = std::chrono::steady_clock::now() + kPatience;
    while (std::chrono::steady_clock::now() < deadline) {
      struct termios mode {};
      if (tcgetattr(master_, &mode) == 0 && (mode.c_lflag & ICANON) == 0) return true;
      if (closed_) return false;
      ReadSome();
    }
    return false;
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

// Writes dir/slow.sql: a quick statement, `slow`, then one that must never
// run once `slow` is cancelled; returns its path.
inline std::string WriteSlowScript(const std::string& dir, const std::string& slow) {
  const std::string path = dir + "/slow.sql";
  std::ofstream file(path);
  file << "SELECT 1 AS first;\n" << slow << ";\nSELECT 2 AS never;\n";
  return path;
}

// Ctrl-C to `cli` while it runs WriteSlowScript's slow statement: the
// statement is cancelled, the script stops with exit code 1.
inline void InterruptSlowScript(TerminalCli& cli) {
  EXPECT_NE(cli.shown().find("first"), std::string::npos) << cli.shown();
  cli.Signal(SIGINT);
  EXPECT_EQ(cli.Wait(), 1) << cli.shown();
  EXPECT_NE(cli.shown().find("ERROR 57014: canceling statement due to user request"),
            std::string::npos)
      << cli.shown();
  EXPECT_EQ(cli.shown().find("never"), std::string::npos) << cli.shown();
}

// At `prompt`, runs SlowQuery() and presses Ctrl-C once the terminal shows
// `running` (the spinner's text): the statement is cancelled and the prompt
// comes back. Use with ASSERT_NO_FATAL_FAILURE.
inline void CancelSlowQueryAtThePrompt(TerminalCli& cli, const std::string& running,
                                       const std::string& prompt) {
  cli.Type(SlowQuery() + ";\r");
  ASSERT_TRUE(cli.Expect(running)) << cli.shown();
  cli.Type("\x03");
  ASSERT_TRUE(cli.Expect("ERROR 57014: canceling statement due to user request")) << cli.shown();
  ASSERT_TRUE(cli.Expect(prompt)) << cli.shown();
}

// A test that pipes scripts into `hoglake sql`, in a directory of its own.
class SqlCliFixture : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = MakeServerDir("hoglake-sqlcli"); }

  // Pipes `script` into `[ENV] hoglake sql ARGS`; its exit code, with stdout
  // and stderr in out_ and err_.
  int RunSql(const std::string& args, const std::string& script = "",
             const std::string& env = "") {
    {
      std::ofstream file(dir_ + "/script.sql");
      file << script;
    }
    const std::string command = "cat " + dir_ + "/script.sql | " + env + " " +
                                std::getenv("HOGLAKE_BIN") + " sql " + args + " >" + dir_ +
                                "/out 2>" + dir_ + "/err";
    const int rc = std::system(command.c_str());
    out_ = ReadFile(dir_ + "/out");
    err_ = ReadFile(dir_ + "/err");
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
  }

  std::string dir_;
  std::string out_;
  std::string err_;
};

}  // namespace hoglake::testing
