// SHA-256 digests (OpenSSL underneath).
#pragma once

#include <string>
#include <string_view>

namespace hoglake {

// The 32-byte binary digest of `data`.
std::string Sha256(std::string_view data);

}  // namespace hoglake
