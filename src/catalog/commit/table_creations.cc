// CatalogService: prepare, status and abort of atomic table creations
// (table_creations.h). Publish is in table_creation_publish.cc.
#include "catalog/commit/table_creations.h"

#include "catalog/catalog_service.h"
#include "catalog/commit/table_creation_codec.h"
#include "catalog/commit/table_creation_store.h"
#include "catalog/ddl/table_store.h"
#include "common/uuid.h"

namespace hoglake::catalog {
namespace {

// Opens a transaction whose lock waits (the operation row) are bounded.
Result<pg::PgTransaction> BeginBounded(pg::PgConnection& conn, int64_t lock_timeout_ms) {
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgTransaction txn, pg::PgTransaction::Begin(conn));
  HOGLAKE_RETURN_IF_ERROR(conn.Exec("SELECT set_config('lock_timeout', $1, true)",
                                    {std::to_string(std::max<int64_t>(lock_timeout_ms, 0))}));
  return txn;
}

// The uuid of the table named `name` in namespace `ns` at `snapshot`, if any.
Result<std::optional<std::string>> TargetUuidAt(pg::PgConnection& conn, const CatalogHead& head,
                                                std::string_view catalog, std::string_view ns,
                                                std::string_view name, int64_t snapshot) {
  Result<int64_t> namespace_id = NamespaceIdAt(conn, head.catalog_id, catalog, ns, snapshot);
  if (!namespace_id.ok()) {
    if (namespace_id.error().code == ErrorCode::kNotFound) return std::optional<std::string>();
    return namespace_id.error();
  }
  HOGLAKE_ASSIGN_OR_RETURN(std::optional<int64_t> table_id,
                           TableIdAt(conn, head.catalog_id, *namespace_id, name, snapshot));
  if (!table_id) return std::optional<std::string>();
  HOGLAKE_ASSIGN_OR_RETURN(
      pg::PgResult r, conn.Exec("SELECT table_uuid::text FROM hog_table WHERE catalog_id = $1 AND "
                                "table_id = $2",
                                {std::to_string(head.catalog_id), std::to_string(*table_id)}));
  return std::optional<std::string>(r.GetString(0, 0));
}

// Replacement guard at prepare: the read snapshot is retained and the target
// there is the expected incarnation (or absent when none is expected).
Status CheckReplacement(pg::PgConnection& conn, const CatalogHead& head, std::string_view catalog,
                        const TableCreationDefinition& d) {
  const TableReplacement& r = *d.replacement;
  if (r.read_snapshot < head.earliest_snapshot_id || r.read_snapshot > head.head_snapshot_id) {
    return MakeError(ErrorCode::kCommitConflict, "replacement read_snapshot ", r.read_snapshot,
                     " is not retained (retained snapshots: ", head.earliest_snapshot_id, "..",
                     head.head_snapshot_id, ")");
  }
  HOGLAKE_ASSIGN_OR_RETURN(
      std::optional<std::string> uuid,
      TargetUuidAt(conn, head, catalog, d.namespace_name, d.name, r.read_snapshot));
  if (uuid != r.expected_table_uuid) {
    return MakeError(ErrorCode::kCommitConflict, "replacement target ", d.namespace_name, ".",
                     d.name, " at snapshot ", r.read_snapshot, " is ",
                     uuid ? "incarnation " + *uuid : std::string("absent"), ", not ",
                     r.expected_table_uuid ? "the expected " + *r.expected_table_uuid
                                           : std::string("absent as expected"));
  }
  return Status::Ok();
}

}  // namespace

