// CatalogService: the changefeed, consumer offsets and catalog options.
#include "catalog/catalog_service.h"
#include "catalog/ddl/table_store.h"
#include "catalog/reads/data_file_rows.h"
#include "catalog/reads/offset_lineage.h"
#include "common/clock.h"

namespace hoglake::catalog {
namespace {

constexpr const char* kOffsetColumns =
    "o.consumer_id, o.table_uuid, o.committed_snapshot, "
    "(extract(epoch from o.updated_at) * 1000000)::bigint";

ConsumerOffset OffsetFromRow(const pg::PgResult& r, int i) {
  return ConsumerOffset{
      r.GetString(i, 0), r.GetString(i, 1), r.GetInt64(i, 2), r.GetInt64(i, 3), {}, {}, false};
}

}  // namespace

Result<ChangePlan> CatalogService::Changes(const TableRef& ref, int64_t from,
                                           std::optional<int64_t> to) {
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgPool::Lease conn, pool_->Acquire());
  HOGLAKE_ASSIGN_OR_RETURN(CatalogHead head, ReadCatalogHead(*conn, ref.catalog));
  const int64_t upto = to.value_or(head.head_snapshot_id);
  if (upto < 0 || upto > head.head_snapshot_id) {
    return Validation("to_snapshot ", upto, " is outside [0, ", head.head_snapshot_id, "]");
  }
  if (from < 0) return Validation("from_snapshot ", from, " is negative");
  if (from > upto) return Validation("from_snapshot ", from, " is after to_snapshot ", upto);
  if (from < head.earliest_snapshot_id - 1)
    return BelowFloorError(head, StrCat("from_snapshot ", from));
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgTransaction txn, pg::PgTransaction::Begin(*conn));
  HOGLAKE_RETURN_IF_ERROR(conn->Exec("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY"));
  HOGLAKE_ASSIGN_OR_RETURN(int64_t namespace_id, NamespaceIdAt(*conn, head.catalog_id, ref.catalog,
                                                               ref.namespace_name, upto));
  HOGLAKE_ASSIGN_OR_RETURN(std::optional<int64_t> table_id,
                           TableIdAt(*conn, head.catalog_id, namespace_id, ref.table, upto));
  if (!table_id) {
    return NotFound("table '", ref.namespace_name, ".", ref.table, "' not found at snapshot ",
                    upto);
  }
  const std::vector<pg::PgParam> params = {std::to_string(head.catalog_id),
                                           std::to_string(*table_id), std::to_string(from),
                                           std::to_string(upto)};
  // A truncate (or a data replace, table_replace.h) is the one snapshot that
  // both alters the table and deletes from it.
  HOGLAKE_ASSIGN_OR_RETURN(
      pg::PgResult truncates,
      conn->Exec("SELECT min(snapshot_id) FROM hog_snapshot_change WHERE "
                 "catalog_id = $1 AND object_id = $2 "
                 "AND snapshot_id > $3 AND snapshot_id <= $4 AND kind IN "
                 "('table_altered', 'table_deleted_from') "
                 "GROUP BY snapshot_id HAVING count(DISTINCT kind) = 2 LIMIT 1",
                 params));
  if (truncates.rows() > 0) {
    return MakeError(ErrorCode::kReconciliationRequired,
                     "the table was truncated (or its data replaced) at snapshot ",
                     truncates.GetInt64(0, 0), ", inside (", from, ", ", upto,
                     "]; reconcile from a full scan at or after it");
  }
  HOGLAKE_ASSIGN_OR_RETURN(
      pg::PgResult uuid,
      conn->Exec("SELECT table_uuid FROM hog_table WHERE catalog_id = $1 AND table_id = $2",
                 {params[0], params[1]}));
  ChangePlan plan;
  plan.table_uuid = uuid.GetString(0, 0);
  plan.from_snapshot = from;
  plan.to_snapshot = upto;
  HOGLAKE_ASSIGN_OR_RETURN(
      pg::PgResult r,
      conn->Exec(
          StrCat("SELECT ", kDataFileColumns,
                 " FROM hog_data_file f WHERE f.catalog_id = $1 AND f.table_id = $2 "
                 "AND f.begin_snapshot > $3 AND f.begin_snapshot <= $4 "
                 "AND NOT EXISTS (SELECT 1 FROM hog_snapshot_change c WHERE c.catalog_id = "
                 "f.catalog_id AND c.snapshot_id = f.begin_snapshot AND c.object_id = f.table_id "
                 "AND c.kind = 'table_compacted') "
                 "ORDER BY f.begin_snapshot, f.row_id_start, f.data_file_id"),
          params));
  for (int i = 0; i < r.rows(); ++i) {
    plan.files.push_back(DataFileFromRow(r, i));
    plan.files.back().split_offsets.reset();
  }
  HOGLAKE_RETURN_IF_ERROR(txn.Commit());
  return plan;
}

