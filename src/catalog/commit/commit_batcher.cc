#include "catalog/commit/commit_batcher.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <exception>

namespace hoglake::catalog {
namespace {

void WaitFor(sem_t& wake) {
  while (sem_wait(&wake) != 0 && errno == EINTR) {
  }
}

}  // namespace

Result<CommitResult> CommitBatcher::Submit(int64_t key, Request& request, const Runner& runner) {
  std::unique_lock lock(mutex_);
  Queue& queue = queues_[key];  // std::map nodes are stable
  queue.waiting.push_back(&request);
  const bool completes_gather =
      queue.gathering_for > 0 && queue.waiting.size() == queue.gathering_for;
  const bool leads = !queue.running;
  if (leads) {
    queue.running = true;
    request.lead = true;
  }
  lock.unlock();
  if (completes_gather) queue.arrivals.notify_one();
  if (!leads) {
    WaitFor(request.wake);  // posted once, after `done` or `lead` was set
    if (request.done) return std::move(*request.result);
  }

  // Leading: this request is at the front of the queue.
  std::vector<Request*> batch;
  bool drained = false;
  const Drain drain = [&]() {
    std::unique_lock<std::mutex> guard(mutex_);
    if (!drained) {
      drained = true;
      const size_t target = std::min(queue.gather_target, max_requests_);
      if (gather_micros_ > 0 && queue.waiting.size() < target) {
        queue.gathering_for = target;
        queue.arrivals.wait_for(guard, std::chrono::microseconds(gather_micros_),
                                [&] { return queue.waiting.size() >= target; });
        queue.gathering_for = 0;
      }
      int64_t weight = 0;
      while (!queue.waiting.empty() && batch.size() < max_requests_) {
        Request* next = queue.waiting.front();
        if (!batch.empty() && weight + next->weight > max_weight_) break;
        weight += next->weight;
        batch.push_back(next);
        queue.waiting.pop_front();
      }
    }
    return batch;
  };
  try {
    runner(drain);
  } catch (const std::exception& e) {
    drain();
    for (Request* r : batch) r->result = Internal("commit batch failed: ", e.what());
  }
  drain();  // a runner that failed before draining still answers its batch

  lock.lock();
  for (Request* r : batch) {
    if (!r->result) r->result = Internal("commit batch ended without a result");
    r->done = true;
  }
  queue.running = false;
  queue.gather_target = batch.size() + queue.waiting.size();
  Request* next = nullptr;
  if (!queue.waiting.empty()) {
    next = queue.waiting.front();
    queue.running = true;
    next->lead = true;
  }  // else the queue stays, idle, with its gather target (one per catalog)
  lock.unlock();
  // Every other request of the batch returns (and is destroyed) as soon as
  // it wakes: nothing of it is touched after its post.
  for (Request* r : batch) {
    if (r != &request) sem_post(&r->wake);
  }
  if (next != nullptr) sem_post(&next->wake);
  return std::move(*request.result);
}

}  // namespace hoglake::catalog
