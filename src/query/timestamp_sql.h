// The one SQL spelling of a timestamptz column as RFC 3339 text in UTC with
// microseconds ("2026-12-06T05:58:01.548420Z"), as the query API's JSON
// carries created_at and completed_at.
#pragma once

#include <string>
#include <string_view>

#include "common/status.h"

namespace hoglake::query {

inline std::string Rfc3339Sql(std::string_view column) {
  return StrCat("to_char(", column, " AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.US\"Z\"')");
}

}  // namespace hoglake::query
