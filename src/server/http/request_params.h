// Parsing of query parameters shared by routes (contract §1.3: a parse
// failure is 400 bad_request naming the parameter; unknown parameters are
// ignored).
#pragma once

#include <cstdint>
#include <optional>

#include "catalog/model/snapshot_selector_types.h"
#include "server/http/http_types.h"

namespace hoglake::server {

// An optional int64 query parameter.
Result<std::optional<int64_t>> QueryInt64(const HttpRequest& request, std::string_view name);
// `snapshot` and `at_timestamp` (an ISO-8601 instant with offset).
Result<catalog::SnapshotSelector> QuerySnapshotSelector(const HttpRequest& request);

}  // namespace hoglake::server
