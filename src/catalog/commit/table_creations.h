// Atomic table creation (contract §2.10): a table prepared under a
// client-chosen operation id and published, with its first files, in one
// snapshot.
//
// Prepare (PUT …/table-creations/{op}[/partitioned|/sorted|/metadata])
// validates the definition, pre-mints the table uuid and a write path
// `<data_path>/data/<uuid>/` and stores the operation as `prepared`; nothing
// is visible in the catalog and the target name is not reserved. Each
// prepare endpoint accepts only its own optional fields (plain: none;
// partitioned: non-empty partition_fields, no sort; sorted: non-empty
// sort_fields, partition fields allowed; metadata: comment, properties,
// column comments) — anything else is kValidation ("… require their
// dedicated preparation endpoint"). Errors: kNotFound (catalog, namespace),
// kValidation (definition), kCommitConflict (re-prepare with another
// definition; replacement read_snapshot not retained, or the target's uuid
// at it is not `expected_table_uuid`). An identical re-prepare returns the
// stored operation whatever its state.
//
// Every access locks the operation row (FOR UPDATE, bounded by the commit
// lock timeout → kCommitQueueTimeout) and lazily flips a prepared operation
// past `expires_at` (prepare + 24 h) to aborted/`expired`.
//
// Publish (POST …/commit, …/commit/uploads) takes the catalog commit lock,
// then the row. committed/rejected: the same file list (order-sensitive)
// returns the stored operation, another is kCommitConflict; aborted returns
// as is. A prepared operation's files must be ≤ 10,000, unique, under
// write_path, with footer_size; the usual file rules apply (§4.1). The
// catalog may then refuse durably (state `rejected`, answered 200):
// namespace_changed (namespace dropped or recreated), target_exists (the
// name is live and no replacement was prepared), target_changed (the
// replacement target is no longer `expected_table_uuid` or saw DDL after
// read_snapshot), definition_invalid. Otherwise one snapshot creates the
// table (dropping the replaced incarnation, if any), registers the files
// (claims checked as commit does, owner = operation id; …/commit/uploads
// requires every path to be claimed) and marks the operation committed.
//
// Abort: prepared → aborted/`client_abort`; other states unchanged.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "catalog/commit/commit_request.h"
#include "catalog/ddl/alter_ops.h"
#include "catalog/model/table_info.h"

namespace hoglake::catalog {

inline constexpr size_t kMaxTableCreationFiles = 10000;

enum class TableCreationEndpoint { kPlain, kPartitioned, kSorted, kMetadata };
enum class TableCreationPublish { kPlain, kUploads };

struct TableReplacement {
  std::optional<std::string> expected_table_uuid;  // canonical; nullopt = no table expected
  int64_t read_snapshot = 0;
};

struct TableCreationDefinition {
  std::string namespace_name;
  std::string name;
  std::vector<ColumnNode> columns;  // as sent (no field ids)
  std::optional<TableReplacement> replacement;
  std::vector<PartitionFieldInput> partition_fields;
  std::vector<SortFieldInput> sort_fields;
  std::optional<std::string> comment;
  Properties properties;  // sorted by key
};

struct TableCreation {
  std::string operation_id;  // canonical uuid
  std::string table_uuid;
  std::string namespace_name;
  std::string name;
  std::vector<ColumnNode> columns;  // with the field ids the table will get
  std::string write_path;
  std::string state;  // prepared | committed | rejected | aborted
  int64_t expires_at_micros = 0;
  std::optional<int64_t> snapshot_id;
  std::optional<int64_t> schema_version;
  std::optional<std::string> reason;
};

}  // namespace hoglake::catalog
