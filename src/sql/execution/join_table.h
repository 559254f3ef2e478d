// A hash join's build side keyed by its equi-join keys, built by every
// worker. Build rows arrive as batches whose keys were encoded (and hashed)
// batch by batch; a row whose key holds a NULL is left out (it never
// equals). Large builds split rows into 2^bits partitions by the top bits of
// their key hash (PartitionOfHash): the rows of each batch are counted per
// partition and scattered in parallel, then each partition's KeyTable is
// built by one worker, partitions side by side. A probe goes straight to
// its hash's partition, so it costs one lookup whatever the partition
// count. The rows of one key are chained in build-row order. Read-only
// after Build: probes may run on any number of threads. Internal to
// src/sql/execution.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "sql/execution/key_table.h"
#include "sql/execution/operator.h"

namespace hoglake::sql {

class JoinTable {
 public:
  // Builds from keys[b], the keys of batch b, whose row i is build row
  // first_row[b] + i (`rows` rows in all), with up to `workers` workers.
  // Fails with the context's cancellation or memory error (the scratch it
  // needs counts against the budget while it runs).
  Status Build(const std::vector<EncodedKeys>& keys, const std::vector<int64_t>& first_row,
               int64_t rows, int workers, ExecContext& ctx);

  // The first build row of `key` (hash `hash`), or −1.
  int64_t FirstRow(std::string_view key, uint64_t hash) const {
    const Partition& part = partitions_[PartitionOfHash(hash, bits_)];
    int64_t id = part.table.Find(key, hash);
    return id == KeyTable::kAbsent ? -1 : part.first_row[id];
  }
  // The build row after `row` with the same key, or −1.
  int64_t NextRow(int64_t row) const { return next_row_[row]; }

  int partitions() const { return static_cast<int>(partitions_.size()); }
  // Bytes the table holds (for memory accounting).
  int64_t bytes() const;

 private:
  struct Partition {
    KeyTable table;
    std::vector<int64_t> first_row;  // per key of the partition
  };
  int bits_ = 0;
  std::vector<Partition> partitions_{1};
  std::vector<int64_t> next_row_;  // per build row
};

}  // namespace hoglake::sql
