// HandlerPool: a fixed set of threads running request handlers in the order
// they were queued. Each task learns how long it waited for a thread (the
// admission bound in http_server.h sheds requests that waited too long).
// Shutdown runs what is still queued, then joins the threads.
#pragma once

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace hoglake::server {

class HandlerPool {
 public:
  // Called on a pool thread with the seconds the task waited in the queue.
  using Task = std::function<void(double queued_seconds)>;

  explicit HandlerPool(int threads);
  HandlerPool(const HandlerPool&) = delete;
  HandlerPool& operator=(const HandlerPool&) = delete;
  ~HandlerPool() { Shutdown(); }

  // Thread-safe. After Shutdown the task runs on the calling thread.
  void Enqueue(Task task);
  // Runs the queued tasks, then joins the threads; idempotent.
  void Shutdown();

 private:
  using Clock = std::chrono::steady_clock;
  struct Queued {
    Task task;
    Clock::time_point queued_at;
  };
  void Work();

  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<Queued> queue_;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace hoglake::server
