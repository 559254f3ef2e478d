// CatalogService: the snapshot log.
#include <algorithm>

#include "catalog/catalog_service.h"

namespace hoglake::catalog {

Result<SnapshotInfo> CatalogService::ResolveSnapshotAt(std::string_view catalog,
                                                       int64_t at_timestamp_micros) {
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgPool::Lease conn, pool_->Acquire());
  HOGLAKE_ASSIGN_OR_RETURN(CatalogHead head, ReadCatalogHead(*conn, catalog));
  SnapshotSelector selector;
  selector.at_timestamp_micros = at_timestamp_micros;
  HOGLAKE_ASSIGN_OR_RETURN(const int64_t id, ResolveSnapshot(*conn, head, selector));
  HOGLAKE_ASSIGN_OR_RETURN(
      pg::PgResult r,
      conn->Exec("SELECT (extract(epoch from snapshot_time) * 1000000)::bigint FROM "
                 "hog_snapshot WHERE catalog_id = $1 AND snapshot_id = $2",
                 {std::to_string(head.catalog_id), std::to_string(id)}));
  if (r.rows() == 0) return NotFound("snapshot ", id, " of catalog '", catalog, "'");
  SnapshotInfo info;
  info.snapshot_id = id;
  info.snapshot_time_micros = r.GetInt64(0, 0);
  return info;
}

Result<SnapshotPage> CatalogService::ListSnapshots(std::string_view catalog,
                                                   const SnapshotListing& listing) {
  const int64_t after = listing.after.value_or(0);
  if (listing.before && after != 0) {
    return Validation("before and after are mutually exclusive");
  }
  const int64_t limit = listing.limit.value_or(1000);
  if (limit < 1) return Validation("limit must be at least 1, got ", limit);
  const int64_t capped = std::min<int64_t>(limit, 10000);
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgPool::Lease conn, pool_->Acquire());
  HOGLAKE_ASSIGN_OR_RETURN(CatalogHead head, ReadCatalogHead(*conn, catalog));
  const bool descending = listing.before.has_value();
  // One round trip: the page of snapshots (limit + 1 to learn has_more) with
  // their change rows aggregated in order.
  const std::string sql = StrCat(
      "SELECT s.snapshot_id, (extract(epoch from s.snapshot_time) * 1000000)::bigint, "
      "s.schema_version, s.author, s.commit_message, "
      "coalesce((SELECT string_agg(c.kind || ':' || c.object_id, ',' ORDER BY c.ctid) "
      "FROM hog_snapshot_change c WHERE c.catalog_id = s.catalog_id "
      "AND c.snapshot_id = s.snapshot_id), '') "
      "FROM hog_snapshot s WHERE s.catalog_id = $1 AND s.snapshot_id ",
      descending ? "< $2 ORDER BY s.snapshot_id DESC" : "> $2 ORDER BY s.snapshot_id ASC",
      " LIMIT $3");
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgResult r,
                           conn->Exec(sql, {std::to_string(head.catalog_id),
                                            std::to_string(descending ? *listing.before : after),
                                            std::to_string(capped + 1)}));
  SnapshotPage page;
  const int rows = std::min<int>(r.rows(), static_cast<int>(capped));
  page.has_more = r.rows() > capped;
  for (int i = 0; i < rows; ++i) {
    SnapshotInfo s;
    s.snapshot_id = r.GetInt64(i, 0);
    s.snapshot_time_micros = r.GetInt64(i, 1);
    s.schema_version = r.GetInt64(i, 2);
    s.author = r.GetOptionalString(i, 3);
    s.message = r.GetOptionalString(i, 4);
    std::string_view changes = r.GetText(i, 5);
    while (!changes.empty()) {
      const size_t comma = changes.find(',');
      std::string_view item = changes.substr(0, comma);
      const size_t colon = item.rfind(':');
      s.changes.push_back(
          {std::string(item.substr(0, colon)), std::stoll(std::string(item.substr(colon + 1)))});
      changes = comma == std::string_view::npos ? "" : changes.substr(comma + 1);
    }
    page.snapshots.push_back(std::move(s));
  }
  return page;
}

}  // namespace hoglake::catalog
