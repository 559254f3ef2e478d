// CommitBatcher's gathering (commit_batcher.h): after a batch, the next drain
// waits for the key's recent writers to come back, up to the window, and
// runs with what it has when the window passes. A fake runner stands in for
// the commit: it records each batch's size and answers every request.
#include "catalog/commit/commit_batcher.h"

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

// One key's writers against a batcher with gathering window `gather_micros`.
class Writers {
 public:
  explicit Writers(int64_t gather_micros)
      : batcher_(64, 1000, gather_micros), runner_(recorder.runner()) {}
  ~Writers() { Join(); }

  // A writer commits once on its own thread.
  void Submit() {
    threads_.emplace_back([this] {
      CommitBatcher::Request request;
      EXPECT_TRUE(batcher_.Submit(7, request, runner_).ok());
    });
  }
  // A runs alone (a key's first batch has nothing to gather) and is held
  // while B and C queue behind it; then A's batch ends, with two queued.
  void FirstAloneThenTwoQueued() {
    recorder.hold = true;
    Submit();
    WaitFor(recorder.drained, 1);
    Submit();
    Submit();
    std::this_thread::sleep_for(std::chrono::milliseconds(100));  // B and C queue
    recorder.hold = false;
  }
  void Join() {
    for (std::thread& t : threads_) t.join();
    threads_.clear();
  }

  Recorder recorder;

 private:
  CommitBatcher batcher_;
  const CommitBatcher::Runner runner_;
  std::vector<std::thread> threads_;
};

TEST(CommitBatcherTest, TheNextBatchGathersTheLastBatchsWriters) {
  // A window far longer than the test needs: the batch must start because
  // its target was reached, not because the window passed.
  Writers writers(/*gather_micros=*/60'000'000);
  writers.FirstAloneThenTwoQueued();
  // A's batch answered one and left two queued: the next gathers three. B
  // leads and waits in its drain; D arriving then joins B and C.
  WaitFor(writers.recorder.draining, 2);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_EQ(writers.recorder.drained.load(), 1) << "the second batch did not wait to gather";
  writers.Submit();
  writers.Join();
  EXPECT_EQ(writers.recorder.sizes(), (std::vector<size_t>{1, 3}));
}

TEST(CommitBatcherTest, AnUnreachedTargetWaitsOnlyTheWindow) {
  Writers writers(/*gather_micros=*/20'000);
  writers.FirstAloneThenTwoQueued();
  writers.Join();  // the target (3) never comes: B and C go after the window
  // The key is idle now with a target of 2; a lone writer waits the window
  // once, runs alone, and from then on (target 1) never waits.
  writers.Submit();
  writers.Join();
  EXPECT_EQ(writers.recorder.sizes(), (std::vector<size_t>{1, 2, 1}));
}

TEST(CommitBatcherTest, NoGatheringWhenTheWindowIsZero) {
  Writers writers(/*gather_micros=*/0);
  writers.FirstAloneThenTwoQueued();
  writers.Join();
  EXPECT_EQ(writers.recorder.sizes(), (std::vector<size_t>{1, 2}));
}

TEST(CommitBatcherTest, ManyWritersAreEachAnsweredOnceWithTheirOwnResult) {
  // Every wake-up is a post on the waiter's own semaphore, after the mutex
  // is released: a lost or doubled post would hang a writer or hand it
  // another's result. Sixteen writers, 300 commits each, across two keys.
  CommitBatcher batcher(/*max_requests=*/8, /*max_weight=*/1'000'000'000, /*gather_micros=*/200);
  std::atomic<int64_t> answered{0};
  const CommitBatcher::Runner runner = [&](const CommitBatcher::Drain& drain) {
    // A batch takes a while, so that writers queue behind it.
    std::this_thread::sleep_for(std::chrono::microseconds(100));
    for (CommitBatcher::Request* r : drain()) {
      CommitResult result;
      result.snapshot_id = r->weight;  // echoes the writer's own tag
      r->result = result;
      ++answered;
    }
  };
  constexpr int kWriters = 16;
  constexpr int kCommits = 300;
  std::vector<std::thread> writers;
  std::atomic<int> wrong{0};
  for (int w = 0; w < kWriters; ++w) {
    writers.emplace_back([&, w] {
      for (int i = 0; i < kCommits; ++i) {
        CommitBatcher::Request request;
        request.weight = w * kCommits + i + 1;  // unique, and a batch takes at most 8
        Result<CommitResult> got = batcher.Submit(w % 2, request, runner);
        if (!got.ok() || got->snapshot_id != request.weight) ++wrong;
      }
    });
  }
  for (std::thread& t : writers) t.join();
  EXPECT_EQ(wrong.load(), 0);
  EXPECT_EQ(answered.load(), kWriters * kCommits);
}

}  // namespace
}  // namespace hoglake::catalog
