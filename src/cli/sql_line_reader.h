// Where `hoglake sql` reads its statements line by line when no query is
// given on the command line: a script (-f FILE, or SQL piped to stdin), or
// the interactive prompt when stdin is a terminal: line editing (libedit:
// emacs keys, ~/.editrc), history kept across runs in a file, Ctrl-C
// clearing the line and Ctrl-D (on an empty line) ending the input.
#pragma once

#include <istream>
#include <memory>
#include <string>

namespace hoglake::cli {

struct InputLine {
  enum class Kind {
    kLine,         // `text` holds the line, without its newline
    kInterrupted,  // Ctrl-C at the prompt: drop what was typed
    kEnd,          // end of input
  };
  Kind kind = Kind::kEnd;
  std::string text;
};

class LineReader {
 public:
  virtual ~LineReader() = default;
  // The next line; `continuation` when a statement is under way (the
  // prompt says so).
  virtual InputLine Read(bool continuation) = 0;
};

// Lines of `in` (which must outlive the reader).
std::unique_ptr<LineReader> StreamLineReader(std::istream& in);

// The prompt on the terminal (stdin, stdout): "<name>=> " and, inside a
// statement, "<name>-> ". Lines typed are added to the history, which is
// loaded from and saved to `history_file` ("" keeps none).
std::unique_ptr<LineReader> TerminalLineReader(const std::string& name,
                                               const std::string& history_file);

// $HOGLAKE_HISTORY, else ~/.hoglake_history ("" when there is no home).
std::string DefaultHistoryFile();

}  // namespace hoglake::cli
