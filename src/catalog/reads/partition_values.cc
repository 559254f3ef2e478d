// CatalogService::ListPartitionValues — distinct stored partition values at a
// snapshot (contract §2.7). One read-only repeatable-read transaction; live
// at S means begin_snapshot <= S and (end_snapshot IS NULL or S < end_snapshot),
// as the scan and file listing use.
#include "catalog/catalog_service.h"
#include "catalog/reads/table_at.h"

namespace hoglake::catalog {

Result<PartitionValues> CatalogService::ListPartitionValues(const TableRef& ref,
                                                            const SnapshotSelector& at) {
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgPool::Lease conn, pool_->Acquire());
  HOGLAKE_ASSIGN_OR_RETURN(TableAt t, OpenTableAt(*conn, ref, at));
  PartitionValues out;
  if (!t.table.partition_spec || t.table.partition_spec->fields.empty()) {
    HOGLAKE_RETURN_IF_ERROR(t.txn.Commit());
    return out;
  }
  const PartitionSpecInfo& spec = *t.table.partition_spec;
  out.spec_id = spec.spec_id;
  for (const PartitionFieldInfo& f : spec.fields) {
    out.fields.push_back({f.source_field_id, f.transform, f.transform_param, {}, false});
  }
  // Per key_index, the first cap+1 values by (file count desc, value asc);
  // the extra row only tells that the field is truncated.
  HOGLAKE_ASSIGN_OR_RETURN(
      pg::PgResult r,
      conn->Exec("SELECT key_index, value FROM ("
                 " SELECT v.key_index, v.value, row_number() OVER (PARTITION BY v.key_index"
                 "   ORDER BY count(*) DESC, v.value COLLATE \"C\" ASC NULLS LAST) AS rank"
                 " FROM hog_data_file f JOIN hog_file_partition_value v"
                 "   ON v.catalog_id = f.catalog_id AND v.data_file_id = f.data_file_id"
                 " WHERE f.catalog_id = $1 AND f.table_id = $2 AND f.spec_id = $4"
                 "   AND f.begin_snapshot <= $3 AND (f.end_snapshot IS NULL OR $3 < f.end_snapshot)"
                 " GROUP BY v.key_index, v.value) ranked "
                 "WHERE rank <= $5 ORDER BY key_index, rank",
                 {std::to_string(t.head.catalog_id), std::to_string(t.table.table_id),
                  std::to_string(t.snapshot), std::to_string(spec.spec_id),
                  std::to_string(kMaxPartitionValuesPerField + 1)}));
  for (int i = 0; i < r.rows(); ++i) {
    const int64_t key = r.GetInt64(i, 0);
    if (key < 0 || key >= static_cast<int64_t>(out.fields.size())) continue;
    PartitionFieldValues& field = out.fields[static_cast<size_t>(key)];
    if (static_cast<int>(field.values.size()) == kMaxPartitionValuesPerField) {
      field.truncated = true;
      continue;
    }
    field.values.push_back(r.GetOptionalString(i, 1));
  }
  HOGLAKE_RETURN_IF_ERROR(t.txn.Commit());
  return out;
}

}  // namespace hoglake::catalog
