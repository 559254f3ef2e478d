// Wire shapes of POST …/tables/{table}/alter (contract §2.5, §3.2): the
// `{ops: [AlterOp]}` body and its query parameters, parsed into the catalog's
// AlterTableRequest. Parse-level failures are 400 (empty `ops`, a null op,
// unknown `op`, an op missing its required field, unknown fields, wrong JSON
// types, an invalid expected_table_uuid, a non-integer read_snapshot); type
// names, transforms, directions and every other semantic rule are checked by
// the catalog (422).
#pragma once

#include "catalog/ddl/alter_ops.h"
#include "server/http/http_types.h"
#include "server/http/json_body.h"

namespace hoglake::server {

Result<catalog::AlterTableRequest> ParseAlterRequest(const HttpRequest& request);

// PartitionField / SortField lists (§3.2): shape only (400); transforms,
// directions and sources are checked by the catalog (422).
Result<std::vector<catalog::PartitionFieldInput>> ParsePartitionFields(const JsonArray& array);
Result<std::vector<catalog::SortFieldInput>> ParseSortFields(const JsonArray& array);

// The body alone.
Result<std::vector<catalog::AlterOp>> ParseAlterOps(JsonObject body);

}  // namespace hoglake::server
