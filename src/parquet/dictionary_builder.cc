#include "parquet/dictionary_builder.h"

#include <algorithm>

namespace hoglake::parquet {
namespace {

uint64_t HashBytes(const char* p, size_t n) {
  uint64_t h = 0x9E3779B97F4A7C15ULL ^ (n * 0xC2B2AE3D27D4EB4FULL);
  while (n >= 8) {
    uint64_t w;
    std::memcpy(&w, p, 8);
    h = (h ^ w) * 0x9E3779B97F4A7C15ULL;
    h ^= h >> 29;
    p += 8;
    n -= 8;
  }
  if (n > 0) {
    uint64_t w = 0;
    std::memcpy(&w, p, n);
    h = (h ^ w) * 0x9E3779B97F4A7C15ULL;
    h ^= h >> 29;
  }
  return h;
}

}  // namespace

uint32_t DictionaryBuilder::AddBytes(std::string_view v) {
  if (slots_.empty()) Rehash(kInitialSlots);
  const uint32_t hash = static_cast<uint32_t>(Mix(HashBytes(v.data(), v.size())) >> 32);
  size_t pos = hash & mask_;
  while (true) {
    const uint64_t slot = slots_[pos];
    if (slot == 0) {
      const uint32_t index = size_++;
      slots_[pos] = Slot(hash, index);
      if (length_prefixed_) {
        const uint32_t n = static_cast<uint32_t>(v.size());
        plain_.append(reinterpret_cast<const char*>(&n), 4);
      }
      starts_.push_back(static_cast<uint32_t>(plain_.size()));
      lengths_.push_back(static_cast<uint32_t>(v.size()));
      plain_.append(v);
      if (size_ * 2 > slots_.size()) Rehash(slots_.size() * 2);
      return index;
    }
    if (static_cast<uint32_t>(slot >> 32) == hash) {
      const uint32_t i = static_cast<uint32_t>(slot) - 1;
      if (lengths_[i] == v.size() &&
          std::memcmp(plain_.data() + starts_[i], v.data(), v.size()) == 0) {
        return i;
      }
    }
    pos = (pos + 1) & mask_;
  }
}

void DictionaryBuilder::Rehash(size_t slots) {
  std::vector<uint64_t> old = std::move(slots_);
  slots_.assign(slots, 0);
  mask_ = slots - 1;
  for (const uint64_t s : old) {
    if (s == 0) continue;
    size_t pos = static_cast<size_t>(s >> 32) & mask_;
    while (slots_[pos] != 0) pos = (pos + 1) & mask_;
    slots_[pos] = s;
  }
}

void DictionaryBuilder::Clear() {
  std::fill(slots_.begin(), slots_.end(), 0);
  size_ = 0;
  plain_.clear();
  starts_.clear();
  lengths_.clear();
}

}  // namespace hoglake::parquet