Result<std::vector<ConsumerOffset>> CatalogService::ListConsumerOffsets(
    std::string_view catalog, std::optional<std::string_view> consumer) {
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgPool::Lease conn, pool_->Acquire());
  HOGLAKE_ASSIGN_OR_RETURN(CatalogHead head, ReadCatalogHead(*conn, catalog));
  std::vector<pg::PgParam> params = {std::to_string(head.catalog_id)};
  std::string filter;
  if (consumer) {
    params.emplace_back(std::string(*consumer));
    filter = " AND o.consumer_id = $2";
  }
  // The latest incarnation row of each uuid gives its names and dropped flag.
  HOGLAKE_ASSIGN_OR_RETURN(
      pg::PgResult r,
      conn->Exec(
          StrCat("SELECT ", kOffsetColumns,
                 ", n.name, v.name, t.dropped_snapshot IS NOT NULL "
                 "FROM hog_consumer_offset o "
                 "LEFT JOIN hog_table t ON t.catalog_id = o.catalog_id AND t.table_uuid = "
                 "o.table_uuid "
                 "LEFT JOIN LATERAL (SELECT v.name, v.namespace_id FROM hog_table_version v "
                 " WHERE v.catalog_id = t.catalog_id AND v.table_id = t.table_id "
                 " ORDER BY v.begin_snapshot DESC LIMIT 1) v ON true "
                 "LEFT JOIN hog_namespace n ON n.catalog_id = o.catalog_id AND n.namespace_id = "
                 "v.namespace_id "
                 "WHERE o.catalog_id = $1",
                 filter, " ORDER BY o.consumer_id, n.name NULLS FIRST, v.name, o.table_uuid"),
          params));
  std::vector<ConsumerOffset> out;
  for (int i = 0; i < r.rows(); ++i) {
    ConsumerOffset o = OffsetFromRow(r, i);
    o.namespace_name = r.GetOptionalString(i, 4);
    o.table_name = r.GetOptionalString(i, 5);
    o.table_dropped = !r.IsNull(i, 6) && r.GetBool(i, 6);
    out.push_back(std::move(o));
  }
  return out;
}

Result<ConsumerOffset> CatalogService::GetConsumerOffset(std::string_view catalog,
                                                         std::string_view consumer,
                                                         std::string_view table_uuid) {
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgPool::Lease conn, pool_->Acquire());
  HOGLAKE_ASSIGN_OR_RETURN(CatalogHead head, ReadCatalogHead(*conn, catalog));
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgResult r,
                           conn->Exec(StrCat("SELECT ", kOffsetColumns,
                                             " FROM hog_consumer_offset o WHERE o.catalog_id = $1 "
                                             "AND o.consumer_id = $2 AND o.table_uuid = $3"),
                                      {std::to_string(head.catalog_id), std::string(consumer),
                                       std::string(table_uuid)}));
  if (r.rows() == 0)
    return NotFound("consumer '", consumer, "' has no offset for table ", table_uuid);
  return OffsetFromRow(r, 0);
}

