// Text encodings of binary values: base64 (RFC 4648, standard alphabet, with
// padding, and the URL-safe form) and canonical UUID text; CSV field quoting.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "common/status.h"

namespace hoglake {

void AppendBase64(std::string_view bytes, std::string* out);
std::string Base64Encode(std::string_view bytes);
// Strict: only the standard alphabet, correct padding, no whitespace.
Result<std::string> Base64Decode(std::string_view text);
// The URL-safe alphabet ('-', '_') without padding (JWT segments, cursors);
// nullopt when the text does not decode.
std::string Base64UrlEncode(std::string_view bytes);
std::optional<std::string> Base64UrlDecode(std::string_view text);

// Appends the UTF-8 encoding of one Unicode code point.
void AppendUtf8(uint32_t code_point, std::string* out);

// Lowercase hex of bytes, and back (HexDecode accepts either case).
std::string HexEncode(std::string_view bytes);
Result<std::string> HexDecode(std::string_view hex);

// One CSV field (RFC 4180): as is, or in double quotes with quotes doubled
// when it holds a comma, a quote or a line break.
std::string CsvField(std::string_view text);

// 16 bytes → "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" (lowercase).
void AppendUuid(std::string_view sixteen_bytes, std::string* out);

}  // namespace hoglake
