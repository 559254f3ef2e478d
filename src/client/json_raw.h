// Slicing JSON text without re-encoding it: the raw text of an array's
// elements or of an object's member, and whitespace compaction. The SDK uses
// these to keep a model's `json` exactly as the server spelled it (numbers
// such as decimal bounds are never round-tripped through a double).
//
// Input must be well-formed JSON (callers parse it with rapidjson first);
// on malformed input the functions return what they could find and never
// read out of bounds. Member keys are compared as raw text between the
// quotes (the contract's keys never need escapes).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace hoglake::client::json_raw {

// `text` without whitespace outside strings.
std::string Compact(std::string_view text);

// The raw text of each element of the array `text` (empty when not an array).
std::vector<std::string_view> ArrayElements(std::string_view text);

// The raw value of member `key` of the object `text`; empty when absent.
std::string_view ObjectMember(std::string_view text, std::string_view key);

}  // namespace hoglake::client::json_raw
