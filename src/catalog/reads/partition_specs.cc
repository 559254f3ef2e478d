// CatalogService::ListPartitionSpecs — the partition specs a table's files
// may name (DataFileInfo::spec_id), so a reader can interpret the partition
// values of a file written before the spec last changed. One read-only
// repeatable-read transaction.
#include "catalog/catalog_service.h"
#include "catalog/reads/table_at.h"

namespace hoglake::catalog {

Result<std::vector<PartitionSpecInfo>> CatalogService::ListPartitionSpecs(
    const TableRef& ref, const SnapshotSelector& at) {
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgPool::Lease conn, pool_->Acquire());
  HOGLAKE_ASSIGN_OR_RETURN(TableAt t, OpenTableAt(*conn, ref, at));
  HOGLAKE_ASSIGN_OR_RETURN(
      pg::PgResult r,
      conn->Exec("SELECT s.spec_id, f.source_field_id, f.transform, f.transform_param "
                 "FROM hog_partition_spec s JOIN hog_partition_field f "
                 "USING (catalog_id, table_id, spec_id) "
                 "WHERE s.catalog_id = $1 AND s.table_id = $2 AND s.begin_snapshot <= $3 "
                 "ORDER BY s.spec_id, f.key_index",
                 {std::to_string(t.head.catalog_id), std::to_string(t.table.table_id),
                  std::to_string(t.snapshot)}));
  std::vector<PartitionSpecInfo> specs;
  for (int i = 0; i < r.rows(); ++i) {
    const int64_t spec_id = r.GetInt64(i, 0);
    if (specs.empty() || specs.back().spec_id != spec_id) specs.push_back({spec_id, {}});
    std::optional<int64_t> param = r.GetOptionalInt64(i, 3);
    specs.back().fields.push_back(
        {static_cast<int32_t>(r.GetInt64(i, 1)), r.GetString(i, 2),
         param ? std::optional<int32_t>(static_cast<int32_t>(*param)) : std::nullopt});
  }
  HOGLAKE_RETURN_IF_ERROR(t.txn.Commit());
  return specs;
}

}  // namespace hoglake::catalog
