// SHA-256 digests, HMAC-SHA-256 and secure random bytes (OpenSSL underneath).
#pragma once

#include <string>
#include <string_view>

namespace hoglake {

// The 32-byte binary digest of `data`.
std::string Sha256(std::string_view data);
// The 32-byte HMAC-SHA-256 of `message` under `key`.
std::string HmacSha256(std::string_view key, std::string_view message);
// `n` bytes from the operating system's cryptographic random source.
std::string SecureRandomBytes(size_t n);

}  // namespace hoglake