Result<ConsumerOffset> CatalogService::PutConsumerOffset(std::string_view catalog,
                                                         std::string_view consumer,
                                                         std::string_view table_uuid,
                                                         int64_t snapshot) {
  if (consumer.empty() || consumer.size() > 128) {
    return Validation("consumer id must be 1..128 characters");
  }
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgPool::Lease conn, pool_->Acquire());
  HOGLAKE_ASSIGN_OR_RETURN(CatalogHead head, ReadCatalogHead(*conn, catalog));
  if (snapshot < 0 || snapshot > head.head_snapshot_id) {
    return Validation("snapshot_id ", snapshot, " is outside [0, ", head.head_snapshot_id, "]");
  }
  if (snapshot < head.earliest_snapshot_id)
    return BelowFloorError(head, StrCat("snapshot_id ", snapshot));
  const std::string catalog_id = std::to_string(head.catalog_id);
  HOGLAKE_ASSIGN_OR_RETURN(
      pg::PgResult known,
      conn->Exec("SELECT 1 FROM hog_table WHERE catalog_id = $1 AND table_uuid = $2",
                 {catalog_id, std::string(table_uuid)}));
  if (known.rows() == 0) return Validation("unknown table_uuid ", table_uuid);
  HOGLAKE_ASSIGN_OR_RETURN(
      pg::PgResult r,
      conn->Exec(
          StrCat(
              "INSERT INTO hog_consumer_offset AS o (catalog_id, consumer_id, table_uuid, "
              "committed_snapshot) "
              "VALUES ($1, $2, $3, $4) ON CONFLICT (catalog_id, consumer_id, table_uuid) DO UPDATE "
              "SET committed_snapshot = excluded.committed_snapshot, updated_at = "
              "clock_timestamp() "
              "WHERE o.committed_snapshot <= excluded.committed_snapshot RETURNING ",
              kOffsetColumns),
          {catalog_id, std::string(consumer), std::string(table_uuid), std::to_string(snapshot)}));
  if (r.rows() == 0) {
    return MakeError(ErrorCode::kOffsetRegression, "consumer '", consumer, "' offset for ",
                     table_uuid, " is already past snapshot ", snapshot);
  }
  // Reconciled onto this incarnation: its ancestors' offsets are released.
  HOGLAKE_RETURN_IF_ERROR(
      ReleaseAncestorOffsets(*conn, head.catalog_id, consumer, table_uuid, snapshot).status());
  return OffsetFromRow(r, 0);
}

Result<CatalogOptions> CatalogService::GetOptions(std::string_view catalog) {
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgPool::Lease conn, pool_->Acquire());
  HOGLAKE_ASSIGN_OR_RETURN(
      pg::PgResult r,
      conn->Exec("SELECT snapshot_retention_seconds, consumer_floor, earliest_snapshot_id "
                 "FROM hog_catalog WHERE name = $1",
                 {std::string(catalog)}));
  if (r.rows() == 0) return NotFound("catalog '", catalog, "' not found");
  return CatalogOptions{r.GetOptionalInt64(0, 0), r.GetBool(0, 1), r.GetInt64(0, 2)};
}

Result<CatalogOptions> CatalogService::PatchOptions(std::string_view catalog,
                                                    const OptionsPatch& patch) {
  if (patch.set_retention && patch.retention_seconds && *patch.retention_seconds <= 0) {
    return Validation("snapshot_retention_seconds must be positive (null disables expiry)");
  }
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgPool::Lease conn, pool_->Acquire());
  std::optional<std::string> retention;
  if (patch.retention_seconds) retention = std::to_string(*patch.retention_seconds);
  std::optional<std::string> floor;
  if (patch.consumer_floor) floor = *patch.consumer_floor ? "true" : "false";
  HOGLAKE_ASSIGN_OR_RETURN(
      pg::PgResult r,
      conn->Exec("UPDATE hog_catalog SET "
                 "snapshot_retention_seconds = CASE WHEN $2 THEN $3::bigint ELSE "
                 "snapshot_retention_seconds END, "
                 "consumer_floor = coalesce($4::boolean, consumer_floor) WHERE name = $1 "
                 "RETURNING snapshot_retention_seconds, consumer_floor, earliest_snapshot_id",
                 {std::string(catalog), patch.set_retention ? "true" : "false", retention, floor}));
  if (r.rows() == 0) return NotFound("catalog '", catalog, "' not found");
  return CatalogOptions{r.GetOptionalInt64(0, 0), r.GetBool(0, 1), r.GetInt64(0, 2)};
}

}  // namespace hoglake::catalog
