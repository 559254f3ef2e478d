#include "catalog/reads/offset_lineage.h"

#include <string>

namespace hoglake::catalog {

Result<int64_t> ReleaseAncestorOffsets(pg::PgConnection& conn, int64_t catalog_id,
                                       std::string_view consumer, std::string_view table_uuid,
                                       int64_t snapshot) {
  HOGLAKE_ASSIGN_OR_RETURN(
      pg::PgResult r,
      conn.Exec("WITH RECURSIVE lineage AS ("
                " SELECT t.table_id, t.replaced_table_id, t.created_snapshot, true AS self"
                " FROM hog_table t WHERE t.catalog_id = $1 AND t.table_uuid = $2::uuid"
                " AND t.created_snapshot <= $4::bigint"
                " UNION ALL"
                " SELECT p.table_id, p.replaced_table_id, p.created_snapshot, false"
                " FROM lineage l JOIN hog_table p ON p.catalog_id = $1"
                " AND p.table_id = l.replaced_table_id AND p.created_snapshot < l.created_snapshot)"
                " DELETE FROM hog_consumer_offset o USING lineage l, hog_table a"
                " WHERE NOT l.self AND a.catalog_id = $1 AND a.table_id = l.table_id"
                " AND o.catalog_id = $1 AND o.consumer_id = $3 AND o.table_uuid = a.table_uuid",
                {std::to_string(catalog_id), std::string(table_uuid), std::string(consumer),
                 std::to_string(snapshot)}));
  return r.affected_rows();
}

Result<int64_t> ReleaseSupersededOffsets(pg::PgConnection& conn, int64_t catalog_id) {
  // Roots: dropped incarnations someone holds an offset on; the walk goes
  // forward to every descendant of each root.
  HOGLAKE_ASSIGN_OR_RETURN(
      pg::PgResult r,
      conn.Exec(
          "WITH RECURSIVE walk AS ("
          " SELECT x.table_id AS root, x.table_id, x.created_snapshot FROM hog_table x"
          " WHERE x.catalog_id = $1 AND x.dropped_snapshot IS NOT NULL AND EXISTS ("
          "  SELECT 1 FROM hog_consumer_offset o WHERE o.catalog_id = $1"
          "  AND o.table_uuid = x.table_uuid)"
          " UNION ALL"
          " SELECT w.root, c.table_id, c.created_snapshot FROM walk w JOIN hog_table c"
          " ON c.catalog_id = $1 AND c.replaced_table_id = w.table_id"
          " AND c.created_snapshot > w.created_snapshot),"
          " superseded AS ("
          " SELECT DISTINCT x.table_uuid, od.consumer_id FROM walk w"
          " JOIN hog_table x ON x.catalog_id = $1 AND x.table_id = w.root"
          " JOIN hog_table c ON c.catalog_id = $1 AND c.table_id = w.table_id"
          " JOIN hog_consumer_offset od ON od.catalog_id = $1 AND od.table_uuid = c.table_uuid"
          " WHERE w.table_id <> w.root AND od.committed_snapshot >= c.created_snapshot)"
          " DELETE FROM hog_consumer_offset o USING superseded s"
          " WHERE o.catalog_id = $1 AND o.table_uuid = s.table_uuid"
          " AND o.consumer_id = s.consumer_id",
          {std::to_string(catalog_id)}));
  return r.affected_rows();
}

}  // namespace hoglake::catalog
