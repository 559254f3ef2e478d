// ApiTokens: who may call the query API (and, off loopback, everything).
//
// Tokens come from HOGLAKE_API_TOKENS (separated by commas or whitespace)
// and/or a token file (one per line, '#' comments); only their SHA-256
// digests are kept. A request is authorized by `Authorization: Bearer T`
// where T is one of the tokens or an access token minted by Exchange.
//
// Exchange answers the Hotdata SDK's JWT exchange (hotdata-api.md §1.3,
// POST /v1/auth/jwt, form fields grant_type=api_token|refresh_token): an
// access token "eyJ…" (a JWT: HS256 over {"sub", "exp", "use"}) valid for
// kAccessSeconds and a refresh token valid for kRefreshSeconds. The signing
// key is derived from the configured tokens, so every replica with the same
// tokens accepts what any of them minted; without tokens the exchange takes
// any api_token (nothing is checked then) and signs with a random key.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace hoglake::query {

struct MintedTokens {
  std::string access_token;
  int64_t expires_in = 0;
  std::string refresh_token;
};

class ApiTokens {
 public:
  static constexpr int64_t kAccessSeconds = 3600;
  static constexpr int64_t kRefreshSeconds = int64_t{30} * 24 * 3600;

  // kInvalidArgument naming the file when it cannot be read, or when a
  // token is shorter than 16 characters.
  static Result<ApiTokens> Load(std::string_view listed, const std::string& file);

  bool enabled() const { return !digests_.empty(); }
  size_t size() const { return digests_.size(); }
  // Whether an Authorization header value ("Bearer …") is accepted.
  bool Authorizes(std::string_view authorization, int64_t now_seconds) const;
  // A form-encoded exchange body → tokens, or the reason the credential
  // was refused (the route answers 401); kBadRequest for a malformed body
  // or an unknown grant_type.
  struct Exchanged {
    std::optional<MintedTokens> tokens;
    std::string refusal;
  };
  Result<Exchanged> Exchange(std::string_view form_body, int64_t now_seconds) const;
  // A 32-byte key for `purpose` derived from the configured tokens (the
  // same on every replica with the same tokens); empty without tokens.
  std::string DerivedKey(std::string_view purpose) const;

 private:
  bool IsToken(std::string_view token) const;
  std::string Mint(std::string_view use, int64_t expires_at) const;
  // The claims' "use" when `jwt` is ours, well signed and not expired.
  std::optional<std::string> Verify(std::string_view jwt, int64_t now_seconds) const;

  std::vector<std::string> digests_;  // SHA-256 of each token
  std::string key_;                   // HMAC key for minted tokens
};

}  // namespace hoglake::query
