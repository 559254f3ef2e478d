// Routes of views (contract §2.15) and the stateless bound decoder
// (POST /v1/debug/decode-bound, §2.2).
#pragma once

#include "server/http/router.h"
#include "server/routes.h"

namespace hoglake::server {

void RegisterViews(Router& router, const ServerContext& context);
void RegisterDecodeBound(Router& router);

}  // namespace hoglake::server
