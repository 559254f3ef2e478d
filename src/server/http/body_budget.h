// BodyBudget: the server-wide bound on memory held by request bodies. The
// HTTP front end reserves every byte a request body will hold before it
// buffers it (a Content-Length body at once, a chunked body chunk by chunk)
// and gives the bytes back when the request's handler is done with the
// body. A reservation past the bound is refused, and the front end answers
// 503 with Retry-After. Thread-safe; reserving is one atomic update.
#pragma once

#include <atomic>
#include <cstdint>

namespace hoglake::server {

class BodyBudget {
 public:
  explicit BodyBudget(uint64_t limit_bytes) : limit_(limit_bytes) {}
  BodyBudget(const BodyBudget&) = delete;
  BodyBudget& operator=(const BodyBudget&) = delete;

  // Takes `bytes` from the budget; false (nothing taken) when that would
  // pass the limit.
  bool TryReserve(uint64_t bytes);
  void Release(uint64_t bytes);
  uint64_t held() const { return held_.load(std::memory_order_relaxed); }
  uint64_t limit() const { return limit_; }

 private:
  const uint64_t limit_;
  std::atomic<uint64_t> held_{0};
};

// The bytes one request holds from a BodyBudget, given back when destroyed
// (or on Release). Movable, not copyable.
class BodyReservation {
 public:
  BodyReservation() = default;
  explicit BodyReservation(BodyBudget* budget) : budget_(budget) {}
  BodyReservation(BodyReservation&& other) noexcept;
  BodyReservation& operator=(BodyReservation&& other) noexcept;
  ~BodyReservation() { Release(); }

  // Takes `bytes` more; false (nothing taken) when the budget refuses.
  bool Add(uint64_t bytes);
  void Release();
  uint64_t bytes() const { return bytes_; }

 private:
  BodyBudget* budget_ = nullptr;
  uint64_t bytes_ = 0;
};

}  // namespace hoglake::server
