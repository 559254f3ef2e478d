#include "server/http/body_budget.h"

#include <utility>

namespace hoglake::server {

bool BodyBudget::TryReserve(uint64_t bytes) {
  uint64_t held = held_.load(std::memory_order_relaxed);
  do {
    if (bytes > limit_ || held > limit_ - bytes) return false;
  } while (!held_.compare_exchange_weak(held, held + bytes, std::memory_order_relaxed));
  return true;
}

void BodyBudget::Release(uint64_t bytes) { held_.fetch_sub(bytes, std::memory_order_relaxed); }

BodyReservation::BodyReservation(BodyReservation&& other) noexcept
    : budget_(other.budget_), bytes_(std::exchange(other.bytes_, 0)) {}

BodyReservation& BodyReservation::operator=(BodyReservation&& other) noexcept {
  if (this != &other) {
    Release();
    budget_ = other.budget_;
    bytes_ = std::exchange(other.bytes_, 0);
  }
  return *this;
}

bool BodyReservation::Add(uint64_t bytes) {
  if (budget_ == nullptr) return true;
  if (!budget_->TryReserve(bytes)) return false;
  bytes_ += bytes;
  return true;
}

void BodyReservation::Release() {
  if (budget_ != nullptr && bytes_ > 0) budget_->Release(bytes_);
  bytes_ = 0;
}

}  // namespace hoglake::server
