// DictionaryBuilder: the dictionary of one column chunk as a writer builds it:
// the distinct values in first-seen order, their PLAIN encoding (the
// dictionary page body) and a hash index from a value to its position.
//
// Fixed-width values of 4 or 8 bytes are keyed by their bits (no allocation
// per key); other values (byte arrays, FIXED_LEN_BYTE_ARRAY) are keyed by a
// 64-bit hash plus their bytes, which live only in the page body. The index
// is open addressing with linear probing, kept at most half full; a slot
// holds 32 bits of the value's hash and its position (8 bytes).
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace hoglake::parquet {

class DictionaryBuilder {
 public:
  // `length_prefixed`: PLAIN values carry a 4-byte length (BYTE_ARRAY).
  explicit DictionaryBuilder(bool length_prefixed) : length_prefixed_(length_prefixed) {}

  // Index of a 4- or 8-byte value (T = uint32_t or uint64_t bits), adding it
  // when new.
  template <typename T>
  uint32_t AddFixed(T bits) {
    if (slots_.empty()) Rehash(kInitialSlots);
    const uint32_t hash = static_cast<uint32_t>(Mix(bits) >> 32);
    size_t pos = hash & mask_;
    while (true) {
      const uint64_t slot = slots_[pos];
      if (slot == 0) {
        const uint32_t index = size_++;
        slots_[pos] = Slot(hash, index);
        plain_.append(reinterpret_cast<const char*>(&bits), sizeof(T));
        if (size_ * 2 > slots_.size()) Rehash(slots_.size() * 2);
        return index;
      }
      if (static_cast<uint32_t>(slot >> 32) == hash) {
        const uint32_t index = static_cast<uint32_t>(slot) - 1;
        T stored;
        std::memcpy(&stored, plain_.data() + size_t{index} * sizeof(T), sizeof(T));
        if (stored == bits) return index;
      }
      pos = (pos + 1) & mask_;
    }
  }

  // Index of a byte value (without length prefix), adding it when new.
  uint32_t AddBytes(std::string_view v);

  uint32_t size() const { return size_; }
  const std::string& plain() const { return plain_; }
  int64_t plain_size() const { return static_cast<int64_t>(plain_.size()); }
  // Empties the dictionary, keeping its memory for the next chunk.
  void Clear();

 private:
  // A slot: 0 when empty, else (32 hash bits << 32) | (position + 1).
  static uint64_t Slot(uint32_t hash, uint32_t index) {
    return (uint64_t{hash} << 32) | (uint64_t{index} + 1);
  }
  static constexpr size_t kInitialSlots = 1024;

  static uint64_t Mix(uint64_t k) {
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    return k;
  }
  void Rehash(size_t slots);

  bool length_prefixed_;
  std::vector<uint64_t> slots_;
  size_t mask_ = 0;
  uint32_t size_ = 0;
  std::string plain_;
  // Byte values only: where value i's bytes start in plain_, and its length.
  std::vector<uint32_t> starts_, lengths_;
};

}  // namespace hoglake::parquet
