// The shared scheduler: every index once with slots in range, inline order
// with one thread, many concurrent callers, nested use without deadlock
// (including nesting deeper than the pool has threads), exceptions and
// first-error cancellation.
#include "common/parallel.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

namespace hoglake {
namespace {

TEST(ParallelForTest, EveryIndexOnceWithSlotsInRange) {
  for (int threads : {1, 2, 4, 8, 32}) {
    for (int64_t n : {0, 1, 2, 7, 1000}) {
      std::vector<std::atomic<int>> calls(static_cast<size_t>(n));
      std::atomic<bool> bad_slot{false};
      ParallelFor(n, threads, [&](int64_t i, int slot) {
        calls[static_cast<size_t>(i)].fetch_add(1);
        if (slot < 0 || slot >= threads) bad_slot = true;
      });
      for (auto& c : calls) EXPECT_EQ(c.load(), 1) << threads << " threads, n " << n;
      EXPECT_FALSE(bad_slot);
    }
  }
}

TEST(ParallelForTest, OneThreadRunsInOrderOnTheCaller) {
  std::vector<int64_t> order;
  const auto caller = std::this_thread::get_id();
  bool elsewhere = false;
  ParallelFor(50, 1, [&](int64_t i, int slot) {
    order.push_back(i);
    elsewhere = elsewhere || slot != 0 || std::this_thread::get_id() != caller;
  });
  ASSERT_EQ(order.size(), 50u);
  for (int64_t i = 0; i < 50; ++i) EXPECT_EQ(order[i], i);
  EXPECT_FALSE(elsewhere);
}

TEST(ParallelForTest, ConcurrentCallersAllFinish) {
  std::atomic<int64_t> total{0};
  std::vector<std::thread> callers;
  for (int t = 0; t < 6; ++t) {
    callers.emplace_back([&] {
      for (int k = 0; k < 50; ++k) {
        ParallelFor(20, 4, [&](int64_t i, int) { total += i; });
      }
    });
  }
  for (auto& c : callers) c.join();
  EXPECT_EQ(total.load(), int64_t{6} * 50 * 190);
}

// Three levels of 8 × 8 × 8 with every call wanting 8 threads: 512 leaves,
// far more work items than the pool has threads, each leaf reached once.
TEST(ParallelForTest, NestedCallsFinishWithoutDeadlock) {
  std::vector<std::atomic<int>> leaves(512);
  ParallelFor(8, 8, [&](int64_t a, int) {
    ParallelFor(8, 8, [&](int64_t b, int) {
      ParallelFor(8, 8, [&](int64_t c, int) {
        leaves[static_cast<size_t>(a * 64 + b * 8 + c)].fetch_add(1);
      });
    });
  });
  for (auto& leaf : leaves) EXPECT_EQ(leaf.load(), 1);
}

// Inner calls that block until all of them run at once would deadlock a
// scheduler that waits for queued helpers; here each inner call's caller
// does its own work, so the outer slots each finish their inner loop.
TEST(ParallelForTest, NestingNeverWaitsForABusyPool) {
  std::atomic<int64_t> sum{0};
  std::vector<std::thread> callers;
  for (int t = 0; t < 4; ++t) {
    callers.emplace_back([&] {
      ParallelFor(40, kMaxPoolThreads + 1, [&](int64_t i, int) {
        ParallelFor(40, kMaxPoolThreads + 1, [&](int64_t j, int) { sum += i * j; });
      });
    });
  }
  for (auto& c : callers) c.join();
  EXPECT_EQ(sum.load(), int64_t{4} * 780 * 780);
}

TEST(ParallelForTest, AnExceptionStopsNewWorkAndReachesTheCaller) {
  for (int threads : {1, 4}) {
    std::atomic<int64_t> ran{0};
    EXPECT_THROW(ParallelFor(100000, threads,
                             [&](int64_t i, int) {
                               ran.fetch_add(1);
                               if (i == 10) throw std::runtime_error("index 10");
                               std::this_thread::sleep_for(std::chrono::microseconds(50));
                             }),
                 std::runtime_error);
    // Calls already running finish; hardly any start after the throw (a
    // full run would take 100,000 calls of 50 µs).
    EXPECT_LT(ran.load(), 5000) << threads;
  }
  // The pool is still usable afterwards.
  std::atomic<int> after{0};
  ParallelFor(10, 4, [&](int64_t, int) { after.fetch_add(1); });
  EXPECT_EQ(after.load(), 10);
}

TEST(ParallelForTest, TheFirstFailedStatusCancelsTheRest) {
  std::atomic<int64_t> ran{0};
  Status status = ParallelForStatus(100000, 4, [&](int64_t i, int) -> Status {
    ran.fetch_add(1);
    if (i >= 20) return InvalidArgument("task ", i, " failed");
    std::this_thread::sleep_for(std::chrono::microseconds(50));
    return Status::Ok();
  });
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().code, ErrorCode::kInvalidArgument);
  EXPECT_NE(status.error().message.find("failed"), std::string::npos);
  EXPECT_LT(ran.load(), 5000);
  EXPECT_TRUE(ParallelForStatus(50, 4, [](int64_t, int) { return Status::Ok(); }).ok());
}

TEST(ParallelForTest, ResolveThreads) {
  EXPECT_GE(ResolveThreads(0), 1);
  EXPECT_LE(ResolveThreads(0), kMaxThreads);
  EXPECT_EQ(ResolveThreads(1), 1);
  EXPECT_EQ(ResolveThreads(3), 3);
  EXPECT_EQ(ResolveThreads(1000), kMaxThreads);
}

}  // namespace
}  // namespace hoglake
