// CommitBatcher's gathering (commit_batcher.h): after a batch, the next drain
// waits for the key's recent writers to come back, up to the window, and
// runs with what it has when the window passes. A fake runner stands in for
// the commit: it records each batch's size and answers every request.
#include "catalog/commit_batcher.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>
#include <vector>

namespace hoglake::catalog {
namespace {

class Recorder {
 public:
  // Runs a batch: announces it is about to drain, drains, records the size,
  // holds the batch while `hold` is set, answers everyone.
  CommitBatcher::Runner runner() {
    return [this](const CommitBatcher::Drain& drain) {
      ++draining;
      const std::vector<CommitBatcher::Request*> batch = drain();
      {
        std::lock_guard<std::mutex> lock(mu_);
        sizes_.push_back(batch.size());
      }
      ++drained;
      while (hold.load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
      for (CommitBatcher::Request* r : batch) r->result = CommitResult{};
    };
  }
  std::vector<size_t> sizes() {
    std::lock_guard<std::mutex> lock(mu_);
    return sizes_;
  }
  std::atomic<int> draining{0};
  std::atomic<int> drained{0};
  std::atomic<bool> hold{false};

 private:
  std::mutex mu_;
  std::vector<size_t> sizes_;
};

void WaitFor(const std::atomic<int>& counter, int value) {
  for (int i = 0; i < 10000 && counter.load() < value; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ASSERT_GE(counter.load(), value);
}

TEST(CommitBatcherTest, TheNextBatchGathersTheLastBatchsWriters) {
  // A window far longer than the test needs: the batch must start because
  // its target was reached, not because the window passed.
  CommitBatcher batcher(64, 1000, /*gather_micros=*/60'000'000);
  Recorder recorder;
  const CommitBatcher::Runner runner = recorder.runner();
  std::vector<std::thread> threads;
  auto submit = [&] {
    threads.emplace_back([&] {
      CommitBatcher::Request request;
      EXPECT_TRUE(batcher.Submit(7, request, runner).ok());
    });
  };
  // A runs alone (nothing to gather for a key's first batch) and is held
  // while B and C queue behind it.
  recorder.hold = true;
  submit();
  WaitFor(recorder.drained, 1);
  submit();
  submit();
  std::this_thread::sleep_for(std::chrono::milliseconds(100));  // B and C queue
  recorder.hold = false;
  // A's batch ended with two queued: the next gathers three. B leads and
  // waits in its drain; D arriving then joins B and C.
  WaitFor(recorder.draining, 2);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_EQ(recorder.drained.load(), 1) << "the second batch did not wait to gather";
  submit();
  WaitFor(recorder.drained, 2);
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(recorder.sizes(), (std::vector<size_t>{1, 3}));
}

TEST(CommitBatcherTest, AnUnreachedTargetWaitsOnlyTheWindow) {
  CommitBatcher batcher(64, 1000, /*gather_micros=*/20'000);
  Recorder recorder;
  const CommitBatcher::Runner runner = recorder.runner();
  std::vector<std::thread> threads;
  auto submit = [&] {
    threads.emplace_back([&] {
      CommitBatcher::Request request;
      EXPECT_TRUE(batcher.Submit(7, request, runner).ok());
    });
  };
  recorder.hold = true;
  submit();
  WaitFor(recorder.drained, 1);
  submit();
  submit();
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  recorder.hold = false;
  WaitFor(recorder.drained, 2);  // the target (3) never comes: B and C go after the window
  for (std::thread& t : threads) t.join();
  threads.clear();
  // The key is idle now with a target of 2; a lone writer waits the window
  // once, runs alone, and from then on (target 1) never waits.
  submit();
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(recorder.sizes(), (std::vector<size_t>{1, 2, 1}));
}

TEST(CommitBatcherTest, NoGatheringWhenTheWindowIsZero) {
  CommitBatcher batcher(64, 1000, /*gather_micros=*/0);
  Recorder recorder;
  const CommitBatcher::Runner runner = recorder.runner();
  std::vector<std::thread> threads;
  auto submit = [&] {
    threads.emplace_back([&] {
      CommitBatcher::Request request;
      EXPECT_TRUE(batcher.Submit(7, request, runner).ok());
    });
  };
  recorder.hold = true;
  submit();
  WaitFor(recorder.drained, 1);
  submit();
  submit();
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  recorder.hold = false;
  WaitFor(recorder.drained, 2);
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(recorder.sizes(), (std::vector<size_t>{1, 2}));
}

}  // namespace
}  // namespace hoglake::catalog
