#include "common/random_access_stream.h"

#include <algorithm>
#include <stdexcept>

namespace hoglake {

RandomAccessStreamBuf::RandomAccessStreamBuf(std::shared_ptr<RandomAccessSource> source,
                                             int64_t chunk_bytes)
    : source_(std::move(source)), chunk_(static_cast<size_t>(std::max<int64_t>(chunk_bytes, 1))) {
  setg(chunk_.data(), chunk_.data(), chunk_.data());
}

void RandomAccessStreamBuf::Rewind() {
  next_offset_ = 0;
  error_.reset();
  setg(chunk_.data(), chunk_.data(), chunk_.data());
}

RandomAccessStreamBuf::int_type RandomAccessStreamBuf::underflow() {
  if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
  if (error_) throw std::runtime_error(error_->message);
  const int64_t left = source_->size() - next_offset_;
  if (left <= 0) return traits_type::eof();
  const int64_t length = std::min<int64_t>(left, static_cast<int64_t>(chunk_.size()));
  Status read = source_->ReadInto(next_offset_, length, chunk_.data());
  if (!read.ok()) {
    error_ = read.error();
    // istream turns an exception from its buffer into badbit.
    throw std::runtime_error(error_->message);
  }
  next_offset_ += length;
  bytes_fetched_ += length;
  setg(chunk_.data(), chunk_.data(), chunk_.data() + length);
  return traits_type::to_int_type(*gptr());
}

RandomAccessStream::RandomAccessStream(std::shared_ptr<RandomAccessSource> source,
                                       int64_t chunk_bytes)
    : std::istream(nullptr), buffer_(std::move(source), chunk_bytes) {
  rdbuf(&buffer_);
}

void RandomAccessStream::Rewind() {
  buffer_.Rewind();
  clear();
}

}  // namespace hoglake
