// SharedSecret: a random key every server on one catalog database shares
// (migration V21, hog_server_secret). The first server to ask for `name`
// stores `bytes` random bytes; every later ask, on any replica, reads the
// same ones back. Used for the presigned upload URLs' signing key
// (upload_store.h), so a part PUT minted by one replica is accepted by all.
//
// Errors: the database's.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "common/status.h"
#include "pg/pg_pool.h"

namespace hoglake::query {

Result<std::string> SharedSecret(pg::PgPool* pool, std::string_view name, size_t bytes = 32);

}  // namespace hoglake::query
