// SHA-256 digests, HMAC-SHA-256 and secure random bytes (OpenSSL underneath).
#pragma once

#include <memory>
#include <string>
#include <string_view>

namespace hoglake {

// The 32-byte binary digest of `data`.
std::string Sha256(std::string_view data);
// The 32-byte HMAC-SHA-256 of `message` under `key`.
std::string HmacSha256(std::string_view key, std::string_view message);
// A SHA-256 digest of bytes that arrive in pieces (a streamed upload):
// Update with each piece in order, then Finish once.
class Sha256Hasher {
 public:
  Sha256Hasher();
  ~Sha256Hasher();
  Sha256Hasher(const Sha256Hasher&) = delete;
  Sha256Hasher& operator=(const Sha256Hasher&) = delete;

  void Update(std::string_view data);
  // The 32-byte binary digest of everything given to Update.
  std::string Finish();

 private:
  struct State;
  std::unique_ptr<State> state_;
};
// `n` bytes from the operating system's cryptographic random source.
std::string SecureRandomBytes(size_t n);

}  // namespace hoglake
