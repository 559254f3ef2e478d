// Parsing of the commit request body (contract §4.1) into
// catalog::CommitRequest. Shape errors (unknown fields, wrong JSON types,
// missing required members, null inside a non-nullable list, invalid UUIDs,
// invalid base64 bounds) are 400 bad_request naming the member's path;
// semantic rules are the catalog's (422).
#pragma once

#include "catalog/commit/commit_request.h"
#include "server/http/json_body.h"

namespace hoglake::server {

Result<catalog::CommitRequest> ParseCommitRequest(JsonObject body);

// A list of FileRegistration objects (shape rules as above).
Result<std::vector<catalog::FileRegistration>> ParseFileRegistrations(const JsonArray& files);

}  // namespace hoglake::server
