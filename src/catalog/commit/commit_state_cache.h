// CommitStateCache: what the last batch this process committed to a catalog
// left behind, so the next batch can write without reading first — one
// round trip instead of two (commit_batch.h, RunCachedCommitBatch).
//
// Contract: a state describes the catalog just after that batch committed:
// its head (last snapshot, schema version), its file-id allocator, the
// row-id allocator of every table in `next_row_id`, and, by name, the
// resolution rows of tables in it (WriteTargetStatement as read without a
// read_snapshot; write_target.h). It stays true exactly as long as nothing else
// commits to the catalog: every commit and every DDL writes a snapshot
// (moving last_snapshot_id), and only commits move the allocators. A batch
// written on a state therefore first checks, inside its own transaction and
// under the commit lock, that the catalog row still holds the state's head
// and file-id allocator (CommitScope::AssumedHeadCheck); when it does not,
// nothing of that attempt is committed and the batch reads as usual.
// A state is only ever used by the batch runner of its catalog, which runs
// one batch at a time (commit_batcher.h).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>

#include "catalog/reads/snapshot_selector.h"
#include "pg/pg_connection.h"

namespace hoglake::catalog {

struct CommitStateCache {
  CatalogHead head;
  int64_t next_file_id = 0;
  std::map<int64_t, int64_t> next_row_id;  // table id → its row-id allocator
  // (namespace, table) → its resolution rows; only tables in next_row_id.
  std::map<std::pair<std::string, std::string>, pg::PgResult> resolutions;
};

}  // namespace hoglake::catalog
