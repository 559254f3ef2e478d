#include "query/api_tokens.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <map>
#include <sstream>

#include "common/encoding.h"
#include "common/json_text.h"
#include "common/sha256.h"

namespace hoglake::query {
namespace {

constexpr size_t kMinTokenChars = 16;

// Constant-time comparison of equal-length digests.
bool SameBytes(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  unsigned char diff = 0;
  for (size_t i = 0; i < a.size(); ++i) diff |= static_cast<unsigned char>(a[i] ^ b[i]);
  return diff == 0;
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

Result<std::string> FormDecode(std::string_view text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '+') {
      out += ' ';
    } else if (text[i] == '%') {
      if (i + 2 >= text.size() || HexValue(text[i + 1]) < 0 || HexValue(text[i + 2]) < 0) {
        return MakeError(ErrorCode::kBadRequest, "malformed percent-encoding in the form body");
      }
      out += static_cast<char>(HexValue(text[i + 1]) * 16 + HexValue(text[i + 2]));
      i += 2;
    } else {
      out += text[i];
    }
  }
  return out;
}

// The number after "key": in a flat JSON object we wrote ourselves.
std::optional<int64_t> NumberField(std::string_view json, std::string_view key) {
  std::string needle = "\"" + std::string(key) + "\":";
  size_t at = json.find(needle);
  if (at == std::string_view::npos) return std::nullopt;
  at += needle.size();
  int64_t value = 0;
  size_t digits = 0;
  while (at < json.size() && std::isdigit(static_cast<unsigned char>(json[at])) && digits < 18) {
    value = value * 10 + (json[at++] - '0');
    ++digits;
  }
  if (digits == 0) return std::nullopt;
  return value;
}

std::optional<std::string> StringField(std::string_view json, std::string_view key) {
  std::string needle = "\"" + std::string(key) + "\":\"";
  size_t at = json.find(needle);
  if (at == std::string_view::npos) return std::nullopt;
  at += needle.size();
  size_t end = json.find('"', at);
  if (end == std::string_view::npos) return std::nullopt;
  return std::string(json.substr(at, end - at));
}

}  // namespace

Result<ApiTokens> ApiTokens::Load(std::string_view listed, const std::string& file) {
  std::vector<std::string> tokens;
  auto add = [&](std::string token, const std::string& where) -> Status {
    if (token.size() < kMinTokenChars) {
      return InvalidArgument(where, ": an API token must have at least ", kMinTokenChars,
                             " characters");
    }
    tokens.push_back(std::move(token));
    return Status::Ok();
  };
  std::string word;
  for (char c : listed) {
    if (c == ',' || std::isspace(static_cast<unsigned char>(c))) {
      if (!word.empty()) HOGLAKE_RETURN_IF_ERROR(add(std::move(word), "HOGLAKE_API_TOKENS"));
      word.clear();
    } else {
      word += c;
    }
  }
  if (!word.empty()) HOGLAKE_RETURN_IF_ERROR(add(std::move(word), "HOGLAKE_API_TOKENS"));
  if (!file.empty()) {
    std::ifstream in(file);
    if (!in) return InvalidArgument("HOGLAKE_API_TOKEN_FILE: cannot read ", file);
    for (std::string line; std::getline(in, line);) {
      while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back())))
        line.pop_back();
      size_t start = line.find_first_not_of(" \t");
      if (start == std::string::npos || line[start] == '#') continue;
      HOGLAKE_RETURN_IF_ERROR(add(line.substr(start), file));
    }
  }
  ApiTokens result;
  for (const std::string& t : tokens) result.digests_.push_back(Sha256(t));
  result.key_ = result.digests_.empty() ? SecureRandomBytes(32)
                                        : result.DerivedKey("hoglake access tokens v1");
  return result;
}

std::string ApiTokens::DerivedKey(std::string_view purpose) const {
  if (digests_.empty()) return "";
  std::vector<std::string> sorted = digests_;
  std::sort(sorted.begin(), sorted.end());
  std::string material(purpose);
  for (const std::string& d : sorted) material += d;
  return Sha256(material);
}

