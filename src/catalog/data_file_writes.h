// Writing registered data files (internal to src/catalog), shared by every
// door that publishes files in a snapshot (commit, table-creation publish):
// data-file rows, their column stats and partition values, and the tables'
// running totals and row-id allocators. Runs on the caller's connection,
// inside its CommitScope; the files must already be validated and their
// stats sanitized (file_registration.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "catalog/commit_request.h"
#include "catalog/pg_connection.h"

namespace hoglake::catalog {

// One table's files in the snapshot.
struct FileBatch {
  int64_t table_id = 0;
  std::string qualified_name;      // "ns.t", for errors
  std::optional<int64_t> spec_id;  // the table's live partition spec
  const std::vector<FileRegistration>* files = nullptr;
};

// The one statement that inserts every batch's files at `snapshot` with ids
// from `first_file_id` on (in batch order), row ids continuing each table's
// next_row_id, and advances the tables' totals. Without `first_file_id` the
// ids are allocated from the catalog's next_file_id in the same statement (as
// CommitScope::AllocateIds would). Built by Plan() for the caller to send
// (alone or in a pipeline). The caller has checked that each table's row ids
// have room for the rows added: a statement that would overflow a table's
// allocator fails (bigint out of range) and writes nothing.
class DataFileInsert {
 public:
  // kValidation when a table's added rows overflow int64.
  static Result<DataFileInsert> Plan(int64_t catalog_id, int64_t snapshot,
                                     std::optional<int64_t> first_file_id,
                                     const std::vector<FileBatch>& batches);

  bool empty() const { return statement_.sql.empty(); }  // nothing to write
  const PgStatement& statement() const { return statement_; }

 private:
  PgStatement statement_;
};

// Plan and send in one call: one round trip.
Status InsertDataFiles(PgConnection& conn, int64_t catalog_id, int64_t snapshot,
                       std::optional<int64_t> first_file_id, const std::vector<FileBatch>& batches);

}  // namespace hoglake::catalog
