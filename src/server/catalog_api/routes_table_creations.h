// Routes of atomic table creation (contract §2.10), under
// /v1/catalogs/{catalog}/table-creations/{operation}: PUT (plain,
// /partitioned, /sorted, /metadata), GET, POST /commit, POST /commit/uploads
// and POST /abort. Every success is 200 TableCreation — refusals at publish
// are durable states, not HTTP errors. An operation id that is not a UUID is
// 400. Called from RegisterRoutes.
#pragma once

#include "server/routes.h"

namespace hoglake::server {

void RegisterTableCreations(Router& router, const ServerContext& context);

}  // namespace hoglake::server