bool ApiTokens::IsToken(std::string_view token) const {
  const std::string digest = Sha256(token);
  bool found = false;
  for (const std::string& d : digests_) found |= SameBytes(d, digest);
  return found;
}

std::string ApiTokens::Mint(std::string_view use, int64_t expires_at) const {
  const std::string header = Base64UrlEncode(R"({"alg":"HS256","typ":"JWT"})");
  std::string claims = "{\"sub\":\"hoglake\",\"use\":";
  AppendJsonString(use, &claims);
  claims += ",\"exp\":" + std::to_string(expires_at) + "}";
  const std::string signed_part = header + "." + Base64UrlEncode(claims);
  return signed_part + "." + Base64UrlEncode(HmacSha256(key_, signed_part));
}

std::optional<std::string> ApiTokens::Verify(std::string_view jwt, int64_t now_seconds) const {
  const size_t first = jwt.find('.');
  const size_t second = first == std::string_view::npos ? first : jwt.find('.', first + 1);
  if (second == std::string_view::npos) return std::nullopt;
  const std::string_view signed_part = jwt.substr(0, second);
  std::optional<std::string> signature = Base64UrlDecode(jwt.substr(second + 1));
  if (!signature || !SameBytes(*signature, HmacSha256(key_, signed_part))) return std::nullopt;
  std::optional<std::string> claims = Base64UrlDecode(jwt.substr(first + 1, second - first - 1));
  if (!claims) return std::nullopt;
  std::optional<int64_t> exp = NumberField(*claims, "exp");
  if (!exp || *exp <= now_seconds) return std::nullopt;
  return StringField(*claims, "use");
}

bool ApiTokens::Authorizes(std::string_view authorization, int64_t now_seconds) const {
  constexpr std::string_view kBearer = "Bearer ";
  if (authorization.size() <= kBearer.size()) return false;
  std::string scheme(authorization.substr(0, kBearer.size()));
  std::transform(scheme.begin(), scheme.end(), scheme.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (scheme != "bearer ") return false;
  std::string_view credential = authorization.substr(kBearer.size());
  while (!credential.empty() && credential.front() == ' ') credential.remove_prefix(1);
  if (IsToken(credential)) return true;
  std::optional<std::string> use = Verify(credential, now_seconds);
  return use && *use == "access";
}

Result<ApiTokens::Exchanged> ApiTokens::Exchange(std::string_view form_body,
                                                 int64_t now_seconds) const {
  std::map<std::string, std::string> fields;
  std::string_view rest = form_body;
  while (!rest.empty()) {
    size_t amp = rest.find('&');
    std::string_view pair = rest.substr(0, amp);
    size_t eq = pair.find('=');
    HOGLAKE_ASSIGN_OR_RETURN(std::string name, FormDecode(pair.substr(0, eq)));
    HOGLAKE_ASSIGN_OR_RETURN(
        std::string value,
        FormDecode(eq == std::string_view::npos ? std::string_view() : pair.substr(eq + 1)));
    fields[name] = value;
    if (amp == std::string_view::npos) break;
    rest.remove_prefix(amp + 1);
  }
  const std::string grant = fields["grant_type"];
  Exchanged out;
  if (grant == "api_token") {
    const std::string& token = fields["api_token"];
    if (token.empty()) return MakeError(ErrorCode::kBadRequest, "api_token is missing");
    if (enabled() && !IsToken(token)) {
      out.refusal = "the API token is not valid";
      return out;
    }
  } else if (grant == "refresh_token") {
    std::optional<std::string> use = Verify(fields["refresh_token"], now_seconds);
    if (!use || *use != "refresh") {
      out.refusal = "the refresh token is not valid or has expired";
      return out;
    }
  } else {
    return MakeError(ErrorCode::kBadRequest,
                     "grant_type must be api_token or refresh_token, not '" + grant + "'");
  }
  MintedTokens minted;
  minted.access_token = Mint("access", now_seconds + kAccessSeconds);
  minted.expires_in = kAccessSeconds;
  minted.refresh_token = Mint("refresh", now_seconds + kRefreshSeconds);
  out.tokens = std::move(minted);
  return out;
}

}  // namespace hoglake::query
