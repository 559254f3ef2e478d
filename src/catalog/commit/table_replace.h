// Replacing a table's data in one snapshot (CatalogService::ReplaceTableData;
// the query service's managed-table loads): every live data file of the
// table is ended and the given files are registered, atomically, as ONE new
// snapshot. Uuid, schema, partition spec, sort order, properties and the
// row-id allocator are kept (the new files' row ids continue after every id
// the incarnation handed out before).
//
// What the snapshot records is a truncate and an append in one: change rows
// table_altered + table_deleted_from, plus table_inserted_into when files are
// added, and a schema-version bump, as TruncateTable does. So:
//  * time travel: snapshots before it still read the old files; it and later
//    ones read only the new files;
//  * the changefeed: a Changes() window crossing it answers
//    kReconciliationRequired (the feed carries appends only; a consumer
//    re-reads the table at or after the replace), and a window starting at
//    it sees the appends after it;
//  * totals restart from the new files; the old files' rows become
//    unreachable once expiry passes the replace, and their paths are queued
//    for cleanup, exactly as after a truncate;
//  * a commit whose read_snapshot precedes it sees DDL since then (409).
// Zero files empties the table (a truncate with author and message).
//
// Input rules are the commit path's (write_target.h, file_registration.h):
// every path under the catalog's data_path, none listed twice, none an upload
// claim's (an unkeyed write owns no claim), queued for removal or already a
// live data file (of this table too: a replace registers fresh files), the
// file shape, partition values against the live spec, column stats
// sanitized. Errors: kNotFound (catalog, namespace or table), kTableDropped,
// kTableRecreated (`expected_table_uuid` names another incarnation),
// kValidation (a malformed expected_table_uuid, a file rule), kAlreadyExists
// / kCommitConflict (the path guard), kCommitQueueTimeout. A refusal writes
// nothing.
//
// Concurrency: it takes the catalog's commit lock like every commit and DDL,
// so a concurrent append commits wholly before it (and is replaced) or
// wholly after it (and is kept).
#pragma once

#include <optional>
#include <string>

namespace hoglake::catalog {

struct ReplaceOptions {
  // The incarnation the caller means to replace (any uuid spelling); absent:
  // whichever is live.
  std::optional<std::string> expected_table_uuid;
  // Stamped on the snapshot, as a commit's.
  std::optional<std::string> author;
  std::optional<std::string> message;
};

}  // namespace hoglake::catalog
