#include "query/keyset_cursor.h"

#include "common/encoding.h"

namespace hoglake::query {

std::string EncodeKeysetCursor(int64_t created_micros, const std::string& id) {
  return Base64UrlEncode(std::to_string(created_micros) + "/" + id);
}

Result<std::pair<int64_t, std::string>> DecodeKeysetCursor(const std::string& cursor) {
  std::optional<std::string> decoded = Base64UrlDecode(cursor);
  auto bad = [&] { return MakeError(ErrorCode::kBadRequest, "malformed cursor '" + cursor + "'"); };
  if (!decoded) return bad();
  const size_t slash = decoded->find('/');
  if (slash == std::string::npos || slash == 0) return bad();
  int64_t micros = 0;
  for (size_t i = 0; i < slash; ++i) {
    const char c = (*decoded)[i];
    if (c < '0' || c > '9' || micros > (INT64_MAX - 9) / 10) return bad();
    micros = micros * 10 + (c - '0');
  }
  return std::make_pair(micros, decoded->substr(slash + 1));
}

}  // namespace hoglake::query
