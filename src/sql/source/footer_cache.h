// FooterCache: parsed Parquet footers (parquet/footer.h) kept between scans,
// so a query does not re-read and re-parse the footers of files an earlier
// query (or another worker of the same scan) already opened.
//
// Entries are keyed by the file's identity: its path, its size and the
// catalog's data file id. Lake files are immutable and the writers name them
// by fresh UUIDs, so a path alone would do for them; size and id make a
// file registered again at a reused path (a new catalog row) a different
// key, never a stale hit.
//
// The cache holds at most `capacity_bytes` of parsed footers, as estimated
// by ParquetFooter::memory_bytes(); inserting past it evicts the least
// recently used entries first. A footer larger than the whole capacity is
// not kept (capacity 0 keeps nothing). Footers handed out stay valid while
// their holders keep them, evicted or not. Thread-safe: every call locks
// one mutex for a map lookup and a list splice.
#pragma once

#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "parquet/footer.h"

namespace hoglake::sql {

class FooterCache {
 public:
  // 64 MiB: the footers of a few thousand typical files.
  static constexpr int64_t kDefaultCapacityBytes = int64_t{64} << 20;

  struct Key {
    std::string path;
    int64_t file_size = 0;
    int64_t data_file_id = 0;
    bool operator==(const Key& other) const = default;
  };

  struct Counters {
    int64_t hits = 0;
    int64_t misses = 0;
    int64_t evictions = 0;
    int64_t entries = 0;
    int64_t bytes = 0;  // memory_bytes() of the entries held
  };

  explicit FooterCache(int64_t capacity_bytes = kDefaultCapacityBytes);
  FooterCache(const FooterCache&) = delete;
  FooterCache& operator=(const FooterCache&) = delete;

  // The footer kept for `key` (now the most recently used), or null.
  std::shared_ptr<const parquet::ParquetFooter> Find(const Key& key);
  // Keeps `footer` for `key` (replacing an entry of that key), evicting the
  // least recently used entries until the total fits.
  void Insert(const Key& key, std::shared_ptr<const parquet::ParquetFooter> footer);

  int64_t capacity_bytes() const { return capacity_bytes_; }
  Counters counters() const;

 private:
  struct KeyHash {
    size_t operator()(const Key& key) const;
  };
  struct Entry {
    Key key;
    std::shared_ptr<const parquet::ParquetFooter> footer;
    int64_t bytes = 0;
  };
  using Lru = std::list<Entry>;  // most recently used first

  void EvictTo(int64_t limit);  // under mu_

  const int64_t capacity_bytes_;
  mutable std::mutex mu_;
  Lru lru_;
  std::unordered_map<Key, Lru::iterator, KeyHash> index_;
  Counters counters_;
};

}  // namespace hoglake::sql
