// A flat, reusable JSON tree for text import: one JSON lines row or one
// nested CSV cell, parsed in place (rapidjson, in situ, numbers kept as their
// exact text) without per-value allocations. Internal to text import.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace hoglake::columnar::text::textimport {

// Deeper nesting is refused (the parser is iterative; this bounds the
// recursion of whoever walks the tree).
inline constexpr int kMaxJsonDepth = 128;

struct JsonNode {
  enum Kind : uint8_t { kNull, kFalse, kTrue, kNumber, kString, kArray, kObject };
  Kind kind = kNull;
  uint32_t count = 0;          // array elements / object members
  uint32_t end = 0;            // index one past this node's subtree
  const char* text = nullptr;  // number: its exact text; string/key: decoded bytes
  uint32_t length = 0;

  std::string_view view() const { return std::string_view(text, length); }
};

// Nodes in document order. An array's elements follow it, each found at the
// previous one's `end`; an object's members follow it as a key node (kString)
// then the value's subtree, the next key at the value's `end`.
class JsonTree {
 public:
  // Parses text[0, length) in place: the bytes are overwritten, and
  // text[length] must be '\0' (the caller's terminator). Strings must be
  // valid UTF-8 (escapes included); NUL bytes outside strings and trailing
  // content are refused. Nodes point into `text`, valid while it is. On
  // failure returns false with the reason in *why ("invalid JSON: ... at
  // offset 7").
  bool ParseInPlace(char* text, size_t length, std::string* why);

  const JsonNode& node(uint32_t index) const { return nodes_[index]; }
  uint32_t size() const { return static_cast<uint32_t>(nodes_.size()); }

  // Appends node `index` (and its subtree) as compact JSON text.
  void AppendText(uint32_t index, std::string* out) const;

 private:
  friend class JsonTreeHandler;
  std::vector<JsonNode> nodes_;
  std::vector<uint32_t> open_;  // indexes of the containers being filled
  std::string error_;
};

// Whether `text` is one complete JSON value (strict RFC 8259, UTF-8), with
// the reason in *why when not.
bool IsJsonText(std::string_view text, std::string* why);

// The JSON type of a node for messages: "a JSON object", "a JSON number", ...
std::string_view JsonKindName(JsonNode::Kind kind);

}  // namespace hoglake::columnar::text::textimport
