#include "parquet/pod_buffer.h"

#include <sys/mman.h>

#include <cstddef>
#include <deque>
#include <mutex>
#include <vector>

#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace hoglake::parquet::pod_block {
namespace {

constexpr size_t kPage = 4096;
constexpr uintptr_t kHuge = uintptr_t{2} << 20;

size_t RoundUp(size_t n, size_t to) { return (n + to - 1) / to * to; }

// Huge pages for the mapping [p, p + length): the whole mapping, so that it
// stays one VMA (mremap needs that); only whole aligned 2 MiB ranges inside
// it can become huge pages. A hint only.
void Advise(void* p, size_t length) { ::madvise(p, length, MADV_HUGEPAGE); }

// A 2 MiB-aligned anonymous mapping of `length` bytes (a page multiple).
void* Map(size_t length) {
  const size_t over = length + kHuge;
  void* raw = ::mmap(nullptr, over, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) std::abort();
  const uintptr_t base = reinterpret_cast<uintptr_t>(raw);
  const uintptr_t start = (base + kHuge - 1) & ~(kHuge - 1);
  if (start > base) ::munmap(raw, start - base);
  const uintptr_t tail = start + length;
  if (base + over > tail) ::munmap(reinterpret_cast<void*>(tail), base + over - tail);
  return reinterpret_cast<void*>(start);
}

// Recently freed mappings, kept (already faulted in) for the next
// allocation: a reader returns new arrays for every row group, and the
// caller usually frees the previous ones first. Bounded by kCacheBytes
// (about twice the decoded size of a default 1M-row group of six columns).
constexpr size_t kCacheBytes = size_t{128} << 20;

class BlockCache {
 public:
  // A cached mapping of [length, 2 * length] bytes, or nullptr.
  void* Take(size_t length, size_t* mapped) {
    std::lock_guard<std::mutex> lock(mu_);
    size_t best = blocks_.size();
    for (size_t i = 0; i < blocks_.size(); ++i) {
      const size_t m = blocks_[i].mapped;
      if (m >= length && m <= 2 * length && (best == blocks_.size() || m < blocks_[best].mapped))
        best = i;
    }
    if (best == blocks_.size()) return nullptr;
    void* p = blocks_[best].p;
    *mapped = blocks_[best].mapped;
    total_ -= *mapped;
    blocks_.erase(blocks_.begin() + static_cast<std::ptrdiff_t>(best));
    return p;
  }
  // Keeps the mapping, unmapping the oldest ones beyond kCacheBytes.
  void Put(void* p, size_t mapped) {
    std::vector<Block> evicted;
    {
      std::lock_guard<std::mutex> lock(mu_);
      blocks_.push_back({p, mapped});
      total_ += mapped;
      while (total_ > kCacheBytes) {
        evicted.push_back(blocks_.front());
        total_ -= blocks_.front().mapped;
        blocks_.pop_front();
      }
    }
    for (const Block& b : evicted) ::munmap(b.p, b.mapped);
  }

 private:
  struct Block {
    void* p;
    size_t mapped;
  };
  std::mutex mu_;
  std::deque<Block> blocks_;  // oldest first
  size_t total_ = 0;
};

BlockCache& Cache() {
  static BlockCache* cache = new BlockCache;  // outlives static destructors
  return *cache;
}

}  // namespace

void* Allocate(size_t bytes, size_t* mapped) {
  if (bytes < kMappedBlockBytes) {
    void* p = std::malloc(bytes);
    if (!p) std::abort();
    *mapped = 0;
    return p;
  }
  const size_t length = RoundUp(bytes, kPage);
  if (void* p = Cache().Take(length, mapped)) return p;
  *mapped = length;
  void* p = Map(*mapped);
  Advise(p, *mapped);
  return p;
}

void* Reallocate(void* p, size_t* mapped, size_t keep, size_t bytes) {
  if (*mapped == 0 && bytes < kMappedBlockBytes) {
    void* q = std::realloc(p, bytes);
    if (!q) std::abort();
    return q;
  }
  if (*mapped == 0) {
    size_t fresh = 0;
    void* q = Allocate(bytes, &fresh);
    std::memcpy(q, p, keep);
    std::free(p);
    *mapped = fresh;
    return q;
  }
  const size_t length = RoundUp(bytes, kPage);
  if (length <= *mapped) return p;
  // A cached mapping that is already faulted in beats fresh pages.
  size_t cached = 0;
  if (void* q = Cache().Take(length, &cached)) {
    std::memcpy(q, p, keep);
    Cache().Put(p, *mapped);
    *mapped = cached;
    return q;
  }
  void* q = ::mremap(p, *mapped, length, MREMAP_MAYMOVE);
  if (q == MAP_FAILED) std::abort();
  *mapped = length;
  Advise(q, length);
  return q;
}

void Free(void* p, size_t mapped) {
  if (!p) return;
  if (mapped == 0) {
    std::free(p);
  } else {
    Cache().Put(p, mapped);
  }
}

}  // namespace hoglake::parquet::pod_block
