#include "common/md5.h"

#include <openssl/evp.h>

#include <cstdlib>

namespace hoglake {

std::string Md5(std::string_view data) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  // EVP_Digest fails only when the digest is unavailable (a FIPS-only build
  // of OpenSSL): nothing a caller could do about it.
  if (EVP_Digest(data.data(), data.size(), digest, &length, EVP_md5(), nullptr) != 1) std::abort();
  return std::string(reinterpret_cast<const char*>(digest), length);
}

}  // namespace hoglake
