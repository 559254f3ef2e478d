// What `hoglake sql` does while one statement runs, beside it on a thread
// of its own: Ctrl-C cancels the statement through Session::Cancel (it then
// fails with 57014, "canceling statement due to user request"); with
// `spinner` (stderr is a terminal), once the statement has run for half a
// second a line on stderr shows the time it has taken and the rows its
// scans have read so far, erased when it ends.
//
// A statement run elsewhere (on a server, sql_remote.h) is watched through
// a StatementControl: its `cancel` is called on every tick after Ctrl-C
// (so it must be cheap to repeat), and without `rows_scanned` the spinner
// shows the time alone.
//
//   bool interrupted;
//   {
//     StatementWatch watch(session, isatty(STDERR_FILENO));
//     result = session.Execute(sql);
//     interrupted = watch.Finish();
//   }
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>

#include "cli/sql_interrupt.h"
#include "sql/engine.h"

namespace hoglake::cli {

// How a watch acts on the statement it watches.
struct StatementControl {
  std::function<void()> cancel;
  std::function<int64_t()> rows_scanned;  // empty: not known while it runs
};

class StatementWatch {
 public:
  StatementWatch(sql::Session& session, bool spinner);
  StatementWatch(StatementControl control, bool spinner);
  ~StatementWatch();
  StatementWatch(const StatementWatch&) = delete;
  StatementWatch& operator=(const StatementWatch&) = delete;

  // Stops watching (erasing the spinner); true when Ctrl-C was pressed.
  bool Finish();

 private:
  void Watch();
  void Draw(std::chrono::steady_clock::duration elapsed, int frame, bool cancelling);

  const StatementControl control_;
  const bool spinner_;
  InterruptScope interrupts_{InterruptScope::Mode::kStatement};
  std::mutex mutex_;
  std::condition_variable wake_;
  bool done_ = false;
  std::thread thread_;
};

}  // namespace hoglake::cli
