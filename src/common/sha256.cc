#include "common/sha256.h"

#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <openssl/sha.h>

#include <cstdlib>
#include <stdexcept>

namespace hoglake {

std::string Sha256(std::string_view data) {
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(data.data()), data.size(), digest);
  return std::string(reinterpret_cast<const char*>(digest), sizeof(digest));
}

struct Sha256Hasher::State {
  EVP_MD_CTX* context = EVP_MD_CTX_new();
  ~State() { EVP_MD_CTX_free(context); }
};

// EVP calls fail only without memory or without the digest (a broken
// OpenSSL), as the one-shot SHA256 above assumes too.
Sha256Hasher::Sha256Hasher() : state_(std::make_unique<State>()) {
  if (state_->context == nullptr ||
      EVP_DigestInit_ex(state_->context, EVP_sha256(), nullptr) != 1) {
    std::abort();
  }
}

Sha256Hasher::~Sha256Hasher() = default;

void Sha256Hasher::Update(std::string_view data) {
  if (EVP_DigestUpdate(state_->context, data.data(), data.size()) != 1) std::abort();
}

std::string Sha256Hasher::Finish() {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  if (EVP_DigestFinal_ex(state_->context, digest, &length) != 1) std::abort();
  return std::string(reinterpret_cast<const char*>(digest), length);
}

std::string HmacSha256(std::string_view key, std::string_view message) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
       reinterpret_cast<const unsigned char*>(message.data()), message.size(), digest, &length);
  return std::string(reinterpret_cast<const char*>(digest), length);
}

std::string SecureRandomBytes(size_t n) {
  std::string bytes(n, '\0');
  if (RAND_bytes(reinterpret_cast<unsigned char*>(bytes.data()), static_cast<int>(n)) != 1) {
    throw std::runtime_error("the system's random source failed");
  }
  return bytes;
}

}  // namespace hoglake
