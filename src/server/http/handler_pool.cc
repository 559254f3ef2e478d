#include "server/http/handler_pool.h"

#include <utility>

namespace hoglake::server {

HandlerPool::HandlerPool(int threads) {
  threads_.reserve(static_cast<size_t>(threads));
  for (int i = 0; i < threads; ++i) threads_.emplace_back([this] { Work(); });
}

void HandlerPool::Enqueue(Task task) {
  {
    std::lock_guard lock(mutex_);
    if (!stopping_) {
      queue_.push_back(Queued{std::move(task), Clock::now()});
      ready_.notify_one();
      return;
    }
  }
  task(0);
}

void HandlerPool::Shutdown() {
  {
    std::lock_guard lock(mutex_);
    if (stopping_ && threads_.empty()) return;
    stopping_ = true;
  }
  ready_.notify_all();
  for (std::thread& thread : threads_) thread.join();
  threads_.clear();
}

void HandlerPool::Work() {
  for (;;) {
    Queued next;
    {
      std::unique_lock lock(mutex_);
      ready_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return;  // stopping, nothing left to run
      next = std::move(queue_.front());
      queue_.pop_front();
    }
    next.task(std::chrono::duration<double>(Clock::now() - next.queued_at).count());
  }
}

}  // namespace hoglake::server
