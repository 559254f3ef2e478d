// Maintenance routes (contract §2.14): manual expiry and cleanup, and the run
// ledger.
#pragma once

#include "server/router.h"
#include "server/routes.h"

namespace hoglake::server {

void RegisterMaintenance(Router& router, const ServerContext& context);

}  // namespace hoglake::server
