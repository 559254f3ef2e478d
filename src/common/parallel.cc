#include "common/parallel.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace hoglake {
namespace {

// Helper threads, created on demand (never more than kMaxPoolThreads) and
// kept for the life of the process.
class Pool {
 public:
  void Submit(int helpers_wanted, std::function<void()> job) {
    std::lock_guard<std::mutex> lock(mu_);
    helpers_wanted = std::min(helpers_wanted, kMaxPoolThreads);
    // Idle workers take queued jobs first; start more only when the jobs
    // waiting outnumber them.
    while (workers_ < helpers_wanted && idle_ <= static_cast<int>(queue_.size())) {
      std::thread([this] { Loop(); }).detach();
      ++workers_;
      ++idle_;
    }
    queue_.push_back(std::move(job));
    cv_.notify_one();
  }

 private:
  void Loop() {
    while (true) {
      std::function<void()> job;
      {
        std::unique_lock<std::mutex> lock(mu_);
        cv_.wait(lock, [this] { return !queue_.empty(); });
        job = std::move(queue_.front());
        queue_.pop_front();
        --idle_;
      }
      job();
      std::lock_guard<std::mutex> lock(mu_);
      ++idle_;
    }
  }

  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> queue_;
  int workers_ = 0;
  int idle_ = 0;
};

Pool& GlobalPool() {
  static Pool* pool = new Pool;  // never destroyed: detached workers use it
  return *pool;
}

// State shared by the caller and its helpers. `fn` is only touched by a
// helper that registered as active before the caller closed the run.
struct Run {
  const std::function<void(int64_t, int)>* fn = nullptr;
  int64_t n = 0;
  std::atomic<int64_t> next{0};
  std::atomic<bool> stopped{false};
  std::mutex mu;
  std::condition_variable idle;
  bool closed = false;
  int active = 0;
  std::exception_ptr failure;  // the first exception, under mu

  void Work(int slot) {
    try {
      while (!stopped.load(std::memory_order_relaxed)) {
        const int64_t i = next.fetch_add(1);
        if (i >= n) return;
        (*fn)(i, slot);
      }
    } catch (...) {
      stopped = true;
      std::lock_guard<std::mutex> lock(mu);
      if (!failure) failure = std::current_exception();
    }
  }
};

}  // namespace

int ResolveThreads(int requested) {
  if (requested > 0) return std::min(requested, kMaxThreads);
  const unsigned hw = std::thread::hardware_concurrency();
  return std::clamp(static_cast<int>(hw), 1, kMaxThreads);
}

void ParallelFor(int64_t n, int threads, const std::function<void(int64_t, int)>& fn) {
  threads = std::min(threads, kMaxPoolThreads + 1);
  if (threads <= 1 || n <= 1) {
    for (int64_t i = 0; i < n; ++i) fn(i, 0);
    return;
  }
  auto run = std::make_shared<Run>();
  run->fn = &fn;
  run->n = n;
  const int helpers = static_cast<int>(std::min<int64_t>(threads - 1, n - 1));
  for (int h = 1; h <= helpers; ++h) {
    GlobalPool().Submit(helpers, [run, h] {
      {
        std::lock_guard<std::mutex> lock(run->mu);
        if (run->closed) return;
        ++run->active;
      }
      run->Work(h);
      std::lock_guard<std::mutex> lock(run->mu);
      if (--run->active == 0) run->idle.notify_all();
    });
  }
  run->Work(0);
  std::unique_lock<std::mutex> lock(run->mu);
  run->closed = true;
  run->idle.wait(lock, [&] { return run->active == 0; });
  if (run->failure) std::rethrow_exception(run->failure);
}

Status ParallelForStatus(int64_t n, int threads, const std::function<Status(int64_t, int)>& fn) {
  std::atomic<bool> failed{false};
  std::mutex mu;
  std::optional<Error> first;
  ParallelFor(n, threads, [&](int64_t i, int slot) {
    if (failed.load(std::memory_order_relaxed)) return;
    Status status = fn(i, slot);
    if (status.ok()) return;
    std::lock_guard<std::mutex> lock(mu);
    if (!first) first = status.error();
    failed = true;
  });
  if (first) return *first;
  return Status::Ok();
}

}  // namespace hoglake
