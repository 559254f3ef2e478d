// The object-store half of deferred-stats hydration (server digest §7):
// fetching a registered file's Parquet footer and turning it into the
// column stats a client would have shipped with the commit. No database
// access here; hydrator.cc claims files and stores what this decides.
// Internal to src/catalog.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "catalog/commit/commit_request.h"
#include "catalog/model/table_schema.h"
#include "parquet/metadata.h"
#include "storage/object_store.h"

namespace hoglake::catalog {

// What hydrating one file came to.
struct FooterOutcome {
  enum class Kind {
    kHydrated,   // stats computed (possibly none): mark provided
    kFailed,     // structural problem: mark failed with `reason`
    kTransient,  // the store could not be reached: leave pending
  };
  Kind kind = Kind::kHydrated;
  std::string reason;  // kFailed / kTransient: what went wrong, naming the path
  // Some primitive footer leaf (at any depth) carries no field id. Set for
  // kHydrated and for a kFailed row-count mismatch.
  bool missing_field_ids = false;
  std::vector<ColumnStatsInput> stats;  // kHydrated: sanitized, field-id order of the footer
  // kHydrated: the first column chunk's start per row group (dictionary page
  // when present, else first data page); nullopt past kMaxSplitOffsets.
  std::optional<std::vector<int64_t>> split_offsets;
};

// The registered facts of a file the hydrator works on.
struct PendingFile {
  int64_t data_file_id = 0;
  int64_t table_id = 0;
  int64_t begin_snapshot = 0;
  std::string path;
  int64_t record_count = 0;
  int64_t file_size_bytes = 0;
  std::optional<int64_t> footer_size;
};

// Reads the footer of `file` from `store`: with footer_size known (and
// footer_size + 8 < file_size_bytes) ONE ranged read of
// [size - footer_size - 8, size); otherwise the 8-byte trailer first. When
// the trailer's length disagrees with a too-small registered footer_size a
// second ranged read fetches the footer. Errors: kNotFound (absent object),
// kInvalidArgument (out-of-root path, object shorter than registered),
// kInvalidData (not Parquet, encrypted, bad length, unparsable footer), and
// the store's kUnavailable / kIoError.
Result<parquet::FileMetaData> FetchFooter(ObjectStore& store, const PendingFile& file);

// FetchFooter, then the stats: the footer's row count must equal
// record_count; columns bind by field id against `live_columns` when any
// footer leaf has a field id, else by name (dotted path) against
// `begin_columns()` (the table at the file's begin_snapshot, loaded only
// then; on error the live columns stand in); stats of columns
// not live any more are dropped; the result passes SanitizeColumnStats.
// kNotFound / kInvalidArgument / kInvalidData / anything the stats
// extraction refuses ⇒ kFailed; other store errors ⇒ kTransient.
FooterOutcome HydrateFile(ObjectStore& store, const PendingFile& file,
                          const std::vector<ColumnNode>& live_columns,
                          const std::function<Result<std::vector<ColumnNode>>()>& begin_columns);

}  // namespace hoglake::catalog
