#include "sql/source/footer_cache.h"

#include <functional>

namespace hoglake::sql {

FooterCache::FooterCache(int64_t capacity_bytes)
    : capacity_bytes_(capacity_bytes < 0 ? 0 : capacity_bytes) {}

size_t FooterCache::KeyHash::operator()(const Key& key) const {
  size_t h = std::hash<std::string>()(key.path);
  h ^= std::hash<int64_t>()(key.file_size) + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  h ^= std::hash<int64_t>()(key.data_file_id) + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  return h;
}

std::shared_ptr<const parquet::ParquetFooter> FooterCache::Find(const Key& key) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = index_.find(key);
  if (it == index_.end()) {
    ++counters_.misses;
    return nullptr;
  }
  ++counters_.hits;
  lru_.splice(lru_.begin(), lru_, it->second);
  return it->second->footer;
}

void FooterCache::Insert(const Key& key, std::shared_ptr<const parquet::ParquetFooter> footer) {
  if (!footer) return;
  const int64_t bytes = footer->memory_bytes();
  std::lock_guard<std::mutex> lock(mu_);
  if (auto it = index_.find(key); it != index_.end()) {
    counters_.bytes -= it->second->bytes;
    lru_.erase(it->second);
    index_.erase(it);
    --counters_.entries;
  }
  if (bytes > capacity_bytes_) return;
  EvictTo(capacity_bytes_ - bytes);
  lru_.push_front(Entry{key, std::move(footer), bytes});
  index_.emplace(key, lru_.begin());
  counters_.bytes += bytes;
  ++counters_.entries;
}

void FooterCache::EvictTo(int64_t limit) {
  while (counters_.bytes > limit && !lru_.empty()) {
    const Entry& last = lru_.back();
    counters_.bytes -= last.bytes;
    index_.erase(last.key);
    lru_.pop_back();
    --counters_.entries;
    ++counters_.evictions;
  }
}

FooterCache::Counters FooterCache::counters() const {
  std::lock_guard<std::mutex> lock(mu_);
  return counters_;
}

}  // namespace hoglake::sql
