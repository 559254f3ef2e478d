// Writing registered data files (internal to src/catalog), shared by every
// door that publishes files in a snapshot (commit, table-creation publish):
// data-file rows, their column stats and partition values, with ids from
// the caller's CommitScope, inside it. The files must already be validated
// and their stats sanitized (file_registration.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "catalog/commit/commit_request.h"
#include "catalog/commit/commit_scope.h"
#include "pg/pg_connection.h"

namespace hoglake::catalog {

// One table's files in the snapshot.
struct FileBatch {
  int64_t table_id = 0;
  std::string qualified_name;      // "ns.t", for errors
  std::optional<int64_t> spec_id;  // the table's live partition spec
  const std::vector<FileRegistration>* files = nullptr;
  int64_t next_row_id = 0;  // the table's row-id allocator as read in this transaction
};

// The one statement that inserts every batch's files at the scope's
// snapshot, with file ids from the scope's allocator (in batch order) and
// row ids reserved from each table's (CommitScope::ReserveRows, which also
// carries the tables' totals until the scope commits). Built by Plan() for
// the caller to send (alone or in a pipeline); Plan() reserves the ids, so a
// caller that does not send the statement restores the scope's position.
// The statement is fusable (pg/pg_connection.h): a batch's members' inserts run
// as one.
// The caller has checked that each table's row ids have room for the rows
// added.
class DataFileInsert {
 public:
  // kValidation when a table's added rows overflow int64 (nothing reserved).
  static Result<DataFileInsert> Plan(CommitScope& scope, const std::vector<FileBatch>& batches);

  bool empty() const { return statement_.sql.empty(); }  // nothing to write
  const pg::PgStatement& statement() const { return statement_; }

 private:
  pg::PgStatement statement_;
};

// Plan and send in one call: one round trip.
Status InsertDataFiles(CommitScope& scope, const std::vector<FileBatch>& batches);

// Ends every live data file of table `table_id` at the scope's snapshot (the
// rows stay for time travel until expiry purges them) and restarts the
// table's live totals (files, rows, bytes) from zero; the row-id allocator is
// kept, so row ids are never reused within the incarnation. Files the scope
// then inserts add to the totals as usual. Truncate and replace share it.
Status EndLiveDataFiles(CommitScope& scope, int64_t table_id);

}  // namespace hoglake::catalog
