#include "sql/execution/join_table.h"

#include "common/parallel.h"

namespace hoglake::sql {
namespace {

// Builds smaller than this (or with one worker) keep one partition: the
// split would cost more than the one table it saves building serially.
constexpr int64_t kPartitionedBuildRows = 16384;
// 64 partitions: enough that a few large ones (skewed keys) still leave
// the other workers partitions to build.
constexpr int kPartitionBits = 6;
// Rows a partition's builder inserts between checks for cancellation.
constexpr int64_t kRowsBetweenCancelChecks = 65536;

// A row of a build batch, as the scatter lays rows out partition by partition.
struct BatchRow {
  uint32_t batch;
  uint32_t row;
};

}  // namespace

Status JoinTable::Build(const std::vector<EncodedKeys>& keys, const std::vector<int64_t>& first_row,
                        int64_t rows, int workers, ExecContext& ctx) {
  bits_ = workers > 1 && rows >= kPartitionedBuildRows ? kPartitionBits : 0;
  const int parts = 1 << bits_;
  partitions_.clear();
  partitions_.resize(parts);
  next_row_.assign(rows, -1);
  const int64_t batches = static_cast<int64_t>(keys.size());

  // Adds row `row` of batch `b` to `part`, chained after its key's last row.
  auto insert = [&](Partition& part, std::vector<int64_t>& last_row, int64_t b, int64_t row) {
    const int64_t build_row = first_row[b] + row;
    bool inserted;
    int64_t id = part.table.FindOrInsert(keys[b].key(row), keys[b].hashes[row], &inserted);
    if (inserted) {
      part.first_row.push_back(build_row);
      last_row.push_back(build_row);
    } else {
      next_row_[last_row[id]] = build_row;
      last_row[id] = build_row;
    }
  };

  if (parts == 1) {
    std::vector<int64_t> last_row;  // per key: its last row so far
    for (int64_t b = 0; b < batches; ++b) {
      HOGLAKE_RETURN_IF_ERROR(ctx.CheckCancelled());
      const EncodedKeys& k = keys[b];
      for (int64_t i = 0; i < static_cast<int64_t>(k.hashes.size()); ++i) {
        if (!k.has_null[i]) insert(partitions_[0], last_row, b, i);
      }
    }
    return Status::Ok();
  }

  // Per batch, how many of its rows fall in each partition.
  std::vector<std::vector<int64_t>> at(batches, std::vector<int64_t>(parts, 0));
  HOGLAKE_RETURN_IF_ERROR(ParallelForStatus(batches, workers, [&](int64_t b, int) -> Status {
    HOGLAKE_RETURN_IF_ERROR(ctx.CheckCancelled());
    const EncodedKeys& k = keys[b];
    for (size_t i = 0; i < k.hashes.size(); ++i) {
      if (!k.has_null[i]) ++at[b][PartitionOfHash(k.hashes[i], bits_)];
    }
    return Status::Ok();
  }));
  // The rows laid out partition by partition, each partition's batches in
  // order (so its rows stay in build-row order); at[b][p] becomes where
  // batch b's rows of partition p start.
  std::vector<int64_t> part_begin(parts + 1, 0);
  int64_t laid = 0;
  for (int p = 0; p < parts; ++p) {
    part_begin[p] = laid;
    for (int64_t b = 0; b < batches; ++b) {
      const int64_t count = at[b][p];
      at[b][p] = laid;
      laid += count;
    }
  }
  part_begin[parts] = laid;
  const int64_t scratch = laid * static_cast<int64_t>(sizeof(BatchRow));
  HOGLAKE_RETURN_IF_ERROR(ctx.Reserve(scratch));
  std::vector<BatchRow> order(laid);
  Status built = ParallelForStatus(batches, workers, [&](int64_t b, int) -> Status {
    HOGLAKE_RETURN_IF_ERROR(ctx.CheckCancelled());
    const EncodedKeys& k = keys[b];
    std::vector<int64_t>& cursor = at[b];
    for (size_t i = 0; i < k.hashes.size(); ++i) {
      if (k.has_null[i]) continue;
      order[cursor[PartitionOfHash(k.hashes[i], bits_)]++] =
          BatchRow{static_cast<uint32_t>(b), static_cast<uint32_t>(i)};
    }
    return Status::Ok();
  });
  if (built.ok()) {
    built = ParallelForStatus(parts, workers, [&](int64_t p, int) -> Status {
      std::vector<int64_t> last_row;
      for (int64_t e = part_begin[p]; e < part_begin[p + 1]; ++e) {
        if ((e - part_begin[p]) % kRowsBetweenCancelChecks == 0) {
          HOGLAKE_RETURN_IF_ERROR(ctx.CheckCancelled());
        }
        insert(partitions_[p], last_row, order[e].batch, order[e].row);
      }
      return Status::Ok();
    });
  }
  ctx.Release(scratch);
  return built;
}

int64_t JoinTable::bytes() const {
  int64_t total = static_cast<int64_t>(next_row_.capacity() * sizeof(int64_t));
  for (const Partition& part : partitions_) {
    total += part.table.bytes() + static_cast<int64_t>(part.first_row.capacity() * sizeof(int64_t));
  }
  return total;
}

}  // namespace hoglake::sql
