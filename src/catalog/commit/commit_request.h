// The commit request (contract §4.1) as the catalog receives it, already
// parsed from JSON (bounds decoded from base64) but not yet validated.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace hoglake::catalog {

struct ColumnStatsInput {
  int64_t field_id = 0;
  int64_t value_count = 0;
  int64_t null_count = 0;
  std::optional<int64_t> nan_count;
  std::optional<int64_t> size_bytes;
  std::optional<std::string> lower_bound;  // raw bytes
  std::optional<std::string> upper_bound;
};

struct FileRegistration {
  std::string path;
  int64_t record_count = 0;
  int64_t file_size_bytes = 0;
  std::optional<int64_t> footer_size;
  // Absent: stats deferred (pending). Present, even empty: provided.
  std::optional<std::vector<ColumnStatsInput>> column_stats;
  std::optional<std::vector<std::optional<std::string>>> partition_values;
  std::optional<std::vector<int64_t>> split_offsets;
  std::optional<std::string> file_format;
};

struct TableAppend {
  std::string namespace_name;
  std::string table;
  std::vector<FileRegistration> files;
  std::optional<std::string> expected_table_uuid;  // canonical text
};

struct TableDeleteGroup {
  std::string namespace_name;
  std::string table;
  int64_t file_count = 0;
  std::optional<std::string> expected_table_uuid;
};

enum class CommitEndpoint {
  kPlain,     // POST …/commit
  kPrepared,  // POST …/commit/prepared: idempotency_key required
  kUploads,   // POST …/commit/uploads: key + read_snapshot; every path claimed
};

struct CommitRequest {
  std::optional<std::string> idempotency_key;  // canonical uuid text
  std::optional<int64_t> read_snapshot;
  std::vector<TableAppend> appends;
  std::vector<TableDeleteGroup> deletes;  // deletion vectors: not yet supported
  std::optional<std::string> author;
  std::optional<std::string> message;
};

}  // namespace hoglake::catalog
