// Cancel on Ctrl-C and the progress spinner of `hoglake sql`
// (sql_statement_watch.h).
#include "cli/sql_statement_watch.h"

#include <cstdio>
#include <string>
#include <utility>

namespace hoglake::cli {
namespace {

constexpr auto kTick = std::chrono::milliseconds(100);
constexpr auto kSpinnerAfter = std::chrono::milliseconds(500);

// 1234567 → "1,234,567"
std::string Grouped(int64_t n) {
  std::string digits = std::to_string(n);
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

}  // namespace

StatementWatch::StatementWatch(sql::Session& session, bool spinner)
    : StatementWatch(StatementControl{[&session] { session.Cancel(); },
                                      [&session] { return session.RowsScannedSoFar(); }},
                     spinner) {}

StatementWatch::StatementWatch(StatementControl control, bool spinner)
    : control_(std::move(control)), spinner_(spinner), thread_([this] { Watch(); }) {}

StatementWatch::~StatementWatch() { Finish(); }

bool StatementWatch::Finish() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    done_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
  return interrupts_.count() > 0;
}

void StatementWatch::Watch() {
  const auto started = std::chrono::steady_clock::now();
  bool drawn = false;
  int frame = 0;
  std::unique_lock<std::mutex> lock(mutex_);
  while (!wake_.wait_for(lock, kTick, [this] { return done_; })) {
    const bool cancelling = interrupts_.count() > 0;
    // Again every tick: a Cancel that lands before Execute starts is reset.
    if (cancelling) control_.cancel();
    const auto elapsed = std::chrono::steady_clock::now() - started;
    if (spinner_ && elapsed >= kSpinnerAfter) {
      Draw(elapsed, frame++, cancelling);
      drawn = true;
    }
  }
  if (drawn) {
    std::fputs("\r\033[K", stderr);
    std::fflush(stderr);
  }
}

void StatementWatch::Draw(std::chrono::steady_clock::duration elapsed, int frame, bool cancelling) {
  static const char kFrames[] = {'|', '/', '-', '\\'};
  const double seconds = std::chrono::duration<double>(elapsed).count();
  const std::string rows =
      control_.rows_scanned ? ", " + Grouped(control_.rows_scanned()) + " rows scanned" : "";
  std::fprintf(stderr, "\r\033[K%c %.1f s%s%s", kFrames[frame % 4], seconds, rows.c_str(),
               cancelling ? " (cancelling)" : " (Ctrl-C cancels)");
  std::fflush(stderr);
}

}  // namespace hoglake::cli
