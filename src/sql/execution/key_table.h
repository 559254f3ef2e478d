// Hashed row keys without a heap object per key: the keys of a batch's rows
// encoded (row_key.h's encoding, so equal exactly under SQL grouping rules)
// into one buffer with their hashes, and a table that numbers distinct keys
// 0, 1, 2, … in insertion order (open addressing over one slot array, keys
// in one arena). Hash aggregation maps rows to groups with it; hash joins
// map build rows to distinct keys and chain the rows of one key. Internal
// to src/sql/execution; a KeyTable is not shared between threads while
// written.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "columnar/array.h"
#include "sql/types/sql_type.h"

namespace hoglake::sql {

// The keys of rows [0, rows) over `columns` (of SQL `types`).
struct EncodedKeys {
  std::string bytes;
  std::vector<uint32_t> offsets;  // rows + 1
  std::vector<uint64_t> hashes;
  std::vector<uint8_t> has_null;  // 1: some key value of the row is NULL

  std::string_view key(int64_t row) const {
    return std::string_view(bytes).substr(offsets[row], offsets[row + 1] - offsets[row]);
  }
};

void EncodeKeys(const std::vector<columnar::ArrayPtr>& columns, const std::vector<SqlType>& types,
                int64_t rows, EncodedKeys* out);

// A 64-bit hash of a key's bytes.
uint64_t HashKeyBytes(std::string_view key);

// The partition, of 2^bits, that a key of hash `hash` falls in when a join
// build or an aggregation's merge splits keys to build their tables in
// parallel: the hash's top bits (a KeyTable picks slots by the low bits, so
// the keys of one partition still spread over all of its table's slots).
inline int PartitionOfHash(uint64_t hash, int bits) {
  return bits == 0 ? 0 : static_cast<int>(hash >> (64 - bits));
}

class KeyTable {
 public:
  static constexpr int64_t kAbsent = -1;

  // The number of `key` (hash `hash`); a new key gets the next number.
  int64_t FindOrInsert(std::string_view key, uint64_t hash, bool* inserted);
  // The number of `key`, or kAbsent.
  int64_t Find(std::string_view key, uint64_t hash) const;

  int64_t size() const { return static_cast<int64_t>(hashes_.size()); }
  std::string_view key(int64_t id) const {
    return std::string_view(arena_).substr(key_offsets_[id], key_offsets_[id + 1] - key_offsets_[id]);
  }
  uint64_t hash(int64_t id) const { return hashes_[id]; }
  // Bytes the table holds (for memory accounting).
  int64_t bytes() const;

 private:
  void Grow();

  // A slot holds its key's hash beside its number, so a probe reads the
  // key's bytes only when the hashes agree.
  struct Slot {
    uint64_t hash = 0;
    int64_t id = kAbsent;
  };
  std::vector<Slot> slots_;  // size a power of two
  std::vector<uint64_t> hashes_;
  std::string arena_;
  std::vector<uint64_t> key_offsets_{0};
};

}  // namespace hoglake::sql
