#include "common/secret_box.h"

#include <openssl/evp.h>

#include <memory>

#include "common/sha256.h"

namespace hoglake {
namespace {

constexpr int kNonceBytes = 12;
constexpr int kTagBytes = 16;

using CipherContext = std::unique_ptr<EVP_CIPHER_CTX, decltype(&EVP_CIPHER_CTX_free)>;

const unsigned char* Bytes(std::string_view s) {
  return reinterpret_cast<const unsigned char*>(s.data());
}

Status CheckKey(std::string_view key) {
  if (key.size() != kSecretKeyBytes) {
    return InvalidArgument("a secret key must be ", kSecretKeyBytes, " bytes, not ", key.size());
  }
  return Status::Ok();
}

}  // namespace

Result<std::string> SealSecret(std::string_view key, std::string_view context,
                               std::string_view plaintext) {
  HOGLAKE_RETURN_IF_ERROR(CheckKey(key));
  const std::string nonce = SecureRandomBytes(kNonceBytes);
  CipherContext ctx(EVP_CIPHER_CTX_new(), &EVP_CIPHER_CTX_free);
  std::string out = nonce;
  out.resize(kNonceBytes + plaintext.size() + kTagBytes);
  auto* cipher = reinterpret_cast<unsigned char*>(out.data()) + kNonceBytes;
  int n = 0;
  int total = 0;
  if (!ctx ||
      EVP_EncryptInit_ex(ctx.get(), EVP_aes_256_gcm(), nullptr, Bytes(key), Bytes(nonce)) != 1 ||
      EVP_EncryptUpdate(ctx.get(), nullptr, &n, Bytes(context), static_cast<int>(context.size())) !=
          1 ||
      EVP_EncryptUpdate(ctx.get(), cipher, &n, Bytes(plaintext),
                        static_cast<int>(plaintext.size())) != 1) {
    return Internal("sealing a secret failed");
  }
  total = n;
  if (EVP_EncryptFinal_ex(ctx.get(), cipher + total, &n) != 1 ||
      EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_GET_TAG, kTagBytes, cipher + total + n) != 1) {
    return Internal("sealing a secret failed");
  }
  return out;
}

Result<std::string> OpenSecret(std::string_view key, std::string_view context,
                               std::string_view sealed) {
  HOGLAKE_RETURN_IF_ERROR(CheckKey(key));
  if (sealed.size() < static_cast<size_t>(kNonceBytes + kTagBytes)) {
    return InvalidArgument("a sealed secret is at least ", kNonceBytes + kTagBytes, " bytes");
  }
  const std::string_view nonce = sealed.substr(0, kNonceBytes);
  const std::string_view cipher =
      sealed.substr(kNonceBytes, sealed.size() - kNonceBytes - kTagBytes);
  std::string tag(sealed.substr(sealed.size() - kTagBytes));
  CipherContext ctx(EVP_CIPHER_CTX_new(), &EVP_CIPHER_CTX_free);
  std::string plain(cipher.size(), '\0');
  int n = 0;
  if (!ctx ||
      EVP_DecryptInit_ex(ctx.get(), EVP_aes_256_gcm(), nullptr, Bytes(key), Bytes(nonce)) != 1 ||
      EVP_DecryptUpdate(ctx.get(), nullptr, &n, Bytes(context), static_cast<int>(context.size())) !=
          1 ||
      EVP_DecryptUpdate(ctx.get(), reinterpret_cast<unsigned char*>(plain.data()), &n,
                        Bytes(cipher), static_cast<int>(cipher.size())) != 1 ||
      EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_SET_TAG, kTagBytes, tag.data()) != 1 ||
      EVP_DecryptFinal_ex(ctx.get(), reinterpret_cast<unsigned char*>(plain.data()) + n, &n) != 1) {
    return InvalidArgument("the secret does not open with this key (wrong key or altered bytes)");
  }
  return plain;
}

}  // namespace hoglake
