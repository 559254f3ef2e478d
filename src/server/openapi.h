// Our OpenAPI description of what this server serves (docs/openapi.yaml,
// embedded at build time and served at GET /openapi.yaml). A test checks it
// against the routes and the vocabularies.
#pragma once

#include <string_view>

namespace hoglake::server {

std::string_view OpenApiYaml();

}  // namespace hoglake::server
