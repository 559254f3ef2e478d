// The live table a data write adds files to (internal to src/catalog),
// shared by every door that registers files into an existing table (commit,
// ReplaceTableData), so they resolve and validate alike:
//  * WriteTargetStatement: one statement resolving `namespace.table` live at
//    head with what validation needs — incarnation uuid, live partition spec
//    and its arity, live columns, the row-id allocator, and whether the table
//    saw DDL (altered, dropped) after an optional read snapshot.
//  * ReadWriteTarget: the statement's rows as a WriteTarget. No rows: one
//    more round trip tells a dropped table (kTableDropped, naming the drop
//    snapshot) from a name never live (nullopt; each door names that its
//    own way). kTableRecreated when `expected_table_uuid` names another
//    incarnation than the live one.
//  * ValidateRegistrations: the per-file rules (contract §4.1) against the
//    table — file shape, partition values against the live spec, column
//    stats sanitized in place — each refusal kValidation naming the file.
// Run them under the catalog's commit lock, so what they read still holds
// when the files are written.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "catalog/commit/commit_request.h"
#include "catalog/commit/file_registration.h"
#include "pg/pg_connection.h"

namespace hoglake::catalog {

struct WriteTarget {
  int64_t table_id = 0;
  std::string table_uuid;
  int64_t next_row_id = 0;  // the table's row-id allocator as read
  StatsColumns columns;     // the live columns, by field id
  std::optional<int64_t> spec_id;
  int64_t spec_arity = 0;       // fields of the live spec
  bool ddl_since_read = false;  // only with a read snapshot
};

pg::PgStatement WriteTargetStatement(const std::string& catalog_id, std::string_view namespace_name,
                                     std::string_view table,
                                     const std::optional<int64_t>& read_snapshot);

Result<std::optional<WriteTarget>> ReadWriteTarget(
    pg::PgConnection& conn, const std::string& catalog_id, std::string_view namespace_name,
    std::string_view table, const std::optional<std::string>& expected_table_uuid,
    const pg::PgResult& rows);

// `door` names the request in errors, e.g. "append to ns.t": a refusal reads
// "<door> file <i> (<path>): …".
Status ValidateRegistrations(std::vector<FileRegistration>& files, const WriteTarget& table,
                             std::string_view door);

}  // namespace hoglake::catalog
