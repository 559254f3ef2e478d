// PodBuffer<T>: a growable array of trivially copyable T that, unlike
// std::vector / std::string, can grow without initializing the new elements
// (resize_uninitialized), and can hand its malloc'd block to a columnar
// Buffer without copying (ReleaseToBuffer).
//
// Decoders size their output once and then write every element, so zero-
// filling first (what std::string::resize does) would be a wasted pass over
// memory. resize() still value-initializes, like std::vector. Growth is
// geometric through realloc. Allocation failure aborts, like operator new's
// default handler would.
//
// Blocks of kMappedBlockBytes and more are mapped directly (2 MiB aligned)
// and advised for transparent huge pages: on this kind of VM a 4 KiB page
// fault costs microseconds, so first-touching a decoded column page by page
// is slower than decoding it. They grow with mremap (no copy). Freed
// mappings go to a process-wide cache (128 MiB at most) that later
// allocations of a similar size take from, so a reader that returns new
// arrays for every row group reuses the memory the caller just released
// instead of faulting in fresh pages.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string_view>
#include <type_traits>

#include "columnar/buffer.h"

namespace hoglake::parquet {

namespace pod_block {
inline constexpr size_t kMappedBlockBytes = size_t{256} << 10;
// A block of at least `bytes` (> 0); `*mapped` is 0 for a malloc'd block,
// else the mapping's length.
void* Allocate(size_t bytes, size_t* mapped);
// Resizes a block keeping its first `keep` bytes; may move it.
void* Reallocate(void* p, size_t* mapped, size_t keep, size_t bytes);
void Free(void* p, size_t mapped);
}  // namespace pod_block

template <typename T>
class PodBuffer {
  static_assert(std::is_trivially_copyable_v<T>);

 public:
  PodBuffer() = default;
  ~PodBuffer() { pod_block::Free(data_, mapped_); }
  PodBuffer(const PodBuffer& other) { append(other.data_, other.size_); }
  PodBuffer& operator=(const PodBuffer& other) {
    if (this != &other) {
      clear();
      append(other.data_, other.size_);
    }
    return *this;
  }
  PodBuffer(PodBuffer&& other) noexcept
      : data_(other.data_), size_(other.size_), capacity_(other.capacity_), mapped_(other.mapped_) {
    other.data_ = nullptr;
    other.size_ = other.capacity_ = other.mapped_ = 0;
  }
  PodBuffer& operator=(PodBuffer&& other) noexcept {
    if (this != &other) {
      pod_block::Free(data_, mapped_);
      data_ = other.data_;
      size_ = other.size_;
      capacity_ = other.capacity_;
      mapped_ = other.mapped_;
      other.data_ = nullptr;
      other.size_ = other.capacity_ = other.mapped_ = 0;
    }
    return *this;
  }

  size_t size() const { return size_; }
  size_t capacity() const { return capacity_; }
  bool empty() const { return size_ == 0; }
  T* data() { return data_; }
  const T* data() const { return data_; }
  T& operator[](size_t i) { return data_[i]; }
  const T& operator[](size_t i) const { return data_[i]; }
  T* begin() { return data_; }
  T* end() { return data_ + size_; }
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }

  void clear() { size_ = 0; }
  void reserve(size_t n) {
    if (n > capacity_) Reallocate(n);
  }
  // Grows (or shrinks) to n elements; new elements are left uninitialized.
  void resize_uninitialized(size_t n) {
    if (n > capacity_) Grow(n);
    size_ = n;
  }
  void resize(size_t n, T value = T{}) {
    const size_t old = size_;
    resize_uninitialized(n);
    for (size_t i = old; i < n; ++i) data_[i] = value;
  }
  void assign(size_t n, T value) {
    clear();
    resize(n, value);
  }
  void push_back(T value) {
    if (size_ == capacity_) Grow(size_ + 1);
    data_[size_++] = value;
  }
  void append(const T* values, size_t n) {
    if (n == 0) return;
    if (size_ + n > capacity_) Grow(size_ + n);
    std::memcpy(data_ + size_, values, n * sizeof(T));
    size_ += n;
  }
  // Byte buffers only: appends the bytes of `s`.
  void append(std::string_view s) {
    static_assert(sizeof(T) == 1);
    append(reinterpret_cast<const T*>(s.data()), s.size());
  }
  std::string_view view() const {
    return std::string_view(reinterpret_cast<const char*>(data_), size_ * sizeof(T));
  }

  // A Buffer over the contents that takes the memory over; this buffer is
  // left empty.
  std::shared_ptr<columnar::Buffer> ReleaseToBuffer() {
    if (size_ == 0) return columnar::Buffer::Allocate(0);
    T* p = data_;
    const int64_t bytes = static_cast<int64_t>(size_ * sizeof(T));
    const size_t mapped = mapped_;
    data_ = nullptr;
    size_ = capacity_ = mapped_ = 0;
    std::shared_ptr<void> owner(p, [mapped](void* q) { pod_block::Free(q, mapped); });
    return columnar::Buffer::Wrap(reinterpret_cast<const uint8_t*>(p), bytes, std::move(owner));
  }

 private:
  void Grow(size_t at_least) {
    size_t n = capacity_ < 16 ? 16 : capacity_ * 2;
    if (n < at_least) n = at_least;
    Reallocate(n);
  }
  void Reallocate(size_t n) {
    data_ = static_cast<T*>(
        data_ ? pod_block::Reallocate(data_, &mapped_, size_ * sizeof(T), n * sizeof(T))
              : pod_block::Allocate(n * sizeof(T), &mapped_));
    capacity_ = n;
  }

  T* data_ = nullptr;
  size_t size_ = 0;
  size_t capacity_ = 0;
  size_t mapped_ = 0;  // pod_block's mapping length, 0 for malloc
};

}  // namespace hoglake::parquet
