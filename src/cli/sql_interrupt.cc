// SIGINT counting for `hoglake sql` (sql_interrupt.h).
#include "cli/sql_interrupt.h"

#include <unistd.h>

#include <atomic>

namespace hoglake::cli {
namespace {

static_assert(std::atomic<int>::is_always_lock_free, "the handler needs a lock-free counter");
static_assert(std::atomic<bool>::is_always_lock_free, "the handler needs a lock-free flag");

std::atomic<int> interrupts{0};
std::atomic<bool> quit_on_second{false};

extern "C" void OnInterrupt(int) {
  const int seen = interrupts.fetch_add(1) + 1;
  if (seen >= 2 && quit_on_second.load()) {
    static const char kNewline[] = "\n";
    [[maybe_unused]] ssize_t ignored = write(STDERR_FILENO, kNewline, sizeof kNewline - 1);
    _exit(130);
  }
}

}  // namespace

InterruptScope::InterruptScope(Mode mode) {
  interrupts = 0;
  quit_on_second = mode == Mode::kStatement;
  struct sigaction action {};
  action.sa_handler = OnInterrupt;
  sigemptyset(&action.sa_mask);
  action.sa_flags = mode == Mode::kStatement ? SA_RESTART : 0;
  sigaction(SIGINT, &action, &previous_);
}

InterruptScope::~InterruptScope() {
  sigaction(SIGINT, &previous_, nullptr);
  quit_on_second = false;
}

int InterruptScope::count() const { return interrupts.load(); }

}  // namespace hoglake::cli
