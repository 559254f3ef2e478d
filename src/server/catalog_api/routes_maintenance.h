// Maintenance routes (contract §2.14): manual expiry and cleanup, requeueing
// failed stats (rehydrate), the run ledger, and the hoglake extension
// POST …/maintenance/hydrate?batch=N (one manual hydrator run, hydrator.h).
#pragma once

#include "server/http/router.h"
#include "server/routes.h"

namespace hoglake::server {

void RegisterMaintenance(Router& router, const ServerContext& context);

}  // namespace hoglake::server
