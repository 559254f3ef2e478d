// Routes of table evolution (contract §2.5): POST …/tables/{table}/alter and
// POST …/tables/{table}/truncate. Called from RegisterRoutes.
#pragma once

#include "server/routes.h"

namespace hoglake::server {

void RegisterAlter(Router& router, const ServerContext& context);

}  // namespace hoglake::server
