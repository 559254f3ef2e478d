#include "catalog/reads/snapshot_selector.h"

#include "common/clock.h"

namespace hoglake::catalog {

Error BelowFloorError(const CatalogHead& head, std::string_view what) {
  std::string reached;
  if (head.earliest_snapshot_time_micros) {
    reached = ", reached at " + FormatInstant(*head.earliest_snapshot_time_micros);
  }
  return MakeError(ErrorCode::kExpired, what,
                   " is below the expiry floor (earliest retained snapshot ",
                   head.earliest_snapshot_id, reached, ")");
}

Result<int64_t> ResolveSnapshot(pg::PgConnection& conn, const CatalogHead& head,
                                const SnapshotSelector& selector) {
  if (selector.snapshot && selector.at_timestamp_micros) {
    return Validation("snapshot and at_timestamp are mutually exclusive");
  }
  if (selector.snapshot) {
    const int64_t id = *selector.snapshot;
    if (id < 0 || id > head.head_snapshot_id) {
      return Validation("snapshot ", id, " is outside [0, ", head.head_snapshot_id, "]");
    }
    if (id < head.earliest_snapshot_id) return BelowFloorError(head, StrCat("snapshot ", id));
    return id;
  }
  if (selector.at_timestamp_micros) {
    HOGLAKE_ASSIGN_OR_RETURN(
        pg::PgResult r,
        conn.Exec(
            "SELECT max(snapshot_id) FROM hog_snapshot WHERE catalog_id = $1 "
            "AND snapshot_time <= timestamptz 'epoch' + $2::bigint * interval '1 microsecond'",
            {std::to_string(head.catalog_id), std::to_string(*selector.at_timestamp_micros)}));
    const std::string when = FormatInstant(*selector.at_timestamp_micros);
    if (r.IsNull(0, 0)) return BelowFloorError(head, StrCat("at_timestamp ", when));
    const int64_t id = r.GetInt64(0, 0);
    if (id < head.earliest_snapshot_id) return BelowFloorError(head, StrCat("at_timestamp ", when));
    return std::min(id, head.head_snapshot_id);
  }
  return head.head_snapshot_id;
}

}  // namespace hoglake::catalog
