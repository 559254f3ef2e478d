// SIGINT counting for `hoglake sql` (sql_interrupt.h).
#include "cli/sql_interrupt.h"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>

namespace hoglake::cli {
namespace {

static_assert(std::atomic<int>::is_always_lock_free, "the handler needs a lock-free counter");
static_assert(std::atomic<bool>::is_always_lock_free, "the handler needs a lock-free flag");

std::atomic<int> interrupts{0};
std::atomic<bool> quit_on_second{false};
std::atomic<int> wake_write_fd{-1};

extern "C" void OnInterrupt(int) {
  const int seen = interrupts.fetch_add(1) + 1;
  const int wake = wake_write_fd.load();
  if (wake >= 0) {
    static const char kByte = 1;
    [[maybe_unused]] ssize_t ignored = write(wake, &kByte, 1);
  }
  if (seen >= 2 && quit_on_second.load()) {
    static const char kNewline[] = "\n";
    [[maybe_unused]] ssize_t ignored = write(STDERR_FILENO, kNewline, sizeof kNewline - 1);
    _exit(130);
  }
}

}  // namespace

InterruptScope::InterruptScope(Mode mode) {
  interrupts = 0;
  if (pipe2(wake_, O_CLOEXEC | O_NONBLOCK) != 0) wake_[0] = wake_[1] = -1;
  wake_write_fd = wake_[1];
  sigaction(SIGINT, nullptr, &previous_);
  // Started with SIGINT ignored (a background job of a script): it stays so.
  if (previous_.sa_handler == SIG_IGN) return;
  quit_on_second = mode == Mode::kStatement;
  struct sigaction action {};
  action.sa_handler = OnInterrupt;
  sigemptyset(&action.sa_mask);
  action.sa_flags = mode == Mode::kStatement ? SA_RESTART : 0;
  sigaction(SIGINT, &action, nullptr);
}

InterruptScope::~InterruptScope() {
  sigaction(SIGINT, &previous_, nullptr);
  quit_on_second = false;
  wake_write_fd = -1;
  for (int fd : wake_) {
    if (fd >= 0) close(fd);
  }
}

int InterruptScope::count() const { return interrupts.load(); }

}  // namespace hoglake::cli
