// Time travel: the snapshot a read asks for (contract §1.7) — at most one of
// a snapshot id and an instant; with neither it reads head. How a selector
// resolves to a snapshot id, and its errors, is reads/snapshot_selector.h.
// Plain data, free of PostgreSQL, so interfaces that take a selector
// (lake_tables.h) are usable without it.
#pragma once

#include <cstdint>
#include <optional>

namespace hoglake::catalog {

struct SnapshotSelector {
  std::optional<int64_t> snapshot;
  std::optional<int64_t> at_timestamp_micros;
  bool is_head() const { return !snapshot && !at_timestamp_micros; }
};

}  // namespace hoglake::catalog
