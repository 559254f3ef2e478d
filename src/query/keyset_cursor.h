// Keyset cursors over (created_at, id) listings, newest first: the opaque
// text a page's next_cursor carries (URL-safe base64 of "<micros>/<id>",
// unpadded). Decoding a malformed cursor is kBadRequest naming it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "common/status.h"

namespace hoglake::query {

std::string EncodeKeysetCursor(int64_t created_micros, const std::string& id);
Result<std::pair<int64_t, std::string>> DecodeKeysetCursor(const std::string& cursor);

}  // namespace hoglake::query
