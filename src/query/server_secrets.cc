#include "query/server_secrets.h"

#include "common/encoding.h"
#include "common/sha256.h"

namespace hoglake::query {

Result<std::string> SharedSecret(pg::PgPool* pool, std::string_view name, size_t bytes) {
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgPool::Lease conn, pool->Acquire());
  // One statement: a concurrent first start of another replica either wins
  // the insert (this one then reads its row) or loses it.
  HOGLAKE_RETURN_IF_ERROR(conn->ExecPrepared("INSERT INTO hog_server_secret (name, value_hex) "
                                             "VALUES ($1, $2) ON CONFLICT (name) DO NOTHING",
                                             {std::string(name),
                                              HexEncode(SecureRandomBytes(bytes))})
                              .status());
  HOGLAKE_ASSIGN_OR_RETURN(
      pg::PgResult stored,
      conn->ExecPrepared("SELECT value_hex FROM hog_server_secret WHERE name = $1",
                         {std::string(name)}));
  if (stored.rows() != 1) {
    return MakeError(ErrorCode::kInternal, StrCat("server secret '", name, "' is missing"));
  }
  return HexDecode(stored.GetString(0, 0));
}

}  // namespace hoglake::query
