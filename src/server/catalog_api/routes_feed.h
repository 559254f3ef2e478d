// Routes of the changefeed, consumer offsets and catalog options (contract
// §2.6 changes, §2.12, §2.13).
#pragma once

#include "server/http/router.h"
#include "server/routes.h"

namespace hoglake::server {

void RegisterFeed(Router& router, const ServerContext& context);

}  // namespace hoglake::server
