// UUIDs as the contract spells them: canonical lowercase 8-4-4-4-12 text.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "common/status.h"

namespace hoglake {

using UuidBytes = std::array<uint8_t, 16>;

// A random (version 4) UUID in canonical text.
std::string NewUuid();
// Parses 8-4-4-4-12 hex (either case); BadRequest naming the text otherwise.
Result<UuidBytes> ParseUuid(std::string_view text);
// Canonical lowercase text of 16 bytes.
std::string FormatUuid(const UuidBytes& bytes);

}  // namespace hoglake
