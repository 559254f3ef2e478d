// The row side of ALTER (internal to src/catalog): what the in-memory model
// needs beyond LoadTable, and writing an altered table back as a diff against
// the state it was loaded from. Runs on the caller's connection, inside its
// CommitScope.
#pragma once

#include <cstdint>

#include "catalog/ddl/alter_ops.h"
#include "pg/pg_connection.h"

namespace hoglake::catalog {

struct AlterTarget {
  int64_t catalog_id = 0;
  int64_t table_id = 0;
  int64_t namespace_id = 0;
  int64_t snapshot = 0;  // the alter's snapshot
};

// Fills max_spec_id / max_sort_id (over every spec the table ever had) and,
// when `check_idless`, idless_files_present (a live file with
// missing_field_ids or stats_state 'pending').
Status LoadAlterExtras(pg::PgConnection& conn, int64_t catalog_id, int64_t table_id,
                       bool check_idless, AlterState* state);

// Writes `after` over `before` at target.snapshot: the version row (name,
// comment, properties) and each column row that changed are ended and
// re-inserted, dropped columns ended, new columns inserted; a replaced
// partition spec / sort order is ended and the new one (if any) inserted;
// hog_table.next_field_id advanced; and for every promotion whose mapped
// Iceberg type widens, the stored bounds of the table's live files are
// re-encoded (iceberg::PromoteBound) in batches. A bound that no longer
// decodes under its old type is dropped.
Status WriteAlterDiff(pg::PgConnection& conn, const AlterTarget& target, const TableInfo& before,
                      int32_t next_field_id_before, const AlterState& after);

}  // namespace hoglake::catalog
