// Ctrl-C (SIGINT) in `hoglake sql`. While an InterruptScope lives, SIGINT
// does not end the process: it is counted, and the code that opened the
// scope reads the count and acts (the prompt clears its line, a running
// statement is cancelled). One scope at a time. A process started with
// SIGINT ignored keeps ignoring it.
//
// Each SIGINT also makes wake_fd() readable, so a reader blocked in poll()
// wakes even when the signal lands just before it starts waiting.
//
// kPrompt's handler interrupts the system call under way, so the line
// editor's read returns. kStatement's restarts it (the engine's reads go
// on until the cancellation stops them), and a second SIGINT in that scope
// quits at once with exit code 130, for a statement slow to stop.
#pragma once

#include <signal.h>

namespace hoglake::cli {

class InterruptScope {
 public:
  enum class Mode { kPrompt, kStatement };

  explicit InterruptScope(Mode mode);
  ~InterruptScope();  // restores the previous SIGINT action
  InterruptScope(const InterruptScope&) = delete;
  InterruptScope& operator=(const InterruptScope&) = delete;

  // SIGINTs received since the scope began (any thread may ask).
  int count() const;
  // Readable once a SIGINT came (-1 if no pipe could be made).
  int wake_fd() const { return wake_[0]; }

 private:
  struct sigaction previous_ {};
  int wake_[2] = {-1, -1};
};

}  // namespace hoglake::cli
