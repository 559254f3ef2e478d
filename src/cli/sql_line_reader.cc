// Scripts and the interactive prompt of `hoglake sql` (sql_line_reader.h).
#include "cli/sql_line_reader.h"

#include <fcntl.h>
#include <histedit.h>
#include <poll.h>
#include <pwd.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <clocale>
#include <cstdio>
#include <cstdlib>
#include <cwchar>

#include "cli/sql_interrupt.h"
#include "common/config.h"

namespace hoglake::cli {
namespace {

constexpr int kHistoryLines = 1000;

class StreamReader : public LineReader {
 public:
  explicit StreamReader(std::istream& in) : in_(in) {}
  InputLine Read(bool) override {
    InputLine line;
    if (!std::getline(in_, line.text)) return line;
    if (!line.text.empty() && line.text.back() == '\r') line.text.pop_back();
    line.kind = InputLine::Kind::kLine;
    return line;
  }

 private:
  std::istream& in_;
};

class TerminalReader : public LineReader {
 public:
  TerminalReader(const std::string& name, std::string history_file)
      : primary_(name + "=> "),
        continuation_(name + "-> "),
        history_file_(std::move(history_file)) {
    // Multibyte input (UTF-8) needs the user's character type.
    std::setlocale(LC_CTYPE, "");
    history_ = history_init();
    HistEvent event;
    history(history_, &event, H_SETSIZE, kHistoryLines);
    history(history_, &event, H_SETUNIQUE, 1);
    if (!history_file_.empty()) history(history_, &event, H_LOAD, history_file_.c_str());
    editor_ = el_init("hoglake", stdin, stdout, stderr);
    el_set(editor_, EL_CLIENTDATA, this);
    el_set(editor_, EL_PROMPT, &TerminalReader::Prompt);
    el_set(editor_, EL_EDITOR, "emacs");
    el_set(editor_, EL_HIST, history, history_);
    el_set(editor_, EL_GETCFN, &TerminalReader::ReadChar);
    // libedit restores the terminal around signals (and passes them on).
    el_set(editor_, EL_SIGNAL, 1);
    el_source(editor_, nullptr);
  }

  ~TerminalReader() override {
    el_end(editor_);
    history_end(history_);
  }

  InputLine Read(bool continuation) override {
    prompt_ = continuation ? &continuation_ : &primary_;
    InputLine line;
    int count = 0;
    const char* text;
    int interrupts;
    {
      InterruptScope scope(InterruptScope::Mode::kPrompt);
      scope_ = &scope;
      text = el_gets(editor_, &count);
      scope_ = nullptr;
      interrupts = scope.count();
    }
    if (interrupts > 0) {
      std::fputs("\n", stdout);
      line.kind = InputLine::Kind::kInterrupted;
      return line;
    }
    if (text == nullptr || count <= 0) {
      std::fputs("\n", stdout);
      return line;  // Ctrl-D, or the terminal went away
    }
    line.kind = InputLine::Kind::kLine;
    line.text.assign(text, static_cast<size_t>(count));
    while (!line.text.empty() && (line.text.back() == '\n' || line.text.back() == '\r'))
      line.text.pop_back();
    Remember(line.text);
    return line;
  }

 private:
  static char* Prompt(EditLine* editor) {
    void* data = nullptr;
    el_get(editor, EL_CLIENTDATA, &data);
    return const_cast<char*>(static_cast<TerminalReader*>(data)->prompt_->c_str());
  }

  // The editor's input: one character from stdin (UTF-8 decoded as the
  // locale says), or -1 (EINTR) once Ctrl-C was pressed, which ends
  // el_gets. Waiting on the scope's wake_fd too, a Ctrl-C that lands before
  // the read starts is not lost.
  static int ReadChar(EditLine* editor, wchar_t* out) {
    void* data = nullptr;
    el_get(editor, EL_CLIENTDATA, &data);
    const InterruptScope* scope = static_cast<TerminalReader*>(data)->scope_;
    char bytes[MB_LEN_MAX];
    size_t length = 0;
    while (true) {
      if (scope != nullptr && scope->count() > 0) {
        errno = EINTR;
        return -1;
      }
      struct pollfd fds[2] = {{STDIN_FILENO, POLLIN, 0},
                              {scope != nullptr ? scope->wake_fd() : -1, POLLIN, 0}};
      if (poll(fds, 2, -1) < 0) {
        if (errno == EINTR) continue;
        return -1;
      }
      if ((fds[0].revents & (POLLIN | POLLHUP | POLLERR)) == 0) continue;
      const ssize_t n = read(STDIN_FILENO, &bytes[length], 1);
      if (n == 0) return 0;
      if (n < 0) {
        if (errno == EINTR || errno == EAGAIN) continue;
        return -1;
      }
      ++length;
      std::mbstate_t state{};
      wchar_t decoded = 0;
      const size_t used = std::mbrtowc(&decoded, bytes, length, &state);
      if (used == static_cast<size_t>(-2) && length < sizeof bytes) continue;  // more to come
      if (used == static_cast<size_t>(-1) || used == static_cast<size_t>(-2)) {
        length = 0;  // not a character in this locale: dropped
        continue;
      }
      *out = decoded;
      return 1;
    }
  }

  // Adds a non-blank line to the history and saves the file (readable by
  // its owner only: queries can hold secrets).
  void Remember(const std::string& text) {
    if (text.find_first_not_of(" \t") == std::string::npos) return;
    HistEvent event;
    history(history_, &event, H_ENTER, text.c_str());
    if (history_file_.empty()) return;
    const int fd = open(history_file_.c_str(), O_WRONLY | O_CREAT, 0600);
    if (fd >= 0) close(fd);
    history(history_, &event, H_SAVE, history_file_.c_str());
  }

  const std::string primary_;
  const std::string continuation_;
  const std::string* prompt_ = &primary_;
  const InterruptScope* scope_ = nullptr;  // while el_gets runs
  const std::string history_file_;
  History* history_ = nullptr;
  EditLine* editor_ = nullptr;
};

}  // namespace

std::unique_ptr<LineReader> StreamLineReader(std::istream& in) {
  return std::make_unique<StreamReader>(in);
}

std::unique_ptr<LineReader> TerminalLineReader(const std::string& name,
                                               const std::string& history_file) {
  return std::make_unique<TerminalReader>(name, history_file);
}

std::string DefaultHistoryFile() {
  EnvReader env;
  std::string file = env.Text("HOGLAKE_HISTORY");
  if (!file.empty()) return file;
  const char* home_env = std::getenv("HOME");
  std::string home = home_env != nullptr ? home_env : "";
  if (home.empty()) {
    const struct passwd* user = getpwuid(getuid());
    if (user != nullptr && user->pw_dir != nullptr) home = user->pw_dir;
  }
  return home.empty() ? "" : home + "/.hoglake_history";
}

}  // namespace hoglake::cli
