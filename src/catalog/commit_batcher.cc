#include "catalog/commit_batcher.h"

#include <algorithm>
#include <chrono>
#include <exception>

namespace hoglake::catalog {

Result<CommitResult> CommitBatcher::Submit(int64_t key, Request& request, const Runner& runner) {
  std::unique_lock lock(mutex_);
  Queue& queue = queues_[key];  // std::map nodes are stable
  queue.waiting.push_back(&request);
  if (queue.gathering) queue.arrivals.notify_one();
  if (!queue.running) {
    queue.running = true;
    request.lead = true;
  }
  request.wake.wait(lock, [&] { return request.done || request.lead; });
  if (request.done) return std::move(*request.result);

  // Leading: this request is at the front of the queue.
  lock.unlock();
  std::vector<Request*> batch;
  bool drained = false;
  const Drain drain = [&]() {
    std::unique_lock<std::mutex> guard(mutex_);
    if (!drained) {
      drained = true;
      const size_t target = std::min(queue.gather_target, max_requests_);
      if (gather_micros_ > 0 && queue.waiting.size() < target) {
        queue.gathering = true;
        queue.arrivals.wait_for(guard, std::chrono::microseconds(gather_micros_),
                                [&] { return queue.waiting.size() >= target; });
        queue.gathering = false;
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
    if (r != &request) r->wake.notify_one();  // under the mutex: r outlives the notify
  }
  queue.running = false;
  queue.gather_target = batch.size() + queue.waiting.size();
  if (!queue.waiting.empty()) {
    Request* next = queue.waiting.front();
    queue.running = true;
    next->lead = true;
    next->wake.notify_one();
  }  // else the queue stays, idle, with its gather target (one per catalog)
  return std::move(*request.result);
}

}  // namespace hoglake::catalog
