#include "common/uuid.h"

#include <random>

#include "common/encoding.h"

namespace hoglake {

std::string NewUuid() {
  thread_local std::mt19937_64 rng([] {
    std::random_device device;
    std::seed_seq seed{device(), device(), device(), device()};
    return std::mt19937_64(seed);
  }());
  UuidBytes bytes;
  for (size_t i = 0; i < 16; i += 8) {
    const uint64_t r = rng();
    for (size_t k = 0; k < 8; ++k) bytes[i + k] = static_cast<uint8_t>(r >> (8 * k));
  }
  bytes[6] = static_cast<uint8_t>((bytes[6] & 0x0F) | 0x40);  // version 4
  bytes[8] = static_cast<uint8_t>((bytes[8] & 0x3F) | 0x80);  // RFC 4122 variant
  return FormatUuid(bytes);
}

Result<UuidBytes> ParseUuid(std::string_view text) {
  UuidBytes bytes{};
  auto hex = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  if (text.size() != 36) return BadRequest("'", text, "' is not a UUID");
  size_t out = 0;
  for (size_t i = 0; i < 36;) {
    if (i == 8 || i == 13 || i == 18 || i == 23) {
      if (text[i] != '-') return BadRequest("'", text, "' is not a UUID");
      ++i;
      continue;
    }
    const int hi = hex(text[i]);
    const int lo = hex(text[i + 1]);
    if (hi < 0 || lo < 0) return BadRequest("'", text, "' is not a UUID");
    bytes[out++] = static_cast<uint8_t>(hi << 4 | lo);
    i += 2;
  }
  return bytes;
}

std::string FormatUuid(const UuidBytes& bytes) {
  std::string out;
  AppendUuid(std::string_view(reinterpret_cast<const char*>(bytes.data()), 16), &out);
  return out;
}

}  // namespace hoglake
