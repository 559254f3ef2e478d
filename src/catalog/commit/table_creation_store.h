// Shared pieces of the table-creation operations (internal to src/catalog):
// the definition's rules, reading and locking an operation row, and the
// TableCreation a row answers with. Everything runs on the caller's
// connection, inside its open transaction.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "catalog/commit/table_creations.h"
#include "catalog/ddl/alter_ops.h"
#include "pg/pg_connection.h"

namespace hoglake::catalog {

// The table a definition describes: field ids assigned from 1, properties
// without the default write.format.default, partition spec / sort order
// built (spec_id / sort_id 1). kValidation naming what is wrong.
Result<AlterState> BuildTableState(const TableCreationDefinition& definition);

// The optional fields of `definition` must be the ones `endpoint` accepts
// (table_creations.h); kValidation otherwise.
Status CheckEndpointFields(const TableCreationDefinition& definition,
                           TableCreationEndpoint endpoint);

struct OperationRow {
  std::string operation_id;
  int64_t namespace_id = 0;
  std::string definition_json;
  std::string table_uuid;
  std::string write_path;
  std::string state;
  int64_t expires_at_micros = 0;
  std::optional<int64_t> snapshot_id;
  std::optional<int64_t> schema_version;
  std::optional<std::string> reason;
};

// Locks the operation row FOR UPDATE after flipping it to aborted/expired
// when it is prepared past expires_at; nullopt when there is none.
Result<std::optional<OperationRow>> LockOperation(pg::PgConnection& conn, int64_t catalog_id,
                                                  std::string_view operation_id);

// Whether the stored jsonb column `column` ("definition" or "files") of the
// row equals `json` (jsonb equality).
Result<bool> StoredJsonEquals(pg::PgConnection& conn, int64_t catalog_id,
                              std::string_view operation_id, std::string_view column,
                              const std::string& json);

// Moves the row to a terminal state (reason, published files and receipt
// as given).
Status SetOperationState(pg::PgConnection& conn, int64_t catalog_id, std::string_view operation_id,
                         std::string_view state, const std::optional<std::string>& reason,
                         const std::optional<std::string>& files_json,
                         std::optional<int64_t> snapshot_id = std::nullopt,
                         std::optional<int64_t> schema_version = std::nullopt);

// The wire view of a row; kCorruptDefinition when its definition is unreadable.
Result<TableCreation> TableCreationOf(const OperationRow& row);

// kNotFound naming the operation.
Error OperationNotFound(std::string_view operation_id);

}  // namespace hoglake::catalog
