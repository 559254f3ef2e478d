#include "server/http/request_params.h"

#include <charconv>

#include "common/clock.h"

namespace hoglake::server {

Result<std::optional<int64_t>> QueryInt64(const HttpRequest& request, std::string_view name) {
  auto text = request.Query(name);
  if (!text) return std::optional<int64_t>();
  int64_t value = 0;
  auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), value);
  if (text->empty() || ec != std::errc() || end != text->data() + text->size()) {
    return BadRequest("query parameter ", name, "='", *text, "' is not a 64-bit integer");
  }
  return std::optional<int64_t>(value);
}

Result<catalog::SnapshotSelector> QuerySnapshotSelector(const HttpRequest& request) {
  catalog::SnapshotSelector selector;
  HOGLAKE_ASSIGN_OR_RETURN(selector.snapshot, QueryInt64(request, "snapshot"));
  if (auto text = request.Query("at_timestamp")) {
    Result<int64_t> micros = ParseInstant(*text);
    if (!micros.ok()) return BadRequest("query parameter at_timestamp: ", micros.error().message);
    selector.at_timestamp_micros = *micros;
  }
  return selector;
}

}  // namespace hoglake::server