Result<TableCreation> CatalogService::PrepareTableCreation(
    std::string_view catalog, std::string_view operation, TableCreationEndpoint endpoint,
    const TableCreationDefinition& definition) {
  // Everything the request alone decides is checked first.
  HOGLAKE_RETURN_IF_ERROR(CheckEndpointFields(definition, endpoint));
  HOGLAKE_RETURN_IF_ERROR(BuildTableState(definition).status());
  const std::string definition_json = DefinitionJson(definition);

  HOGLAKE_ASSIGN_OR_RETURN(pg::PgPool::Lease conn, pool_->Acquire());
  HOGLAKE_ASSIGN_OR_RETURN(CatalogInfo info, GetCatalogOn(*conn, catalog));
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgTransaction txn,
                           BeginBounded(*conn, options_.commit_lock_timeout_ms));
  // An operation already under this id answers for itself.
  auto replay = [&]() -> Result<std::optional<TableCreation>> {
    HOGLAKE_ASSIGN_OR_RETURN(std::optional<OperationRow> row,
                             LockOperation(*conn, info.catalog_id, operation));
    if (!row) return std::optional<TableCreation>();
    HOGLAKE_ASSIGN_OR_RETURN(bool same, StoredJsonEquals(*conn, info.catalog_id, operation,
                                                         "definition", definition_json));
    if (!same) {
      return MakeError(ErrorCode::kCommitConflict, "table-creation operation ", operation,
                       " was prepared with a different definition");
    }
    HOGLAKE_ASSIGN_OR_RETURN(TableCreation stored, TableCreationOf(*row));
    HOGLAKE_RETURN_IF_ERROR(txn.Commit());  // keeps a lazy expiry
    return std::optional<TableCreation>(std::move(stored));
  };
  HOGLAKE_ASSIGN_OR_RETURN(std::optional<TableCreation> existing, replay());
  if (existing) return std::move(*existing);

  HOGLAKE_ASSIGN_OR_RETURN(CatalogHead head, ReadCatalogHead(*conn, catalog));
  HOGLAKE_ASSIGN_OR_RETURN(int64_t namespace_id,
                           NamespaceIdAt(*conn, head.catalog_id, catalog, definition.namespace_name,
                                         head.head_snapshot_id));
  if (definition.replacement) {
    HOGLAKE_RETURN_IF_ERROR(CheckReplacement(*conn, head, catalog, definition));
  }
  std::string write_path = info.data_path;
  if (!write_path.ends_with('/')) write_path += '/';
  write_path += "data/" + NewUuid() + "/";
  HOGLAKE_ASSIGN_OR_RETURN(
      pg::PgResult inserted,
      conn->Exec("INSERT INTO hog_table_creation (catalog_id, operation_id, namespace_id, "
                 "definition, table_uuid, write_path) VALUES ($1, $2, $3, $4::jsonb, $5, $6) "
                 "ON CONFLICT DO NOTHING",
                 {std::to_string(info.catalog_id), std::string(operation),
                  std::to_string(namespace_id), definition_json, NewUuid(), write_path}));
  if (inserted.affected_rows() == 0) {
    // A concurrent prepare of the same id won the insert.
    HOGLAKE_ASSIGN_OR_RETURN(existing, replay());
    if (existing) return std::move(*existing);
    return Internal("table-creation operation ", operation, " vanished during prepare");
  }
  HOGLAKE_ASSIGN_OR_RETURN(std::optional<OperationRow> row,
                           LockOperation(*conn, info.catalog_id, operation));
  if (!row) return Internal("table-creation operation ", operation, " not readable after insert");
  HOGLAKE_ASSIGN_OR_RETURN(TableCreation created, TableCreationOf(*row));
  HOGLAKE_RETURN_IF_ERROR(txn.Commit());
  return created;
}

Result<TableCreation> CatalogService::GetTableCreation(std::string_view catalog,
                                                       std::string_view operation) {
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgPool::Lease conn, pool_->Acquire());
  HOGLAKE_ASSIGN_OR_RETURN(CatalogInfo info, GetCatalogOn(*conn, catalog));
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgTransaction txn,
                           BeginBounded(*conn, options_.commit_lock_timeout_ms));
  HOGLAKE_ASSIGN_OR_RETURN(std::optional<OperationRow> row,
                           LockOperation(*conn, info.catalog_id, operation));
  if (!row) return OperationNotFound(operation);
  HOGLAKE_ASSIGN_OR_RETURN(TableCreation out, TableCreationOf(*row));
  HOGLAKE_RETURN_IF_ERROR(txn.Commit());
  return out;
}

Result<TableCreation> CatalogService::AbortTableCreation(std::string_view catalog,
                                                         std::string_view operation) {
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgPool::Lease conn, pool_->Acquire());
  HOGLAKE_ASSIGN_OR_RETURN(CatalogInfo info, GetCatalogOn(*conn, catalog));
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgTransaction txn,
                           BeginBounded(*conn, options_.commit_lock_timeout_ms));
  HOGLAKE_ASSIGN_OR_RETURN(std::optional<OperationRow> row,
                           LockOperation(*conn, info.catalog_id, operation));
  if (!row) return OperationNotFound(operation);
  if (row->state == "prepared") {
    HOGLAKE_RETURN_IF_ERROR(SetOperationState(*conn, info.catalog_id, operation, "aborted",
                                              std::string("client_abort"), std::nullopt));
    row->state = "aborted";
    row->reason = "client_abort";
  }
  HOGLAKE_ASSIGN_OR_RETURN(TableCreation out, TableCreationOf(*row));
  HOGLAKE_RETURN_IF_ERROR(txn.Commit());
  return out;
}

}  // namespace hoglake::catalog
