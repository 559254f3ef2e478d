#include "columnar/buffer.h"

#include <algorithm>
#include <bit>
#include <cstdlib>
#include <new>
#include <utility>

namespace hoglake::columnar {
namespace {

constexpr int64_t kAlignment = 64;

int64_t RoundUp64(int64_t n) { return (n + kAlignment - 1) & ~(kAlignment - 1); }

uint8_t* AllocateAligned(int64_t capacity) {
  int64_t rounded = RoundUp64(std::max<int64_t>(capacity, 1));
  void* p = std::aligned_alloc(kAlignment, static_cast<size_t>(rounded));
  if (p == nullptr) throw std::bad_alloc();
  return static_cast<uint8_t*>(p);
}

}  // namespace

std::shared_ptr<Buffer> Buffer::Allocate(int64_t size) {
  uint8_t* data = AllocateAligned(size);
  std::memset(data, 0, static_cast<size_t>(RoundUp64(std::max<int64_t>(size, 1))));
  return std::shared_ptr<Buffer>(new Buffer(data, size, true, nullptr));
}

std::shared_ptr<Buffer> Buffer::CopyOf(const void* data, int64_t size) {
  auto buffer = Allocate(size);
  if (size > 0) std::memcpy(buffer->mutable_data(), data, static_cast<size_t>(size));
  return buffer;
}

std::shared_ptr<Buffer> Buffer::Wrap(const uint8_t* data, int64_t size,
                                     std::shared_ptr<const void> owner) {
  return std::shared_ptr<Buffer>(new Buffer(data, size, false, std::move(owner)));
}

std::shared_ptr<Buffer> Buffer::Slice(const std::shared_ptr<Buffer>& parent, int64_t offset,
                                      int64_t length) {
  return std::shared_ptr<Buffer>(new Buffer(parent->data() + offset, length, false, parent));
}

Buffer::~Buffer() {
  if (owns_) std::free(const_cast<uint8_t*>(data_));
}

BufferBuilder::BufferBuilder(BufferBuilder&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)),
      size_(std::exchange(other.size_, 0)),
      capacity_(std::exchange(other.capacity_, 0)) {}

BufferBuilder& BufferBuilder::operator=(BufferBuilder&& other) noexcept {
  if (this != &other) {
    std::free(data_);
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
    capacity_ = std::exchange(other.capacity_, 0);
  }
  return *this;
}

BufferBuilder::~BufferBuilder() { std::free(data_); }

void BufferBuilder::Grow(int64_t min_capacity) {
  int64_t capacity = RoundUp64(std::max(min_capacity, capacity_ * 2));
  uint8_t* data = AllocateAligned(capacity);
  if (size_ > 0) std::memcpy(data, data_, static_cast<size_t>(size_));
  std::free(data_);
  data_ = data;
  capacity_ = capacity;
}

void BufferBuilder::Resize(int64_t new_size) {
  if (new_size > capacity_) Grow(new_size);
  if (new_size > size_) std::memset(data_ + size_, 0, static_cast<size_t>(new_size - size_));
  size_ = new_size;
}

std::shared_ptr<Buffer> BufferBuilder::Finish() {
  if (data_ == nullptr) Grow(1);
  // Zero the padding so that buffers written out (IPC) never leak old bytes.
  std::memset(data_ + size_, 0, static_cast<size_t>(capacity_ - size_));
  auto buffer = std::shared_ptr<Buffer>(new Buffer(data_, size_, true, nullptr));
  data_ = nullptr;
  size_ = 0;
  capacity_ = 0;
  return buffer;
}

int64_t CountSetBits(const uint8_t* bits, int64_t offset, int64_t length) {
  int64_t count = 0;
  int64_t i = offset;
  const int64_t end = offset + length;
  for (; i < end && (i & 63) != 0; ++i) count += GetBit(bits, i);
  for (; i + 64 <= end; i += 64) {
    uint64_t word;
    std::memcpy(&word, bits + (i >> 3), 8);
    count += std::popcount(word);
  }
  for (; i < end; ++i) count += GetBit(bits, i);
  return count;
}

void BitmapBuilder::AppendN(int64_t n, bool bit) {
  // Fill up to a byte boundary, then whole bytes, then the tail.
  while (n > 0 && (length_ & 7) != 0) {
    Append(bit);
    --n;
  }
  int64_t whole = n / 8;
  if (whole > 0) {
    int64_t old = bytes_.size();
    bytes_.Resize(old + whole);
    if (bit) std::memset(bytes_.data() + old, 0xFF, static_cast<size_t>(whole));
    length_ += whole * 8;
    n -= whole * 8;
  }
  while (n-- > 0) Append(bit);
}

}  // namespace hoglake::columnar
