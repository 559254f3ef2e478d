// Deleting data-file rows together with their column-stats (hog_file_stats)
// and partition-value rows (V11 dropped the cascading foreign keys; the expiry
// purge and table retirement delete the children themselves).
#pragma once

#include <string>

#include "common/status.h"
#include "pg/pg_connection.h"

namespace hoglake::catalog {

// The tail of a file-row purge statement: `gone` (a DELETE … RETURNING
// data_file_id, path on hog_data_file) must be defined before it. Queues the
// paths for removal with `reason` (a literal), and yields one row: the
// deleted ids as a bigint[] literal and their count.
inline std::string QueueGoneFilesSql(const char* reason) {
  return std::string(
             ", q AS (INSERT INTO hog_file_removal (catalog_id, path, file_kind, reason) "
             "SELECT $1, path, 'data', '") +
         reason +
         "' FROM gone) SELECT coalesce(array_agg(data_file_id), '{}')::text, count(*) "
         "FROM gone";
}

// Deletes the stats and partition-value rows of files `ids` (a bigint[]
// literal) of catalog `catalog_id`, set-based. Run it in the transaction that
// deleted the file rows, as its own statement after that one: it then sees
// children any writer committed while the delete waited on the file row
// (the hydrator inserts stats only after updating the file row in the same
// transaction), which the deleting statement's snapshot would miss.
inline Status DeleteFileChildren(pg::PgConnection& conn, const std::string& catalog_id,
                                 const std::string& ids) {
  return conn
      .Exec(
          "WITH s AS (DELETE FROM hog_file_stats WHERE catalog_id = $1 AND "
          "data_file_id = ANY($2::bigint[])) DELETE FROM hog_file_partition_value WHERE "
          "catalog_id = $1 AND data_file_id = ANY($2::bigint[])",
          {catalog_id, ids})
      .status();
}

}  // namespace hoglake::catalog
