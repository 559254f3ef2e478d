#include "columnar/text/json.h"

#include <rapidjson/error/en.h>
#include <rapidjson/memorystream.h>
#include <rapidjson/reader.h>

#include <cstring>

#include "columnar/text/values.h"
#include "common/json_text.h"
#include "common/status.h"

namespace hoglake::columnar::text::textimport {
namespace {

// "invalid JSON: Invalid value at offset 1" (rapidjson's text without its period).
std::string ParseErrorText(const rapidjson::ParseResult& result) {
  std::string_view text = rapidjson::GetParseError_En(result.Code());
  if (text.ends_with('.')) text.remove_suffix(1);
  return StrCat("invalid JSON: ", text, " at offset ", result.Offset());
}

}  // namespace

// Fills a JsonTree from rapidjson's SAX events.
class JsonTreeHandler : public rapidjson::BaseReaderHandler<rapidjson::UTF8<>, JsonTreeHandler> {
 public:
  explicit JsonTreeHandler(JsonTree* tree) : tree_(tree) {}

  bool Null() { return Leaf(JsonNode::kNull, nullptr, 0); }
  bool Bool(bool b) { return Leaf(b ? JsonNode::kTrue : JsonNode::kFalse, nullptr, 0); }
  bool RawNumber(const char* str, rapidjson::SizeType length, bool /*copy*/) {
    return Leaf(JsonNode::kNumber, str, length);
  }
  bool String(const char* str, rapidjson::SizeType length, bool /*copy*/) {
    if (!IsUtf8(std::string_view(str, length))) {
      tree_->error_ = "invalid JSON: a string is not valid UTF-8";
      return false;
    }
    return Leaf(JsonNode::kString, str, length);
  }
  bool Key(const char* str, rapidjson::SizeType length, bool copy) {
    return String(str, length, copy);
  }
  bool StartObject() { return Open(JsonNode::kObject); }
  bool EndObject(rapidjson::SizeType members) { return Close(members); }
  bool StartArray() { return Open(JsonNode::kArray); }
  bool EndArray(rapidjson::SizeType elements) { return Close(elements); }
  // Numbers arrive as RawNumber only (kParseNumbersAsStringsFlag).
  bool Default() { return false; }

 private:
  bool Leaf(JsonNode::Kind kind, const char* text, uint32_t length) {
    JsonNode node;
    node.kind = kind;
    node.text = text;
    node.length = length;
    node.end = static_cast<uint32_t>(tree_->nodes_.size()) + 1;
    tree_->nodes_.push_back(node);
    return true;
  }
  bool Open(JsonNode::Kind kind) {
    if (tree_->open_.size() >= static_cast<size_t>(kMaxJsonDepth)) {
      tree_->error_ = StrCat("invalid JSON: nesting deeper than ", kMaxJsonDepth);
      return false;
    }
    tree_->open_.push_back(static_cast<uint32_t>(tree_->nodes_.size()));
    JsonNode node;
    node.kind = kind;
    tree_->nodes_.push_back(node);
    return true;
  }
  bool Close(rapidjson::SizeType count) {
    JsonNode& node = tree_->nodes_[tree_->open_.back()];
    tree_->open_.pop_back();
    node.count = count;
    node.end = static_cast<uint32_t>(tree_->nodes_.size());
    return true;
  }

  JsonTree* tree_;
};

bool JsonTree::ParseInPlace(char* text, size_t length, std::string* why) {
  nodes_.clear();
  open_.clear();
  error_.clear();
  if (std::memchr(text, 0, length) != nullptr) {
    *why = "invalid JSON: NUL byte";
    return false;
  }
  constexpr unsigned kFlags = rapidjson::kParseInsituFlag | rapidjson::kParseIterativeFlag |
                              rapidjson::kParseNumbersAsStringsFlag |
                              rapidjson::kParseFullPrecisionFlag;
  rapidjson::InsituStringStream stream(text);
  rapidjson::Reader reader;
  JsonTreeHandler handler(this);
  const rapidjson::ParseResult result = reader.Parse<kFlags>(stream, handler);
  if (result.IsError()) {
    *why = !error_.empty() ? error_ : ParseErrorText(result);
    return false;
  }
  return true;
}

void JsonTree::AppendText(uint32_t index, std::string* out) const {
  const JsonNode& node = nodes_[index];
  switch (node.kind) {
    case JsonNode::kNull:
      out->append("null");
      return;
    case JsonNode::kFalse:
      out->append("false");
      return;
    case JsonNode::kTrue:
      out->append("true");
      return;
    case JsonNode::kNumber:
      out->append(node.view());
      return;
    case JsonNode::kString:
      AppendJsonString(node.view(), out);
      return;
    case JsonNode::kArray: {
      out->push_back('[');
      for (uint32_t e = index + 1; e < node.end; e = nodes_[e].end) {
        if (e != index + 1) out->push_back(',');
        AppendText(e, out);
      }
      out->push_back(']');
      return;
    }
    case JsonNode::kObject: {
      out->push_back('{');
      for (uint32_t k = index + 1; k < node.end; k = nodes_[k + 1].end) {
        if (k != index + 1) out->push_back(',');
        AppendJsonString(nodes_[k].view(), out);
        out->push_back(':');
        AppendText(k + 1, out);
      }
      out->push_back('}');
      return;
    }
  }
}

namespace {

// Accepts every event; refuses strings that are not UTF-8.
class ValidatingHandler
    : public rapidjson::BaseReaderHandler<rapidjson::UTF8<>, ValidatingHandler> {
 public:
  bool String(const char* str, rapidjson::SizeType length, bool /*copy*/) {
    if (IsUtf8(std::string_view(str, length))) return true;
    bad_utf8 = true;
    return false;
  }
  bool Key(const char* str, rapidjson::SizeType length, bool copy) {
    return String(str, length, copy);
  }
  bool bad_utf8 = false;
};

}  // namespace

bool IsJsonText(std::string_view text, std::string* why) {
  if (std::memchr(text.data(), 0, text.size()) != nullptr) {
    *why = "invalid JSON: NUL byte";
    return false;
  }
  rapidjson::MemoryStream stream(text.data(), text.size());
  rapidjson::Reader reader;
  ValidatingHandler handler;
  const rapidjson::ParseResult result =
      reader.Parse<rapidjson::kParseIterativeFlag>(stream, handler);
  if (!result.IsError()) return true;
  *why = handler.bad_utf8 ? "invalid JSON: a string is not valid UTF-8" : ParseErrorText(result);
  return false;
}

std::string_view JsonKindName(JsonNode::Kind kind) {
  switch (kind) {
    case JsonNode::kNull:
      return "null";
    case JsonNode::kFalse:
    case JsonNode::kTrue:
      return "a JSON boolean";
    case JsonNode::kNumber:
      return "a JSON number";
    case JsonNode::kString:
      return "a JSON string";
    case JsonNode::kArray:
      return "a JSON array";
    case JsonNode::kObject:
      return "a JSON object";
  }
  return "JSON";
}

}  // namespace hoglake::columnar::text::textimport
