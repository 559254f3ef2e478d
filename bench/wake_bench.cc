// wake_bench: what one cross-thread hand-off costs on this machine, hot and
// after the receiving CPU went idle (issue 7, "where a K = 8 cycle goes").
//
// A commit batch's critical path is a chain of hand-offs between threads and
// processes (server → PostgreSQL → server, leader → members, server ↔
// writers over TCP). On a virtual machine an idle CPU halts, and waking it
// costs far more than passing a message to a busy one. This program passes
// one byte back and forth between two threads pinned to different CPUs
// through pipes, `--rounds` times (default 2,000; `--quick` 500):
//
//   round_trip_hot        back to back (both CPUs stay busy)
//   round_trip_after_idle each round trip after `--idle-us` (default 1,000)
//                          of sleep, as between a batch's phases
//
// and prints the median and p90 of each in µs, the idle median with
// ratio = after-idle ÷ hot. Needs two CPUs (exits non-zero otherwise).
#include <pthread.h>
#include <sched.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "bench_report.h"

namespace {

int to_echo[2], from_echo[2];

void Pin(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  if (pthread_setaffinity_np(pthread_self(), sizeof set, &set) != 0) {
    Die("cannot pin a thread to CPU " + std::to_string(cpu));
  }
}

void Echo() {
  Pin(1);
  char byte;
  while (read(to_echo[0], &byte, 1) == 1) {
    if (write(from_echo[1], &byte, 1) != 1) return;
  }
}

// Microseconds per round trip, `rounds` of them, sleeping `idle_us` before each.
std::vector<double> RoundTrips(int rounds, int idle_us) {
  std::vector<double> micros;
  char byte = 'x';
  for (int i = 0; i < rounds; ++i) {
    if (idle_us > 0) std::this_thread::sleep_for(std::chrono::microseconds(idle_us));
    const auto start = std::chrono::steady_clock::now();
    if (write(to_echo[1], &byte, 1) != 1 || read(from_echo[0], &byte, 1) != 1) {
      Die("pipe round trip failed");
    }
    micros.push_back(Seconds(start) * 1e6);
  }
  return micros;
}

}  // namespace

int main(int argc, char** argv) {
  int rounds = 2000;
  int idle_us = 1000;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--quick") {
      rounds = 500;
    } else if (arg == "--rounds" && i + 1 < argc) {
      rounds = std::atoi(argv[++i]);
    } else if (arg == "--idle-us" && i + 1 < argc) {
      idle_us = std::atoi(argv[++i]);
    } else {
      Die("usage: wake_bench [--quick] [--rounds N] [--idle-us US]");
    }
  }
  if (rounds < 10 || idle_us < 1) Die("--rounds must be at least 10 and --idle-us at least 1");
  if (std::thread::hardware_concurrency() < 2) Die("needs two CPUs");
  if (pipe(to_echo) != 0 || pipe(from_echo) != 0) Die("pipe() failed");
  Pin(0);
  std::thread echo(Echo);
  RoundTrips(rounds / 10, 0);  // warm-up
  const std::vector<double> hot = RoundTrips(rounds, 0);
  const std::vector<double> idle = RoundTrips(rounds, idle_us);
  close(to_echo[1]);  // the echo thread's read returns 0
  echo.join();

  const double hot_p50 = Percentile(hot, 0.5);
  const double idle_p50 = Percentile(idle, 0.5);
  Emit("wake", "round_trip_hot_p50", hot_p50, "us");
  Emit("wake", "round_trip_hot_p90", Percentile(hot, 0.9), "us");
  Emit("wake", "round_trip_after_idle_p50", idle_p50, "us", idle_p50 / hot_p50);
  Emit("wake", "round_trip_after_idle_p90", Percentile(idle, 0.9), "us");
  return 0;
}
