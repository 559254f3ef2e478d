#include "server/http/streamed_body.h"

namespace hoglake::server {

StreamedBody::StreamedBody(size_t capacity, std::function<void()> resume)
    : capacity_(capacity), resume_(std::move(resume)) {}

bool StreamedBody::Push(std::string_view bytes) {
  {
    std::lock_guard lock(mutex_);
    if (refusal_ || finished_) return true;
    // Small reads are joined so the handler wakes per useful amount.
    if (!pieces_.empty() && pieces_.back().size() + bytes.size() <= (size_t{64} << 10)) {
      pieces_.back().append(bytes);
    } else {
      pieces_.emplace_back(bytes);
    }
    buffered_ += bytes.size();
    if (buffered_ >= capacity_) paused_ = true;
  }
  ready_.notify_one();
  std::lock_guard lock(mutex_);
  return !paused_;
}

void StreamedBody::Finish() {
  {
    std::lock_guard lock(mutex_);
    if (refusal_) return;
    finished_ = true;
  }
  ready_.notify_all();
}

void StreamedBody::Fail(int status, std::string message) {
  {
    std::lock_guard lock(mutex_);
    if (refusal_ || finished_) return;
    refusal_ = BodyRefusal{status, std::move(message)};
    pieces_.clear();
    buffered_ = 0;
  }
  ready_.notify_all();
}

Result<bool> StreamedBody::Next(std::string* piece) {
  bool resume = false;
  {
    std::unique_lock lock(mutex_);
    ready_.wait(lock, [this] { return !pieces_.empty() || finished_ || refusal_; });
    if (refusal_) {
      return MakeError(ErrorCode::kBadRequest,
                       StrCat("the request body was not received whole: ", refusal_->message));
    }
    if (pieces_.empty()) return false;  // finished
    *piece = std::move(pieces_.front());
    pieces_.pop_front();
    buffered_ -= piece->size();
    if (paused_ && buffered_ <= capacity_ / 2) {
      paused_ = false;
      resume = true;
    }
  }
  if (resume) resume_();
  return true;
}

bool StreamedBody::finished() const {
  std::lock_guard lock(mutex_);
  return finished_;
}

std::optional<BodyRefusal> StreamedBody::refusal() const {
  std::lock_guard lock(mutex_);
  return refusal_;
}

}  // namespace hoglake::server
