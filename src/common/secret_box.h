// Authenticated encryption of small secrets (AES-256-GCM, OpenSSL).
//
// SealSecret returns nonce (12 random bytes) ‖ ciphertext ‖ tag (16 bytes);
// `context` is authenticated but not stored (e.g. the owning row's id), so
// a sealed value copied to another row does not open there. OpenSecret
// fails with kInvalidArgument when the key, context or bytes do not match.
#pragma once

#include <string>
#include <string_view>

#include "common/status.h"

namespace hoglake {

inline constexpr size_t kSecretKeyBytes = 32;

// `key` must be kSecretKeyBytes long (kInvalidArgument otherwise).
Result<std::string> SealSecret(std::string_view key, std::string_view context,
                               std::string_view plaintext);
Result<std::string> OpenSecret(std::string_view key, std::string_view context,
                               std::string_view sealed);

}  // namespace hoglake
