#include "storage/xml_text.h"

#include <cstdint>

#include "common/encoding.h"

namespace hoglake {
namespace {

// Parses the digits of a numeric character reference ("65" or "x41").
std::optional<uint32_t> ParseCharRef(std::string_view ref) {
  int base = 10;
  if (!ref.empty() && (ref[0] == 'x' || ref[0] == 'X')) {
    base = 16;
    ref.remove_prefix(1);
  }
  if (ref.empty() || ref.size() > 8) return std::nullopt;
  uint32_t value = 0;
  for (char c : ref) {
    int digit;
    if (c >= '0' && c <= '9') {
      digit = c - '0';
    } else if (base == 16 && c >= 'a' && c <= 'f') {
      digit = c - 'a' + 10;
    } else if (base == 16 && c >= 'A' && c <= 'F') {
      digit = c - 'A' + 10;
    } else {
      return std::nullopt;
    }
    value = value * base + digit;
    if (value > 0x10FFFF) return std::nullopt;
  }
  if (value == 0 || (value >= 0xD800 && value <= 0xDFFF)) return std::nullopt;
  return value;
}

}  // namespace

Result<std::vector<std::string_view>> XmlElements(std::string_view xml, std::string_view tag) {
  std::vector<std::string_view> out;
  const std::string open = "<" + std::string(tag);
  const std::string close = "</" + std::string(tag) + ">";
  size_t pos = 0;
  while ((pos = xml.find(open, pos)) != std::string_view::npos) {
    size_t after = pos + open.size();
    if (after >= xml.size()) break;
    char next = xml[after];
    if (next != '>' && next != '/' && next != ' ' && next != '\t' && next != '\n' && next != '\r') {
      pos = after;  // a longer name, e.g. <KeyCount> when looking for <Key>
      continue;
    }
    size_t tag_end = xml.find('>', after);
    if (tag_end == std::string_view::npos) {
      return InvalidData("XML element <", tag, "> has an unterminated start tag");
    }
    if (xml[tag_end - 1] == '/') {  // <tag/>
      out.emplace_back();
      pos = tag_end + 1;
      continue;
    }
    size_t end = xml.find(close, tag_end + 1);
    if (end == std::string_view::npos) {
      return InvalidData("XML element <", tag, "> is not closed");
    }
    out.push_back(xml.substr(tag_end + 1, end - tag_end - 1));
    pos = end + close.size();
  }
  return out;
}

std::optional<std::string> XmlFirstText(std::string_view xml, std::string_view tag) {
  auto elements = XmlElements(xml, tag);
  if (!elements.ok() || elements->empty()) return std::nullopt;
  auto text = XmlDecode(elements->front());
  if (!text.ok()) return std::nullopt;
  return std::move(text).value();
}

Result<std::string> XmlDecode(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  size_t i = 0;
  while (i < text.size()) {
    char c = text[i];
    if (c != '&') {
      out.push_back(c);
      ++i;
      continue;
    }
    size_t semi = text.find(';', i);
    if (semi == std::string_view::npos || semi - i > 12) {
      return InvalidData("XML text has an unterminated entity at byte ", i);
    }
    std::string_view name = text.substr(i + 1, semi - i - 1);
    if (name == "amp") {
      out.push_back('&');
    } else if (name == "lt") {
      out.push_back('<');
    } else if (name == "gt") {
      out.push_back('>');
    } else if (name == "quot") {
      out.push_back('"');
    } else if (name == "apos") {
      out.push_back('\'');
    } else if (!name.empty() && name[0] == '#') {
      auto cp = ParseCharRef(name.substr(1));
      if (!cp) return InvalidData("XML text has a bad character reference &", name, ";");
      AppendUtf8(*cp, &out);
    } else {
      return InvalidData("XML text has an unknown entity &", name, ";");
    }
    i = semi + 1;
  }
  return out;
}

std::string XmlEscape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        out.push_back(c);
    }
  }
  return out;
}

}  // namespace hoglake
