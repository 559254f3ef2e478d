// Time travel: which snapshot a read sees (contract §1.7).
//
// A read names at most one of `snapshot` (an id) and `at_timestamp` (an
// instant); naming both is a kValidation error. With neither it reads head.
// An id outside [0, head] is kValidation; below the expiry floor kExpired.
// An instant resolves to the newest snapshot with snapshot_time <= t (after
// head → head); before the earliest retained snapshot → kExpired. The
// kExpired message cites the floor, and the time it was reached once expiry
// has advanced it.
#pragma once

#include <cstdint>
#include <optional>

#include "catalog/model/snapshot_selector_types.h"
#include "pg/pg_connection.h"

namespace hoglake::catalog {

// The catalog row fields a resolution needs.
struct CatalogHead {
  int64_t catalog_id = 0;
  int64_t head_snapshot_id = 0;
  int64_t schema_version = 0;
  int64_t earliest_snapshot_id = 0;
  std::optional<int64_t> earliest_snapshot_time_micros;
};

// The kExpired error for `what` (e.g. "snapshot 3") below the catalog's
// floor, citing the floor and, once expiry has advanced it, when.
Error BelowFloorError(const CatalogHead& head, std::string_view what);

Result<int64_t> ResolveSnapshot(pg::PgConnection& conn, const CatalogHead& head,
                                const SnapshotSelector& selector);

}  // namespace hoglake::catalog
