// Buffer: an immutable, shared, contiguous byte range; BufferBuilder: the
// growable owned memory builders write into before freezing it.
//
// A Buffer either owns 64-byte aligned memory it allocated, or views memory
// kept alive by an opaque owner (an imported C Data array, an IPC message
// body). Holding a shared_ptr<Buffer> keeps the bytes valid; nothing else does.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <string_view>
#include <utility>

namespace hoglake::columnar {

class Buffer {
 public:
  // Owned, zero-filled memory of `size` bytes (capacity padded to 64).
  static std::shared_ptr<Buffer> Allocate(int64_t size);
  // A copy of `size` bytes at `data`.
  static std::shared_ptr<Buffer> CopyOf(const void* data, int64_t size);
  // A view of memory that stays valid while `owner` is alive.
  static std::shared_ptr<Buffer> Wrap(const uint8_t* data, int64_t size,
                                      std::shared_ptr<const void> owner);
  // A view of `length` bytes of `parent` starting at `offset`; keeps `parent`
  // alive. The caller checks offset + length ≤ parent->size().
  static std::shared_ptr<Buffer> Slice(const std::shared_ptr<Buffer>& parent, int64_t offset,
                                       int64_t length);

  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  ~Buffer();

  const uint8_t* data() const { return data_; }
  int64_t size() const { return size_; }
  template <typename T>
  const T* data_as() const {
    return reinterpret_cast<const T*>(data_);
  }
  std::string_view view() const {
    return std::string_view(reinterpret_cast<const char*>(data_), static_cast<size_t>(size_));
  }
  // Writable pointer; valid only for buffers this process allocated and has
  // not yet shared.
  uint8_t* mutable_data() { return const_cast<uint8_t*>(data_); }

 private:
  friend class BufferBuilder;
  Buffer(const uint8_t* data, int64_t size, bool owns, std::shared_ptr<const void> owner)
      : data_(data), size_(size), owns_(owns), owner_(std::move(owner)) {}

  const uint8_t* data_;
  int64_t size_;
  bool owns_;  // data_ came from AllocateAligned and is freed with the buffer
  std::shared_ptr<const void> owner_;
};

// Growable 64-byte aligned memory. Finish() hands it over as a Buffer.
class BufferBuilder {
 public:
  BufferBuilder() = default;
  BufferBuilder(const BufferBuilder&) = delete;
  BufferBuilder& operator=(const BufferBuilder&) = delete;
  BufferBuilder(BufferBuilder&& other) noexcept;
  BufferBuilder& operator=(BufferBuilder&& other) noexcept;
  ~BufferBuilder();

  int64_t size() const { return size_; }
  uint8_t* data() { return data_; }
  const uint8_t* data() const { return data_; }

  // Ensures room for `additional` more bytes without reallocation.
  void Reserve(int64_t additional) {
    if (size_ + additional > capacity_) Grow(size_ + additional);
  }
  // Sets the size; new bytes are zero.
  void Resize(int64_t new_size);
  void Append(const void* bytes, int64_t n) {
    Reserve(n);
    if (n > 0) std::memcpy(data_ + size_, bytes, static_cast<size_t>(n));
    size_ += n;
  }
  template <typename T>
  void AppendValue(const T& value) {
    Append(&value, sizeof(T));
  }
  // The bytes written so far as a Buffer; the builder is empty afterwards.
  std::shared_ptr<Buffer> Finish();

 private:
  void Grow(int64_t min_capacity);

  uint8_t* data_ = nullptr;
  int64_t size_ = 0;
  int64_t capacity_ = 0;
};

// ---- bitmaps (LSB-first bit order, as Arrow) ---------------------------------

inline bool GetBit(const uint8_t* bits, int64_t i) { return (bits[i >> 3] >> (i & 7)) & 1; }
inline void SetBit(uint8_t* bits, int64_t i) {
  bits[i >> 3] |= static_cast<uint8_t>(1u << (i & 7));
}
inline void ClearBit(uint8_t* bits, int64_t i) {
  bits[i >> 3] &= static_cast<uint8_t>(~(1u << (i & 7)));
}
inline int64_t BytesForBits(int64_t bits) { return (bits + 7) / 8; }
// Number of set bits among bits [offset, offset + length).
int64_t CountSetBits(const uint8_t* bits, int64_t offset, int64_t length);

// Appends bits one at a time; used for validity bitmaps and bool values.
class BitmapBuilder {
 public:
  void Append(bool bit) {
    if ((length_ & 7) == 0) bytes_.AppendValue<uint8_t>(0);
    if (bit) SetBit(bytes_.data(), length_);
    ++length_;
  }
  // Appends `n` copies of `bit`.
  void AppendN(int64_t n, bool bit);
  int64_t length() const { return length_; }
  std::shared_ptr<Buffer> Finish() {
    length_ = 0;
    return bytes_.Finish();
  }

 private:
  BufferBuilder bytes_;
  int64_t length_ = 0;
};

}  // namespace hoglake::columnar
