// Routes of upload claims (contract §2.11): PUT …/uploads/{upload},
// POST …/uploads/renew, …/uploads/abandon and …/uploads/schedule-expired.
// Thin: parse, delegate to CatalogService (catalog/commit/uploads.h), write.
#pragma once

#include "server/http/router.h"
#include "server/routes.h"

namespace hoglake::server {

void RegisterUploads(Router& router, const ServerContext& context);

}  // namespace hoglake::server
