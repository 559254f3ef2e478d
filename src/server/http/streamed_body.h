// StreamedBody: the window between the event loop, which pushes a
// streaming request's body into it as the bytes arrive, and the handler
// thread, which reads it (BodyStream::Next). The window is bounded: when
// it holds `capacity` bytes or more, Push says so and the loop stops
// reading the socket; once the handler has read it down to half, the
// `resume` callback (given at construction) asks the loop to read again.
// So a streamed body costs at most `capacity` plus one socket read of
// memory, however large it is and however slow the handler's storage.
//
// The loop ends the body with Finish (complete) or Fail (with the status
// the front end answers instead of the handler, or 0 when the client is
// gone and nothing can be answered). Thread-safe.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <utility>

#include "server/http/http_types.h"

namespace hoglake::server {

struct BodyRefusal {
  int status = 0;  // 0: the client is gone, no answer
  std::string message;
};

class StreamedBody final : public BodyStream {
 public:
  StreamedBody(size_t capacity, std::function<void()> resume);

  // Loop side. Appends `bytes`; false when the window is full (stop
  // reading until `resume` runs). Bytes pushed after Fail are dropped.
  bool Push(std::string_view bytes);
  void Finish();
  // The first Fail wins; a Fail after Finish does nothing.
  void Fail(int status, std::string message);

  // Handler side.
  Result<bool> Next(std::string* piece) override;

  // Whether every byte of the body arrived (Finish).
  bool finished() const;
  // Why the body failed, if it did before finishing.
  std::optional<BodyRefusal> refusal() const;

 private:
  const size_t capacity_;
  const std::function<void()> resume_;
  mutable std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<std::string> pieces_;
  size_t buffered_ = 0;
  bool paused_ = false;  // Push said full; resume_ not yet called
  bool finished_ = false;
  std::optional<BodyRefusal> refusal_;
};

}  // namespace hoglake::server
